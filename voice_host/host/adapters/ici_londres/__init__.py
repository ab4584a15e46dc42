"""Ici Londres, hosted: the broadcast, the Speaker's recorded sentence, turn prompts by name in
each transmission type, hit/miss questions at the table, scoring and role rotation.

One round, as the session loop sees it:

1. chance: the Speaker draws (host mode: the engine draws and the two icons go to the Speaker
   as a PRIVATE line; table mode: the Speaker draws physical cards).
2. ``prompt`` returns None once: ``host_step`` airs the broadcast — tuning static, the V motif,
   "Ici Londres, les Français parlent aux Français" in the French radio voice.
3. A RECORD prompt: the Speaker says the coded sentence; ``on_recording`` answers "je répète"
   and plays the recording back through the radio effect (typed play: repeats the text).
4. Guessing prompts in the round's transmission type (table mode: after each icon named the
   Speaker says hit or miss); ``on_timeout`` turns a countdown run out into ``TimeUp``.

One module per concern: ``words`` (the words and the host's facts every part shares),
``prompts`` (what to ask), ``interpret`` (what was said, as a move), ``narrate`` (what the host
says of its own accord), ``queries`` (score, status, board, tried), ``refusals`` (the rules'
refusals in the game's words) and ``bots`` (the demo's players). :class:`Adapter` joins them
into the session's :class:`~voice_host.host.core.adapter.GameAdapter`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from voice_host.games.base import Deal, find_player
from voice_host.games.ici_londres import IciLondresState, Transmission
from voice_host.host.adapters.ici_londres import (
    narrate,
    phone,
    prompts,
    queries,
    recap,
    table,
)
from voice_host.host.adapters.ici_londres.bots import bot_utterance, coded_sentence
from voice_host.host.adapters.ici_londres.interpret import (
    decide,
    slot_lists,
    slot_values,
    take_recording,
    time_up,
)
from voice_host.host.adapters.ici_londres.narrate import describe as describe_move
from voice_host.host.adapters.ici_londres.refusals import refusal_words
from voice_host.host.adapters.ici_londres.words import IciLondresWords
from voice_host.host.core.options import GameOptions, option
from voice_host.host.core.registry import GameRegistration
from voice_host.wording import Term

MAX_ROUNDS = 48
"""Most rounds a game may have (four times round a table of twelve)."""


@dataclass(frozen=True)
class IciLondresOptions(GameOptions):
    """Ici Londres' options (see :mod:`voice_host.host.core.options`)."""

    title: ClassVar[Term] = Term("game.ici-londres", "Ici Londres")

    players: tuple[str, ...] = option((), "names in seating order, A,B,C", required=True)
    first: str | None = option(None, "first Speaker (default: the first name)")
    mode: str = option("fragments", "first transmission type",
                       choices=("fragments", "competing", "double-zero", "countdown"))
    rounds: int | None = option(None, "rounds (default 12, 10 with 5 players)", low=1,
                                high=MAX_ROUNDS)


def new_game(options: dict[str, Any]) -> IciLondresState:
    """A new game from the JSON-able options, every option present (the registry fills in
    the defaults of the registration below)."""
    players = [str(p) for p in options["players"]]
    first = options.get("first")
    if first:  # as the game spells it; a name nobody has is refused by the engine
        first = find_player([p.strip() for p in players], first) or str(first)
    return IciLondresState.new(players, deal=Deal(options["deal"]),
                               mode=Transmission(options["mode"]),
                               rounds=options["rounds"], first_speaker=first)


class Adapter(IciLondresWords):
    """The game's voice for the session loop (see ``host.adapter.GameAdapter``): the shared
    words and facts of :class:`IciLondresWords`, each protocol method handed to its
    concern's module."""

    # each method of the session's protocol is its concern module's function
    opening = narrate.opening
    host_step = narrate.broadcast
    narrate = narrate.events
    describe = describe_move
    prompt = prompts.ask
    slot_values = slot_values
    interpret = decide
    on_recording = take_recording
    on_timeout = time_up
    score = queries.score
    recap = recap.recap
    status = queries.status
    board = queries.board
    tried = queries.tried


REGISTRATION = GameRegistration(
    page_script=Path(__file__).with_name("page.js"),
    table_script=Path(__file__).with_name("table.js"), table_facts=table.facts,
    state_class=IciLondresState, new_game=new_game, adapter=Adapter,
    refusal_words=refusal_words, bots=bot_utterance, companion=phone,
    options=IciLondresOptions,
    demo_seats={"players": ["Hannah", "Thomas", "Sophie", "Oliver"]},
    slot_lists=slot_lists,
)

__all__ = ["REGISTRATION", "Adapter", "IciLondresOptions", "bot_utterance", "coded_sentence",
           "new_game", "refusal_words"]
