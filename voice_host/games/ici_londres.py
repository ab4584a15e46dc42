"""Ici Londres: the Speaker codes two icons into one radio sentence; the receivers guess.

Rules: ``shared/rules/ici-londres.md``. One round:

* ``draw`` (chance node): the Speaker draws 2 of the 36 icons. With ``Deal.HOST`` the engine
  draws and knows them (``Draw(("heart", "book"))``); with ``Deal.TABLE`` the Speaker holds
  physical cards and the engine knows nothing (``Draw(None)``).
* ``guess``: receivers (everyone but the Speaker) name icons with :class:`Pick`, at most 2
  each, never an icon already named this round, in the order of the round's
  :class:`Transmission` type. Turn order starts at the Speaker's left, so the Wehrmacht
  guesses first.
* ``answer`` (table mode only): after each icon named, the Speaker says whether it is on one
  of the cards (:class:`JudgePick`).
* A found icon scores 2: all to the Wehrmacht if the Wehrmacht found it, else 1 to the finder
  and 1 to the Speaker. The round ends when both icons are found or no receiver has a pick
  left; the Speaker and Wehrmacht roles move one seat clockwise and the cards go back into
  the pile (every draw is from all 36 icons).

Decisions where the rules leave a gap (documented for the host):

* *Double 0*: a pick names exactly 2 icons ("2 icons at once"). *Contre la montre*: a pick
  names 1 or 2; a player who named 1 keeps the turn until they name the second or the host's
  clock runs out (:class:`TimeUp`, the missing picks are lost). *Réseaux concurrents*: any
  receiver with picks left names 1 or 2 icons at any time; an icon already named is taken.
  *Bribes de message*: 1 icon per pick, two laps of the table.
* There is no "pass": the rules make every receiver point at 2 icons (except when time is up
  in Contre la montre).
* When a pick names 2 icons and the first one completes the message, the second one is a miss
  (both cards are already shown); the engine resolves it without asking the Speaker.
* Icons that nobody found stay secret after the round (the rules never show them).
* The transmission type changes after every full cycle of Speakers, in the order
  fragments -> competing -> double-zero -> countdown -> fragments, starting from the chosen
  type. The winners are the players with the highest total after the last round.
"""

from __future__ import annotations

import enum
import itertools
import json
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
    SetupError,
    action_from_json,
    action_to_json,
    check_player_names,
    game_name,
    replay,
)
from voice_host.games.icons import ICON_NAMES

GAME = game_name(__name__)
VERSION = 2
"""Version of :meth:`IciLondresState.to_json` (2: the Speaker's answer names its actor;
version 1 is read by replaying its history)."""
ICONS_PER_MESSAGE = 2
"""The Speaker draws 2 icons."""
PICKS_PER_RECEIVER = 2
"""Each receiver names at most 2 icons per round."""
WEHRMACHT_POINTS = 2
"""The Wehrmacht takes both points of an icon it finds."""
DEFAULT_ROUNDS = 12
ROUNDS_WITH_FIVE = 10

_ICON_SET = frozenset(ICON_NAMES)


class Transmission(enum.StrEnum):
    """The four transmission types, in the order the game rotates through them."""

    FRAGMENTS = "fragments"
    """Bribes de message: one icon per turn, in turn order, two laps."""
    COMPETING = "competing"
    """Réseaux concurrents: everyone at once, an icon already taken cannot be taken again."""
    DOUBLE_ZERO = "double-zero"
    """Double 0: in turn order, 2 icons at once."""
    COUNTDOWN = "countdown"
    """Contre la montre: like Double 0 against a 10-second count; time up loses the picks."""

    @property
    def french_title(self) -> str:
        """The French name on the rules card."""
        return TRANSMISSION_TITLES[self]

    def next(self) -> Transmission:
        """The type that follows this one after a full cycle of Speakers."""
        order = list(Transmission)
        return order[(order.index(self) + 1) % len(order)]


TRANSMISSION_TITLES: Mapping[Transmission, str] = {
    Transmission.FRAGMENTS: "Bribes de message",
    Transmission.COMPETING: "Réseaux concurrents",
    Transmission.DOUBLE_ZERO: "Double 0",
    Transmission.COUNTDOWN: "Contre la montre",
}

_SEQUENTIAL = (Transmission.FRAGMENTS, Transmission.DOUBLE_ZERO, Transmission.COUNTDOWN)


def default_rounds(player_count: int) -> int:
    """12 rounds, 10 with 5 players (so everyone is Speaker equally often)."""
    return ROUNDS_WITH_FIVE if player_count == 5 else DEFAULT_ROUNDS


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Draw(Action):
    """Chance: the Speaker draws the message."""

    secret_fields: ClassVar[tuple[str, ...]] = ("icons",)

    icons: tuple[str, str] | None
    """The 2 drawn icons (host deals), or None when the Speaker draws physical cards."""


@dataclass(frozen=True)
class Pick(PlayerAction):
    """A receiver (``player``) names one or two icons."""

    icons: tuple[str, ...]
    """1 or 2 icon names (English identifiers, see ``icons.ICON_NAMES``), in spoken order."""


@dataclass(frozen=True)
class JudgePick(PlayerAction):
    """Table mode: the Speaker (``player``) says whether the icon just named is on one of
    the cards."""

    icon: str
    """The icon being answered for (the first one waiting for an answer)."""
    hit: bool
    """True when the icon is one of the Speaker's 2 cards."""


@dataclass(frozen=True)
class TimeUp(PlayerAction):
    """Contre la montre: the host's count reached 0 before ``player``, the receiver whose
    turn it is, named 2 icons (the host's clock acts in their name: they lose the picks)."""


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class RoundStarted(Event):
    """A new round: roles and type for it (emitted with the draw)."""

    round: int
    """Round number, from 1."""
    total_rounds: int
    """How many rounds the game has."""
    speaker: str
    """Who codes the message."""
    wehrmacht: str
    """The Speaker's left neighbour; guesses first and must not intercept."""
    receivers: tuple[str, ...]
    """Everyone but the Speaker, in turn order (Wehrmacht first)."""
    mode: Transmission
    """Transmission type of this round."""


@dataclass(frozen=True)
class IconsDrawn(Event):
    """The Speaker drew the message. Secret: only the Speaker may see the icons."""

    speaker: str
    """The Speaker."""
    icons: tuple[str, ...] | None
    """The 2 icons (host deals); None when the Speaker holds physical cards."""
    audience: tuple[str, ...]
    """Who may see this event: the Speaker only."""


@dataclass(frozen=True)
class PickMade(Event):
    """A receiver named an icon (one event per icon)."""

    player: str
    """The receiver."""
    icon: str
    """The icon named."""
    picks_left: int
    """How many icons this receiver may still name this round."""
    awaiting_answer: bool
    """True in table mode: the Speaker must now say hit or miss."""


@dataclass(frozen=True)
class IconRevealed(Event):
    """A named icon is on one of the Speaker's cards: the card is shown and points scored."""

    icon: str
    """The icon found."""
    finder: str
    """Who named it."""
    by_wehrmacht: bool
    """True when the Wehrmacht intercepted it."""
    points: tuple[tuple[str, int], ...]
    """Points awarded: ((finder, 2),) or ((finder, 1), (speaker, 1))."""
    found: int
    """How many of the 2 icons are now found."""


@dataclass(frozen=True)
class Miss(Event):
    """A named icon is not on the Speaker's cards."""

    player: str
    """Who named it."""
    icon: str
    """The icon named."""


@dataclass(frozen=True)
class TimeUpEvent(Event):
    """Contre la montre: a receiver ran out of time."""

    player: str
    """The receiver."""
    picks_lost: int
    """How many picks they lose (1 or 2)."""


@dataclass(frozen=True)
class RoundEnded(Event):
    """Guessing is over; roles are about to move one seat clockwise."""

    round: int
    """The round that ended."""
    speaker: str
    """Its Speaker."""
    found: tuple[str, ...]
    """Icons found this round (0 to 2); the others stay secret."""
    complete: bool
    """True when both icons were found."""
    scores: tuple[tuple[str, int], ...]
    """Totals after the round, in seating order."""
    next_speaker: str | None
    """Speaker of the next round (None after the last round)."""
    next_wehrmacht: str | None
    """Wehrmacht of the next round (None after the last round)."""


@dataclass(frozen=True)
class TransmissionChanged(Event):
    """Every player has been Speaker once more: the next round uses a new type."""

    round: int
    """The first round with the new type."""
    old: Transmission
    """The type so far."""
    new: Transmission
    """The type from now on."""


@dataclass(frozen=True)
class GameOver(Event):
    """The last round is over."""

    winners: tuple[str, ...]
    """Players with the highest total (ties share the win)."""
    reason: str
    """Always ``"rounds_played"``."""
    scores: tuple[tuple[str, int], ...]
    """Final totals, in seating order."""


# --------------------------------------------------------------------------- state


@dataclass
class _Named:
    player: str
    icon: str
    hit: bool | None  # None: waiting for the Speaker's answer (table mode)


def _copy_record(record: Mapping[str, Any]) -> JSON:
    """A fresh copy of a JSON action record (its values are scalars or lists of scalars)."""
    return {k: list(v) if isinstance(v, (list, tuple)) else v for k, v in record.items()}


# --------------------------------------------------------------------------- refusals


class IciLondresRefusal(IllegalAction):
    """A move the rules of Ici Londres refuse. Parameters: ``player``, ``speaker`` and
    ``turn`` are player names; ``icon`` and ``pending`` icon identifiers (``icon`` may be an
    unknown word in ``unknown_icon`` and ``answer_for``)."""

    messages: ClassVar[Mapping[str, str]] = {
        # phase
        "game_over": "The game is over.",
        "not_drawn": "{speaker} has not drawn the message yet.",
        "already_drawn": "The message for this round is already drawn.",
        "no_draw_now": "Nobody needs to draw now.",
        "answer_first": "{speaker} must first say whether the {icon} is a hit or a miss.",
        "nothing_to_answer": "Nobody has named an icon for {speaker} to answer.",
        "not_a_move": "That is not a move in Ici Londres.",
        # the draw
        "speaker_draws": "At the table the Speaker draws the cards, not the host.",
        "draw_two": "The host must draw two icons.",
        "draw_different": "The two message cards must show different icons.",
        # who guesses
        "unknown_player": "There is no player called {player}.",
        "speaker_cannot_guess": "{player} is the Speaker and cannot guess.",
        "not_your_turn": "{player}, it is {turn}'s turn to guess.",
        "no_picks_left": "{player} has already named two icons.",
        "one_pick_left": "{player} has only one pick left.",
        # what is named
        "no_icon": "Name an icon.",
        "at_most_two": "You may name at most two icons.",
        "one_at_a_time": "In Bribes de message you name one icon at a time.",
        "two_at_once": "In Double 0 you name two icons at once.",
        "unknown_icon": "There is no icon called {icon}.",
        "twice": "You named the {icon} twice.",
        "already_named": "The {icon} was already named this round.",
        "already_taken": "The {icon} is already taken by {player}.",
        # the Speaker's answer (table mode)
        "host_holds_cards": "The host holds the cards, so the Speaker need not answer.",
        "answer_for": "{speaker} must answer for the {pending}, not the {icon}.",
        "say_hit_or_miss": "Say hit or miss.",
        "only_speaker_answers": "Only {speaker}, the Speaker, says hit or miss, not {player}.",
        # Contre la montre
        "no_clock": "Time only runs out in Contre la montre.",
        "not_their_time": "It is {turn}'s turn, not {player}'s.",
    }


def _upgrade_version_1(state: IciLondresState, record: JSON) -> JSON:
    """A version-1 action record as version 2 writes it: the answer is the Speaker's."""
    if record.get("type") == "JudgePick":
        record["player"] = state.speaker
    return record


class IciLondresState:
    """The whole game. Build with :meth:`new`; drive with ``apply``."""

    description: ClassVar[GameDescription] = GameDescription(
        name=GAME,
        title="Ici Londres",
        min_players=3,
        max_players=6,
    )
    refusals: ClassVar[type[IllegalAction]] = IciLondresRefusal
    action_types: ClassVar[tuple[type[Action], ...]] = (Draw, Pick, JudgePick, TimeUp)
    event_types: ClassVar[tuple[type[Event], ...]] = (
        RoundStarted, IconsDrawn, PickMade, IconRevealed, Miss, TimeUpEvent, RoundEnded,
        TransmissionChanged, GameOver,
    )

    def __init__(self, players: tuple[str, ...], *, deal: Deal, mode: Transmission,
                 rounds: int, first_speaker: str) -> None:
        """Use :meth:`new`, which validates the options."""
        self._players = players
        self._deal = deal
        self._first_mode = mode
        self._total_rounds = rounds
        self._first_speaker = first_speaker
        self._first_index = players.index(first_speaker)
        self._round = 1
        self._drawing = True
        self._over = False
        self._scores: dict[str, int] = {p: 0 for p in players}
        self._drawn: tuple[str, ...] | None = None
        self._named: list[_Named] = []
        self._found: list[str] = []
        self._picks_left: dict[str, int] = {}
        self._history: list[JSON] = []  # applied actions, as JSON records
        self._winners: tuple[str, ...] = ()
        self._start_round_bookkeeping()

    @classmethod
    def new(cls, players: Sequence[str], *, deal: Deal = Deal.TABLE,
            mode: Transmission | str = Transmission.FRAGMENTS, rounds: int | None = None,
            first_speaker: str | None = None) -> IciLondresState:
        """A new game. ``players`` in seating order, clockwise. ``first_speaker`` defaults
        to ``players[0]``; ``rounds`` to 12 (10 with 5 players)."""
        names = check_player_names(players, cls.description)
        try:
            first_mode = Transmission(mode)
        except ValueError:
            raise SetupError("setup.transmission", mode=str(mode)) from None
        if rounds is None:
            rounds = default_rounds(len(names))
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            raise SetupError("setup.no_rounds")
        speaker = names[0] if first_speaker is None else first_speaker.strip()
        if speaker not in names:
            raise SetupError("setup.first_speaker", speaker=speaker)
        return cls(names, deal=Deal(deal), mode=first_mode, rounds=rounds,
                   first_speaker=speaker)

    # ----------------------------------------------------------------- public facts

    @property
    def players(self) -> tuple[str, ...]:
        """Seating order, clockwise."""
        return self._players

    @property
    def deal(self) -> Deal:
        """Who holds the message cards."""
        return self._deal

    @property
    def round_number(self) -> int:
        """The current round, from 1 (the last round once the game is over)."""
        return self._round

    @property
    def total_rounds(self) -> int:
        """How many rounds the game has."""
        return self._total_rounds

    @property
    def mode(self) -> Transmission:
        """Transmission type of the current round."""
        return self.mode_of_round(self._round)

    def mode_of_round(self, round_number: int) -> Transmission:
        """Transmission type of any round: changes after every full cycle of Speakers."""
        cycles = (round_number - 1) // len(self._players)
        order = list(Transmission)
        return order[(order.index(self._first_mode) + cycles) % len(order)]

    def speaker_of_round(self, round_number: int) -> str:
        """Who is Speaker in a round: one seat clockwise each round."""
        n = len(self._players)
        return self._players[(self._first_index + round_number - 1) % n]

    @property
    def speaker(self) -> str:
        """The current Speaker."""
        return self.speaker_of_round(self._round)

    @property
    def wehrmacht(self) -> str:
        """The Speaker's left-hand neighbour."""
        return self.receivers[0]

    @property
    def receivers(self) -> tuple[str, ...]:
        """Everyone but the Speaker, in turn order (clockwise from the Wehrmacht)."""
        n = len(self._players)
        start = self._players.index(self.speaker)
        return tuple(self._players[(start + k) % n] for k in range(1, n))

    @property
    def named_icons(self) -> tuple[str, ...]:
        """Icons named so far this round, in order."""
        return tuple(n.icon for n in self._named)

    @property
    def found_icons(self) -> tuple[str, ...]:
        """Icons of the message found so far this round."""
        return tuple(self._found)

    @property
    def picks_left(self) -> dict[str, int]:
        """Picks each receiver may still make this round (a copy)."""
        return dict(self._picks_left)

    @property
    def pending_icon(self) -> tuple[str, str] | None:
        """Table mode: (player, icon) the Speaker must answer hit or miss for, else None."""
        for n in self._named:
            if n.hit is None:
                return (n.player, n.icon)
        return None

    @property
    def scores(self) -> dict[str, int]:
        """Totals so far (a copy)."""
        return dict(self._scores)

    def role_of(self, player: str) -> str:
        """"speaker", "wehrmacht" or "résistant" in the current round (roles are public)."""
        if player == self.speaker:
            return "speaker"
        if player == self.wehrmacht:
            return "wehrmacht"
        return "résistant"

    # ----------------------------------------------------------------- protocol

    def phase(self) -> str:
        if self._over:
            return "over"
        if self._drawing:
            return "draw"
        if self.pending_icon is not None:
            return "answer"
        return "guess"

    def is_chance_node(self) -> bool:
        return self.phase() == "draw"

    def is_terminal(self) -> bool:
        return self._over

    def current_players(self) -> tuple[str, ...]:
        phase = self.phase()
        if phase == "answer":
            return (self.speaker,)
        if phase != "guess":
            return ()
        if self.mode is Transmission.COMPETING:
            return tuple(p for p in self.receivers if self._picks_left[p] > 0)
        turn = self._turn()
        return () if turn is None else (turn,)

    def _turn(self) -> str | None:
        """Sequential types: the receiver whose turn it is (None when nobody has picks)."""
        receivers = self.receivers
        if self.mode is Transmission.FRAGMENTS:
            for lap in range(PICKS_PER_RECEIVER):
                for p in receivers:
                    if PICKS_PER_RECEIVER - self._picks_left[p] <= lap:
                        return p
            return None
        for p in receivers:
            if self._picks_left[p] > 0:
                return p
        return None

    def chance_action(self, rng: random.Random) -> Action:
        if not self.is_chance_node():
            raise IciLondresRefusal("no_draw_now")
        if self._deal is Deal.TABLE:
            return Draw(None)
        first, second = rng.sample(ICON_NAMES, ICONS_PER_MESSAGE)
        return Draw((first, second))

    def pick_sizes(self, player: str) -> tuple[int, ...]:
        """How many icons ``player`` may name in one pick now, by the round's transmission
        type and the picks they have left (empty when they have none)."""
        left = self._picks_left.get(player, 0)
        mode = self.mode
        if mode is Transmission.FRAGMENTS:
            sizes: tuple[int, ...] = (1,)
        elif mode is Transmission.DOUBLE_ZERO:
            sizes = (PICKS_PER_RECEIVER,)
        else:
            sizes = (1, 2)
        return tuple(s for s in sizes if s <= left)

    def legal_actions(self, player: str | None = None) -> list[Action]:
        phase = self.phase()
        if phase == "draw":
            if player is not None:
                return []
            if self._deal is Deal.TABLE:
                return [Draw(None)]
            return [Draw(pair) for pair in itertools.combinations(ICON_NAMES, 2)]
        actors = self.current_players()
        if player is not None and player not in actors:
            return []
        if phase == "answer":
            pending = self.pending_icon
            assert pending is not None
            return [JudgePick(self.speaker, pending[1], True),
                    JudgePick(self.speaker, pending[1], False)]
        if phase != "guess":
            return []
        free = [icon for icon in ICON_NAMES if icon not in self.named_icons]
        actions: list[Action] = []
        for p in actors if player is None else (player,):
            sizes = self.pick_sizes(p)
            if 1 in sizes:
                actions.extend(Pick(p, (icon,)) for icon in free)
            if 2 in sizes:
                actions.extend(Pick(p, pair) for pair in itertools.combinations(free, 2))
            if self.mode is Transmission.COUNTDOWN:
                actions.append(TimeUp(p))
        return actions

    def random_action(self, rng: random.Random) -> Action:
        """A random legal action, without listing them all (fast, for simulations)."""
        phase = self.phase()
        if phase == "draw":
            return self.chance_action(rng)
        if phase == "answer":
            pending = self.pending_icon
            assert pending is not None
            return JudgePick(self.speaker, pending[1], rng.random() < 0.5)
        actors = self.current_players()
        if not actors:
            raise IciLondresRefusal("game_over")
        player = rng.choice(actors)
        if self.mode is Transmission.COUNTDOWN and rng.random() < 0.1:
            return TimeUp(player)
        size = rng.choice(self.pick_sizes(player))
        taken = set(self.named_icons)
        free = [icon for icon in ICON_NAMES if icon not in taken]
        return Pick(player, tuple(rng.sample(free, size)))

    def outcome(self) -> Outcome | None:
        if not self._over:
            return None
        return Outcome(winners=self._winners, scores=dict(self._scores),
                       reason="rounds_played")

    # ----------------------------------------------------------------- apply

    def apply(self, action: Action) -> list[Event]:
        if isinstance(action, Draw):
            events = self._apply_draw(action)
        elif isinstance(action, Pick):
            events = self._apply_pick(action)
        elif isinstance(action, JudgePick):
            events = self._apply_judge(action)
        elif isinstance(action, TimeUp):
            events = self._apply_time_up(action)
        else:
            raise IciLondresRefusal("not_a_move")
        return events

    def _check_phase(self, wanted: str) -> None:
        phase = self.phase()
        if phase == wanted:
            return
        if phase == "over":
            raise IciLondresRefusal("game_over")
        if phase == "draw":
            raise IciLondresRefusal("not_drawn", speaker=self.speaker)
        if phase == "answer":
            pending = self.pending_icon
            assert pending is not None
            raise IciLondresRefusal("answer_first", speaker=self.speaker, icon=pending[1])
        if wanted == "draw":
            raise IciLondresRefusal("already_drawn")
        raise IciLondresRefusal("nothing_to_answer", speaker=self.speaker)

    def _check_receiver(self, player: str) -> None:
        if player not in self._players:
            raise IciLondresRefusal("unknown_player", player=player)
        if player == self.speaker:
            raise IciLondresRefusal("speaker_cannot_guess", player=player)

    def _apply_draw(self, action: Draw) -> list[Event]:
        self._check_phase("draw")
        icons = action.icons
        if self._deal is Deal.TABLE:
            if icons is not None:
                raise IciLondresRefusal("speaker_draws")
        else:
            if icons is None or len(icons) != ICONS_PER_MESSAGE:
                raise IciLondresRefusal("draw_two")
            for icon in icons:
                if not isinstance(icon, str) or icon not in _ICON_SET:
                    raise IciLondresRefusal("unknown_icon", icon=str(icon))
            if icons[0] == icons[1]:
                raise IciLondresRefusal("draw_different")
        self._history.append(action_to_json(action))
        self._drawing = False
        self._drawn = None if icons is None else tuple(icons)
        speaker = self.speaker
        return [
            RoundStarted(round=self._round, total_rounds=self._total_rounds, speaker=speaker,
                         wehrmacht=self.wehrmacht, receivers=self.receivers, mode=self.mode),
            IconsDrawn(speaker=speaker, icons=self._drawn, audience=(speaker,)),
        ]

    def _apply_pick(self, action: Pick) -> list[Event]:
        self._check_phase("guess")
        player, icons, mode = action.player, action.icons, self.mode
        self._check_receiver(player)
        left = self._picks_left[player]
        if mode is not Transmission.COMPETING:
            turn = self._turn()
            if player != turn:
                raise IciLondresRefusal("not_your_turn", player=player, turn=turn)
        elif left == 0:
            raise IciLondresRefusal("no_picks_left", player=player)
        if not isinstance(icons, tuple) or not icons:
            raise IciLondresRefusal("no_icon")
        if len(icons) > PICKS_PER_RECEIVER:
            raise IciLondresRefusal("at_most_two")
        if mode is Transmission.FRAGMENTS and len(icons) != 1:
            raise IciLondresRefusal("one_at_a_time")
        if mode is Transmission.DOUBLE_ZERO and len(icons) != PICKS_PER_RECEIVER:
            raise IciLondresRefusal("two_at_once")
        if len(icons) > left:
            raise IciLondresRefusal("one_pick_left", player=player)
        for icon in icons:
            if not isinstance(icon, str) or icon not in _ICON_SET:
                raise IciLondresRefusal("unknown_icon", icon=str(icon))
        if len(icons) == 2 and icons[0] == icons[1]:
            raise IciLondresRefusal("twice", icon=icons[0])
        for icon in icons:
            for earlier in self._named:
                if earlier.icon != icon:
                    continue
                if mode is Transmission.COMPETING:
                    raise IciLondresRefusal("already_taken", icon=icon, player=earlier.player)
                raise IciLondresRefusal("already_named", icon=icon)
        # valid: mutate
        self._history.append(action_to_json(action))
        events: list[Event] = []
        for icon in icons:
            self._picks_left[player] -= 1
            if self._deal is Deal.TABLE and len(self._found) < ICONS_PER_MESSAGE:
                self._named.append(_Named(player, icon, None))
                events.append(PickMade(player, icon, self._picks_left[player], True))
                continue
            events.append(PickMade(player, icon, self._picks_left[player], False))
            hit = (self._drawn is not None and icon in self._drawn
                   and len(self._found) < ICONS_PER_MESSAGE)
            self._named.append(_Named(player, icon, hit))
            events.append(self._resolve(player, icon, hit))
        events.extend(self._maybe_end_round())
        return events

    def _resolve(self, player: str, icon: str, hit: bool) -> Event:
        """Score a judged icon (the _Named record is already updated)."""
        if not hit:
            return Miss(player, icon)
        self._found.append(icon)
        if player == self.wehrmacht:
            points: tuple[tuple[str, int], ...] = ((player, WEHRMACHT_POINTS),)
        else:
            points = ((player, 1), (self.speaker, 1))
        for name, value in points:
            self._scores[name] += value
        return IconRevealed(icon=icon, finder=player, by_wehrmacht=player == self.wehrmacht,
                            points=points, found=len(self._found))

    def _apply_judge(self, action: JudgePick) -> list[Event]:
        if self._deal is Deal.HOST:
            raise IciLondresRefusal("host_holds_cards")
        self._check_phase("answer")
        pending = self.pending_icon
        assert pending is not None
        if action.player != self.speaker:
            raise IciLondresRefusal("only_speaker_answers", speaker=self.speaker,
                                    player=str(action.player))
        if action.icon != pending[1]:
            raise IciLondresRefusal("answer_for", speaker=self.speaker, pending=pending[1],
                          icon=str(action.icon))
        if not isinstance(action.hit, bool):
            raise IciLondresRefusal("say_hit_or_miss")
        self._history.append(action_to_json(action))
        record = next(n for n in self._named if n.hit is None)
        record.hit = action.hit
        events: list[Event] = [self._resolve(record.player, record.icon, action.hit)]
        if len(self._found) >= ICONS_PER_MESSAGE:
            # both cards shown: anything still waiting is a miss by necessity
            for n in self._named:
                if n.hit is None:
                    n.hit = False
                    events.append(Miss(n.player, n.icon))
        events.extend(self._maybe_end_round())
        return events

    def _apply_time_up(self, action: TimeUp) -> list[Event]:
        self._check_phase("guess")
        if self.mode is not Transmission.COUNTDOWN:
            raise IciLondresRefusal("no_clock")
        self._check_receiver(action.player)
        turn = self._turn()
        if action.player != turn:
            raise IciLondresRefusal("not_their_time", turn=turn, player=action.player)
        self._history.append(action_to_json(action))
        lost = self._picks_left[action.player]
        self._picks_left[action.player] = 0
        events: list[Event] = [TimeUpEvent(action.player, lost)]
        events.extend(self._maybe_end_round())
        return events

    def _maybe_end_round(self) -> list[Event]:
        if self.pending_icon is not None:
            return []
        if len(self._found) < ICONS_PER_MESSAGE and any(self._picks_left.values()):
            return []
        ended = self._round
        speaker = self.speaker
        found = tuple(self._found)
        last = ended >= self._total_rounds
        old_mode = self.mode
        events: list[Event] = []
        if last:
            self._over = True
            scores = self._score_pairs()
            events.append(RoundEnded(ended, speaker, found, len(found) == ICONS_PER_MESSAGE,
                                     scores, None, None))
            best = max(self._scores.values())
            self._winners = tuple(p for p in self._players if self._scores[p] == best)
            events.append(GameOver(self._winners, "rounds_played", scores))
            return events
        # roles move one seat clockwise; cards go back into the pile
        self._round += 1
        self._drawing = True
        self._start_round_bookkeeping()
        events.append(RoundEnded(ended, speaker, found, len(found) == ICONS_PER_MESSAGE,
                                 self._score_pairs(), self.speaker, self.wehrmacht))
        if self.mode is not old_mode:
            events.append(TransmissionChanged(self._round, old_mode, self.mode))
        return events

    def _start_round_bookkeeping(self) -> None:
        self._drawn = None
        self._named = []
        self._found = []
        self._picks_left = {p: PICKS_PER_RECEIVER for p in self.receivers}

    def _score_pairs(self) -> tuple[tuple[str, int], ...]:
        return tuple((p, self._scores[p]) for p in self._players)

    # ----------------------------------------------------------------- views

    def public_view(self) -> JSON:
        phase = self.phase()
        pending = self.pending_icon
        return {
            "game": GAME,
            "phase": phase,
            "deal": self._deal.value,
            "round": self._round,
            "total_rounds": self._total_rounds,
            "mode": self.mode.value,
            "mode_title": self.mode.french_title,
            "players": list(self._players),
            "speaker": self.speaker,
            "wehrmacht": self.wehrmacht,
            "receivers": list(self.receivers),
            "current_players": list(self.current_players()),
            "scores": dict(self._scores),
            "named": [{"player": n.player, "icon": n.icon, "hit": n.hit} for n in self._named],
            "found": list(self._found),
            "picks_left": dict(self._picks_left),
            "awaiting_answer": None if pending is None else pending[1],
            "winners": list(self._winners),
        }

    def player_view(self, player: str) -> JSON:
        if player not in self._players:
            raise IciLondresRefusal("unknown_player", player=player)
        view = self.public_view()
        view["you"] = player
        if (self._deal is Deal.HOST and player == self.speaker and self._drawn is not None
                and not self._over):
            view["message"] = list(self._drawn)
        return view

    # ----------------------------------------------------------------- persistence

    def to_json(self) -> JSON:
        return {
            "game": GAME,
            "version": VERSION,
            "players": list(self._players),
            "deal": self._deal.value,
            "first_mode": self._first_mode.value,
            "first_speaker": self._first_speaker,
            "rounds": self._total_rounds,
            "round": self._round,
            "phase": self.phase(),
            "scores": dict(self._scores),
            "drawn": None if self._drawn is None else list(self._drawn),
            "named": [[n.player, n.icon, n.hit] for n in self._named],
            "found": list(self._found),
            "picks_left": dict(self._picks_left),
            "winners": list(self._winners),
            "history": [_copy_record(r) for r in self._history],
        }

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied so far, in order (a host can replay all but the last to undo)."""
        return tuple(action_from_json(type(self), r) for r in self._history)

    def copy(self) -> IciLondresState:
        return IciLondresState.from_json(self.to_json())

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> IciLondresState:
        """Rebuild a saved game from :meth:`to_json` output. Raises ``ValueError`` when the
        data is not a consistent Ici Londres save."""
        if data.get("game") == GAME and data.get("version") == 1:
            return cls._from_version_1(data)
        if data.get("game") != GAME or data.get("version") != VERSION:
            raise ValueError("This is not a saved Ici Londres game of a known version.")
        try:
            state = cls._restore(data)
        except (KeyError, TypeError, ValueError, IndexError, SetupError) as exc:
            raise ValueError(f"The saved Ici Londres game is damaged: {exc}") from None
        if state.to_json() != json.loads(json.dumps(dict(data))):
            raise ValueError("The saved Ici Londres game is not consistent.")
        return state

    @classmethod
    def _from_version_1(cls, data: Mapping[str, Any]) -> IciLondresState:
        """A game saved before the Speaker's answer named its actor: its history is
        replayed (each answer the Speaker's), and the result must be the saved game."""
        try:
            fresh = cls.new(list(data["players"]), deal=Deal(data["deal"]),
                            mode=Transmission(data["first_mode"]), rounds=data["rounds"],
                            first_speaker=data["first_speaker"])
            return replay(fresh, data, _upgrade_version_1)
        except (KeyError, TypeError, ValueError, IndexError, GameError) as exc:
            raise ValueError(f"The saved Ici Londres game is damaged: {exc}") from None

    @classmethod
    def _restore(cls, data: Mapping[str, Any]) -> IciLondresState:
        state = cls.new(list(data["players"]), deal=Deal(data["deal"]),
                        mode=Transmission(data["first_mode"]), rounds=data["rounds"],
                        first_speaker=data["first_speaker"])
        players = state._players
        round_number = data["round"]
        if not isinstance(round_number, int) or not 1 <= round_number <= state._total_rounds:
            raise ValueError("bad round number")
        state._round = round_number
        state._drawing = data["phase"] == "draw"
        state._over = data["phase"] == "over"
        scores = dict(data["scores"])
        if set(scores) != set(players) or not all(type(v) is int for v in scores.values()):
            raise ValueError("bad scores")
        state._scores = {p: scores[p] for p in players}
        drawn = data["drawn"]
        if drawn is not None:
            if state._deal is Deal.TABLE or len(drawn) != ICONS_PER_MESSAGE or not all(
                    icon in _ICON_SET for icon in drawn):
                raise ValueError("bad message")
            drawn = tuple(drawn)
        state._drawn = drawn
        receivers = state.receivers
        named = [_Named(str(p), str(i), h) for p, i, h in data["named"]]
        if not all(n.player in receivers and n.icon in _ICON_SET
                   and (n.hit is None or isinstance(n.hit, bool)) for n in named):
            raise ValueError("bad named icons")
        state._named = named
        found = [str(icon) for icon in data["found"]]
        if found != [n.icon for n in named if n.hit]:
            raise ValueError("bad found icons")
        state._found = found
        picks_left = dict(data["picks_left"])
        if set(picks_left) != set(receivers) or not all(
                type(v) is int and 0 <= v <= PICKS_PER_RECEIVER for v in picks_left.values()):
            raise ValueError("bad picks")
        state._picks_left = {p: picks_left[p] for p in receivers}
        winners = tuple(str(w) for w in data["winners"])
        if not set(winners) <= set(players):
            raise ValueError("bad winners")
        state._winners = winners
        history = [dict(r) for r in data["history"]]
        known = {c.__name__ for c in cls.action_types}
        if not all(r.get("type") in known for r in history):
            raise ValueError("unknown action in history")
        state._history = [_copy_record(r) for r in history]
        return state

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, IciLondresState):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"IciLondresState(round {self._round}/{self._total_rounds}, "
                f"phase={self.phase()}, speaker={self.speaker})")


__all__ = [
    "DEFAULT_ROUNDS",
    "Draw",
    "GameOver",
    "IciLondresState",
    "IconRevealed",
    "IconsDrawn",
    "JudgePick",
    "Miss",
    "Pick",
    "PickMade",
    "ROUNDS_WITH_FIVE",
    "IciLondresRefusal",
    "RoundEnded",
    "RoundStarted",
    "TRANSMISSION_TITLES",
    "TimeUp",
    "TimeUpEvent",
    "Transmission",
    "TransmissionChanged",
    "default_rounds",
]
