"""What the Resistance host asks now: one prompt per phase, with its reminder."""

from __future__ import annotations

from collections.abc import Sequence

from voice_host.games import GameState
from voice_host.games.resistance import Phase, ResistanceState
from voice_host.host.adapters.resistance.words import ResistanceWords
from voice_host.host.core.adapter import Prompt, narrow
from voice_host.host.core.values import Wants
from voice_host.intent import SlotValues


def slot_values(w: ResistanceWords, state: GameState) -> SlotValues:
    return SlotValues(players=tuple(state.players))


def prompt(w: ResistanceWords, state: GameState) -> Prompt | None:
    s = narrow(state, ResistanceState)
    phase = s.phase()
    leader = s.leader or ""
    n_votes = len(s.vote_history)
    if phase == Phase.TEAM:
        if w.night_pending(s):
            return None
        size = s.team_size()
        lines = [w.line("team_prompt", leader=leader, mission=s.mission, size=size,
                        variant=w.variant(s))]
        reminder = [w.line("team_reminder", leader=leader, mission=s.mission, size=size)]
        if s.two_sabotages_needed():
            lines.append(w.line("two_needed"))
            reminder.append(w.line("two_needed"))
        return Prompt(lines=tuple(lines), phase="team", expected=(leader,),
                      key=f"team|{s.mission}|{n_votes}", reminder=tuple(reminder),
                      discussion=True, wants=Wants("propose_team", "players", size))
    if phase == Phase.VOTE:
        if w.count_votes:
            return Prompt(
                lines=(w.line("count_prompt", leader=leader),),
                phase=w.count_phase(), expected=(leader,), key=f"count|{n_votes}",
                reminder=(w.line("count_reminder", leader=leader,
                                 players=len(s.players)),))
        return _vote_prompt(w, s)
    if phase == Phase.MISSION and w.companion:
        waiting = s.current_players()
        lines = [w.line("mission_companion", team=w.names(s.proposed_team or ()))]
        if s.two_sabotages_needed():
            lines.append(w.line("two_needed"))
        return Prompt(lines=tuple(lines), phase="mission", expected=tuple(waiting),
                      key=f"mission|{s.mission}",
                      reminder=(w.line("mission_companion_waiting",
                                       players=w.names(waiting)),))
    if phase == Phase.MISSION:
        team = s.proposed_team or ()
        lines = [w.line("mission_table", team=w.names(team), leader=leader,
                        variant=w.variant(s))]
        if s.two_sabotages_needed():
            lines.append(w.line("two_needed"))
        lines.append(w.line("mission_prompt", leader=leader, variant=w.variant(s)))
        expected = (leader, *[p for p in team if p != leader])
        return Prompt(lines=tuple(lines), phase="mission", expected=expected,
                      key=f"mission|{s.mission}",
                      reminder=(w.line("mission_reminder", leader=leader),))
    if phase == Phase.ACCUSE:
        spies = s.spies()
        expected = tuple(spies) if spies else tuple(s.players)
        return Prompt(lines=(w.line("accuse_prompt"),), phase="accuse",
                      expected=expected, key="accuse", discussion=True,
                      reminder=(w.line("accuse_reminder", example=accuse_example(s)),))
    if phase == Phase.ANSWER:
        accused = s.accused or ""
        return Prompt(lines=(w.line("answer_prompt", player=accused),), phase="answer",
                      expected=(accused,), key="answer",
                      reminder=(w.line("answer_reminder", player=accused),))
    return None


def _vote_prompt(w: ResistanceWords, s: ResistanceState) -> Prompt:
    """The votes still to come: right after the count-in, the whole table is asked (so a
    plain "yes" then names nobody's vote); then the last sentence's votes are repeated back
    (not a phone's), with who is still to vote, the first of them asked by name."""
    order = w.voting_order(s)
    voter = order[0]
    still = w.names(order)
    echo = w.echoed_votes(s)
    if not s.votes:
        line = w.line("vote_tell", example=vote_example(w, order), variant=w.variant(s))
        again = w.line("vote_tell_reminder", example=vote_example(w, order))
    else:
        again = w.line("vote_reminder", players=still, player=voter)
        if echo and len(order) == 1:
            line = w.line("vote_echo_last", votes=said_votes(w, echo), player=voter)
        elif echo:
            line = w.line("vote_echo", votes=said_votes(w, echo), players=still,
                          player=voter)
        elif len(order) == 1:
            line = w.line("vote_last", player=voter)
        else:
            line = w.line("vote_waiting", players=still, player=voter)
    return Prompt(lines=(line,), phase="vote", expected=tuple(order),
                  key=f"vote|{len(s.vote_history)}|{len(s.votes)}", reminder=(again,))


def said_votes(w: ResistanceWords, votes: Sequence[tuple[str, bool]]) -> str:
    """Votes as the table says them, yes and no each in one group, in the order the first of
    each was given: "Ada and Ben yes, Cleo no"."""
    groups: dict[bool, list[str]] = {}
    for player, approve in votes:
        groups.setdefault(approve, []).append(player)
    return ", ".join(group_vote(w, players, approve) for approve, players in groups.items())


def group_vote(w: ResistanceWords, players: Sequence[str], approve: bool) -> str:
    """One group of votes as the table says it: "Ada and Ben yes"."""
    return w.text("vote_group", players=w.names(players),
                  vote=w.text("word_yes" if approve else "word_no"))


def vote_example(w: ResistanceWords, order: Sequence[str]) -> str:
    """A whole-table vote sentence with this table's names: "Ada and Ben yes, Cleo no"."""
    if len(order) < 3:
        return group_vote(w, order[:1], True)
    return said_votes(w, [(order[0], True), (order[1], True), (order[2], False)])


def accuse_example(s: ResistanceState) -> str:
    """A player the spies could name in an accusation: the first who is not a known spy."""
    spies = s.spies() or ()
    return next((p for p in s.players if p not in spies), s.players[0])
