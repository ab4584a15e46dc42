"""What the Resistance host asks now: one prompt per phase, with its reminder."""

from __future__ import annotations

from voice_host.games import GameState
from voice_host.games.resistance import Phase, ResistanceState
from voice_host.host.adapters.resistance.words import ResistanceWords
from voice_host.host.core.adapter import Prompt, narrow
from voice_host.intent import SlotValues


class Prompts(ResistanceWords):
    """The questions of each phase (who is expected, what to remind them)."""

    def slot_values(self, state: GameState) -> SlotValues:
        return SlotValues(players=tuple(state.players))

    def prompt(self, state: GameState) -> Prompt | None:
        s = narrow(state, ResistanceState)
        phase = s.phase()
        leader = s.leader or ""
        n_votes = len(s.vote_history)
        if phase == Phase.TEAM:
            if self._night_pending(s):
                return None
            size = s.team_size()
            lines = [self._line("team_prompt", leader=leader, mission=s.mission, size=size,
                                variant=self._variant(s))]
            reminder = [self._line("team_reminder", leader=leader, mission=s.mission, size=size)]
            if s.two_sabotages_needed():
                lines.append(self._line("two_needed"))
                reminder.append(self._line("two_needed"))
            return Prompt(lines=tuple(lines), phase="team", expected=(leader,),
                          key=f"team|{s.mission}|{n_votes}", reminder=tuple(reminder))
        if phase == Phase.VOTE:
            if self.count_votes:
                return Prompt(
                    lines=(self._line("count_prompt", leader=leader),),
                    phase=self.count_phase(), expected=(leader,), key=f"count|{n_votes}",
                    reminder=(self._line("count_reminder", leader=leader,
                                         players=len(s.players)),))
            order = self.voting_order(s)
            voter = order[0]
            still = self._names(order)
            if not s.votes:
                line = self._line("vote_tell", player=voter)
            elif len(order) == 1:
                line = self._line("vote_last", player=voter)
            else:
                line = self._line("vote_waiting", players=still, player=voter)
            return Prompt(lines=(line,), phase="vote", expected=tuple(order),
                          key=f"vote|{n_votes}|{len(s.votes)}",
                          reminder=(self._line("vote_reminder", players=still,
                                               player=voter),))
        if phase == Phase.MISSION and self.companion:
            waiting = s.current_players()
            lines = [self._line("mission_companion", team=self._names(s.proposed_team or ()))]
            if s.two_sabotages_needed():
                lines.append(self._line("two_needed"))
            return Prompt(lines=tuple(lines), phase="mission", expected=tuple(waiting),
                          key=f"mission|{s.mission}",
                          reminder=(self._line("mission_companion_waiting",
                                               players=self._names(waiting)),))
        if phase == Phase.MISSION:
            team = s.proposed_team or ()
            lines = [self._line("mission_table", team=self._names(team), leader=leader)]
            if s.two_sabotages_needed():
                lines.append(self._line("two_needed"))
            lines.append(self._line("mission_prompt", leader=leader))
            expected = (leader, *[p for p in team if p != leader])
            return Prompt(lines=tuple(lines), phase="mission", expected=expected,
                          key=f"mission|{s.mission}",
                          reminder=(self._line("mission_reminder", leader=leader),))
        if phase == Phase.ACCUSE:
            spies = s.spies()
            expected = tuple(spies) if spies else tuple(s.players)
            example = next((p for p in s.players if p not in (spies or ())), s.players[0])
            return Prompt(lines=(self._line("accuse_prompt"),), phase="accuse",
                          expected=expected, key="accuse",
                          reminder=(self._line("accuse_reminder", example=example),))
        if phase == Phase.ANSWER:
            accused = s.accused or ""
            return Prompt(lines=(self._line("answer_prompt", player=accused),), phase="answer",
                          expected=(accused,), key="answer",
                          reminder=(self._line("answer_reminder", player=accused),))
        return None
