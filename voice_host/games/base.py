"""The contract every rules engine follows.

An engine is pure: no I/O, no printing, no clock, no global random state. Shape (after
OpenSpiel's Python games):

* a :class:`GameDescription` (name, player range, options);
* a mutable state class with ``legal_actions()``, ``apply(action) -> list[Event]``,
  ``is_terminal()`` and ``outcome()``;
* randomness only at *chance nodes*: when ``is_chance_node()`` is true the caller asks
  ``chance_action(rng)`` for the random outcome (drawn from an injected ``random.Random``)
  and applies it like any other action, so the outcome is recorded, serializable and
  replayable;
* a closed set of frozen-dataclass actions and events per game, serialized generically;
* every refusal is an :class:`IllegalAction` carrying a *code* and its parameters (the host
  says it in the game's language from its own tables; the engine's English table gives
  ``reason`` so the engine stays usable alone), raised *before* anything changes;
* ``copy()`` gives an independent state to try actions on;
* ``to_json()`` / ``from_json()`` round-trip losslessly at any point;
* hidden information leaves only through ``public_view()`` and ``player_view(name)``.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import random
import types
import typing
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

from voice_host.text import find, lookup_key
from voice_host.wording import Coded, Term

JSON = dict[str, Any]


def game_name(module: str) -> str:
    """A game's one name, as the command line, the saves and the resource files spell it:
    the last part of the name of the module that holds it, with hyphens for underscores
    (``voice_host.games.ici_londres`` -> ``ici-londres``)."""
    return module.rsplit(".", 1)[-1].replace("_", "-")


def module_name(game: str) -> str:
    """The module form of a game's name (``ici-londres`` -> ``ici_londres``), which is also
    its narration table's name."""
    return game.replace("-", "_")


class Deal(enum.StrEnum):
    """Who holds the secrets."""

    HOST = "host"
    """The engine deals and knows every secret (roles, drawn icons, the key)."""
    TABLE = "table"
    """Players hold physical cards; the engine knows only public facts and takes hidden
    outcomes (sabotage count, hit/miss, a tile's colour) as actions."""


class GameError(Exception):
    """Base of every error an engine raises."""


class IllegalAction(GameError):
    """An action the rules do not allow now.

    ``code`` names the rule that refused it (``"not_your_turn"``) and ``params`` the facts
    the sentence needs (names, numbers, words: JSON-friendly values, sequences of names as
    tuples). The host renders it in the game's language; ``reason`` is the engine's own
    English sentence, from the ``messages`` table of the engine's subclass."""

    messages: ClassVar[Mapping[str, str]] = {}
    """Code -> English template with ``{param}`` fields (one table per engine)."""

    def __init__(self, code: str, /, **params: Any) -> None:
        if code not in self.messages:
            raise KeyError(f"{type(self).__name__} has no refusal called {code!r}")
        self.code = code
        self.params: dict[str, Any] = params
        self.reason = self.messages[code].format(**english_params(params))
        super().__init__(self.reason)


def english_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Parameters as the engines' English tables write them: a sequence of names is joined
    ("Ada, Ben and Cleo"), enums by value."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, (tuple, list)):
            out[key] = join_names([str(v) for v in value])
        elif isinstance(value, enum.Enum):
            out[key] = value.value
        else:
            out[key] = value
    return out


class SetupError(Coded, GameError):
    """A game cannot be created with these options (wrong player count, duplicate names...).

    Said by code, like :class:`IllegalAction`: ``SetupError("setup.players_count", title=...,
    low=5, high=10, n=3)``; ``str()`` is the English sentence of :data:`SETUP_MESSAGES`, and
    the host says the code in the game's language. Whatever a value quotes from the command
    line is shown with control and invisible characters escaped."""

    messages: ClassVar[Mapping[str, str]] = {}

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code, **{k: _shown(v) if isinstance(v, str) else v
                                  for k, v in params.items()})
        self.reason = _shown(self.reason)
        self.args = (self.reason,)


SETUP_MESSAGES: dict[str, str] = {
    "setup.players_count": "{title} needs {low} to {high} players, you named {n}.",
    "setup.name_empty": "Every player needs a name.",
    "setup.name_characters": "The name {name} cannot be said aloud: it has {chars} in it. "
                             "Use letters, with spaces, hyphens or apostrophes if needed.",
    "setup.name_no_letters": "The name {name} cannot be said aloud: a name needs letters.",
    "setup.name_too_long": "The name {name} is too long to say in every sentence: use at "
                           "most {n} characters, a first name or a nickname.",
    "setup.names_same": "Two players are called {name} (or names that look the same); "
                        "please give everyone a different name.",
    "setup.deal": "Deal must be host or table, not {deal}.",
    "setup.red_size_number": "The red team size must be a whole number.",
    "setup.teams_too_small": "Each team needs at least 2 players, a spymaster and an "
                             "operative, but the red team has {red} and the blue team has "
                             "{blue}: move a player from the {big} team to the {small} team.",
    "setup.first_team": "The starting team must be red or blue, not {first}.",
    "setup.word_list": "I have no word list called {words}; choose en or fr.",
    "setup.invalid_clue": "The invalid clue option must be refuse or penalty, not {value}.",
    "setup.transmission": "There is no transmission type called {mode}; choose fragments, "
                          "competing, double-zero or countdown.",
    "setup.no_rounds": "The game needs at least one round.",
    "setup.first_speaker": "{speaker} is not one of the players, so cannot speak first.",
}
"""The English sentence of each code the engines raise a :class:`SetupError` with."""
SetupError.messages = SETUP_MESSAGES


@dataclass(frozen=True)
class GameDescription:
    """What a game is, before any state exists."""

    name: str
    """Registry key, e.g. ``"resistance"``."""
    title: str
    """Name a person says, e.g. ``"Resistance with a double agent"``."""
    min_players: int
    """Fewest players the rules allow."""
    max_players: int
    """Most players the rules allow."""


@dataclass(frozen=True)
class Action:
    """Base of all actions. Subclasses are frozen dataclasses of JSON-friendly fields
    (str, int, bool, None, tuples of those, str enums)."""

    secret_fields: ClassVar[tuple[str, ...]] = ()
    """Fields that hold hidden information (dealt roles, drawn icons, the key, a secret
    card): records meant for everyone (logs, the table) leave them out."""


@dataclass(frozen=True)
class PlayerAction(Action):
    """An action a player takes. ``player`` is who acts, and the engine checks that they
    may (the leader proposes, the accused answers, an operative of the team whose turn it
    is guesses...): the host only says who spoke, it judges nothing. Subclasses add their
    own fields after ``player``."""

    player: str
    """The acting player, as the game spells them."""


def actor(action: Action) -> str | None:
    """Who takes ``action``: its player, or None for a chance or host action."""
    return action.player if isinstance(action, PlayerAction) else None


@dataclass(frozen=True)
class Event:
    """Base of all events ``apply`` returns; the narrator turns them into sentences."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    winners: tuple[str, ...]
    """A team name ("heroes", "spies", "red", "blue") or the winning players' names."""
    scores: Mapping[str, int]
    """Final scores by player or team (may be empty where the game has none)."""
    reason: str
    """Short machine-readable reason, e.g. ``"three_failures"``, ``"assassin"``."""


S = TypeVar("S", bound="GameState")


@runtime_checkable
class GameState(Protocol):
    """What every engine state offers. See the module docstring."""

    description: ClassVar[GameDescription]
    refusals: ClassVar[type[IllegalAction]]
    """The engine's :class:`IllegalAction` subclass, whose ``messages`` lists every code it
    raises."""
    action_types: ClassVar[tuple[type[Action], ...]]
    event_types: ClassVar[tuple[type[Event], ...]]

    @property
    def players(self) -> tuple[str, ...]: ...

    def phase(self) -> str: ...

    def current_players(self) -> tuple[str, ...]:
        """Who may act now (several at once in simultaneous phases; empty at a chance node)."""
        ...

    def is_chance_node(self) -> bool: ...

    def chance_action(self, rng: random.Random) -> Action: ...

    def legal_actions(self, player: str | None = None) -> list[Action]:
        """Every legal action now (of ``player`` when given). May be a finite representative
        set where the true set is open (a Codenames clue word)."""
        ...

    def random_action(self, rng: random.Random) -> Action:
        """A uniformly-ish random legal action (chance outcome at a chance node)."""
        ...

    def apply(self, action: Action) -> list[Event]: ...

    def copy(self: S) -> S:
        """An independent state (the host tries an action and its follow-ups on a copy
        before asking for confirmation)."""
        ...

    def is_terminal(self) -> bool: ...

    def outcome(self) -> Outcome | None: ...

    def to_json(self) -> JSON: ...

    @classmethod
    def from_json(cls: type[S], data: Mapping[str, Any]) -> S: ...

    def public_view(self) -> JSON: ...

    def player_view(self, player: str) -> JSON: ...


# --------------------------------------------------------------------------- serialization


def _encode(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return record_to_json(value)
    if isinstance(value, (tuple, list)):
        return [_encode(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in value.items()}
    return value


def record_to_json(record: Any) -> JSON:
    """A frozen action/event dataclass -> ``{"type": ClassName, field: value, ...}``."""
    out: JSON = {"type": type(record).__name__}
    for f in dataclasses.fields(record):
        out[f.name] = _encode(getattr(record, f.name))
    return out


def _decode(tp: Any, value: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        options = [a for a in typing.get_args(tp) if a is not type(None)]
        for arg in options:
            try:
                return _decode(arg, value)
            except (TypeError, ValueError, KeyError):
                continue
        raise ValueError(f"cannot decode {value!r} as {tp}")
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in value)
        return tuple(_decode(a, v) for a, v in zip(args, value, strict=True))
    if origin in (dict, Mapping) or tp in (dict, Mapping):
        args = typing.get_args(tp)
        if args:
            return {k: _decode(args[1], v) for k, v in value.items()}
        return dict(value)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(value)
    if tp is Any:
        return value
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return record_from_json({tp.__name__: tp}, value)
    if tp is int and isinstance(value, bool):
        raise TypeError("bool is not int")
    if isinstance(tp, type) and not isinstance(value, tp):
        if tp is float and isinstance(value, int):
            return float(value)
        raise TypeError(f"{value!r} is not {tp.__name__}")
    return value


def record_from_json(types_by_name: Mapping[str, type], data: Mapping[str, Any]) -> Any:
    """Inverse of :func:`record_to_json`, given the allowed classes by name."""
    name = data["type"]
    cls = types_by_name[name]
    hints = typing.get_type_hints(cls)
    kwargs = {f.name: _decode(hints[f.name], data[f.name]) for f in dataclasses.fields(cls)
              if f.name in data}
    return cls(**kwargs)


def type_registry(classes: Iterable[type]) -> dict[str, type]:
    return {c.__name__: c for c in classes}


def action_to_json(action: Action) -> JSON:
    return record_to_json(action)


def action_from_json(state_cls: type[GameState], data: Mapping[str, Any]) -> Action:
    result = record_from_json(type_registry(state_cls.action_types), data)
    assert isinstance(result, Action)
    return result


def replay(state: S, saved: Mapping[str, Any], upgrade: Callable[[S, JSON], JSON]) -> S:
    """How an engine reads a game saved in an older version of its actions: the fresh
    ``state`` after applying the saved ``history`` (actions as JSON, oldest first), each
    first rewritten by ``upgrade(state, record)`` as the state stands when it is taken. The
    result must be the saved game (every field but ``version`` and ``history``); raises
    :class:`GameError` when an action no longer applies or the history does not lead there."""
    for record in saved["history"]:
        action = action_from_json(type(state), upgrade(state, dict(record)))
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise GameError(f"The saved game's history does not replay: {exc.reason}") from None

    def facts(data: Mapping[str, Any]) -> Any:
        return json.loads(json.dumps({k: v for k, v in data.items()
                                      if k not in ("version", "history")}))

    if facts(state.to_json()) != facts(saved):
        raise GameError("That saved game is damaged: its history does not lead to it.")
    return state


def event_to_json(event: Event) -> JSON:
    return record_to_json(event)


def public_record(record: Action | Event) -> JSON:
    """A record as everyone may see it: secret action fields masked, and an event meant for
    some players only (it has a non-empty ``audience``) reduced to its type and audience."""
    data = record_to_json(record)
    audience = data.get("audience")
    if isinstance(record, Event) and audience:
        return {"type": data["type"], "audience": audience, "secret": True}
    if isinstance(record, Action):
        for name in record.secret_fields:
            if data.get(name) is not None:
                data[name] = "(secret)"
    return data


# --------------------------------------------------------------------------- helpers


def check_player_names(players: Sequence[str], description: GameDescription) -> tuple[str, ...]:
    """Validate a seating list: count within range, names non-empty and unique (case-blind)."""
    names = tuple(p.strip() for p in players)
    n = len(names)
    if not description.min_players <= n <= description.max_players:
        raise SetupError("setup.players_count", title=title_term(description),
                         low=description.min_players, high=description.max_players, n=n)
    if any(not p for p in names):
        raise SetupError("setup.name_empty")
    for p in names:
        problem = name_problem(p)
        if problem:
            raise problem
    seen: set[str] = set()
    for p in names:
        if lookup_key(p) in seen:  # "Zoe" and "Zoë", "Ada" and "ＡＤＡ" look and sound the same
            raise SetupError("setup.names_same", name=p)
        seen.add(lookup_key(p))
    return names


_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u17b4\u17b5\u034f\u2800")
"""Letters and marks that show as nothing (Hangul fillers, Khmer inherent vowels, ...)."""


def _shown(text: str) -> str:
    """``text`` safe to print: control and invisible characters written as escapes."""
    return "".join(c if unicodedata.category(c)[0] in "LMNPSZ" and c != "\x7f"
                   and c not in _INVISIBLE else f"\\u{ord(c):04x}" for c in text)


def find_player(players: Sequence[str], name: object) -> str | None:
    """The seated player called ``name``, as the game spells them (names are unique
    without regard to case or accents, see :func:`check_player_names`), or None."""
    return find(players, name)


MAX_NAME_LENGTH = 24
"""Longest player name (it is said in almost every sentence)."""
_NAME_PUNCTUATION = frozenset(" -'’.")


def name_problem(name: str) -> SetupError | None:
    """Why ``name`` cannot be a player's name (the error to raise), or None. A name is said
    aloud and recognized by ear, so it is letters (any alphabet, with accents), digits, and
    spaces, hyphens, apostrophes or dots between them: no emoji, symbols or markup."""
    bad = [c for c in name if not (unicodedata.category(c)[0] in "LMN"
                                   or c in _NAME_PUNCTUATION) or c in _INVISIBLE]
    if bad:
        return SetupError("setup.name_characters", name=name,
                          chars=repr(_shown("".join(dict.fromkeys(bad)))))
    if not any(unicodedata.category(c)[0] == "L" for c in name) or \
            unicodedata.category(name[0])[0] == "M" or \
            sum(unicodedata.category(c)[0] == "M" for c in name) > len(name) // 2:
        return SetupError("setup.name_no_letters", name=name)
    if len(name) > MAX_NAME_LENGTH:
        return SetupError("setup.name_too_long", name=name, n=MAX_NAME_LENGTH)
    return None


def title_term(description: GameDescription) -> Term:
    """A game's title as a word of the sentence: its catalogue code is ``title.<name>``."""
    return Term(f"title.{description.name}", description.title)


def join_names(names: Sequence[str], conj: str = "and") -> str:
    """'A', 'A and B', 'A, B and C' — for reasons spoken by the engine."""
    names = list(names)
    if not names:
        return "nobody"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" {conj} " + names[-1]
