"""Codenames' voice: set-up, clue and guess prompts, narration of every result, and demo
players, one module per concern:

* :mod:`.words` — how teams, colours, numbers and refusals are said (``refusal_words``);
* :mod:`.prompts` — what to ask now, and the words to listen for;
* :mod:`.interpret` — an utterance to an action, or what to answer;
* :mod:`.narrate` — the opening, events in words, the key to the spymasters;
* :mod:`.queries` — score, board, status, the clues so far, actions in words;
* :mod:`.bots` — demo players (``demo`` and tests);
* :mod:`.adapter` — ``new_game`` and the :class:`Adapter` that puts them together.

Two ways to play (option ``deal``):

* ``table`` (default) — the group uses a physical key card. The host deals and reads the 25
  words (the players lay them out in the order read) and names the starting team: the
  ``first`` option when given, otherwise the host draws it and says so, and the spymasters
  pick a key card whose edge lights show that colour. After each touched word the host asks
  the active spymaster for its colour.
* ``host`` — the host deals the grid *and* the key. The key goes to the two spymasters only,
  as private lines (their companion page, or a file each), listing the words of each colour
  and the grid with its colours.

The clue is open vocabulary: the matcher returns the word as heard and the engine's
``clue_problem`` decides; a refused clue is answered with the reason, in the game's language,
and changes nothing (with ``invalid_clue="penalty"`` it is played with the official penalty
after a confirmation). Operatives may guess any uncovered word or pass after one guess; every
other refusal is the engine's, said by the session from ``[codenames.refusal]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from voice_host.games.codenames import CodenamesState
from voice_host.host.adapters.codenames import phone, prompts, table
from voice_host.host.adapters.codenames.adapter import Adapter, new_game
from voice_host.host.adapters.codenames.bots import bot_utterance
from voice_host.host.adapters.codenames.words import GAME, refusal_words
from voice_host.host.core.options import GameOptions, option
from voice_host.host.core.registry import GameRegistration
from voice_host.wording import Term


@dataclass(frozen=True)
class CodenamesOptions(GameOptions):
    """Codenames' options (see :mod:`voice_host.host.core.options`)."""

    title: ClassVar[Term] = Term("game.codenames", "Codenames")

    red: tuple[str, ...] = option((), "red team, spymaster first: A,B", required=True)
    blue: tuple[str, ...] = option((), "blue team, spymaster first: C,D", required=True)
    first: str | None = option(None, "starting team (table mode: as the key card shows)",
                               choices=("red", "blue"))
    words: str | None = option(None, "word list (default: the game's language)",
                               choices=("en", "fr"))
    invalid_clue: str = option("refuse", "refuse an invalid clue, or apply the official "
                               "penalty", choices=("refuse", "penalty"))

    def __post_init__(self) -> None:
        # a French game deals French words unless --words says otherwise
        if self.words is None:
            object.__setattr__(self, "words", self.lang)


def seat_teams(names: Sequence[str]) -> dict[str, Any]:
    """Two teams from a seating list: the first half (rounded up) red, spymasters first."""
    half = (len(names) + 1) // 2
    return {"red": list(names[:half]), "blue": list(names[half:])}


REGISTRATION = GameRegistration(
    page_script=Path(__file__).with_name("page.js"),
    table_script=Path(__file__).with_name("table.js"), table_facts=table.facts,
    state_class=CodenamesState, new_game=new_game, adapter=Adapter,
    refusal_words=refusal_words, bots=bot_utterance, companion=phone,
    options=CodenamesOptions,
    seat=seat_teams,
    slot_lists=prompts.slot_lists,
    demo_seats={"red": ["Hannah", "Thomas"], "blue": ["Sophie", "Oliver"]},
)

__all__ = ["GAME", "REGISTRATION", "Adapter", "CodenamesOptions", "bot_utterance", "new_game",
           "refusal_words", "seat_teams"]
