"""The Resistance recap at the end of a game: each role revealed with one line on what its
player did (the missions they went on, the sabotaged ones), and the double agent's fate."""

from __future__ import annotations

from voice_host.games import GameState
from voice_host.games.resistance import ResistanceState, Role
from voice_host.host.adapters.resistance.words import ResistanceWords
from voice_host.host.core.adapter import narrow
from voice_host.host.core.values import Line


def recap(w: ResistanceWords, state: GameState) -> list[Line]:
    s = narrow(state, ResistanceState)
    if not s.is_terminal():
        return []
    failed = [m for m in s.mission_history if not m.succeeded]
    lines = [w.line("recap.intro")]
    roles = {p: s.role_of(p) for p in s.players}
    if all(role is not None for role in roles.values()):
        for player in s.players:
            lines.append(_role_line(w, s, player, roles[player]))
    else:  # the players dealt their own cards: the host tells what it saw
        for mission in failed:
            lines.append(w.line("recap.sabotaged", mission=mission.mission,
                                count=mission.sabotages, team=w.names(mission.team)))
        if not failed and s.mission_history:
            lines.append(w.line("recap.no_sabotage"))
    outcome = s.outcome()
    if s.accused is not None and outcome is not None:
        found = outcome.reason == "double_agent_found"
        lines.append(w.line("recap.accused_found" if found else "recap.accused_missed",
                            player=s.accused))
    return lines


def _role_line(w: ResistanceWords, s: ResistanceState, player: str,
               role: Role | None) -> Line:
    went = [m for m in s.mission_history if player in m.team]
    failed = [m.mission for m in went if not m.succeeded]
    missions = w.narrator.names([str(m.mission) for m in went])
    if role is Role.SPY:
        if failed:
            return w.line("recap.spy_sabotaged", player=player, count=len(failed),
                          missions=w.narrator.names([str(n) for n in failed]))
        if went:
            return w.line("recap.spy_hidden", player=player, count=len(went),
                          missions=missions)
        return w.line("recap.spy_idle", player=player)
    key = "double_agent" if role is Role.DOUBLE_AGENT else "hero"
    if went:
        return w.line(f"recap.{key}_went", player=player, count=len(went), missions=missions)
    return w.line(f"recap.{key}_idle", player=player)
