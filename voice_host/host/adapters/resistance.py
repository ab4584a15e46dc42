"""Resistance with a double agent: the host's voice for the rules engine.

Table mode (default): players hold physical cards; the host knows no role, asks the leader
for the number of sabotage cards a mission showed and, after the spies' accusation, asks the
accused whether they were the double agent.

Host mode (``--deal host``): the engine deals the roles and the host writes each role to a
file for its player. There is no private input channel yet, so the missions are still played
with physical action cards: the leader shuffles the played cards and says how many sabotages
there were. The host turns that count into the engine's secret mission cards (sabotages given
to spies on the team, in seat order — who played which card is never known or said), and
refuses a count the dealt roles cannot produce without saying why in a way that names anyone.

Votes are simultaneous, as the rules want: when a team is proposed the host counts "three,
two, one, vote!" and everyone shows a thumb at once (or votes on their phone with the
companion page). Then the host takes each player's vote in any order ("Ada yes", "Ada: yes",
or a plain "yes" from the player its prompt names: the first still to vote, in seating order
from the leader) without repeating any, and announces them all together with the result. A
vote is an ordinary engine action (``CastVote``), whoever delivers it: speech, a script, or a
seat's page through the companion channel's queue. With ``options["votes"] == "count"`` the
leader says how many voted yes instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from voice_host.games import Action, Event, GameState, IllegalAction, Outcome, SetupError
from voice_host.games.base import Deal
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
    Phase,
    PlayMissionCard,
    ProposeTeam,
    RecordVoteCount,
    ReportSabotages,
    ResistanceState,
    Role,
    RoleDealt,
    RolesRevealed,
    Setup,
    Suit,
    TeamProposed,
    VoteCast,
    VoteResult,
)
from voice_host.host.adapter import Decision, GameAdapter, Prompt
from voice_host.host.adapters import resistance_phone
from voice_host.host.io import Heard, Line, Style
from voice_host.host.narration import Narrator
from voice_host.host.registry import GameOption, GameRegistration
from voice_host.host.secrets import SecretSink, deliver
from voice_host.intent import IntentMatch, SlotValues

GAME = "resistance"

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

NUMBER_WORDS = frozenset({
    "zero", "none", "nothing", "nil", "naught", "one", "single", "two", "couple", "pair",
    "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "aucun", "aucune", "un", "une", "seul", "seule", "deux", "trois", "quatre", "cinq", "sept",
    "huit", "neuf", "dix",
})
"""Words (English and French, as the matcher folds them) that show a count was really
said, not just "success" or "no"."""
MISSION_WORDS = ("sabotag", "fail", "success", "succeed", "pass", "card", "mission", "echec",
                 "echou", "succes", "reussi", "carte")
"""Word beginnings that show a sentence is about mission cards, not a vote count."""


def _rs(state: GameState) -> ResistanceState:
    if not isinstance(state, ResistanceState):
        raise TypeError("the Resistance adapter needs a ResistanceState")
    return state


def _find_player(players: Sequence[str], name: object) -> str | None:
    if not isinstance(name, str):
        return None
    for p in players:
        if p.casefold() == name.strip().casefold():
            return p
    return None


def new_game(options: dict[str, Any]) -> GameState:
    """A fresh game from play.game_options(); SetupError for bad players or first leader."""
    players = list(options.get("players") or [])
    state = ResistanceState.new(players, deal=Deal(options.get("deal", "table")),
                                double_agent=bool(options.get("double_agent", True)))
    first = options.get("first")
    if first and _find_player(state.players, first) is None:
        raise SetupError(f"The first leader must be one of the players; {first} is not.")
    return state


class Adapter:
    """The Resistance host (see the module docstring)."""

    game = GAME

    def __init__(self, options: dict[str, Any], *, secret_sink: SecretSink | None = None
                 ) -> None:
        self.options = dict(options)
        self.narrator = Narrator(GAME, str(options.get("lang", "en")))
        self.host_state: dict[str, Any] = {}
        self.secret_sink = secret_sink
        self.count_votes = options.get("votes") == "count"
        # host deal with the companion pages: mission cards are chosen on the phones
        self.companion = bool(options.get("companion")) and options.get("deal") == "host"
        self.look_pause = float(options.get("night_pause", 5.0))

    # ------------------------------------------------------------------ small helpers

    def _line(self, key: str, /, **params: Any) -> Line:
        return self.narrator.line(f"resistance.{key}", **params)

    def _text(self, key: str, /, **params: Any) -> str:
        return self.narrator.text(f"resistance.{key}", **params)

    def _names(self, names: Sequence[str]) -> str:
        return self.narrator.names(list(names))

    def _variant(self, state: ResistanceState) -> int:
        """A variant index that depends only on the game (so a resumed game says the same)."""
        return len(state.vote_history) + state.mission - 1

    def companion_votes(self) -> bool:
        """Players have the companion page open and may vote on it."""
        return bool(self.options.get("companion")) and not self.count_votes

    def count_phase(self) -> str:
        """The grammar phase of count mode: the leader says how many voted yes. It is a
        phase of its own so that, in ordinary votes, "I vote yes" cannot be heard as a
        count ("we got two yes")."""
        return "count"

    def voting_order(self, state: ResistanceState) -> list[str]:
        """Players still to vote, in seating order starting with the leader."""
        players = list(state.players)
        start = players.index(state.leader) if state.leader in players else 0
        votes = state.votes
        return [p for p in players[start:] + players[:start] if p not in votes]

    def _night_pending(self, state: ResistanceState) -> bool:
        return (state.phase() == Phase.TEAM and state.mission == 1
                and not state.vote_history and not self.host_state.get("night_done"))

    # ------------------------------------------------------------------ opening

    def opening(self, state: GameState) -> list[Line]:
        s = _rs(state)
        counts = s.role_counts()
        lines = [self._line("welcome", count=len(s.players), players=self._names(s.players))]
        if s.double_agent:
            lines.append(self._line("sides_with_double_agent", spies=counts.spies,
                                    heroes=counts.heroes + counts.double_agents))
        else:
            lines.append(self._line("sides_without_double_agent", spies=counts.spies,
                                    heroes=counts.heroes))
        if s.deal is Deal.TABLE:
            lines.append(self._line("table_role_pile", cards=self.pile_words(s)))
            lines.append(self._line("table_role_meaning_with_double_agent" if s.double_agent
                                    else "table_role_meaning_without_double_agent"))
            lines.append(self._line("table_counting_cards"))
            lines.append(self._line("table_action_cards"))
            lines.append(self._line("table_team_cards"))
        else:
            lines.append(self._line("host_deal_companion" if self.companion else "host_deal"))
            lines.append(self._line("companion_action_cards" if self.companion
                                    else "host_action_cards"))
        if self.count_votes:
            lines.append(self._line("count_votes"))
        else:
            lines.append(self._line("together_votes_companion"
                                    if self.options.get("companion") else "together_votes",
                                    example=s.players[0]))
        first = _find_player(s.players, self.options.get("first"))
        if first:
            lines.append(self._line("first_leader_chosen", leader=first))
        else:
            lines.append(self._line("first_leader_random"))
        lines.append(self._line("how_to_talk"))
        return lines

    def pile_words(self, state: ResistanceState) -> str:
        """The role pile in words: "the nine, two and three of diamonds and the two and
        three of clubs"."""
        groups = []
        for suit in (Suit.DIAMONDS, Suit.CLUBS):
            ranks = [self._text(f"rank.{c.rank}") for c in state.role_pile() if c.suit is suit]
            if ranks:
                groups.append(self._text("card_group", ranks=self._names(ranks),
                                         suit=self._text(suit.value)))
        return self._names(groups)

    # ------------------------------------------------------------------ chance and night

    def chance(self, state: GameState, rng: random.Random) -> Action:
        s = _rs(state)
        return s.setup_action(rng, first_leader=_find_player(s.players,
                                                             self.options.get("first")))

    def host_step(self, state: GameState) -> list[Line]:
        s = _rs(state)
        if not self._night_pending(s):
            return []
        look = self.look_pause / 5.0
        lines = [self._line("night_intro", pause_after=NIGHT_PAUSES["intro"])]
        steps = [step.id for step in s.night_steps()]
        if not s.double_agent and "all_open" in steps:
            steps.insert(steps.index("all_open"), "spies_close")
        for step in steps:
            lines.append(self._line(f"night_{step}", pause_after=round(NIGHT_PAUSES[step] * look,
                                                                       2)))
        lines.append(self._line("night_done"))
        self.host_state["night_done"] = True
        return lines

    # ------------------------------------------------------------------ prompts

    def slot_values(self, state: GameState) -> SlotValues:
        return SlotValues(players=tuple(state.players))

    def prompt(self, state: GameState) -> Prompt | None:
        s = _rs(state)
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

    # ------------------------------------------------------------------ understanding

    def interpret(self, state: GameState, match: IntentMatch, speaker: str | None) -> Decision:
        s = _rs(state)
        phase = s.phase()
        intent = match.intent
        if phase == Phase.TEAM and intent == "propose_team":
            return self._propose(s, match, speaker)
        if phase == Phase.VOTE and self.count_votes and intent in ("mission_result",
                                                                     "vote_count"):
            return self._vote_count(s, match)
        if phase == Phase.VOTE and intent == "vote":
            if self.count_votes:
                return Decision(reply=(self._line("count_individual", leader=s.leader),))
            return self._vote(s, match, speaker)
        if phase == Phase.MISSION and intent == "mission_result":
            if self.companion:
                return Decision(reply=(self._line("mission_on_phones"),))
            return self._mission(s, match)
        if phase == Phase.ACCUSE and intent == "accuse":
            return self._accuse(s, match, speaker)
        if phase == Phase.ANSWER and intent == "answer":
            if speaker is not None and s.accused is not None and speaker != s.accused:
                return Decision(reply=(self._line("answer_only_accused", speaker=speaker,
                                                  player=s.accused),))
            choice = match.slots.get("choice")
            if choice not in ("yes", "no"):
                return Decision(reply=(self._line("answer_reminder", player=s.accused),))
            action = ConfirmDoubleAgent(choice == "yes")
            return self._checked(s, [action], confirm=self.describe(s, action))
        return Decision(reply=self._not_now(s))

    def _not_now(self, s: ResistanceState) -> tuple[Line, ...]:
        prompt = self.prompt(s)
        if prompt is None:
            return ()
        return prompt.reminder or prompt.lines

    def _checked(self, s: ResistanceState, actions: Sequence[Action], *,
                 confirm: str | None = None) -> Decision:
        """A decision for ``actions`` after a dry run: an illegal one gives the engine's
        reason (and the reminder) instead, so nothing is applied or confirmed in vain."""
        refusal = self._refusal(s, actions[0])
        if refusal is not None:
            return Decision(reply=(refusal,))
        trial = s.copy()
        try:
            for action in actions:
                trial.apply(action)
        except IllegalAction as exc:
            return Decision(reply=(Line(exc.reason, lang="en"),))
        return Decision(action=actions[0], then=tuple(actions[1:]), confirm=confirm)

    def _refusal(self, s: ResistanceState, action: Action) -> Line | None:
        """The usual refusals in the session's language (the engine's reasons are
        English); None when the engine should judge."""
        if isinstance(action, ProposeTeam) and len(action.team) != s.team_size():
            return self._line("wrong_team_size", mission=s.mission, size=s.team_size(),
                              named=len(action.team))
        if isinstance(action, RecordVoteCount) and action.yes > len(s.players):
            return self._line("count_too_high", players=len(s.players))
        if isinstance(action, ReportSabotages):
            size = len(s.proposed_team or ())
            spies = s.role_counts().spies
            if action.count > size:
                return self._line("too_many_sabotages_team", mission=s.mission, size=size)
            if action.count > spies:
                return self._line("too_many_sabotages_spies", spies=spies)
        if isinstance(action, Accuse) and s.role_of(action.player) is Role.SPY:
            return self._line("accused_is_spy", player=action.player)
        return None

    def _propose(self, s: ResistanceState, match: IntentMatch, speaker: str | None) -> Decision:
        leader = s.leader or ""
        if speaker is not None and speaker != leader:
            return Decision(reply=(self._line("not_leader", speaker=speaker, leader=leader),))
        team = tuple(match.slots.get("players") or ())
        return self._checked(s, [ProposeTeam(leader, team)])

    def _vote(self, s: ResistanceState, match: IntentMatch, speaker: str | None) -> Decision:
        order = self.voting_order(s)
        choice = match.slots.get("choice")
        named = _find_player(s.players, match.slots.get("player"))  # "Ben votes yes"
        voter = named or (speaker if speaker is not None else order[0])
        if voter not in order:
            return Decision(reply=(self._line("already_voted", player=voter),))
        if choice not in ("yes", "no"):
            return Decision(reply=(self._line("vote_reminder", player=voter),))
        return self._checked(s, [CastVote(voter, choice == "yes")])

    def _said_number(self, match: IntentMatch) -> bool:
        """True when the words hold a number and no mission word ("one sabotage" answers
        another question than "how many voted yes?")."""
        words = match.text.lower().split()
        if any(w.startswith(MISSION_WORDS) for w in words):
            return False
        return any(w.isdigit() or w in NUMBER_WORDS for w in words)

    def _vote_count(self, s: ResistanceState, match: IntentMatch) -> Decision:
        value = match.slots.get("yes", match.slots.get("sabotages"))
        if not isinstance(value, int) or isinstance(value, bool) or (
                match.intent == "mission_result" and not self._said_number(match)):
            return Decision(reply=(self._line("count_need_number"),))
        action = RecordVoteCount(value)
        return self._checked(s, [action], confirm=self.describe(s, action))

    def _mission(self, s: ResistanceState, match: IntentMatch) -> Decision:
        count = match.slots.get("sabotages")
        if not isinstance(count, int) or isinstance(count, bool):
            return Decision(reply=(self._line("mission_reminder", leader=s.leader),))
        report = ReportSabotages(count)
        confirm = self.describe(s, report)
        if s.deal is Deal.TABLE:
            return self._checked(s, [report], confirm=confirm)
        # Host mode: the count becomes secret cards; sabotages go to spies on the team.
        team = s.proposed_team or ()
        spies = [p for p in team if s.role_of(p) is Role.SPY]
        if count < 0 or count > len(spies):
            if count > len(team) or count < 0:
                return self._checked(s, [report], confirm=confirm)
            return Decision(reply=(self._line("mission_not_fit"),))
        saboteurs = set(spies[:count])
        cards = [PlayMissionCard(p, p in saboteurs) for p in team]
        decision = self._checked(s, cards, confirm=confirm)
        if decision.action is None:  # never say the engine's reason: it could name a role
            return Decision(reply=(self._line("mission_not_fit"),))
        return decision

    def _accuse(self, s: ResistanceState, match: IntentMatch, speaker: str | None) -> Decision:
        spies = s.spies()
        if spies and speaker is not None and speaker not in spies:
            return Decision(reply=(self._line("only_spies_accuse", speaker=speaker,
                                              spies=self._names(spies)),))
        player = _find_player(s.players, match.slots.get("player"))
        if player is None:
            example = next((p for p in s.players if p not in (spies or ())), s.players[0])
            return Decision(reply=(self._line("accuse_reminder", example=example),))
        action = Accuse(player)
        return self._checked(s, [action], confirm=self.describe(s, action))

    def on_recording(self, state: GameState, heard: Heard) -> list[Line]:
        return []

    def on_timeout(self, state: GameState) -> Action | None:
        return None

    # ------------------------------------------------------------------ narration

    def narrate(self, state: GameState, events: Sequence[Event]) -> list[Line]:
        s = _rs(state)
        lines: list[Line] = []
        for event in events:
            lines.extend(self._narrate_one(s, event))
        return lines

    def _narrate_one(self, s: ResistanceState, event: Event) -> list[Line]:
        if isinstance(event, RoleDealt):
            return self._deliver_role(event)
        if isinstance(event, LeaderChanged):
            if event.previous is None:
                return []
            return [self._line("new_leader", leader=event.leader, cue="turn")]
        if isinstance(event, TeamProposed):
            lines = [self._line("team_proposed", leader=event.leader,
                                team=self._names(event.team), mission=event.mission)]
            if s.deal is Deal.TABLE:
                lines.append(self._line("team_cards", leader=event.leader))
            # everyone shows their vote at once, on the count, before anyone says it
            lines.append(self._line("vote_countdown_companion" if self.companion_votes()
                                    else "vote_countdown", variant=len(s.vote_history)))
            return lines
        if isinstance(event, VoteCast):
            return []  # votes were shown together; the result names them all together
        if isinstance(event, VoteResult):
            return self._vote_result(s, event)
        if isinstance(event, MissionResult):
            return self._mission_result(s, event)
        if isinstance(event, AccusationStarted):
            lines = [self._line("accusation_start", cue="hit")]
            if event.spies is not None:
                lines.append(self._line("accusation_spies_known", spies=self._names(event.spies)))
            else:
                lines.append(self._line("accusation_spies_table"))
            return lines
        if isinstance(event, AccusationMade):
            return [self._line("accused", player=event.accused)]
        if isinstance(event, AccusationResult):
            if event.correct:
                return [self._line("accusation_right", player=event.accused, cue="hit")]
            if event.double_agent:
                return [self._line("accusation_wrong_known", player=event.accused,
                                   double_agent=event.double_agent, cue="miss")]
            return [self._line("accusation_wrong", player=event.accused, cue="miss")]
        if isinstance(event, RolesRevealed):
            parts = [self._text(f"role_{role.value}", player=player)
                     for player, role in event.roles]
            return [self._line("roles_revealed", roles="; ".join(parts))]
        if isinstance(event, GameOver):
            scores = dict(event.scores)
            return [self._line(f"over_{event.reason}", cue="game_over"),
                    self._line("final_score", successes=scores.get("heroes", 0),
                               failures=scores.get("spies", 0))]
        if isinstance(event, MissionCardPlayed) and self.companion and event.waiting:
            return [self._line("card_in", player=event.player,
                               waiting=self._names(event.waiting))]
        return []  # MissionStarted, MissionCardPlayed: the prompts say what comes next

    def _deliver_role(self, event: RoleDealt) -> list[Line]:
        spies = self._names(event.known_spies)
        secret = self._text(f"secret_{event.role.value}", player=event.player, spies=spies)
        private = Line(secret, lang=self.narrator.lang, style=Style.PRIVATE, to=event.player)
        lines, _ = deliver(self.narrator, self.secret_sink, private,
                           elsewhere="resistance.secret_elsewhere", sent="resistance.secret_sent")
        return lines

    def _vote_result(self, s: ResistanceState, event: VoteResult) -> list[Line]:
        params = {"yes_count": event.yes_count, "no_count": event.no_count,
                  "yes": self._names(event.yes), "no": self._names(event.no)}
        named = bool(event.yes or event.no)
        kind = "approved" if event.approved else "rejected"
        key = f"{kind}_names" if named else f"{kind}_count"
        if named and not (event.yes and event.no):
            key = f"{kind}_unanimous"
        lines = [self._line(key, cue=None if event.approved else "miss", **params)]
        if event.approved:
            return lines
        if event.rejections >= 5:
            return lines  # GameOver follows
        if event.rejections == 1:
            lines.append(self._line("rejection_track_1"))
        elif event.rejections == 4:
            lines.append(self._line("rejection_track_4"))
        else:
            lines.append(self._line("rejection_track", count=event.rejections))
        if s.deal is Deal.TABLE:
            lines.append(self._line("turn_counting_card"))
        return lines

    def _mission_result(self, s: ResistanceState, event: MissionResult) -> list[Line]:
        cue = "hit" if event.succeeded else "miss"
        if event.succeeded and event.sabotages == 0:
            first = self._line("mission_success_clean", mission=event.mission, cue=cue)
        elif event.succeeded:
            first = self._line("mission_success_one_of_two", mission=event.mission, cue=cue)
        elif event.sabotages == 1:
            first = self._line("mission_failed_one", mission=event.mission, cue=cue)
        else:
            first = self._line("mission_failed_many", mission=event.mission,
                               sabotages=event.sabotages, cue=cue)
        lines = [first, self._line("track", successes=event.successes,
                                   failures=event.failures)]
        had_rejections = any(v.mission == event.mission and not v.approved
                             for v in s.vote_history)
        if had_rejections and s.deal is Deal.TABLE and not s.is_terminal():
            lines.append(self._line("counting_cards_up"))
        return lines

    # ------------------------------------------------------------------ describing

    def describe(self, state: GameState, action: Action) -> str:
        s = _rs(state)
        if isinstance(action, ProposeTeam):
            return self._text("describe_team", leader=action.leader,
                              team=self._names(action.team), mission=s.mission)
        if isinstance(action, CastVote):
            return self._text("describe_vote_yes" if action.approve else "describe_vote_no",
                              player=action.player)
        if isinstance(action, RecordVoteCount):
            return self._text("describe_count", yes=action.yes,
                              no=len(s.players) - action.yes)
        if isinstance(action, ReportSabotages):
            if action.count in (0, 1):
                return self._text(f"describe_sabotages_{action.count}", mission=s.mission)
            return self._text("describe_sabotages", mission=s.mission, count=action.count)
        if isinstance(action, PlayMissionCard):
            return self._text("describe_card", player=action.player)
        if isinstance(action, Accuse):
            return self._text("describe_accuse", player=action.player)
        if isinstance(action, ConfirmDoubleAgent):
            key = "describe_answer_yes" if action.was_double_agent else "describe_answer_no"
            return self._text(key, player=s.accused or "")
        if isinstance(action, Setup):
            return self._text("describe_setup")
        return type(action).__name__

    # ------------------------------------------------------------------ universal commands

    def score(self, state: GameState) -> list[Line]:
        s = _rs(state)
        lines = [self._line("score", successes=s.successes, failures=s.failures)]
        if s.rejections and not s.is_terminal():
            lines.append(self._line("score_rejections", count=s.rejections))
        return lines

    def status(self, state: GameState) -> list[Line]:
        s = _rs(state)
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
        s = _rs(state)
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
        s = _rs(state)
        rejected = [self._text("board_rejected_team", leader=v.leader, team=self._names(v.team))
                    for v in s.vote_history if v.mission == s.mission and not v.approved]
        if not rejected:
            return [] if s.proposed_team else [self._line("board_no_teams")]
        return [self._line("board_rejected_teams", teams="; ".join(rejected))]

    def winner_json(self, outcome: Outcome) -> list[str]:
        return list(outcome.winners)

    # ------------------------------------------------------------------ demo players

    def bot_utterance(self, state: GameState, prompt: Prompt, rng: random.Random
                      ) -> tuple[str, str]:
        s = _rs(state)
        phase = s.phase()
        leader = s.leader or s.players[0]
        if phase == Phase.TEAM:
            return leader, self._bot_team(s, leader, rng)
        if phase == Phase.VOTE and self.count_votes:
            n = min(len(s.players), 9)  # the grammar's numbers stop at nine
            yes = rng.randint(n // 2, n) if rng.random() < 0.7 or s.rejections >= 3 \
                else rng.randint(0, n // 2)
            return leader, self._bot("count", rng, number=self._bot("number." + str(yes), rng))
        if phase == Phase.VOTE:
            voter = prompt.expected[0] if prompt.expected else self.voting_order(s)[0]
            approve = rng.random() < (0.9 if s.rejections >= 3 else 0.65)
            return voter, self._bot("vote_yes" if approve else "vote_no", rng)
        if phase == Phase.MISSION:
            return leader, self._bot_sabotages(s, rng)
        if phase == Phase.ACCUSE:
            spies = s.spies()
            candidates = [p for p in s.players if p not in (spies or ())]
            speaker = spies[0] if spies else (prompt.expected[0] if prompt.expected
                                              else s.players[0])
            return speaker, self._bot("accuse", rng, player=rng.choice(candidates))
        if phase == Phase.ANSWER:
            accused = s.accused or s.players[0]
            return accused, self._bot("answer_yes" if rng.random() < 0.3 else "answer_no", rng)
        return (prompt.expected[0] if prompt.expected else s.players[0]), "status"

    def _bot(self, key: str, rng: random.Random, **params: Any) -> str:
        """A player's phrase; among variants one is picked at random (modulo the list)."""
        return self.narrator.text(f"resistance.bot.{key}", variant=rng.randrange(720),
                                  **params)

    def _bot_team(self, s: ResistanceState, leader: str, rng: random.Random) -> str:
        size = s.team_size()
        with_leader = rng.random() < 0.6
        others = [p for p in s.players if p != leader]
        chosen = rng.sample(others, size - 1) + [leader] if with_leader \
            else rng.sample(others, size)
        team = [p for p in s.players if p in chosen]
        if with_leader and rng.random() < 0.5:
            team = [p for p in team if p != leader] + [self._text("bot.me")]
        return self._bot("team", rng, team=self._names(team))

    def _bot_sabotages(self, s: ResistanceState, rng: random.Random) -> str:
        team = s.proposed_team or ()
        if s.deal is Deal.HOST:
            count = sum(1 for p in team if s.role_of(p) is Role.SPY and rng.random() < 0.6)
        else:
            top = min(len(team), s.role_counts().spies)
            count = min(top, rng.choices([0, 1, 2], weights=[5, 4, 1])[0])
        if count == 0:
            return self._bot("sabotages_0", rng)
        if count == 1:
            return self._bot("sabotages_1", rng)
        return self._bot("sabotages_n", rng, number=self._text(f"bot.number.{count}"))


def refusal_words(narrator: Narrator, error: IllegalAction) -> dict[str, Any]:
    """This game's refusal parameters in words (the names and numbers need none)."""
    return {}


def bot_utterance(adapter: GameAdapter, state: GameState, prompt: Prompt,
                  rng: random.Random) -> tuple[str, str]:
    assert isinstance(adapter, Adapter)
    return adapter.bot_utterance(state, prompt, rng)


REGISTRATION = GameRegistration(
    state_class=ResistanceState, new_game=new_game, adapter=Adapter,
    refusal_words=refusal_words, bots=bot_utterance, companion=resistance_phone,
    options=(
        GameOption("players", "names in seating order, A,B,C,D,E", kind="names",
                   required=True),
        GameOption("double_agent", "the simpler variant", default=True, kind="switch",
                   flag="--no-double-agent"),
        GameOption("first", "first leader (default: random)"),
        GameOption("votes", "together (default): on the host's count everyone shows their "
                   "vote at once, then says it, in any order; count: the same show of thumbs, "
                   "and the leader says how many voted yes", default="together",
                   choices=("together", "count")),
    ),
    demo_seats={"players": ["Hannah", "Thomas", "Sophie", "Oliver", "Emma"]},
)
