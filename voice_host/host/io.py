"""What the session loop says and hears: typed lines out, typed utterances in.

Outputs and listeners are small adapters behind Protocols so the same loop runs with a
microphone and speakers, typed lines, a script file (text or WAV lines), or synthesized
player voices (the demo)."""

from __future__ import annotations

import dataclasses
import enum
import os
import select
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO

if TYPE_CHECKING:
    from voice_host.intent import PhaseGrammar
    from voice_host.speech.decision import Judgement
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
    error: str = ""
    """For ERROR: a sentence saying what went wrong (in English)."""
    error_key: str = ""
    """For ERROR: the narration key of that sentence, so the host says it in the game's
    language ("common.recording_cut_short"); empty when there is none."""
    error_params: tuple[tuple[str, Any], ...] = ()
    """The values the ``error_key`` sentence is filled with."""
    recording: Samples | None = field(default=None, compare=False, repr=False)
    """The raw audio of the utterance, when there was audio."""
    source: str = ""
    """Where it came from: a WAV path, 'keyboard', 'microphone', 'script line 12'."""


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
    prompt: Any = None
    """The adapter's Prompt being answered (scripted players read it)."""


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


# --------------------------------------------------------------------------- text output


class TextOutput:
    """Prints every line (``--output text``); private lines go to files only, never here."""

    def __init__(self, stream: TextIO | None = None,
                 private_sink: Callable[[Line], object] | None = None) -> None:
        self.stream = stream or sys.stdout
        self.private_sink = private_sink
        self.rate = 0
        self.volume = 1.0

    def emit(self, lines: Sequence[Line]) -> None:
        for line in lines:
            if line.style is Style.PRIVATE:
                if self.private_sink:
                    self.private_sink(line)
                continue
            prefix = "[radio] " if line.style is Style.RADIO else ""
            cue = f"({line.cue}) " if line.cue else ""
            played = " [recording played back]" if line.recording is not None else ""
            print(f"HOST: {cue}{prefix}{line.text}{played}", file=self.stream, flush=True)

    def adjust(self, *, rate: int = 0, volume: float = 0.0) -> str:
        self.rate += rate
        self.volume = max(0.1, min(1.0, self.volume + volume))
        return "rate" if rate else "volume"

    def tick(self, remaining: int) -> None:
        print(f"HOST: (tick) {remaining}", file=self.stream, flush=True)

    def close(self) -> None:
        pass


# --------------------------------------------------------------------------- listeners


def parse_script_line(line: str) -> tuple[str | None, str]:
    """``"Hannah: heart and book"`` -> ("Hannah", "heart and book"); ``"yes"`` -> (None, "yes").
    A colon counts only when what is before it looks like a name (one or two words)."""
    head, sep, rest = line.partition(":")
    if sep and head.strip() and len(head.split()) <= 2 and not head.strip().endswith(".wav"):
        return head.strip(), rest.strip()
    return None, line.strip()


class TextListener:
    """Typed lines from the keyboard (``--input text``); ``Name: words`` names the speaker."""

    def __init__(self, stream: TextIO | None = None, echo: TextIO | None = None,
                 prompt: str = "> ") -> None:
        self.stream = stream or sys.stdin
        self.echo = echo
        self.prompt = prompt
        self._prompted = False

    @property
    def listens_in_slices(self) -> bool:
        """A terminal can be waited on for a short while (then the host looks at the
        companion pages between two waits); a pipe or a file cannot."""
        try:
            return os.isatty(self.stream.fileno())
        except (AttributeError, OSError, ValueError):
            return False

    def listen(self, request: ListenRequest) -> Heard:
        if request.countdown:
            # contre la montre: the clock is drawn in the prompt itself (or, for a stream
            # that cannot be waited on, the plain prompt once)
            waited = self._wait_for_line(request.countdown)
            if waited is None and self.echo is not None and not self._prompted:
                print(self.prompt, end="", file=self.echo, flush=True)
            self._prompted = False
            if waited is False:
                return Heard(HeardKind.SILENCE, source="keyboard")
        else:
            if self.echo is not None and not self._prompted:
                print(self.prompt, end="", file=self.echo, flush=True)
            self._prompted = True
            if request.purpose == "slice" and self.listens_in_slices:
                ready, _, _ = select.select([self.stream.fileno()], [], [], request.timeout)
                if not ready:
                    return Heard(HeardKind.SILENCE, source="keyboard")
            self._prompted = False
        line = self.stream.readline()
        if not line:
            return Heard(HeardKind.END)
        line = line.strip()
        if not line:
            return Heard(HeardKind.SILENCE, source="keyboard")
        speaker, text = parse_script_line(line)
        return Heard(HeardKind.SPEECH, text=text, speaker=speaker, source="keyboard")

    def clock_prompt(self, remaining: int) -> str:
        """The input prompt with the seconds left, always the same width (so redrawing it
        in place never moves what the player is typing)."""
        return f"[{remaining:2d} s] {self.prompt}"

    def _wait_for_line(self, seconds: int) -> bool | None:
        """Contre la montre at the keyboard: wait for a typed line while the seconds left
        count down in the prompt itself; False when the clock ran out (what was half typed
        is dropped, so it cannot join the next player's answer). None for streams that
        cannot be waited on (a pipe in tests, a StringIO): they are read at once."""
        try:
            fd = self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            return None
        if not os.isatty(fd):
            return None
        redraw = self.echo is not None and _is_terminal(self.echo)
        if self.echo is not None:
            print(self.clock_prompt(seconds), end="", file=self.echo, flush=True)
        for remaining in range(seconds - 1, -1, -1):
            ready, _, _ = select.select([fd], [], [], 1.0)
            if ready:
                return True
            if self.echo is not None and redraw:
                # save the cursor, redraw the prompt's clock at the line start, come back to
                # where the player is typing
                print(f"\x1b7\r{self.clock_prompt(remaining)}\x1b8", end="", file=self.echo,
                      flush=True)
        if self.echo is not None:
            print(file=self.echo, flush=True)
        _drop_typed_input(fd)
        return False

    def close(self) -> None:
        pass


def _is_terminal(stream: TextIO) -> bool:
    try:
        return os.isatty(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return False


def _drop_typed_input(fd: int) -> None:
    """Discard what was typed but not yet entered on the terminal ``fd``."""
    try:
        import termios

        termios.tcflush(fd, termios.TCIFLUSH)
    except (ImportError, OSError):
        pass


Decoder = Callable[[Path, ListenRequest], Heard]
"""Turns a WAV file into a Heard through the recognizer (given by the wiring layer)."""


class ScriptListener:
    """Utterances from a script file (``--script FILE``): one per line, ``Name: utterance`` or
    ``utterance``; a line that is a path ending in ``.wav`` (optionally after ``Name:``) is
    decoded through the recognizer; ``(silence)`` stands for nobody answering; ``#`` starts a
    comment."""

    def __init__(self, path: Path, decode_wav: Decoder | None = None,
                 echo: TextIO | None = None) -> None:
        self.path = path
        self.decode_wav = decode_wav
        self.echo = echo
        self._lines: Iterator[tuple[int, str]] = iter(self._read(path))

    @staticmethod
    def _read(path: Path) -> list[tuple[int, str]]:
        out = []
        for no, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            line = raw.strip()
            if line and not line.startswith("#"):
                out.append((no, line))
        return out

    def listen(self, request: ListenRequest) -> Heard:
        try:
            no, line = next(self._lines)
        except StopIteration:
            return Heard(HeardKind.END)
        where = f"{self.path.name} line {no}"
        speaker, text = parse_script_line(line)
        if self.echo is not None:
            print(f"{speaker + ': ' if speaker else ''}{text}", file=self.echo, flush=True)
        if text.lower() in ("(silence)", "(nothing)", "(timeout)"):
            return Heard(HeardKind.SILENCE, speaker=speaker, source=where)
        if text.lower().endswith(".wav"):
            wav = Path(text)
            if not wav.is_absolute():
                wav = (self.path.parent / wav) if (self.path.parent / wav).exists() else wav
            if self.decode_wav is None:
                return Heard(HeardKind.ERROR, speaker=speaker, source=where,
                             error="I cannot listen to recordings without a speech recognizer.")
            heard = self.decode_wav(wav, request)
            return dataclasses.replace(heard, speaker=speaker or heard.speaker,
                                       source=f"{where} ({wav.name})")
        return Heard(HeardKind.SPEECH, text=text, speaker=speaker, source=where)

    def close(self) -> None:
        pass


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
                 details=dict(transcript.details), judgement=transcript.judgement)
