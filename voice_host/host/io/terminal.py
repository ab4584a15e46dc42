"""The terminal and script files: lines printed as captions (``--output text``), typed lines
(``--input text``) and scripts of typed or recorded utterances (``--script``)."""

from __future__ import annotations

import dataclasses
import os
import select
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TextIO

from voice_host.host.core.attention import KEYBOARD
from voice_host.host.core.messages import caption, say
from voice_host.host.core.values import Heard, HeardKind, Line, ListenRequest, Style
from voice_host.intent.normalize import tokenize

# --------------------------------------------------------------------------- text output

NO_RECOGNIZER = "input.no_recognizer"
"""The code of the sentence said for a recording in a script read without a recognizer."""


class TextOutput:
    """Prints every line (``--output text``); private lines go to files only, never here."""

    def __init__(self, stream: TextIO | None = None,
                 private_sink: Callable[[Line], object] | None = None, lang: str = "en"
                 ) -> None:
        self.stream = stream or sys.stdout
        self.private_sink = private_sink
        self.rate = 0
        self.volume = 1.0
        self.lang = lang
        """The game's language: the captions' labels are in it (a line in another language,
        the French radio call of an English game, is only spoken in that language's voice)."""

    def emit(self, lines: Sequence[Line]) -> None:
        for line in lines:
            if line.style is Style.PRIVATE:
                if self.private_sink:
                    self.private_sink(line)
                continue
            prefix = "[radio] " if line.style is Style.RADIO else ""
            cue = f"({caption(self.lang, line.cue)}) " if line.cue else ""
            played = " " + say("output.played_back", self.lang) \
                if line.recording is not None else ""
            print(f"{caption(self.lang)}{cue}{prefix}{line.text}{played}", file=self.stream,
                  flush=True)

    def adjust(self, *, rate: int = 0, volume: float = 0.0) -> str:
        self.rate += rate
        self.volume = max(0.1, min(1.0, self.volume + volume))
        return "rate" if rate else "volume"

    def tick(self, remaining: int) -> None:
        print(f"{caption(self.lang)}({caption(self.lang, 'tick')}) {remaining}",
              file=self.stream, flush=True)

    def close(self) -> None:
        pass


# --------------------------------------------------------------------------- listeners


def parse_script_line(line: str, command_words: Iterable[str] = ()
                      ) -> tuple[str | None, str]:
    """``"Hannah: heart and book"`` -> ("Hannah", "heart and book"); ``"yes"`` -> (None, "yes").
    A colon counts only when what is before it looks like a name (one or two words) and is
    not a word of the phase's commands (``command_words``, normalized): "yes: Ada, Ben; the
    rest no" is a sentence, not something a player called "yes" said."""
    head, sep, rest = line.partition(":")
    if sep and head.strip() and len(head.split()) <= 2 and not head.strip().endswith(".wav"):
        words = frozenset(command_words)
        if not (words and tokenize(head) and all(w in words for w in tokenize(head))):
            return head.strip(), rest.strip()
    return None, line.strip()


def _command_words(request: ListenRequest) -> frozenset[str]:
    """The literal words of the phase's sentences (never a player's name)."""
    grammar = request.grammar
    if grammar is None:
        return frozenset()
    names = {w for name in grammar.slot_values.players for w in tokenize(name)}
    return grammar.literal_words - names


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
                return Heard(HeardKind.SILENCE, source=KEYBOARD)
        else:
            if self.echo is not None and not self._prompted:
                print(self.prompt, end="", file=self.echo, flush=True)
            self._prompted = True
            if request.purpose == "slice" and self.listens_in_slices:
                ready, _, _ = select.select([self.stream.fileno()], [], [], request.timeout)
                if not ready:
                    return Heard(HeardKind.SILENCE, source=KEYBOARD)
            self._prompted = False
        line = self.stream.readline()
        if not line:
            return Heard(HeardKind.END)
        line = line.strip()
        if not line:
            return Heard(HeardKind.SILENCE, source=KEYBOARD)
        speaker, text = parse_script_line(line, _command_words(request))
        return Heard(HeardKind.SPEECH, text=text, speaker=speaker, source=KEYBOARD)

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
        import termios  # lazy: POSIX only (no termios on Windows)

        termios.tcflush(fd, termios.TCIFLUSH)
    except (ImportError, OSError):
        pass


Decoder = Callable[[Path, ListenRequest], Heard]
"""Turns a WAV file into a Heard through the recognizer (given by the wiring layer)."""


class ScriptListener:
    """Utterances from a script file (``--script FILE``): one per line, ``Name: utterance`` or
    ``utterance``; a line that is a path ending in ``.wav`` (optionally after ``Name:``) is
    decoded through the recognizer; ``(silence)`` stands for nobody answering; ``#`` starts a
    comment.

    ``--script -`` reads the same lines from standard input (``stream``), one at a time and
    only when the host listens, so that another program can drive a game: it reads the
    log's ``listening`` events (what the host waits for) and writes the next line. A WAV
    path read from a stream is relative to the working folder."""

    STDIN = Path("-")
    """The script path that stands for standard input."""

    def __init__(self, path: Path, decode_wav: Decoder | None = None,
                 echo: TextIO | None = None, stream: TextIO | None = None) -> None:
        self.path = path
        self.decode_wav = decode_wav
        self.echo = echo
        if stream is None and path == self.STDIN:
            stream = sys.stdin
        self.folder = Path.cwd() if stream is not None else path.parent
        self.name = "stdin" if stream is not None else path.name
        self._lines: Iterator[tuple[int, str]] = (
            self._stream_lines(stream) if stream is not None else iter(self._read(path)))

    @staticmethod
    def _read(path: Path) -> list[tuple[int, str]]:
        out = []
        for no, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            line = raw.strip()
            if line and not line.startswith("#"):
                out.append((no, line))
        return out

    @staticmethod
    def _stream_lines(stream: TextIO) -> Iterator[tuple[int, str]]:
        """The stream's script lines, each read only when asked for (a line at a time: the
        program that writes them waits for the host to listen)."""
        no = 0
        while True:
            raw = stream.readline()
            if not raw:
                return
            no += 1
            line = raw.strip()
            if line and not line.startswith("#"):
                yield no, line

    @staticmethod
    def wav_path(folder: Path, text: str) -> Path:
        """The recording a script line names: in ``folder`` (the script's; the working
        folder for standard input) when it is there."""
        wav = Path(text)
        if not wav.is_absolute() and (folder / wav).exists():
            return folder / wav
        return wav

    def listen(self, request: ListenRequest) -> Heard:
        try:
            no, line = next(self._lines)
        except StopIteration:
            return Heard(HeardKind.END)
        where = f"{self.name} line {no}"
        speaker, text = parse_script_line(line, _command_words(request))
        if self.echo is not None:
            print(f"{speaker + ': ' if speaker else ''}{text}", file=self.echo, flush=True)
        if text.lower() in ("(silence)", "(nothing)", "(timeout)"):
            return Heard(HeardKind.SILENCE, speaker=speaker, source=where)
        if text.lower().endswith(".wav"):
            wav = self.wav_path(self.folder, text)
            if self.decode_wav is None:
                return Heard(HeardKind.ERROR, speaker=speaker, source=where,
                             error=say(NO_RECOGNIZER, "en"), error_code=NO_RECOGNIZER)
            heard = self.decode_wav(wav, request)
            return dataclasses.replace(heard, speaker=speaker or heard.speaker,
                                       source=f"{where} ({wav.name})")
        return Heard(HeardKind.SPEECH, text=text, speaker=speaker, source=where)

    def close(self) -> None:
        pass
