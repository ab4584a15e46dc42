"""The seam between the generic session loop and one game: prompts, how an understood
intent becomes an engine action, and how events become sentences."""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from voice_host.games import Action, Event, GameState, Outcome, lexicon
from voice_host.host.core.narration import Narrator
from voice_host.host.core.secrets import SecretSink
from voice_host.host.core.understanding import meaning
from voice_host.host.core.values import Heard, Line, Wants
from voice_host.intent import IntentMatch, PhaseGrammar, SlotValues


class PromptKind(enum.StrEnum):
    COMMAND = "command"
    """Waiting for a command of the phase's grammar."""
    RECORD = "record"
    """Recording free speech (the Speaker's coded sentence); no intent expected."""


@dataclass(frozen=True)
class Prompt:
    """What the host is waiting for now."""

    lines: tuple[Line, ...]
    """What to say to ask for it (said again after silence)."""
    phase: str
    """Grammar phase name ("vote", "guess", ...)."""
    expected: tuple[str, ...]
    """Players who may answer; the first is assumed when nobody says who spoke."""
    key: str
    """Identity of this prompt: the host speaks it again only when the key changes."""
    kind: PromptKind = PromptKind.COMMAND
    """A command, or a free recording."""
    countdown: int | None = None
    """Seconds on the clock (contre la montre)."""
    countdown_key: str | None = None
    """Identity of the clock: prompts with the same key share one countdown (a player's
    whole answer, over several picks and lines the host did not understand); defaults to
    ``key``."""
    reminder: tuple[Line, ...] = ()
    """A short form said after a refusal (defaults to ``lines``)."""
    discussion: bool = False
    """The table talks before anyone answers (a team proposal, an accusation, a clue being
    thought of): silence never pauses the game, and the host re-prompts rarely and briefly
    (:mod:`voice_host.host.core.patience`)."""
    wants: Wants | None = None
    """What a whole answer is (the mission's team, both icons, a clue with its number): a
    microphone that hears less waits a moment for the rest before the host answers."""


@dataclass(frozen=True)
class Decision:
    """An intent interpreted against the game."""

    action: Action | None = None
    """The engine action to apply, if any."""
    reply: tuple[Line, ...] = ()
    """Lines to say instead of (or before) applying."""
    confirm: str | None = None
    """A description of the move ("the blue team's tile is the assassin") when it is a risk
    the players must accept whatever was said: always confirmed (see
    :func:`voice_host.host.core.confirm.why_confirm`)."""
    irreversible: str | None = None
    """A description of the move when it cannot be taken back once the table has heard it
    (a Codenames clue, a mission report, an accusation): confirmed only when it was not
    said plainly."""
    then: tuple[Action, ...] = ()
    """Further actions applied right after ``action`` as one move (one undo step), e.g.
    the secret mission cards a reported sabotage count stands for. The session tries the
    whole sequence on a copy of the game first (nothing is asked or applied when the rules
    refuse any of it)."""


@dataclass(frozen=True)
class Recording:
    """What the game made of a free recording (a RECORD prompt's answer)."""

    lines: tuple[Line, ...] = ()
    """What to say: the playback when it was taken, the reason when it was refused."""
    taken: bool = False
    """The message was taken: one move of the game (an undo step). False when it was
    refused (``lines`` say why) or not wanted now."""


class GameAdapter(Protocol):
    """One game's voice: implemented in ``host/adapters/<game>/``, on :class:`BaseAdapter`."""

    game: ClassVar[str]
    narrator: Narrator
    host_state: dict[str, Any]
    """Adapter-owned facts that are not rules (broadcast done, recordings...), JSON-able."""

    def opening(self, state: GameState) -> list[Line]:
        """Set-up narration said once at the start of a new game."""
        ...

    def chance(self, state: GameState, rng: random.Random) -> Action:
        """The chance outcome to apply (usually ``state.chance_action(rng)``)."""
        ...

    def prompt(self, state: GameState) -> Prompt | None:
        """What to ask now; None when the adapter has host steps with no input (it then
        returns them from ``host_step``)."""
        ...

    def host_step(self, state: GameState) -> list[Line]:
        """Narration that needs no input (night phase, broadcast); called when ``prompt``
        returned None. Must change host_state so it is not repeated."""
        ...

    def slot_values(self, state: GameState) -> SlotValues: ...

    def interpret(self, state: GameState, match: IntentMatch, speaker: str | None) -> Decision:
        ...

    def on_recording(self, state: GameState, heard: Heard) -> Recording:
        """A free recording arrived for a RECORD prompt: taken, or refused with a reason."""
        ...

    def on_timeout(self, state: GameState) -> Action | None:
        """The countdown ran out: the action to apply (TimeUp), or None."""
        ...

    def narrate(self, state: GameState, events: Sequence[Event]) -> list[Line]: ...

    def describe(self, state: GameState, action: Action) -> str:
        """The action in words, for confirmations and undo ("Ada votes yes")."""
        ...

    def score(self, state: GameState) -> list[Line]: ...

    def status(self, state: GameState) -> list[Line]: ...

    def board(self, state: GameState) -> list[Line]: ...

    def tried(self, state: GameState) -> list[Line]:
        """Icons already named this round (Ici Londres), or what fits the game."""
        ...

    def recap(self, state: GameState) -> list[Line]:
        """At the end of a game: the roles revealed and the moments worth retelling, in the
        game's language (empty before the end)."""
        ...

    def plausible(self, state: GameState, match: IntentMatch) -> bool:
        """Whether a reading names a move a player could mean: a reading that does not (a
        Codenames clue that is no word, "marikit") is no rival to another reading."""
        ...


S = TypeVar("S", bound=GameState)


def _move(adapter: GameAdapter, state: GameState, match: IntentMatch,
          speaker: str | None) -> tuple[str, ...] | None:
    """The actions a reading makes now, in a set order (None when it makes none).
    Interpreting has no effect on the game."""
    decision = adapter.interpret(state, match, speaker)
    if decision.action is None:
        return None
    return tuple(sorted(map(repr, (decision.action, *decision.then))))


def same_move(adapter: GameAdapter, state: GameState, first: IntentMatch,
              second: IntentMatch, speaker: str | None) -> bool:
    """True when two readings of one utterance make the same move: the same actions, in any
    order ("Sophie and Oliver no" and "Sophie no, Oliver no"). Then they are one reading,
    not a question for the players."""
    one = _move(adapter, state, first, speaker)
    return one is not None and one == _move(adapter, state, second, speaker)


def move_key(adapter: GameAdapter, state: GameState,
             speaker: str | None) -> Callable[[IntentMatch], Hashable]:
    """What matters of a reading said by ``speaker``, for the two-reading decision: the
    move it makes now, else its intent and slots. Two readings of one utterance that make
    the same move agree ("Hannah picks the bell" said by Hannah, and its free transcript
    "and it picks the bell": the bell, picked by the speaker)."""
    def key(match: IntentMatch) -> Hashable:
        move = _move(adapter, state, match, speaker)
        return meaning(match) if move is None else ("move", move)
    return key


COMMON_ZIPF = 4.5
"""A word this common (Zipf, wordfreq) is one a player may well say in an open slot, listed
or not: "travel" 5.0, "weekend" 4.9, where "lobe" is 3.3 and "housed" 3.7. A demo's
"the clue is travel, two", written so by Whisper's free transcript, was asked about as the
grammar search's "triangle" (a listed word) and refused."""


def reading_prior(adapter: GameAdapter, state: GameState,
                  phase: PhaseGrammar) -> Callable[[IntentMatch], int] | None:
    """How likely a reading of this phase is meant, for choosing between two readings of
    one utterance that differ only in what fills the phase's open slot (see
    :func:`~voice_host.host.core.understanding.understand`): 0 for no move a player could
    mean (:meth:`GameAdapter.plausible`: a Codenames clue that is no word, "putball"), 2
    when every word of its slot values is one the phase expects there (the grammar's and
    the game's likely words: "love", "house", or one of the language's common words,
    ``COMMON_ZIPF`` or more: "weekend"), else 1 (a real word nobody expects: "lobe",
    "housed"; or one of the language's function words, :func:`lexicon.is_function_word`,
    what Whisper writes for a word it heard badly: "as for two" for a demo's "house for
    two", asked about beside the grammar search's "house"). None for a phase without an
    open slot: its values are all expected."""
    if not phase.open_vocabulary:
        return None
    likely = frozenset(w.casefold() for w in (*phase.settings.open_words,
                                              *phase.slot_values.open_words))

    def expected(word: str) -> bool:
        return word in likely or (lexicon.zipf(word, phase.lang) >= COMMON_ZIPF
                                  and not lexicon.is_function_word(word, phase.lang))

    def prior(match: IntentMatch) -> int:
        if not adapter.plausible(state, match):
            return 0
        words = [w.casefold() for value in match.slots.values()
                 for item in (value if isinstance(value, (list, tuple)) else [value])
                 if isinstance(item, str) for w in item.split()]
        return 2 if all(expected(w) for w in words) else 1

    return prior


class WrongGame(TypeError):
    """An adapter was handed another game's state (a bug of the caller, never a player's)."""


def narrow(state: GameState, cls: type[S]) -> S:
    """``state`` as its game's own state class; :class:`WrongGame` when it is another's."""
    if not isinstance(state, cls):
        raise WrongGame(f"a {cls.__name__} was expected, not a {type(state).__name__}")
    return state


def winner_json(outcome: Outcome) -> list[str]:
    """The winners as the log's ``game_over.winner`` writes them: always a sorted list (the
    winning team or side, or the players tied for first)."""
    return sorted(outcome.winners)


class BaseAdapter:
    """What every game's adapter starts from: the session's options, its narrator in the
    game's language, where secrets go and the adapter's own saved facts; and the defaults
    of what a game may not need (chance steps as the engine draws them, no host steps, no
    free recordings, no countdown)."""

    game: ClassVar[str]
    """The registered game name."""

    def __init__(self, options: dict[str, Any], *,
                 secret_sink: SecretSink | None = None) -> None:
        self.options = dict(options)
        self.narrator = Narrator(self.game, str(options.get("lang") or "en"))
        self.secret_sink = secret_sink
        self.host_state: dict[str, Any] = {}
        """Adapter-owned facts that are not rules, JSON-able (saved with the game)."""

    def chance(self, state: GameState, rng: random.Random) -> Action:
        return state.chance_action(rng)

    def host_step(self, state: GameState) -> list[Line]:
        return []

    def on_recording(self, state: GameState, heard: Heard) -> Recording:
        return Recording()

    def on_timeout(self, state: GameState) -> Action | None:
        return None

    def plausible(self, state: GameState, match: IntentMatch) -> bool:
        return True

    def recap(self, state: GameState) -> list[Line]:
        return []
