"""The Resistance host speaking: the opening, the night, what each event means for the
table, the secret roles' delivery and every move in words."""

from __future__ import annotations

import random
from collections.abc import Sequence

from voice_host.games import Action, Event, GameState
from voice_host.games.base import Deal, find_player
from voice_host.games.resistance import (
    AccusationMade,
    AccusationResult,
    AccusationStarted,
    Accuse,
    CastVote,
    ConfirmDoubleAgent,
    GameOver,
    LeaderChanged,
    MissionCardPlayed,
    MissionResult,
    PlayMissionCard,
    ProposeTeam,
    RecordVoteCount,
    ReportSabotages,
    ResistanceState,
    RoleDealt,
    RolesRevealed,
    Setup,
    Suit,
    TeamProposed,
    VoteCast,
    VoteResult,
)
from voice_host.host.adapters.resistance import prompts
from voice_host.host.adapters.resistance.words import ResistanceWords
from voice_host.host.core.adapter import narrow
from voice_host.host.core.secrets import deliver
from voice_host.host.core.values import Line, Style

NIGHT_PAUSES: dict[str, float] = {
    "intro": 1.0,
    "all_close": 3.0,
    "spies_open": 5.0,
    "spies_close_thumbs": 3.0,
    "double_agent_open": 5.0,
    "thumbs_down_double_agent_close": 3.0,
    "spies_close": 3.0,
    "all_open": 1.0,
}
"""Seconds of silence after each night instruction (scaled by ``options["night_pause"]``,
the length of a "look" pause, default 5)."""


def opening(w: ResistanceWords, state: GameState) -> list[Line]:
    s = narrow(state, ResistanceState)
    counts = s.role_counts()
    lines = [w.line("welcome", count=len(s.players), players=w.names(s.players))]
    if s.double_agent:
        lines.append(w.line("sides_with_double_agent", spies=counts.spies,
                            heroes=counts.heroes + counts.double_agents))
    else:
        lines.append(w.line("sides_without_double_agent", spies=counts.spies,
                            heroes=counts.heroes))
    if s.deal is Deal.TABLE:
        lines.append(w.line("table_role_pile", cards=pile_words(w, s)))
        lines.append(w.line("table_role_meaning_with_double_agent" if s.double_agent
                            else "table_role_meaning_without_double_agent"))
        lines.append(w.line("table_counting_cards"))
        lines.append(w.line("table_action_cards"))
        lines.append(w.line("table_team_cards"))
    else:
        lines.append(w.line("host_deal_companion" if w.companion else "host_deal"))
        lines.append(w.line("companion_action_cards" if w.companion
                            else "host_action_cards"))
    if w.count_votes:
        lines.append(w.line("count_votes"))
    else:
        lines.append(w.line("together_votes_companion"
                            if w.options.get("companion") else "together_votes",
                            example=prompts.vote_example(w, s.players)))
    first = find_player(s.players, w.options.get("first"))
    if first:
        lines.append(w.line("first_leader_chosen", leader=first))
    else:
        lines.append(w.line("first_leader_random"))
    lines.append(w.line("how_to_talk"))
    return lines


def pile_words(w: ResistanceWords, state: ResistanceState) -> str:
    """The role pile in words: "the nine, two and three of diamonds and the two and
    three of clubs"."""
    groups = []
    for suit in (Suit.DIAMONDS, Suit.CLUBS):
        ranks = [w.text(f"rank.{c.rank}") for c in state.role_pile() if c.suit is suit]
        if ranks:
            groups.append(w.text("card_group", ranks=w.names(ranks),
                                 suit=w.text(suit.value)))
    return w.names(groups)


# ------------------------------------------------------------------ chance and night


def chance(w: ResistanceWords, state: GameState, rng: random.Random) -> Action:
    s = narrow(state, ResistanceState)
    return s.setup_action(rng, first_leader=find_player(s.players,
                                                        w.options.get("first")))


def host_step(w: ResistanceWords, state: GameState) -> list[Line]:
    s = narrow(state, ResistanceState)
    if not w.night_pending(s):
        return []
    look = w.look_pause / 5.0
    lines = [w.line("night_intro", pause_after=NIGHT_PAUSES["intro"])]
    steps = [step.id for step in s.night_steps()]
    if not s.double_agent and "all_open" in steps:
        steps.insert(steps.index("all_open"), "spies_close")
    if w.short_night:
        steps = [step for step in steps if step in ("all_close", "all_open")]
        lines = [w.line("night_short", pause_after=NIGHT_PAUSES["intro"])]
    for step in steps:
        lines.append(w.line(f"night_{step}", pause_after=round(NIGHT_PAUSES[step] * look,
                                                               2)))
    lines.append(w.line("night_done"))
    w.host_state["night_done"] = True
    return lines


def narrate(w: ResistanceWords, state: GameState, events: Sequence[Event]) -> list[Line]:
    s = narrow(state, ResistanceState)
    lines: list[Line] = []
    for event in events:
        lines.extend(_narrate_one(w, s, event))
    return lines


def _narrate_one(w: ResistanceWords, s: ResistanceState, event: Event) -> list[Line]:
    if isinstance(event, RoleDealt):
        return _deliver_role(w, event)
    if isinstance(event, LeaderChanged):
        if event.previous is None:
            return []
        return [w.line("new_leader", leader=event.leader, cue="turn")]
    if isinstance(event, TeamProposed):
        lines = [w.line("team_proposed", leader=event.leader,
                        team=w.names(event.team), mission=event.mission)]
        if s.deal is Deal.TABLE:
            lines.append(w.line("team_cards", leader=event.leader))
        # everyone shows their vote at once, on the count, before anyone says it
        lines.append(w.line("vote_countdown_companion" if w.companion_votes()
                            else "vote_countdown", variant=len(s.vote_history)))
        return lines
    if isinstance(event, VoteCast):
        return []  # votes were shown together; the result names them all together
    if isinstance(event, VoteResult):
        return _vote_result(w, s, event)
    if isinstance(event, MissionResult):
        return _mission_result(w, s, event)
    if isinstance(event, AccusationStarted):
        lines = [w.line("accusation_start", cue="hit")]
        if event.spies is not None:
            lines.append(w.line("accusation_spies_known", spies=w.names(event.spies)))
        else:
            lines.append(w.line("accusation_spies_table"))
        return lines
    if isinstance(event, AccusationMade):
        return [w.line("accused", player=event.accused)]
    if isinstance(event, AccusationResult):
        if event.correct:
            return [w.line("accusation_right", player=event.accused, cue="hit")]
        if event.double_agent:
            return [w.line("accusation_wrong_known", player=event.accused,
                           double_agent=event.double_agent, cue="miss")]
        return [w.line("accusation_wrong", player=event.accused, cue="miss")]
    if isinstance(event, RolesRevealed):
        return []  # the recap that ends the game reveals each role with what its player did
    if isinstance(event, GameOver):
        scores = dict(event.scores)
        return [w.line(f"over_{event.reason}", cue="game_over"),
                w.line("final_score", successes=scores.get("heroes", 0),
                       failures=scores.get("spies", 0))]
    if isinstance(event, MissionCardPlayed) and w.companion and event.waiting:
        return [w.line("card_in", player=event.player,
                       waiting=w.names(event.waiting))]
    return []  # MissionStarted, MissionCardPlayed: the prompts say what comes next


def _deliver_role(w: ResistanceWords, event: RoleDealt) -> list[Line]:
    spies = w.names(event.known_spies)
    secret = w.text(f"secret_{event.role.value}", player=event.player, spies=spies)
    private = Line(secret, lang=w.narrator.lang, style=Style.PRIVATE, to=event.player)
    lines, _ = deliver(w.narrator, w.secret_sink, private,
                       elsewhere="resistance.secret_elsewhere", sent="resistance.secret_sent")
    return lines


def _vote_result(w: ResistanceWords, s: ResistanceState, event: VoteResult) -> list[Line]:
    params = {"yes_count": event.yes_count, "no_count": event.no_count,
              "yes": w.names(event.yes), "no": w.names(event.no)}
    named = bool(event.yes or event.no)
    kind = "approved" if event.approved else "rejected"
    key = f"{kind}_names" if named else f"{kind}_count"
    if named and not (event.yes and event.no):
        key = f"{kind}_unanimous"
    lines = [w.line(key, cue=None if event.approved else "miss", **params)]
    if event.approved:
        return lines
    if event.rejections >= 5:
        return lines  # GameOver follows
    if event.rejections == 1:
        lines.append(w.line("rejection_track_1"))
    elif event.rejections == 4:
        lines.append(w.line("rejection_track_4"))
    else:
        lines.append(w.line("rejection_track", count=event.rejections))
    if s.deal is Deal.TABLE:
        lines.append(w.line("turn_counting_card"))
    return lines


def _mission_result(w: ResistanceWords, s: ResistanceState, event: MissionResult) -> list[Line]:
    cue = "hit" if event.succeeded else "miss"
    if event.succeeded and event.sabotages == 0:
        first = w.line("mission_success_clean", mission=event.mission, cue=cue)
    elif event.succeeded:
        first = w.line("mission_success_one_of_two", mission=event.mission, cue=cue)
    elif event.sabotages == 1:
        first = w.line("mission_failed_one", mission=event.mission, cue=cue)
    else:
        first = w.line("mission_failed_many", mission=event.mission,
                       sabotages=event.sabotages, cue=cue)
    lines = [first, w.line("track", successes=event.successes,
                           failures=event.failures)]
    had_rejections = any(v.mission == event.mission and not v.approved
                         for v in s.vote_history)
    if had_rejections and s.deal is Deal.TABLE and not s.is_terminal():
        lines.append(w.line("counting_cards_up"))
    return lines


# ------------------------------------------------------------------ describing


def describe(w: ResistanceWords, state: GameState, action: Action) -> str:
    s = narrow(state, ResistanceState)
    if isinstance(action, ProposeTeam):
        return w.text("describe_team", leader=action.player,
                      team=w.names(action.team), mission=s.mission)
    if isinstance(action, CastVote):
        sentence = w.sentence_of(s, (action.player, action.approve))
        if len(sentence) > 1:  # the first of a sentence's votes: the sentence is the move
            return w.text("describe_votes", votes=prompts.said_votes(w, sentence))
        return w.text("describe_vote_yes" if action.approve else "describe_vote_no",
                      player=action.player)
    if isinstance(action, RecordVoteCount):
        return w.text("describe_count", yes=action.yes,
                      no=len(s.players) - action.yes)
    if isinstance(action, ReportSabotages):
        if action.count in (0, 1):
            return w.text(f"describe_sabotages_{action.count}", mission=s.mission)
        return w.text("describe_sabotages", mission=s.mission, count=action.count)
    if isinstance(action, PlayMissionCard):
        return w.text("describe_card", player=action.player)
    if isinstance(action, Accuse):
        return w.text("describe_accuse", player=action.accused)
    if isinstance(action, ConfirmDoubleAgent):
        key = "describe_answer_yes" if action.was_double_agent else "describe_answer_no"
        return w.text(key, player=action.player)
    if isinstance(action, Setup):
        return w.text("describe_setup")
    return type(action).__name__
