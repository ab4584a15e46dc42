"""The Resistance host's answers to universal commands: score, status, board, tried."""

from __future__ import annotations

from voice_host.games import GameState
from voice_host.games.resistance import Phase, ResistanceState
from voice_host.host.adapters.resistance.words import ResistanceWords
from voice_host.host.core.adapter import narrow
from voice_host.host.core.values import Line


def score(w: ResistanceWords, state: GameState) -> list[Line]:
    s = narrow(state, ResistanceState)
    lines = [w.line("score", successes=s.successes, failures=s.failures)]
    if s.rejections and not s.is_terminal():
        lines.append(w.line("score_rejections", count=s.rejections))
    return lines


def status(w: ResistanceWords, state: GameState) -> list[Line]:
    s = narrow(state, ResistanceState)
    phase = s.phase()
    leader = s.leader or ""
    team = w.names(s.proposed_team or ())
    lines: list[Line] = []
    if phase == Phase.SETUP:
        return [w.line("status_setup")]
    if phase == Phase.TEAM and w.night_pending(s):
        return [w.line("status_night")]
    if phase == Phase.TEAM:
        lines.append(w.line("status_team", mission=s.mission, leader=leader,
                            size=s.team_size()))
        if s.two_sabotages_needed():
            lines.append(w.line("two_needed"))
    elif phase == Phase.VOTE:
        lines.append(w.line("status_vote", leader=leader, mission=s.mission, team=team))
        if w.count_votes:
            lines.append(w.line("status_count", leader=leader))
        else:
            lines.append(w.line("status_waiting",
                                players=w.names(w.voting_order(s))))
    elif phase == Phase.MISSION and w.companion:
        lines.append(w.line("mission_companion_waiting",
                            players=w.names(s.current_players())))
    elif phase == Phase.MISSION:
        lines.append(w.line("status_mission", mission=s.mission, team=team))
    elif phase == Phase.ACCUSE:
        lines.append(w.line("status_accuse"))
    elif phase == Phase.ANSWER:
        lines.append(w.line("status_answer", player=s.accused or ""))
    else:
        return [w.line("status_over"), *score(w, s)]
    if s.rejections and phase in (Phase.TEAM, Phase.VOTE):
        lines.append(w.line("status_rejections", count=s.rejections))
    return lines


def board(w: ResistanceWords, state: GameState) -> list[Line]:
    s = narrow(state, ResistanceState)
    lines: list[Line] = []
    for m in s.mission_history:
        sab = (w.text("sabotages_0") if m.sabotages == 0
               else w.text("sabotages_1") if m.sabotages == 1
               else w.text("sabotages_n", count=m.sabotages))
        lines.append(w.line("board_mission_success" if m.succeeded
                            else "board_mission_failed", mission=m.mission,
                            leader=m.leader, team=w.names(m.team), sabotages=sab))
    if not s.is_terminal() and s.phase() not in (Phase.ACCUSE, Phase.ANSWER):
        played = {m.mission for m in s.mission_history}
        for mission in range(s.mission, 6):
            if mission in played:
                continue
            key = ("board_mission_next_two" if s.two_sabotages_needed(mission)
                   else "board_mission_next")
            lines.append(w.line(key, mission=mission, size=s.team_size(mission)))
        lines.append(w.line("board_rejections", count=s.rejections))
        lines.extend(tried(w, s))
        if s.proposed_team:
            lines.append(w.line("board_current_team", leader=s.leader,
                                team=w.names(s.proposed_team)))
    return lines


def tried(w: ResistanceWords, state: GameState) -> list[Line]:
    """The teams rejected so far for the current mission."""
    s = narrow(state, ResistanceState)
    rejected = [w.text("board_rejected_team", leader=v.leader, team=w.names(v.team))
                for v in s.vote_history if v.mission == s.mission and not v.approved]
    if not rejected:
        return [] if s.proposed_team else [w.line("board_no_teams")]
    return [w.line("board_rejected_teams", teams="; ".join(rejected))]
