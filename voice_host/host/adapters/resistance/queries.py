"""The Resistance host's answers to universal commands: score, status, board, tried."""

from __future__ import annotations

from voice_host.games import GameState
from voice_host.games.resistance import Phase, ResistanceState
from voice_host.host.adapters.resistance.words import ResistanceWords
from voice_host.host.core.adapter import narrow
from voice_host.host.core.values import Line


class Queries(ResistanceWords):
    """Where the game stands, in words."""

    def score(self, state: GameState) -> list[Line]:
        s = narrow(state, ResistanceState)
        lines = [self._line("score", successes=s.successes, failures=s.failures)]
        if s.rejections and not s.is_terminal():
            lines.append(self._line("score_rejections", count=s.rejections))
        return lines

    def status(self, state: GameState) -> list[Line]:
        s = narrow(state, ResistanceState)
        phase = s.phase()
        leader = s.leader or ""
        team = self._names(s.proposed_team or ())
        lines: list[Line] = []
        if phase == Phase.SETUP:
            return [self._line("status_setup")]
        if phase == Phase.TEAM and self._night_pending(s):
            return [self._line("status_night")]
        if phase == Phase.TEAM:
            lines.append(self._line("status_team", mission=s.mission, leader=leader,
                                    size=s.team_size()))
            if s.two_sabotages_needed():
                lines.append(self._line("two_needed"))
        elif phase == Phase.VOTE:
            lines.append(self._line("status_vote", leader=leader, mission=s.mission, team=team))
            if self.count_votes:
                lines.append(self._line("status_count", leader=leader))
            else:
                lines.append(self._line("status_waiting",
                                        players=self._names(self.voting_order(s))))
        elif phase == Phase.MISSION and self.companion:
            lines.append(self._line("mission_companion_waiting",
                                    players=self._names(s.current_players())))
        elif phase == Phase.MISSION:
            lines.append(self._line("status_mission", mission=s.mission, team=team))
        elif phase == Phase.ACCUSE:
            lines.append(self._line("status_accuse"))
        elif phase == Phase.ANSWER:
            lines.append(self._line("status_answer", player=s.accused or ""))
        else:
            return [self._line("status_over"), *self.score(s)]
        if s.rejections and phase in (Phase.TEAM, Phase.VOTE):
            lines.append(self._line("status_rejections", count=s.rejections))
        return lines

    def board(self, state: GameState) -> list[Line]:
        s = narrow(state, ResistanceState)
        lines: list[Line] = []
        for m in s.mission_history:
            sab = (self._text("sabotages_0") if m.sabotages == 0
                   else self._text("sabotages_1") if m.sabotages == 1
                   else self._text("sabotages_n", count=m.sabotages))
            lines.append(self._line("board_mission_success" if m.succeeded
                                    else "board_mission_failed", mission=m.mission,
                                    leader=m.leader, team=self._names(m.team), sabotages=sab))
        if not s.is_terminal() and s.phase() not in (Phase.ACCUSE, Phase.ANSWER):
            played = {m.mission for m in s.mission_history}
            for mission in range(s.mission, 6):
                if mission in played:
                    continue
                key = ("board_mission_next_two" if s.two_sabotages_needed(mission)
                       else "board_mission_next")
                lines.append(self._line(key, mission=mission, size=s.team_size(mission)))
            lines.append(self._line("board_rejections", count=s.rejections))
            lines.extend(self.tried(s))
            if s.proposed_team:
                lines.append(self._line("board_current_team", leader=s.leader,
                                        team=self._names(s.proposed_team)))
        return lines

    def tried(self, state: GameState) -> list[Line]:
        """The teams rejected so far for the current mission."""
        s = narrow(state, ResistanceState)
        rejected = [self._text("board_rejected_team", leader=v.leader, team=self._names(v.team))
                    for v in s.vote_history if v.mission == s.mission and not v.approved]
        if not rejected:
            return [] if s.proposed_team else [self._line("board_no_teams")]
        return [self._line("board_rejected_teams", teams="; ".join(rejected))]
