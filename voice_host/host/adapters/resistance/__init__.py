"""Resistance with a double agent: the host's voice for the rules engine.

Table mode (default): players hold physical cards; the host knows no role, asks the leader
for the number of sabotage cards a mission showed and, after the spies' accusation, asks the
accused whether they were the double agent.

Host mode (``--deal host``): the engine deals the roles and the host gives each player theirs
privately (a file, or the companion page). Without the companion pages the missions are still
played with physical action cards: the leader shuffles the played cards and says how many
sabotages there were. The host turns that count into the engine's secret mission cards
(sabotages given to spies on the team, in seat order — who played which card is never known
or said), and refuses a count the dealt roles cannot produce without saying why in a way that
names anyone. With the companion pages each team member picks a card on their own page.

Votes are simultaneous, as the rules want: when a team is proposed the host counts "three,
two, one, vote!" and everyone shows a thumb at once (or votes on their phone with the
companion page). Then the host takes the votes in any order, one player's ("Ada yes", "Ada:
yes") or many in one sentence ("Ada and Ben yes, Cleo no", "everyone yes", "all yes except
Dan": :mod:`.votes`), repeats back what it took with who is still to vote, and announces
them all together with the result. Right after the count-in it asks the whole table, so a
plain "yes" then is nobody's vote; after that a plain "yes" is the vote of the player its
prompt names (the first still to vote, in seating order from the leader). A vote is an
ordinary engine action (``CastVote``), whoever delivers it: speech, a script, or a seat's
page through the companion channel's queue; a sentence's votes are one move (one undo
step). With ``options["votes"] == "count"`` the leader says how many voted yes instead.

The host is split by concern: ``prompts`` (what to ask), ``interpret`` (what was said ->
a move; ``votes`` reads a sentence of several votes), ``narrate`` (events, opening, night,
secret roles, moves in words), ``queries`` (score, status, board), ``bots`` (demo players,
outside the adapter) and ``phone`` (the companion page's choices). Every rule is the
engine's: its refusals are said by :func:`voice_host.host.core.refusals.refusal_text` from the
``[resistance.refusal]`` tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from voice_host.games import GameState, IllegalAction
from voice_host.games.base import Deal, find_player
from voice_host.games.resistance import ResistanceState
from voice_host.host.adapters.resistance import (
    bots,
    interpret,
    narrate,
    phone,
    prompts,
    queries,
    recap,
    table,
)
from voice_host.host.adapters.resistance.narrate import NIGHT_PAUSES
from voice_host.host.adapters.resistance.words import GAME, ResistanceWords
from voice_host.host.core.messages import OptionError
from voice_host.host.core.narration import Narrator
from voice_host.host.core.options import GameOptions, option
from voice_host.host.core.registry import GameRegistration
from voice_host.wording import Term


@dataclass(frozen=True)
class ResistanceOptions(GameOptions):
    """Resistance's options (see :mod:`voice_host.host.core.options`)."""

    title: ClassVar[Term] = Term("game.resistance", "Resistance")

    players: tuple[str, ...] = option((), "names in seating order, A,B,C,D,E", required=True)
    double_agent: bool = option(True, "the simpler variant", flag="--no-double-agent")
    first: str | None = option(None, "first leader (default: random)")
    votes: str = option("together", "together: on the host's count everyone shows their vote "
                        "at once, then says it, in any order; count: the same show of thumbs, "
                        "and the leader says how many voted yes", choices=("together", "count"))
    night_pause: float = option(5.0, "seconds each look lasts in the night phase", low=1.0,
                                high=30.0)
    night: str = option("auto", "the night phase: full, every look with eyes closed; short, "
                        "eyes closed and open again only, as the phones told each player what "
                        "they know; auto, short when the host deals to the phones",
                        choices=("auto", "full", "short"))

    @classmethod
    def upgrade(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Games saved in the old one-by-one vote mode (``votes: names``) vote together."""
        upgraded = dict(data)
        if upgraded.get("votes") == "names":
            upgraded["votes"] = "together"
        return upgraded


def new_game(options: dict[str, Any]) -> GameState:
    """A fresh game from the JSON-able options, every option present (the registry fills
    in the defaults of the registration below); SetupError for bad players or first
    leader."""
    players = list(options.get("players") or [])
    state = ResistanceState.new(players, deal=Deal(options["deal"]),
                                double_agent=bool(options["double_agent"]))
    first = options.get("first")
    if first and find_player(state.players, first) is None:
        raise OptionError("options.first_leader", first=str(first))
    return state


class Adapter(ResistanceWords):
    """The Resistance host (see the module docstring): the words of :class:`ResistanceWords`,
    and each protocol method its concern module's function."""

    opening = narrate.opening
    chance = narrate.chance
    host_step = narrate.host_step
    describe = narrate.describe
    narrate = narrate.narrate
    prompt = prompts.prompt
    slot_values = prompts.slot_values
    own_move = interpret.own_move
    interpret = interpret.interpret
    score = queries.score
    status = queries.status
    board = queries.board
    tried = queries.tried
    recap = recap.recap


def refusal_words(narrator: Narrator, error: IllegalAction) -> dict[str, Any]:
    """This game's refusal parameters in words: none needs the game's own words (they are
    player names, joined by the narrator, and numbers)."""
    return {}


REGISTRATION = GameRegistration(
    page_script=Path(__file__).with_name("page.js"),
    table_script=Path(__file__).with_name("table.js"), table_facts=table.facts,
    state_class=ResistanceState, new_game=new_game, adapter=Adapter,
    refusal_words=refusal_words, bots=bots.bot_utterance, companion=phone,
    options=ResistanceOptions,
    demo_seats={"players": ["Hannah", "Thomas", "Sophie", "Oliver", "Emma"]},
)

__all__ = ["GAME", "NIGHT_PAUSES", "REGISTRATION", "Adapter", "ResistanceOptions", "new_game",
           "refusal_words"]
