"""Every game the host can run, registered once.

A game is its engine (``voice_host/games/<game>.py``), its host package (adapter, narration,
bots, companion choices) and its resource files (grammars, narration). Its host package
declares a :class:`GameRegistration` named ``REGISTRATION``; the one line below makes the game known
to the command line, ``simulate``, ``demo``, ``understand``, the companion page and the
tests. Modules are imported on first use, so listing the games costs nothing."""

from __future__ import annotations

import dataclasses
import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voice_host.games import GameDescription, GameState
from voice_host.games.base import game_name, title_term
from voice_host.host.core.messages import OptionError, say
from voice_host.host.core.messages import forget_loaded as forget_messages
from voice_host.host.core.narration import forget_loaded as forget_narration
from voice_host.host.core.options import GameOptions
from voice_host.intent import SlotList, as_spoken
from voice_host.intent.grammar import forget_loaded as forget_grammars

if TYPE_CHECKING:
    from voice_host.host.companion.games import PhoneGame
    from voice_host.host.core.adapter import GameAdapter, Prompt
    from voice_host.host.core.refusals import RefusalWords
    from voice_host.host.core.secrets import SecretSink

REGISTERED: tuple[str, ...] = (
    "voice_host.host.adapters.resistance",
    "voice_host.host.adapters.ici_londres",
    "voice_host.host.adapters.codenames",
)
"""The host modules that declare a ``REGISTRATION``, one line per game. A game's name is
its module's (:func:`~voice_host.games.base.game_name`: ``ici_londres`` is played as
``ici-londres``)."""


def game_names() -> tuple[str, ...]:
    """Every registered game's name, in the order above."""
    return tuple(game_name(m) for m in REGISTERED)


BotUtterance = Callable[["GameAdapter", GameState, "Prompt", random.Random], tuple[str, str]]
"""Demo players: (speaker, what they say) for a prompt — a legal move phrased naturally."""


def no_slot_lists(lang: str, state: GameState | None = None) -> tuple[SlotList, ...]:
    return ()


def seat_players(names: Sequence[str]) -> dict[str, Any]:
    """The usual seating option: every player in one list, in seating order."""
    return {"players": list(names)}


@dataclass(frozen=True)
class GameRegistration:
    """What the host needs to know of one game."""

    state_class: type[GameState]
    """The engine's state class; its ``description`` is the game's spec (name, players,
    options with their defaults and help)."""
    new_game: Callable[[dict[str, Any]], GameState]
    """A fresh state from the JSON-able options the command line builds (kept in saves);
    called through :func:`new_game`, which fills in every option's default first."""
    adapter: Callable[..., GameAdapter]
    """``adapter(options, secret_sink=...)``: the game's voice for one session."""
    refusal_words: RefusalWords
    """The game's values in words for its refusals (icon names, colours...)."""
    bots: BotUtterance
    """Demo and test players."""
    options: type[GameOptions] = GameOptions
    """The game's options dataclass: every option with its default, help and allowed values
    (``deal``, ``lang`` and ``seed`` included), the one place they are defined and checked."""
    seat: Callable[[Sequence[str]], dict[str, Any]] = seat_players
    """The seating options for these players, in order (``simulate``, tests)."""
    demo_seats: Mapping[str, Any] = field(default_factory=dict)
    """The demo's table: the seating options of ``voice-host demo``."""
    slot_lists: Callable[[str, GameState | None], tuple[SlotList, ...]] = no_slot_lists
    """The game's run-time slot lists in a language (like hassil's slot lists): for a
    state, what a phase may name now; for None, example values (the 36 icons, a board of
    words) for ``understand``, the tests and the benchmarks. Their names are the lists the
    game's grammar may use besides its fixed lists and ``{player}``."""
    companion: PhoneGame | None = None
    """What the game lets a player do on the companion page (None: secrets only)."""
    page_script: Path | None = None
    """The game's part of the companion page (its ``page.js``: status, public view and a
    seat's secret, see ``companion.js``), served as ``/game.js`` to this game's tables;
    its words are the ``[page]`` table of its narration files. None: the page shows the
    game by name only."""
    table_script: Path | None = None
    """The game's board on the television (its ``table.js``, see the companion's
    ``table.js``), served as ``/board.js``; its words are the ``[<game>]`` table of
    ``host/lang/<lang>/tv.toml``. None: the television shows the status line only."""
    table_facts: Callable[[GameState], dict[str, Any]] | None = None
    """Public facts the board needs besides the engine's public view (roles revealed and
    key moments once the game is over), sent with every table view."""
    grammar: str = ""
    """The grammar files' name (``grammars/<lang>/<grammar>.toml``); the game's name when
    empty."""

    @property
    def description(self) -> GameDescription:
        return self.state_class.description

    @property
    def name(self) -> str:
        return self.description.name

    @property
    def grammar_name(self) -> str:
        return self.grammar or self.name

    def example_lists(self, lang: str, **given: Sequence[str]) -> tuple[SlotList, ...]:
        """The game's example run-time lists in ``lang``, a list named in ``given``
        replaced by those words, said as written (``board_word=("piano", "ocean")``)."""
        lists = {s.name: s for s in self.slot_lists(lang, None)}
        for name, words in given.items():
            if name in lists and words:
                lists[name] = as_spoken(name, words)
        return tuple(lists.values())

    def defaults(self) -> dict[str, Any]:
        """Every option at its default (the seating left out)."""
        return {f.name: f.default for f in dataclasses.fields(self.options)
                if not f.metadata["spec"].required}

    def complete(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` checked by the game's options dataclass (a :class:`SetupError` with a
        sentence for a bad value), every option it leaves out at its default (a game saved by
        an older version may lack a newer option)."""
        return self.options.from_json(options).to_json()

    @property
    def table_size(self) -> int:
        """Players at the demo's table (what ``simulate`` seats by default)."""
        return sum(len(v) for v in self.demo_seats.values() if isinstance(v, list)) \
            or self.description.min_players

    def command_help(self, lang: str = "en") -> str:
        """The game's line in ``play --help``, in ``lang``."""
        d = self.description
        return say("help.game_command", lang, title=title_term(d), low=d.min_players,
                   high=d.max_players)


@cache
def registration(game: str) -> GameRegistration:
    """The registration of ``game``; a :class:`SetupError` for a name nobody registered."""
    module = next((m for m in REGISTERED if game_name(m) == game), None)
    if module is None:
        raise OptionError("options.unknown_game", game=game)
    found: GameRegistration = importlib.import_module(module).REGISTRATION
    if found.name != game:
        raise OptionError("options.registry_mismatch", module=module, name=found.name,
                          game=game)
    return found


def reload() -> None:
    """Forget every cached registration, narration and grammar: the next look-up imports
    and reads them again (after :data:`REGISTERED` or the resource folders changed)."""
    registration.cache_clear()
    forget_narration()
    forget_messages()
    forget_grammars()


def registrations() -> tuple[GameRegistration, ...]:
    return tuple(registration(name) for name in game_names())


def make_adapter(game: str, options: Mapping[str, Any], *,
                 secret_sink: SecretSink | None = None) -> GameAdapter:
    """The game's voice for one session; ``options["companion"]`` (not a game option: it is
    not saved) says whether the companion pages run."""
    reg = registration(game)
    return reg.adapter({**reg.complete(_game_options(options)),
                        "companion": bool(options.get("companion"))}, secret_sink=secret_sink)


def new_game(game: str, options: Mapping[str, Any]) -> GameState:
    reg = registration(game)
    return reg.new_game(reg.complete(_game_options(options)))


def _game_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The game's options without the session's ``companion`` flag."""
    return {k: v for k, v in options.items() if k != "companion"}
