"""Resistance states reached by legal moves."""

from __future__ import annotations

from voice_host.games.resistance import (
    ProposeTeam,
    RecordVoteCount,
    ReportSabotages,
    ResistanceState,
)


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
