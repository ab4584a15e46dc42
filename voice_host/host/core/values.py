"""What the session loop says and hears: typed lines out, typed utterances in.

Outputs and listeners are small adapters behind Protocols so the same loop runs with a
microphone and speakers, typed lines, a script file (text or WAV lines), or synthesized
player voices (the demo)."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from voice_host.host.core.adapter import Prompt
    from voice_host.intent import PhaseGrammar
    from voice_host.speech.decision import Judgement, SearchTuning
    from voice_host.speech.types import Samples, Transcript


class Style(enum.StrEnum):
    """How a line is voiced."""

    NARRATOR = "narrator"
    """The host's ordinary voice in the game's language."""
    RADIO = "radio"
    """The BBC announcer: a French voice, with radio framing."""
    PRIVATE = "private"
    """A secret for one player: never spoken aloud, written to that player's file."""


@dataclass(frozen=True)
class Line:
    """One thing the host says (or plays)."""

    text: str
    """The sentence, as spoken and as printed."""
    lang: str = "en"
    """Language of the sentence ("en" or "fr"), which picks the voice."""
    style: Style = Style.NARRATOR
    """Narrator voice, radio announcer, or private."""
    cue: str | None = None
    """Name of a cue sound (voice_host.speech.cues) played before the sentence."""
    recording: Samples | None = field(default=None, compare=False, repr=False)
    """Recorded audio to play back after the text (the Speaker's coded sentence)."""
    effect: str | None = None
    """Effect applied to ``recording`` ("radio")."""
    to: str | None = None
    """For PRIVATE lines: the player the secret is for."""
    pause_after: float = 0.0
    """Seconds of silence after the line (night-phase pauses)."""
    group: str | None = field(default=None, compare=False, repr=False)
    """The narration key of a line said once per player ("Ada, your role has been sent to
    you privately."): several in a row are said as one, by the key's ``_group`` form
    (:func:`voice_host.host.core.narration.grouped`)."""
    player: str | None = field(default=None, compare=False, repr=False)
    """The player a ``group`` line is about."""


@dataclass(frozen=True)
class Voice:
    """Who spoke, by voice (speaker identification): the likeliest seat and how sure."""

    seat: str | None
    """The player whose voice it is, or None when it could not tell."""
    confidence: float = 0.0
    """0..1: how likely that seat is."""


class HeardKind(enum.StrEnum):
    SPEECH = "speech"
    SILENCE = "silence"
    """Nothing was said before the timeout (or the countdown ran out)."""
    ERROR = "error"
    """The audio could not be used (broken WAV, device gone); ``error`` says why."""
    END = "end"
    """The input is exhausted (end of script, end of typed input)."""


@dataclass(frozen=True)
class Heard:
    """One utterance from the table."""

    kind: HeardKind
    """Speech, silence, an input error, or end of input."""
    text: str = ""
    """What was said (typed line, or the recognizer's transcript)."""
    speaker: str | None = None
    """Who said it, when known (``Name: utterance`` lines); else None."""
    confidence: float = 1.0
    """Recognizer confidence 0..1 (1 for typed text)."""
    word_confidences: tuple[float, ...] = ()
    """Per-word confidences from the recognizer, when it gives them."""
    rejected: bool = False
    """The recognizer's own escape path judged the audio out of grammar."""
    closed_grammar: bool = False
    """The transcript was decoded with the phase's closed sentence grammar (JSGF), so it can
    only be trusted when it is exactly one of the grammar's sentences."""
    spoken: bool = False
    """It came through a speech recognizer (not typed): open-vocabulary words may be
    misheard, so some answers are confirmed only then."""
    alternatives: tuple[str, ...] = ()
    """Other sentences of the phase that the recognizer found almost as likely."""
    backend: str = ""
    """The recognizer that heard it ("" for typed text)."""
    audio_seconds: float = 0.0
    """Length of the utterance's audio."""
    decode_seconds: float = 0.0
    """Time from the end of the audio to the transcript."""
    details: Mapping[str, float | str] = field(default_factory=dict, compare=False)
    """The recognizer's own figures (scores, margins), for logs and tuning."""
    judgement: Judgement | None = field(default=None, compare=False, repr=False)
    """The recognizer's two readings (free transcript and grammar sentence) with their
    margins, when it searched the phase's grammar; ``understanding`` decides from both."""
    tuning: SearchTuning | None = field(default=None, compare=False, repr=False)
    """The thresholds the recognizer judged with (its language's own; None: the defaults):
    the two readings are decided, and "said plainly" judged, with the same ones."""
    error: str = ""
    """For ERROR: a sentence saying what went wrong (in English)."""
    error_key: str = ""
    """For ERROR: the narration key of that sentence, so the host says it in the game's
    language ("common.recording_cut_short"); empty when there is none."""
    error_code: str = ""
    """For ERROR: the code of that sentence in the host's catalogue
    (``host/lang/<lang>/messages.toml``: "wav.empty"), when it has no narration key."""
    error_params: tuple[tuple[str, Any], ...] = ()
    """The values the ``error_key`` or ``error_code`` sentence is filled with."""
    recording: Samples | None = field(default=None, compare=False, repr=False)
    """The raw audio of the utterance, when there was audio."""
    source: str = ""
    """Where it came from: a WAV path, 'keyboard', 'microphone', 'script line 12'."""
    voice: Voice | None = None
    """Who spoke by voice, when speaker identification ran (None: not known)."""


@dataclass(frozen=True)
class Wants:
    """An answer the speaker may give with a pause in it: a list of known length (a
    mission's team, a player's two icons at once), or a command heard alone that is only
    the first part of one (a clue's word without its number). Heard short, the speaker may
    only have paused ("myself ... and Hugo", "ocean ... two"), so a microphone listener
    waits a moment for the rest before it answers (``MicListener``)."""

    intent: str
    """The intent heard short ("propose_team"; "clue_no_number", the first part)."""
    slot: str | None = None
    """The slot holding the list ("players"); None: a reading of ``intent`` at all is the
    first part of an answer."""
    count: int = 1
    """How many the list names."""


@dataclass(frozen=True)
class ListenRequest:
    """What the loop is waiting for."""

    grammar: PhaseGrammar | None
    """The phase's grammar (recognizer listeners restrict decoding to it)."""
    grammar_name: str
    """Stable name of the grammar, e.g. ``"resistance.vote"``."""
    expected: tuple[str, ...]
    """Players the host is waiting for (the first is assumed when the speaker is unknown)."""
    timeout: float = 12.0
    """Seconds of silence before the listener reports SILENCE."""
    countdown: int | None = None
    """Contre la montre: seconds on the clock; the listener reports SILENCE when it runs out."""
    record: bool = False
    """Keep the raw audio (the Speaker's coded sentence is played back later)."""
    purpose: str = "command"
    """"command" (the prompt's question), "confirm" (a yes/no confirmation) or "slice" (a
    short listen while the host also waits for the phones: SILENCE after ``timeout``)."""
    prompt: Prompt | None = None
    """The adapter's Prompt being answered (scripted players read it)."""
    wants: Wants | None = None
    """The list the answer names, when the prompt knows its length (``Prompt.wants``)."""


class Stop(enum.StrEnum):
    """Why a session's loop ended."""

    FINISHED = "finished"
    AGAIN = "again"
    """The game finished and the table said yes to another (only when offered:
    ``Session.run(offer_again=True)``)."""
    QUIT = "quit"
    INPUT_ENDED = "input_ended"


class Output(Protocol):
    """Where the host's lines go."""

    def emit(self, lines: Sequence[Line]) -> None: ...

    def adjust(self, *, rate: int = 0, volume: float = 0.0) -> str:
        """Change speed (words/minute delta) or volume (delta 0..1); returns what changed."""
        ...

    def tick(self, remaining: int) -> None:
        """One countdown second: a tick sound and the number."""
        ...

    def close(self) -> None: ...


class Listener(Protocol):
    """Where utterances come from."""

    def listen(self, request: ListenRequest) -> Heard: ...

    def close(self) -> None: ...


@runtime_checkable
class SlicedListener(Listener, Protocol):
    """A listener that declares whether it honours a short timeout (the microphone, a
    terminal), so the host can listen in slices while it also waits for the phones."""

    @property
    def listens_in_slices(self) -> bool: ...


def heard_from_transcript(transcript: Transcript, *, source: str,
                          recording: Samples | None = None,
                          closed_grammar: bool = False) -> Heard:
    """A recognizer's transcript as a Heard: silence when nothing was recognized, speech
    (marked rejected) when something was said that is not a command of the phase."""
    if not transcript.text.strip() and not transcript.rejected:
        return Heard(HeardKind.SILENCE, source=source, recording=recording)
    return Heard(HeardKind.SPEECH, text=transcript.text, confidence=transcript.confidence,
                 word_confidences=tuple(w.confidence for w in transcript.words),
                 rejected=transcript.rejected, source=source, recording=recording,
                 closed_grammar=closed_grammar, spoken=True,
                 alternatives=tuple(transcript.alternatives), backend=transcript.backend,
                 audio_seconds=transcript.audio_seconds,
                 decode_seconds=transcript.decode_seconds,
                 details=dict(transcript.details), judgement=transcript.judgement,
                 tuning=transcript.tuning)
