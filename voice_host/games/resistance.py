"""Resistance with a double agent: the rules engine.

Rules: ``shared/rules/resistance.md`` (an English reading of a Norwegian card-deck version of
The Resistance with one extra hero, the *double agent*, who knows the spies, and a final
spies' guess of the double agent).

Two knowledge models (:class:`~voice_host.games.base.Deal`):

* ``Deal.HOST`` — the engine deals the roles at the setup chance node, tells each player
  privately (a :class:`RoleDealt` event with an ``audience``), takes each team member's secret
  mission card (:class:`PlayMissionCard`) and resolves the spies' accusation itself.
* ``Deal.TABLE`` — players hold physical cards; the engine knows no role. It takes the number
  of sabotage cards a mission revealed (:class:`ReportSabotages`) and, after the spies'
  accusation, the accused player's answer (:class:`ConfirmDoubleAgent`).

Leadership (read carefully; the rules text says it twice). The rules say leadership passes to
the left "after every vote, whether the team was approved or rejected", and the mission step
says "leadership passes left" after the result. The Norwegian source makes the timing clear: a
rejected leader hands the cards on at once; an approved leader keeps them, hands out the action
cards, shows the shuffled result, and *then* the player to the left of that leader leads. So
leadership advances exactly once per vote: right after a rejection, or right after the mission
that an approved vote started. It never advances twice for one vote, and it does not advance
when the game has ended.

Five missions: the game also ends "after five missions", but five results always hold three of
one kind, and the engine stops at the third success or third failure, so that condition is
never reached on its own; it is implied by the other two (the engine asserts it).
"""

from __future__ import annotations

import enum
import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from voice_host.games.base import (
    JSON,
    Action,
    Deal,
    Event,
    GameDescription,
    GameError,
    IllegalAction,
    Outcome,
    PlayerAction,
    action_from_json,
    action_to_json,
    check_player_names,
    replay,
)

VERSION = 2
"""Version of :meth:`ResistanceState.to_json` (2: every player action names its actor;
version 1 is read by replaying its history)."""

# --------------------------------------------------------------------------- roles and tables


class Role(enum.StrEnum):
    """A secret role card."""

    DOUBLE_AGENT = "double_agent"
    """A hero who knows the spies (the 9 of diamonds)."""
    HERO = "hero"
    """A plain hero, who knows nothing (another diamond number card)."""
    SPY = "spy"
    """A spy, who knows the other spies (a club)."""


class Team(enum.StrEnum):
    """The two sides."""

    HEROES = "heroes"
    """Plain heroes and the double agent."""
    SPIES = "spies"
    """The spies."""


ROLE_TEAM: Mapping[Role, Team] = {
    Role.DOUBLE_AGENT: Team.HEROES,
    Role.HERO: Team.HEROES,
    Role.SPY: Team.SPIES,
}
"""Which team each role plays for."""


@dataclass(frozen=True)
class RoleCounts:
    """One row of the role table."""

    double_agents: int
    """Double agents (always 1 in the table; 0 in the variant without)."""
    heroes: int
    """Plain heroes ("other heroes")."""
    spies: int
    """Spies."""

    @property
    def total(self) -> int:
        return self.double_agents + self.heroes + self.spies

    def as_roles(self) -> tuple[Role, ...]:
        """The role pile in a fixed order (double agent, heroes, spies)."""
        return (
            (Role.DOUBLE_AGENT,) * self.double_agents
            + (Role.HERO,) * self.heroes
            + (Role.SPY,) * self.spies
        )


ROLE_TABLE: Mapping[int, RoleCounts] = {
    5: RoleCounts(double_agents=1, heroes=2, spies=2),
    6: RoleCounts(double_agents=1, heroes=3, spies=2),
    7: RoleCounts(double_agents=1, heroes=3, spies=3),
    8: RoleCounts(double_agents=1, heroes=4, spies=3),
    9: RoleCounts(double_agents=1, heroes=5, spies=3),
    10: RoleCounts(double_agents=1, heroes=5, spies=4),
}
"""The rules' role table, by player count (with the double agent)."""

TEAM_SIZES: Mapping[int, tuple[int, int, int, int, int]] = {
    5: (2, 3, 2, 3, 3),
    6: (2, 3, 4, 3, 4),
    7: (2, 3, 3, 4, 4),
    8: (3, 4, 4, 5, 5),
    9: (3, 4, 4, 5, 5),
    10: (3, 4, 4, 5, 5),
}
"""Team size by player count, for missions 1 to 5."""

MISSIONS = 5
"""Most missions in a game."""
WINNING_MISSIONS = 3
"""Successes (or failures) that end the game."""
MAX_REJECTIONS = 5
"""The fifth rejection in a row for one mission makes the spies win."""
TWO_SABOTAGE_MISSION = 4
"""The mission that needs two sabotages to fail ..."""
TWO_SABOTAGE_MIN_PLAYERS = 7
"""... with this many players or more."""


def role_counts(n_players: int, *, double_agent: bool = True) -> RoleCounts:
    """The role table row for ``n_players``; without the double agent, their card is a hero."""
    row = ROLE_TABLE[n_players]
    if double_agent:
        return row
    return RoleCounts(double_agents=0, heroes=row.heroes + 1, spies=row.spies)


def team_size(n_players: int, mission: int) -> int:
    """Players on the team for ``mission`` (1-5) with ``n_players`` players."""
    return TEAM_SIZES[n_players][mission - 1]


def two_sabotages_needed(n_players: int, mission: int) -> bool:
    """True when ``mission`` fails only with two or more sabotage cards (mission 4, 7+)."""
    return mission == TWO_SABOTAGE_MISSION and n_players >= TWO_SABOTAGE_MIN_PLAYERS


# --------------------------------------------------------------------------- physical cards


class Suit(enum.StrEnum):
    """Playing-card suits used for the role pile."""

    DIAMONDS = "diamonds"
    CLUBS = "clubs"


SUIT_SYMBOLS: Mapping[Suit, str] = {Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


@dataclass(frozen=True)
class RoleCard:
    """One physical playing card of the role pile (table mode)."""

    rank: str
    """"2".."9" (number cards only; the diamond honours 10-A mark the team)."""
    suit: Suit
    """Diamonds for heroes (the 9 for the double agent), clubs for spies."""
    role: Role
    """The role the card stands for."""

    @property
    def label(self) -> str:
        """Short written label, e.g. ``"9♦"``."""
        return f"{self.rank}{SUIT_SYMBOLS[self.suit]}"


_HERO_RANKS = ("2", "3", "4", "5", "6", "7")
_SPY_RANKS = ("2", "3", "4", "5")


def role_pile(n_players: int, *, double_agent: bool = True) -> tuple[RoleCard, ...]:
    """Which playing cards form the role pile for ``n_players``.

    The 9 of diamonds is the double agent, other diamond number cards (2, 3, 4...) are the
    heroes, clubs (2, 3, 4...) are the spies. Without the double agent, the 9 is replaced by
    one more plain hero card.
    """
    counts = role_counts(n_players, double_agent=double_agent)
    cards: list[RoleCard] = []
    if counts.double_agents:
        cards.append(RoleCard("9", Suit.DIAMONDS, Role.DOUBLE_AGENT))
    cards.extend(RoleCard(r, Suit.DIAMONDS, Role.HERO) for r in _HERO_RANKS[: counts.heroes])
    cards.extend(RoleCard(r, Suit.CLUBS, Role.SPY) for r in _SPY_RANKS[: counts.spies])
    return tuple(cards)


# --------------------------------------------------------------------------- night phase


@dataclass(frozen=True)
class NightStep:
    """One instruction of the night phase (the narrator's words live in the host)."""

    id: str
    """Stable identifier the host maps to a sentence, e.g. ``"spies_open"``."""
    actors: tuple[Role, ...]
    """Roles that do something at this step (every role for the "everyone" steps)."""
    double_agent_only: bool
    """True when the step is skipped in the variant without the double agent."""


_ALL_ROLES = (Role.DOUBLE_AGENT, Role.HERO, Role.SPY)

NIGHT_STEPS: tuple[NightStep, ...] = (
    NightStep("all_close", _ALL_ROLES, False),
    NightStep("spies_open", (Role.SPY,), False),
    NightStep("spies_close_thumbs", (Role.SPY,), True),
    NightStep("double_agent_open", (Role.DOUBLE_AGENT,), True),
    NightStep("thumbs_down_double_agent_close", (Role.SPY, Role.DOUBLE_AGENT), True),
    NightStep("all_open", _ALL_ROLES, False),
)
"""The six narrator steps of the rules, in order."""


def night_steps(*, double_agent: bool = True) -> tuple[NightStep, ...]:
    """The steps to narrate; without the double agent, steps 3-5 are skipped."""
    return tuple(s for s in NIGHT_STEPS if double_agent or not s.double_agent_only)


@dataclass(frozen=True)
class NightKnowledge:
    """What one player knows after the night phase."""

    player: str
    """The player."""
    role: Role | None
    """Their role (None in table mode: the engine does not know it)."""
    team: Team | None
    """Their team (None in table mode)."""
    spies: tuple[str, ...]
    """The spies this player has seen, in seating order (empty for plain heroes)."""
    steps: tuple[str, ...]
    """Ids of the night steps where this player acts (empty in table mode)."""


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Setup(Action):
    """Chance action: deal the roles (host mode) and choose the first leader."""

    secret_fields: ClassVar[tuple[str, ...]] = ("roles",)

    first_leader: str
    """The first leader."""
    roles: tuple[Role, ...] | None
    """One role per seat in host mode; None in table mode (players hold cards)."""


@dataclass(frozen=True)
class ProposeTeam(PlayerAction):
    """The leader (``player``) names the team for the current mission."""

    team: tuple[str, ...]
    """The team members (the leader may include themself)."""


@dataclass(frozen=True)
class CastVote(PlayerAction):
    """One player's public vote on the proposed team (``player`` is the voter)."""

    approve: bool
    """True for yes (thumbs up)."""


@dataclass(frozen=True)
class RecordVoteCount(PlayerAction):
    """Count mode: the leader (``player``) states how many players voted yes; resolves the
    vote at once."""

    yes: int
    """Number of yes votes, 0 to the number of players."""


@dataclass(frozen=True)
class PlayMissionCard(PlayerAction):
    """Host mode: a team member (``player``) secretly plays success or sabotage."""

    secret_fields: ClassVar[tuple[str, ...]] = ("sabotage",)

    sabotage: bool
    """True for sabotage (spies only)."""


@dataclass(frozen=True)
class ReportSabotages(PlayerAction):
    """Table mode: the leader (``player``) says how many sabotage cards the shuffled
    mission cards showed."""

    count: int
    """Sabotage cards revealed, 0 to the team size."""


@dataclass(frozen=True)
class Accuse(PlayerAction):
    """The spies' final guess of the double agent (after three successes): ``player`` is
    the spy who says it (in table mode the host cannot know who the spies are, and takes
    anyone's word)."""

    accused: str
    """The player the spies point at."""


@dataclass(frozen=True)
class ConfirmDoubleAgent(PlayerAction):
    """Table mode: the accused player (``player``) says whether they were the double
    agent."""

    was_double_agent: bool
    """True when the accused holds the 9 of diamonds."""


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class RoleDealt(Event):
    """Host mode, secret: a player's role and what they learn at night."""

    player: str
    """Who receives the role."""
    role: Role
    """Their role."""
    known_spies: tuple[str, ...]
    """The spies this player sees at night (empty for plain heroes)."""
    audience: tuple[str, ...]
    """Only this player may see the event."""


@dataclass(frozen=True)
class MissionStarted(Event):
    """A mission begins: what the next team must look like."""

    mission: int
    """Mission number, 1-5."""
    team_size: int
    """Players the team needs."""
    two_needed: bool
    """True when two sabotages are needed to fail it."""


@dataclass(frozen=True)
class LeaderChanged(Event):
    """A new leader (also the first one)."""

    leader: str
    """The new leader."""
    previous: str | None
    """The previous leader (None for the first)."""


@dataclass(frozen=True)
class TeamProposed(Event):
    """The leader proposed a team; everyone votes now."""

    mission: int
    """Mission number."""
    leader: str
    """The leader."""
    team: tuple[str, ...]
    """The proposed team, as named."""


@dataclass(frozen=True)
class VoteCast(Event):
    """One player voted (votes are public)."""

    player: str
    """The voter."""
    approve: bool
    """Their vote."""
    waiting: tuple[str, ...]
    """Players who still have to vote."""


@dataclass(frozen=True)
class VoteResult(Event):
    """The vote on a team was resolved."""

    mission: int
    """Mission number."""
    leader: str
    """Leader who proposed the team."""
    team: tuple[str, ...]
    """The team voted on."""
    yes: tuple[str, ...]
    """Who voted yes (empty in count mode)."""
    no: tuple[str, ...]
    """Who voted no (empty in count mode)."""
    yes_count: int
    """Number of yes votes."""
    no_count: int
    """Number of no votes."""
    approved: bool
    """True with a strict majority of yes."""
    rejections: int
    """Rejections in a row for this mission after this vote."""


@dataclass(frozen=True)
class MissionCardPlayed(Event):
    """Host mode: a team member played their card (not which one)."""

    player: str
    """Who played."""
    waiting: tuple[str, ...]
    """Team members who still have to play."""


@dataclass(frozen=True)
class MissionResult(Event):
    """The shuffled mission cards were revealed."""

    mission: int
    """Mission number."""
    team: tuple[str, ...]
    """The team."""
    sabotages: int
    """Number of sabotage cards (never who played them)."""
    succeeded: bool
    """True when the mission succeeded."""
    two_needed: bool
    """True when two sabotages were needed to fail it."""
    successes: int
    """Successful missions so far."""
    failures: int
    """Failed missions so far."""


@dataclass(frozen=True)
class AccusationStarted(Event):
    """Three successes with the double agent: the spies reveal themselves and must guess."""

    spies: tuple[str, ...] | None
    """The spies, who now reveal themselves (None in table mode: they show their cards)."""


@dataclass(frozen=True)
class AccusationMade(Event):
    """The spies pointed at a player as the double agent."""

    accused: str
    """The accused player."""


@dataclass(frozen=True)
class AccusationResult(Event):
    """Whether the spies found the double agent."""

    accused: str
    """The accused player."""
    correct: bool
    """True when the accused was the double agent."""
    double_agent: str | None
    """The double agent when known (host mode, or a correct guess in table mode)."""


@dataclass(frozen=True)
class RolesRevealed(Event):
    """Host mode, at the end: everyone turns over their role card."""

    roles: tuple[tuple[str, Role], ...]
    """(player, role) in seating order."""


@dataclass(frozen=True)
class GameOver(Event):
    """The game ended."""

    winners: tuple[str, ...]
    """``("heroes",)`` or ``("spies",)``."""
    reason: str
    """three_successes, three_failures, five_rejections, double_agent_found or
    double_agent_missed."""
    scores: tuple[tuple[str, int], ...]
    """(team, missions won): (("heroes", successes), ("spies", failures))."""


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class VoteRecord:
    """A resolved vote (public)."""

    mission: int
    """Mission number."""
    leader: str
    """The leader."""
    team: tuple[str, ...]
    """The team voted on."""
    yes: tuple[str, ...]
    """Who voted yes (empty in count mode)."""
    no: tuple[str, ...]
    """Who voted no (empty in count mode)."""
    yes_count: int
    """Number of yes votes."""
    approved: bool
    """Whether the team was approved."""


@dataclass(frozen=True)
class MissionRecord:
    """A played mission (public)."""

    mission: int
    """Mission number."""
    leader: str
    """The leader whose team went."""
    team: tuple[str, ...]
    """The team."""
    sabotages: int
    """Number of sabotage cards."""
    succeeded: bool
    """Whether it succeeded."""
    two_needed: bool
    """Whether two sabotages were needed to fail it."""


class Phase(enum.StrEnum):
    """The phases, as ``phase()`` returns them."""

    SETUP = "setup"
    TEAM = "team"
    VOTE = "vote"
    MISSION = "mission"
    ACCUSE = "accuse"
    ANSWER = "answer"
    OVER = "over"


# --------------------------------------------------------------------------- state


_ACTION_TYPES: tuple[type[Action], ...] = (
    Setup,
    ProposeTeam,
    CastVote,
    RecordVoteCount,
    PlayMissionCard,
    ReportSabotages,
    Accuse,
    ConfirmDoubleAgent,
)

_EVENT_TYPES: tuple[type[Event], ...] = (
    RoleDealt,
    MissionStarted,
    LeaderChanged,
    TeamProposed,
    VoteCast,
    VoteResult,
    MissionCardPlayed,
    MissionResult,
    AccusationStarted,
    AccusationMade,
    AccusationResult,
    RolesRevealed,
    GameOver,
)


class ResistanceRefusal(IllegalAction):
    """A move the rules of Resistance refuse now: a code and its parameters (the host says
    it in the game's language; ``reason`` is the English sentence below)."""

    messages: ClassVar[Mapping[str, str]] = {
        "not_a_move": "That is not a move in Resistance.",
        "already_started": "The game has already started.",
        "not_started": "The game has not started yet.",
        "team_first": "{leader} must first propose a team for mission {mission}.",
        "vote_first": "Everyone must first vote on the proposed team.",
        "mission_first": "Mission {mission} must be finished first.",
        "accusation_first": "The spies must first name the double agent.",
        "answer_first": "{player} must first say whether they were the double agent.",
        "game_over": "The game is over.",
        "unknown_player": "Nobody called {name} is playing.",
        "roles_missing": "The host must deal a role to every player.",
        "roles_count": "Deal exactly one role to each of the {players} players.",
        "roles_mismatch": "Those roles do not match the role table for this game.",
        "roles_at_table": "At this table the players deal their own role cards.",
        "not_leader": "{leader} is the leader, not {player}.",
        "leader_counts": "{leader} is the leader and says how many voted yes, not {player}.",
        "leader_reports": "{leader} is the leader and says how many sabotage cards there "
                          "were, not {player}.",
        "named_twice": "You named {name} twice.",
        "wrong_team_size": "The team for mission {mission} needs {size} players, "
                           "you named {named}.",
        "already_voted": "{player} already voted.",
        "vote_yes_or_no": "A vote is yes or no.",
        "yes_count_range": "The number of yes votes must be between 0 and {players}.",
        "voted_one_by_one": "{voters} already voted one by one; please finish the vote "
                            "that way.",
        "cards_at_table": "At this table, tell me how many sabotage cards were revealed.",
        "not_on_team": "{player} is not on the team for mission {mission}.",
        "already_played": "{player} already played a card.",
        "success_or_sabotage": "Play success or sabotage.",
        "heroes_play_success": "Heroes can only play success.",
        "cards_to_host": "Each team member must play a card to me.",
        "sabotages_from_zero": "Tell me how many sabotage cards there were, from zero up.",
        "too_many_sabotages_team": "Mission {mission} had {size} cards, so there can be at "
                                   "most {size} sabotages.",
        "too_many_sabotages_spies": "There are only {spies} spies, so there can be at most "
                                    "{spies} sabotages.",
        "accused_is_spy": "{player} is a spy; point at someone else.",
        "only_spies_accuse": "{player}, only the spies choose now: {spies}.",
        "only_accused_answers": "{player}, only {accused} answers this. {accused}, were you "
                                "the double agent? Yes or no.",
        "answer_yes_or_no": "Answer yes or no.",
    }


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class ResistanceState:
    """The state of one game of Resistance (with or without the double agent)."""

    description: ClassVar[GameDescription] = GameDescription(
        name="resistance",
        title="Resistance with a double agent",
        min_players=5,
        max_players=10,
    )
    refusals: ClassVar[type[IllegalAction]] = ResistanceRefusal
    action_types: ClassVar[tuple[type[Action], ...]] = _ACTION_TYPES
    event_types: ClassVar[tuple[type[Event], ...]] = _EVENT_TYPES

    def __init__(
        self, players: Sequence[str], *, deal: Deal = Deal.TABLE, double_agent: bool = True
    ) -> None:
        self._players: tuple[str, ...] = check_player_names(players, self.description)
        self._deal = Deal(deal)
        self._double_agent = bool(double_agent)
        self._roles: dict[str, Role] | None = None
        self._phase = Phase.SETUP
        self._leader_index: int | None = None
        self._mission = 1
        self._rejections = 0
        self._team: tuple[str, ...] | None = None
        self._votes: dict[str, bool] = {}
        self._cards: dict[str, bool] = {}
        self._vote_log: list[VoteRecord] = []
        self._mission_log: list[MissionRecord] = []
        self._accused: str | None = None
        self._accusation_correct: bool | None = None
        self._outcome: Outcome | None = None
        self._history: list[Action] = []

    @classmethod
    def new(
        cls, players: Sequence[str], *, deal: Deal = Deal.TABLE, double_agent: bool = True
    ) -> ResistanceState:
        """A fresh game at the setup chance node. Raises SetupError for a bad seating list."""
        return cls(players, deal=deal, double_agent=double_agent)

    # ----------------------------------------------------------------- simple queries

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def deal(self) -> Deal:
        return self._deal

    @property
    def double_agent(self) -> bool:
        """True when the double agent variant is on."""
        return self._double_agent

    def phase(self) -> str:
        return self._phase.value

    @property
    def leader(self) -> str | None:
        """The current leader (None before setup)."""
        return None if self._leader_index is None else self._players[self._leader_index]

    @property
    def mission(self) -> int:
        """The current mission number, 1-5 (the last one played once the game is over)."""
        return self._mission

    @property
    def rejections(self) -> int:
        """Rejections in a row for the current mission (face-down counting cards)."""
        return self._rejections

    @property
    def proposed_team(self) -> tuple[str, ...] | None:
        """The team being voted on or on the mission (None in the team phase)."""
        return self._team

    @property
    def votes(self) -> Mapping[str, bool]:
        """Votes cast so far in the running vote."""
        return dict(self._votes)

    @property
    def mission_history(self) -> tuple[MissionRecord, ...]:
        return tuple(self._mission_log)

    @property
    def vote_history(self) -> tuple[VoteRecord, ...]:
        return tuple(self._vote_log)

    @property
    def successes(self) -> int:
        return sum(1 for m in self._mission_log if m.succeeded)

    @property
    def failures(self) -> int:
        return sum(1 for m in self._mission_log if not m.succeeded)

    @property
    def accused(self) -> str | None:
        return self._accused

    def team_size(self, mission: int | None = None) -> int:
        """Team size for ``mission`` (default: the current one)."""
        return team_size(len(self._players), self._mission if mission is None else mission)

    def two_sabotages_needed(self, mission: int | None = None) -> bool:
        """Whether ``mission`` (default: the current one) needs two sabotages to fail."""
        m = self._mission if mission is None else mission
        return two_sabotages_needed(len(self._players), m)

    def role_counts(self) -> RoleCounts:
        return role_counts(len(self._players), double_agent=self._double_agent)

    def role_pile(self) -> tuple[RoleCard, ...]:
        """The physical role cards for this table (table mode)."""
        return role_pile(len(self._players), double_agent=self._double_agent)

    def night_steps(self) -> tuple[NightStep, ...]:
        return night_steps(double_agent=self._double_agent)

    def role_of(self, player: str) -> Role | None:
        """The secret role of ``player`` (host mode after setup; None otherwise). Secret!"""
        return None if self._roles is None else self._roles.get(player)

    def spies(self) -> tuple[str, ...] | None:
        """The spies in seating order (host mode after setup; None otherwise). Secret!"""
        if self._roles is None:
            return None
        return tuple(p for p in self._players if self._roles[p] is Role.SPY)

    def night_knowledge(self, player: str) -> NightKnowledge:
        """What ``player`` knows after the night (nothing the engine knows in table mode)."""
        self._check_known(player)
        role = self.role_of(player)
        if role is None:
            return NightKnowledge(player, None, None, (), ())
        spies = self.spies() or ()
        seen = spies if role in (Role.SPY, Role.DOUBLE_AGENT) else ()
        steps = tuple(s.id for s in self.night_steps() if role in s.actors)
        return NightKnowledge(player, role, ROLE_TEAM[role], seen, steps)

    def is_chance_node(self) -> bool:
        return self._phase is Phase.SETUP

    def is_terminal(self) -> bool:
        return self._phase is Phase.OVER

    def outcome(self) -> Outcome | None:
        return self._outcome

    def current_players(self) -> tuple[str, ...]:
        phase = self._phase
        if phase is Phase.TEAM:
            return (self._players[self._leader_index or 0],)
        if phase is Phase.VOTE:
            return tuple(p for p in self._players if p not in self._votes)
        if phase is Phase.MISSION:
            if self._deal is Deal.HOST:
                return tuple(p for p in self._team or () if p not in self._cards)
            return (self._players[self._leader_index or 0],)
        if phase is Phase.ACCUSE:
            spies = self.spies()
            return spies if spies is not None else self._players
        if phase is Phase.ANSWER:
            return (self._accused,) if self._accused else ()
        return ()

    # ----------------------------------------------------------------- chance

    def chance_action(self, rng: random.Random) -> Setup:
        return self.setup_action(rng)

    def setup_action(self, rng: random.Random, *, first_leader: str | None = None) -> Setup:
        """The setup chance action: roles shuffled from ``rng`` (host mode) and a random
        first leader, or ``first_leader`` when the host chose one."""
        if self._phase is not Phase.SETUP:
            raise ResistanceRefusal("already_started")
        roles: tuple[Role, ...] | None = None
        if self._deal is Deal.HOST:
            pile = list(self.role_counts().as_roles())
            rng.shuffle(pile)
            roles = tuple(pile)
        leader = rng.choice(self._players) if first_leader is None else first_leader
        return Setup(first_leader=leader, roles=roles)

    # ----------------------------------------------------------------- legal actions

    def legal_actions(self, player: str | None = None) -> list[Action]:
        actions = self._all_legal_actions()
        if player is None:
            return actions
        return [a for a in actions if player in self._actors(a)]

    def _actors(self, action: Action) -> tuple[str, ...]:
        """Who may take ``action`` (for legal_actions(player))."""
        return (action.player,) if isinstance(action, PlayerAction) else ()

    def _all_legal_actions(self) -> list[Action]:
        phase = self._phase
        n = len(self._players)
        if phase is Phase.TEAM:
            leader = self._players[self._leader_index or 0]
            return [
                ProposeTeam(leader, team)
                for team in itertools.combinations(self._players, self.team_size())
            ]
        if phase is Phase.VOTE:
            out: list[Action] = [
                CastVote(p, approve) for p in self._players if p not in self._votes
                for approve in (True, False)
            ]
            if not self._votes:
                leader = self._players[self._leader_index or 0]
                out.extend(RecordVoteCount(leader, yes) for yes in range(n + 1))
            return out
        if phase is Phase.MISSION:
            if self._deal is Deal.HOST:
                assert self._roles is not None
                cards: list[Action] = []
                for p in self._team or ():
                    if p in self._cards:
                        continue
                    cards.append(PlayMissionCard(p, False))
                    if self._roles[p] is Role.SPY:
                        cards.append(PlayMissionCard(p, True))
                return cards
            leader = self._players[self._leader_index or 0]
            return [ReportSabotages(leader, c) for c in range(self._max_sabotages() + 1)]
        if phase is Phase.ACCUSE:
            spies = self.spies() or ()
            return [Accuse(spy, p) for spy in self.current_players()
                    for p in self._players if p not in spies]
        if phase is Phase.ANSWER:
            accused = self._accused or ""
            return [ConfirmDoubleAgent(accused, True), ConfirmDoubleAgent(accused, False)]
        return []

    def random_action(self, rng: random.Random) -> Action:
        if self._phase is Phase.SETUP:
            return self.chance_action(rng)
        if self._phase is Phase.TEAM:
            # Sampled directly: listing every team (up to 252) each time is slow.
            chosen = set(rng.sample(self._players, self.team_size()))
            team = tuple(p for p in self._players if p in chosen)
            return ProposeTeam(self._players[self._leader_index or 0], team)
        actions = self._all_legal_actions()
        if not actions:
            raise GameError("The game is over.")
        return rng.choice(actions)

    # ----------------------------------------------------------------- apply

    def apply(self, action: Action) -> list[Event]:
        handler = self._HANDLERS.get(type(action))
        if handler is None:
            raise ResistanceRefusal("not_a_move")
        phase, method = handler
        if self._phase is not phase:
            raise self._wrong_phase()
        events: list[Event] = getattr(self, method)(action)
        self._history.append(action)
        return events

    _HANDLERS: ClassVar[dict[type, tuple[Phase, str]]] = {
        Setup: (Phase.SETUP, "_apply_setup"),
        ProposeTeam: (Phase.TEAM, "_apply_propose"),
        CastVote: (Phase.VOTE, "_apply_vote"),
        RecordVoteCount: (Phase.VOTE, "_apply_vote_count"),
        PlayMissionCard: (Phase.MISSION, "_apply_card"),
        ReportSabotages: (Phase.MISSION, "_apply_report"),
        Accuse: (Phase.ACCUSE, "_apply_accuse"),
        ConfirmDoubleAgent: (Phase.ANSWER, "_apply_confirm"),
    }

    def _wrong_phase(self) -> ResistanceRefusal:
        """The refusal of a move that belongs to another phase: what must happen first."""
        phase = self._phase
        if phase is Phase.SETUP:
            return ResistanceRefusal("not_started")
        if phase is Phase.TEAM:
            return ResistanceRefusal("team_first", leader=self.leader, mission=self._mission)
        if phase is Phase.VOTE:
            return ResistanceRefusal("vote_first")
        if phase is Phase.MISSION:
            return ResistanceRefusal("mission_first", mission=self._mission)
        if phase is Phase.ACCUSE:
            return ResistanceRefusal("accusation_first")
        if phase is Phase.ANSWER:
            return ResistanceRefusal("answer_first", player=self._accused)
        return ResistanceRefusal("game_over")

    def _check_known(self, name: object) -> str:
        if not isinstance(name, str) or name not in self._players:
            raise ResistanceRefusal("unknown_player", name=str(name))
        return name

    # setup ------------------------------------------------------------------

    def _apply_setup(self, action: Setup) -> list[Event]:
        leader = self._check_known(action.first_leader)
        roles: dict[str, Role] | None = None
        if self._deal is Deal.HOST:
            if action.roles is None:
                raise ResistanceRefusal("roles_missing")
            given = tuple(action.roles)
            if len(given) != len(self._players) or not all(isinstance(r, Role) for r in given):
                raise ResistanceRefusal("roles_count", players=len(self._players))
            if sorted(given) != sorted(self.role_counts().as_roles()):
                raise ResistanceRefusal("roles_mismatch")
            roles = dict(zip(self._players, given, strict=True))
        elif action.roles is not None:
            raise ResistanceRefusal("roles_at_table")
        # mutate
        self._roles = roles
        self._leader_index = self._players.index(leader)
        self._phase = Phase.TEAM
        events: list[Event] = []
        if roles is not None:
            for p in self._players:
                k = self.night_knowledge(p)
                events.append(RoleDealt(p, roles[p], k.spies, (p,)))
        events.append(MissionStarted(1, self.team_size(), self.two_sabotages_needed()))
        events.append(LeaderChanged(leader, None))
        return events

    # team ------------------------------------------------------------------

    def _check_leader(self, player: object, code: str = "not_leader") -> None:
        """Only the leader proposes, counts the votes and reports the mission (``code``
        says which)."""
        leader = self._players[self._leader_index or 0]
        if player != leader:
            self._check_known(player)
            if code == "leader_counts":
                raise ResistanceRefusal("leader_counts", leader=leader, player=player)
            if code == "leader_reports":
                raise ResistanceRefusal("leader_reports", leader=leader, player=player)
            raise ResistanceRefusal("not_leader", leader=leader, player=player)

    def _apply_propose(self, action: ProposeTeam) -> list[Event]:
        leader = self._players[self._leader_index or 0]
        self._check_leader(action.player)
        team = tuple(action.team)
        for name in team:
            self._check_known(name)
        seen: set[str] = set()
        for name in team:
            if name in seen:
                raise ResistanceRefusal("named_twice", name=name)
            seen.add(name)
        size = self.team_size()
        if len(team) != size:
            raise ResistanceRefusal("wrong_team_size", mission=self._mission, size=size,
                                    named=len(team))
        self._team = team
        self._votes = {}
        self._phase = Phase.VOTE
        return [TeamProposed(self._mission, leader, team)]

    # vote ------------------------------------------------------------------

    def _apply_vote(self, action: CastVote) -> list[Event]:
        player = self._check_known(action.player)
        if player in self._votes:
            raise ResistanceRefusal("already_voted", player=player)
        if not isinstance(action.approve, bool):
            raise ResistanceRefusal("vote_yes_or_no")
        self._votes[player] = action.approve
        waiting = tuple(p for p in self._players if p not in self._votes)
        events: list[Event] = [VoteCast(player, action.approve, waiting)]
        if not waiting:
            yes = tuple(p for p in self._players if self._votes[p])
            no = tuple(p for p in self._players if not self._votes[p])
            events.extend(self._resolve_vote(yes, no, len(yes)))
        return events

    def _apply_vote_count(self, action: RecordVoteCount) -> list[Event]:
        self._check_leader(action.player, "leader_counts")
        n = len(self._players)
        if not _is_int(action.yes) or not 0 <= action.yes <= n:
            raise ResistanceRefusal("yes_count_range", players=n)
        if self._votes:
            raise ResistanceRefusal("voted_one_by_one", voters=tuple(self._votes))
        return self._resolve_vote((), (), action.yes)

    def _resolve_vote(
        self, yes: tuple[str, ...], no: tuple[str, ...], yes_count: int
    ) -> list[Event]:
        n = len(self._players)
        no_count = n - yes_count
        approved = yes_count > no_count  # strict majority; a tie is a no
        leader = self._players[self._leader_index or 0]
        team = self._team or ()
        self._votes = {}
        self._vote_log.append(VoteRecord(self._mission, leader, team, yes, no, yes_count, approved))
        events: list[Event] = []
        if approved:
            self._phase = Phase.MISSION
            self._cards = {}
            events.append(
                VoteResult(self._mission, leader, team, yes, no, yes_count, no_count, True,
                           self._rejections)
            )
            # Leadership passes left after the mission this vote started (see module doc).
            return events
        self._rejections += 1
        self._team = None
        events.append(
            VoteResult(self._mission, leader, team, yes, no, yes_count, no_count, False,
                       self._rejections)
        )
        if self._rejections >= MAX_REJECTIONS:
            events.extend(self._finish((Team.SPIES.value,), "five_rejections"))
            return events
        self._phase = Phase.TEAM
        events.append(self._pass_leadership())
        return events

    def _pass_leadership(self) -> LeaderChanged:
        previous = self._players[self._leader_index or 0]
        self._leader_index = ((self._leader_index or 0) + 1) % len(self._players)
        return LeaderChanged(self._players[self._leader_index], previous)

    # mission ----------------------------------------------------------------

    def _max_sabotages(self) -> int:
        return min(len(self._team or ()), self.role_counts().spies)

    def _apply_card(self, action: PlayMissionCard) -> list[Event]:
        if self._deal is not Deal.HOST:
            raise ResistanceRefusal("cards_at_table")
        player = self._check_known(action.player)
        team = self._team or ()
        if player not in team:
            raise ResistanceRefusal("not_on_team", player=player, mission=self._mission)
        if player in self._cards:
            raise ResistanceRefusal("already_played", player=player)
        if not isinstance(action.sabotage, bool):
            raise ResistanceRefusal("success_or_sabotage")
        assert self._roles is not None
        if action.sabotage and self._roles[player] is not Role.SPY:
            raise ResistanceRefusal("heroes_play_success")
        self._cards[player] = action.sabotage
        waiting = tuple(p for p in team if p not in self._cards)
        events: list[Event] = [MissionCardPlayed(player, waiting)]
        if not waiting:
            sabotages = sum(1 for s in self._cards.values() if s)
            self._cards = {}
            events.extend(self._resolve_mission(sabotages))
        return events

    def _apply_report(self, action: ReportSabotages) -> list[Event]:
        self._check_leader(action.player, "leader_reports")
        if self._deal is not Deal.TABLE:
            raise ResistanceRefusal("cards_to_host")
        count = action.count
        size = len(self._team or ())
        spies = self.role_counts().spies
        if not _is_int(count) or count < 0:
            raise ResistanceRefusal("sabotages_from_zero")
        if count > size:
            raise ResistanceRefusal("too_many_sabotages_team", mission=self._mission, size=size)
        if count > spies:
            raise ResistanceRefusal("too_many_sabotages_spies", spies=spies)
        return self._resolve_mission(count)

    def _resolve_mission(self, sabotages: int) -> list[Event]:
        two = self.two_sabotages_needed()
        succeeded = sabotages < (2 if two else 1)
        leader = self._players[self._leader_index or 0]
        team = self._team or ()
        self._mission_log.append(
            MissionRecord(self._mission, leader, team, sabotages, succeeded, two)
        )
        successes, failures = self.successes, self.failures
        events: list[Event] = [
            MissionResult(self._mission, team, sabotages, succeeded, two, successes, failures)
        ]
        self._team = None
        self._rejections = 0  # the counting cards are turned face up again
        if failures >= WINNING_MISSIONS:
            events.extend(self._finish((Team.SPIES.value,), "three_failures"))
            return events
        if successes >= WINNING_MISSIONS:
            if not self._double_agent:
                events.extend(self._finish((Team.HEROES.value,), "three_successes"))
                return events
            self._phase = Phase.ACCUSE
            events.append(AccusationStarted(self.spies()))
            return events
        # Five missions always hold three of one kind, so the game ended above by then.
        assert self._mission < MISSIONS
        self._mission += 1
        self._phase = Phase.TEAM
        events.append(MissionStarted(self._mission, self.team_size(), self.two_sabotages_needed()))
        events.append(self._pass_leadership())
        return events

    # accusation ---------------------------------------------------------------

    def _apply_accuse(self, action: Accuse) -> list[Event]:
        spy = self._check_known(action.player)
        if spy not in self.current_players():
            raise ResistanceRefusal("only_spies_accuse", player=spy, spies=self.current_players())
        accused = self._check_known(action.accused)
        if self._roles is not None:
            if self._roles[accused] is Role.SPY:
                raise ResistanceRefusal("accused_is_spy", player=accused)
            correct = self._roles[accused] is Role.DOUBLE_AGENT
            double_agent = next(p for p in self._players if self._roles[p] is Role.DOUBLE_AGENT)
            self._accused = accused
            self._accusation_correct = correct
            events: list[Event] = [
                AccusationMade(accused),
                AccusationResult(accused, correct, double_agent),
            ]
            events.extend(self._finish_accusation(correct))
            return events
        self._accused = accused
        self._phase = Phase.ANSWER
        return [AccusationMade(accused)]

    def _apply_confirm(self, action: ConfirmDoubleAgent) -> list[Event]:
        player = self._check_known(action.player)
        if player != self._accused:
            raise ResistanceRefusal("only_accused_answers", player=player,
                                    accused=self._accused)
        if not isinstance(action.was_double_agent, bool):
            raise ResistanceRefusal("answer_yes_or_no")
        accused = self._accused or ""
        correct = action.was_double_agent
        self._accusation_correct = correct
        events: list[Event] = [AccusationResult(accused, correct, accused if correct else None)]
        events.extend(self._finish_accusation(correct))
        return events

    def _finish_accusation(self, correct: bool) -> list[Event]:
        if correct:
            return self._finish((Team.SPIES.value,), "double_agent_found")
        return self._finish((Team.HEROES.value,), "double_agent_missed")

    def _finish(self, winners: tuple[str, ...], reason: str) -> list[Event]:
        scores = ((Team.HEROES.value, self.successes), (Team.SPIES.value, self.failures))
        self._phase = Phase.OVER
        self._outcome = Outcome(winners=winners, scores=dict(scores), reason=reason)
        events: list[Event] = []
        if self._roles is not None:
            events.append(RolesRevealed(tuple((p, self._roles[p]) for p in self._players)))
        events.append(GameOver(winners, reason, scores))
        return events

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> JSON:
        return {
            "game": self.description.name,
            "version": VERSION,
            "players": list(self._players),
            "deal": self._deal.value,
            "double_agent": self._double_agent,
            "roles": None if self._roles is None else [self._roles[p].value
                                                       for p in self._players],
            "phase": self._phase.value,
            "leader": self.leader,
            "mission": self._mission,
            "rejections": self._rejections,
            "team": None if self._team is None else list(self._team),
            "votes": [[p, v] for p, v in self._votes.items()],
            "cards": [[p, s] for p, s in self._cards.items()],
            "vote_log": [_vote_record_json(v) for v in self._vote_log],
            "mission_log": [_mission_record_json(m) for m in self._mission_log],
            "accused": self._accused,
            "accusation_correct": self._accusation_correct,
            "outcome": None if self._outcome is None else {
                "winners": list(self._outcome.winners),
                "scores": dict(self._outcome.scores),
                "reason": self._outcome.reason,
            },
            "history": [action_to_json(a) for a in self._history],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ResistanceState:
        if data.get("game") != cls.description.name:
            raise GameError("That saved game is not a game of Resistance.")
        if data.get("version") == 1:
            return cls._from_version_1(data)
        if data.get("version") != VERSION:
            raise GameError("That saved game comes from another version.")
        state = cls(data["players"], deal=Deal(data["deal"]),
                    double_agent=bool(data["double_agent"]))
        players = state._players
        if data["roles"] is not None:
            state._roles = {p: Role(r) for p, r in zip(players, data["roles"], strict=True)}
        state._phase = Phase(data["phase"])
        state._leader_index = None if data["leader"] is None else players.index(data["leader"])
        state._mission = int(data["mission"])
        state._rejections = int(data["rejections"])
        state._team = None if data["team"] is None else tuple(data["team"])
        state._votes = {p: bool(v) for p, v in data["votes"]}
        state._cards = {p: bool(s) for p, s in data["cards"]}
        state._vote_log = [
            VoteRecord(v["mission"], v["leader"], tuple(v["team"]), tuple(v["yes"]),
                       tuple(v["no"]), v["yes_count"], v["approved"])
            for v in data["vote_log"]
        ]
        state._mission_log = [
            MissionRecord(m["mission"], m["leader"], tuple(m["team"]), m["sabotages"],
                          m["succeeded"], m["two_needed"])
            for m in data["mission_log"]
        ]
        state._accused = data["accused"]
        state._accusation_correct = data["accusation_correct"]
        out = data["outcome"]
        state._outcome = None if out is None else Outcome(
            winners=tuple(out["winners"]), scores=dict(out["scores"]), reason=out["reason"]
        )
        state._history = [action_from_json(cls, a) for a in data["history"]]
        return state

    @classmethod
    def _from_version_1(cls, data: Mapping[str, Any]) -> ResistanceState:
        """A game saved before actions named their actor: its history is replayed with
        each actor filled in as the state stood (the leader proposed, counted and reported;
        the accused answered; the first spy, or in table mode the first player, accused),
        and the result must be the saved game."""
        fresh = cls(data["players"], deal=Deal(data["deal"]),
                    double_agent=bool(data["double_agent"]))
        return replay(fresh, data, _upgrade_version_1)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ResistanceState):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def copy(self) -> ResistanceState:
        return ResistanceState.from_json(self.to_json())

    # ----------------------------------------------------------------- views

    def public_view(self) -> JSON:
        """Only public facts: no role, no card played by anyone, no action history."""
        view: JSON = {
            "game": self.description.name,
            "deal": self._deal.value,
            "double_agent": self._double_agent,
            "players": list(self._players),
            "phase": self._phase.value,
            "current_players": list(self.current_players()),
            "leader": self.leader,
            "mission": self._mission,
            "team_size": self.team_size(),
            "two_sabotages_needed": self.two_sabotages_needed(),
            "team_sizes": list(TEAM_SIZES[len(self._players)]),
            "role_counts": {
                "double_agents": self.role_counts().double_agents,
                "heroes": self.role_counts().heroes,
                "spies": self.role_counts().spies,
            },
            "proposed_team": None if self._team is None else list(self._team),
            "voted": [p for p in self._players if p in self._votes],
            "played_card": [p for p in self._team or () if p in self._cards],
            "rejections": self._rejections,
            "successes": self.successes,
            "failures": self.failures,
            "missions": [_mission_record_json(m) for m in self._mission_log],
            "votes": [_vote_record_json(v) for v in self._vote_log],
            "revealed_spies": None,
            "accused": self._accused,
            "accusation_correct": self._accusation_correct,
            "outcome": None if self._outcome is None else {
                "winners": list(self._outcome.winners),
                "scores": dict(self._outcome.scores),
                "reason": self._outcome.reason,
            },
        }
        # The rules make the spies public once they reveal themselves for the accusation.
        if self._phase in (Phase.ACCUSE, Phase.ANSWER) or self._accused is not None:
            spies = self.spies()
            view["revealed_spies"] = None if spies is None else list(spies)
        return view

    def player_view(self, player: str) -> JSON:
        """The public view plus what ``player`` knows: their role and the spies they saw."""
        self._check_known(player)
        view = self.public_view()
        knowledge = self.night_knowledge(player)
        view["you"] = player
        view["role"] = None if knowledge.role is None else knowledge.role.value
        view["team"] = None if knowledge.team is None else knowledge.team.value
        view["known_spies"] = list(knowledge.spies)
        view["night_steps"] = list(knowledge.steps)
        view["my_mission_card"] = (
            None if player not in self._cards
            else ("sabotage" if self._cards[player] else "success")
        )
        return view


def _upgrade_version_1(state: ResistanceState, record: JSON) -> JSON:
    """A version-1 action record as version 2 writes it, its actor taken from ``state``."""
    kind = record.get("type")
    if kind == "ProposeTeam":
        record["player"] = record.pop("leader")
    elif kind in ("RecordVoteCount", "ReportSabotages"):
        record["player"] = state.leader
    elif kind == "Accuse":
        record["accused"] = record.pop("player")
        record["player"] = state.current_players()[0]
    elif kind == "ConfirmDoubleAgent":
        record["player"] = state.accused
    return record


def _vote_record_json(v: VoteRecord) -> JSON:
    return {
        "mission": v.mission,
        "leader": v.leader,
        "team": list(v.team),
        "yes": list(v.yes),
        "no": list(v.no),
        "yes_count": v.yes_count,
        "approved": v.approved,
    }


def _mission_record_json(m: MissionRecord) -> JSON:
    return {
        "mission": m.mission,
        "leader": m.leader,
        "team": list(m.team),
        "sabotages": m.sabotages,
        "succeeded": m.succeeded,
        "two_needed": m.two_needed,
    }


__all__ = [
    "MISSIONS",
    "NIGHT_STEPS",
    "ROLE_TABLE",
    "ROLE_TEAM",
    "TEAM_SIZES",
    "Accuse",
    "AccusationMade",
    "AccusationResult",
    "AccusationStarted",
    "CastVote",
    "ConfirmDoubleAgent",
    "GameOver",
    "LeaderChanged",
    "MissionCardPlayed",
    "MissionRecord",
    "MissionResult",
    "MissionStarted",
    "NightKnowledge",
    "NightStep",
    "Phase",
    "PlayMissionCard",
    "ProposeTeam",
    "RecordVoteCount",
    "ReportSabotages",
    "ResistanceRefusal",
    "ResistanceState",
    "Role",
    "RoleCard",
    "RoleCounts",
    "RoleDealt",
    "RolesRevealed",
    "Setup",
    "Suit",
    "Team",
    "TeamProposed",
    "VoteCast",
    "VoteRecord",
    "VoteResult",
    "night_steps",
    "role_counts",
    "role_pile",
    "team_size",
    "two_sabotages_needed",
]
