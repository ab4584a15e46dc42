"""Resistance games set up through the host adapter and moved on by legal moves."""

from __future__ import annotations

import random
from typing import Any

from voice_host.games.resistance import (
    ProposeTeam,
    RecordVoteCount,
    ReportSabotages,
    ResistanceState,
)
from voice_host.host.adapters import new_game
from voice_host.host.adapters.resistance import Adapter


def play_missions(state: ResistanceState, missions: int) -> None:
    """Plays ``missions`` whole missions on a set-up table-deal game: the leader proposes
    the first legal team, the table approves it, and the missions succeed and fail in turn
    (success first), so that no side has won by mission 5."""
    for number in range(missions):
        leader = state.current_players()[0]
        state.apply(next(a for a in state.legal_actions(leader) if isinstance(a, ProposeTeam)))
        state.apply(RecordVoteCount(leader, len(state.players)))
        fail = 2 if state.two_sabotages_needed() else 1
        state.apply(ReportSabotages(leader, 0 if number % 2 == 0 else fail))


def make_state(n: int = 5, *, deal: str = "table", double_agent: bool = True,
               first: str = "Ada") -> tuple[ResistanceState, Adapter]:
    """A set-up game (the roles dealt, the first leader chosen) and its host adapter."""
    names = ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo"][:n]
    opts: dict[str, Any] = {"deal": deal, "lang": "en", "players": names,
                            "double_agent": double_agent, "first": first, "votes": "together",
                            "seed": 7}
    state = new_game("resistance", opts)
    assert isinstance(state, ResistanceState)
    adapter = Adapter(opts)
    state.apply(adapter.chance(state, random.Random(3)))
    return state, adapter
