"""Resistance on the television: besides the public view, every role once the game is over
(the players turn their cards over; in table mode the engine knows only the spies who
revealed themselves and the accused's answer, which the public view already has)."""

from __future__ import annotations

from typing import Any

from voice_host.games import GameState
from voice_host.games.resistance import ResistanceState


def facts(state: GameState) -> dict[str, Any]:
    if not isinstance(state, ResistanceState) or not state.is_terminal():
        return {}
    roles = [{"player": p, "role": role.value} for p in state.players
             if (role := state.role_of(p)) is not None]
    return {"roles": roles}
