"""Builds the session's mouth and ears from command-line choices: text or speech output,
keyboard, script or microphone input, the recognizer, and the secret files of host mode.

Speech libraries are imported only when a choice needs them, so keyboard play works without
the speech extras."""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voice_host.host.config import SessionConfig
from voice_host.host.io import (
    Heard,
    HeardKind,
    Line,
    Listener,
    ListenRequest,
    Output,
    ScriptListener,
    Style,
    TextListener,
    TextOutput,
    heard_from_transcript,
)
from voice_host.host.secrets import SPOKEN, Delivery, SecretSink, Via

if TYPE_CHECKING:
    from voice_host.speech.types import Recognizer, StreamingRecognizer, Transcript


class WiringError(Exception):
    """A choice on the command line cannot be honoured; the message says what to do."""


# --------------------------------------------------------------------------- secrets


class SecretFiles:
    """Host mode without a private channel: each player's secrets go to a file named for
    them, which only that player should open."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path_for(self, player: str) -> Path:
        safe = re.sub(r"[^\w-]+", "_", player, flags=re.UNICODE).strip("_") or "player"
        return self.folder / f"secret-{safe}.txt"

    def __call__(self, line: Line) -> Delivery:
        if not line.to:
            return SPOKEN
        path = self.path_for(line.to)
        # only this computer's user may read the secrets, like the save file
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.fchmod(fd, 0o600)  # a file left by an older version is made private too
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            f.write(line.text + "\n")
        # what the host says aloud: the file's name, not a long path (the folder is printed
        # on the screen at the start)
        return Delivery(Via.FILE, path.name)


# --------------------------------------------------------------------------- speech output


class SpeechOutput:
    """Speaks lines with the synthesizer (to the speakers or to numbered WAV files), plays
    cue sounds and recordings, and prints each line as a caption."""

    def __init__(self, synth: Any, *, captions: TextOutput | None,
                 secret_sink: SecretSink | None) -> None:
        self.synth = synth
        self.captions = captions
        self.secret_sink = secret_sink
        self.failed = False
        """The speaker went away: lines are only shown, no longer spoken."""

    def emit(self, lines: Sequence[Line]) -> None:
        from voice_host.speech.cues import load_cue
        from voice_host.speech.effects import radio_effect, silence
        from voice_host.speech.types import SpeechError

        for line in lines:
            if line.style is Style.PRIVATE:
                if self.secret_sink:
                    self.secret_sink(line)
                continue
            if self.captions:
                self.captions.emit([line])
            if self.failed:
                continue
            try:
                if line.cue:
                    self.synth.play(load_cue(line.cue), label=line.cue)
                if line.text:
                    self.synth.say(line.text, lang=line.lang)
                if line.recording is not None and len(line.recording):
                    audio = radio_effect(line.recording) if line.effect == "radio" \
                        else line.recording
                    self.synth.play(audio, label="recording")
                if line.pause_after > 0:
                    self.synth.play(silence(line.pause_after), label="pause")
            except SpeechError as exc:
                if not self.failed:  # say it once; the captions go on
                    print(f"({exc} The host's words stay on the screen.)", file=sys.stderr)
                self.failed = True

    def adjust(self, *, rate: int = 0, volume: float = 0.0) -> str:
        if rate:
            (self.synth.faster if rate > 0 else self.synth.slower)()
        if volume:
            (self.synth.louder if volume > 0 else self.synth.quieter)()
        return "rate" if rate else "volume"

    def tick(self, remaining: int) -> None:
        from voice_host.speech.cues import load_cue

        if self.captions:
            self.captions.tick(remaining)
        # ticks do not block and do not close the microphone: players answer over them
        self.synth.play(load_cue("tick"), label="tick", wait=False, gate=False)

    def close(self) -> None:
        pass


# --------------------------------------------------------------------------- recognition


class Ears:
    """The recognizer, switched to each request's grammar.

    ``open_vocabulary`` decodes with the recognizer's full language model instead of the
    phase's grammar (the benchmark's baseline; the matcher is the same)."""

    def __init__(self, recognizer: Recognizer, *, open_vocabulary: bool = False) -> None:
        self.recognizer = recognizer
        self.open_vocabulary = open_vocabulary
        self._grammar_key: tuple[str, str | None] | None = None

    def _jsgf(self, request: ListenRequest) -> str | None:
        pg = request.grammar
        if pg is None or self.open_vocabulary:
            return None
        # for an open phase (the clue word) this is the likely-word grammar, tried first
        return pg.recognition_jsgf()

    def use(self, request: ListenRequest) -> None:
        from voice_host.host.understanding import decoder_prompt
        from voice_host.speech.types import ANY_WORD_RULE, RecognitionGrammar

        pg = request.grammar
        if pg is None:
            return
        jsgf = self._jsgf(request)
        name = request.grammar_name + (".open" if self.open_vocabulary else "")
        key = (name, jsgf if jsgf is not None else str(sorted(pg.vocabulary())))
        if key != self._grammar_key:
            open_jsgf = None if self.open_vocabulary else pg.open_slot_jsgf(ANY_WORD_RULE)
            self.recognizer.set_grammar(RecognitionGrammar(
                name=name, jsgf=jsgf, words=pg.vocabulary(), open_jsgf=open_jsgf,
                spellings=pg.written_forms(), prompt=decoder_prompt(pg)))
            self._grammar_key = key

    def hear(self, samples: Any, request: ListenRequest, *, source: str) -> Heard:
        if request.grammar is None:  # a free recording: keep the audio, no decoding
            return Heard(HeardKind.SPEECH, text="", recording=samples, source=source)
        self.use(request)
        transcript = self.recognizer.recognize(samples)
        return self._heard(transcript, samples, request, source=source)

    def stream(self, request: ListenRequest) -> EarsStream | None:
        """A decoder fed frame by frame while the player talks (None when the recognizer
        does not declare the streaming interface or there is nothing to decode)."""
        from voice_host.speech.types import StreamingRecognizer

        if request.grammar is None or not isinstance(self.recognizer, StreamingRecognizer):
            return None
        self.use(request)
        return EarsStream(self, self.recognizer, request)

    def _heard(self, transcript: Transcript, samples: Any, request: ListenRequest, *,
               source: str) -> Heard:
        closed = transcript.closed_grammar
        pg = request.grammar
        if (closed and pg is not None and pg.open_vocabulary and len(samples)
                and (transcript.rejected or not transcript.text.strip())):
            # the likely clue words did not fit: listen again with the full vocabulary, so
            # a clue word nobody listed can still be heard
            transcript = self._open_decode(samples, request)
            closed = False
        return heard_from_transcript(transcript, source=source,
                                     recording=samples if request.record else None,
                                     closed_grammar=closed)

    def _open_decode(self, samples: Any, request: ListenRequest) -> Transcript:
        from voice_host.speech.types import RecognitionGrammar

        assert request.grammar is not None
        self.recognizer.set_grammar(RecognitionGrammar(
            name=request.grammar_name + ".open", jsgf=None, words=request.grammar.vocabulary()))
        self._grammar_key = None  # the next request switches back to its own grammar
        return self.recognizer.recognize(samples)

    def decode_wav(self, path: Path, request: ListenRequest) -> Heard:
        """A recorded utterance through the recognizer; a broken, cut-off or too short
        recording is an ERROR with its sentence, never decoded (a fragment of a word can be
        heard as a confident "no")."""
        from voice_host.speech.types import RecordingTooShort, SpeechError
        from voice_host.speech.wav import read_utterance_wav

        try:
            samples = read_utterance_wav(path)
        except RecordingTooShort as exc:
            if exc.declared is not None:
                return Heard(HeardKind.ERROR, error=str(exc), source=str(path),
                             error_key="common.recording_cut_short",
                             error_params=(("declared", f"{exc.declared:.1f}"),
                                           ("actual", f"{exc.actual:.1f}")))
            return Heard(HeardKind.ERROR, error=str(exc), source=str(path),
                         error_key="common.recording_too_short",
                         error_params=(("actual", f"{exc.actual:.2f}"),))
        except SpeechError as exc:
            return Heard(HeardKind.ERROR, error=str(exc), source=str(path))
        return self.hear(samples, request, source=str(path))


class EarsStream:
    """One utterance decoded while it is spoken: the source passes frames to ``feed`` as
    they arrive, and only the end of the search is left when the utterance ends."""

    def __init__(self, ears: Ears, recognizer: StreamingRecognizer,
                 request: ListenRequest) -> None:
        self.ears = ears
        self.recognizer = recognizer
        """The ears' recognizer, as the streaming interface it declares."""
        self.request = request
        self.frames_fed = 0
        """Frames decoded so far in the current attempt."""

    def feed(self, frame: Any, restart: bool = False) -> None:
        """Decode one more frame; ``restart`` drops what was fed before."""
        if restart or self.frames_fed == 0:
            self.recognizer.start_utterance()
            self.frames_fed = 0
        self.recognizer.feed(frame)
        self.frames_fed += 1

    def finish(self, samples: Any, *, source: str) -> Heard:
        """The Heard of the utterance whose audio is ``samples`` (decoded whole if no frame
        was streamed)."""
        if self.frames_fed == 0:
            return self.ears.hear(samples, self.request, source=source)
        transcript = self.recognizer.finish()
        self.frames_fed = 0
        return self.ears._heard(transcript, samples, self.request, source=source)


def make_recognizer(asr: str, vosk_model: Path | None, lang: str,
                    whisper_model: str | None = None) -> tuple[Any, str]:
    from voice_host.speech.recognizers import create_recognizer
    from voice_host.speech.types import SpeechError

    try:
        recognizer = create_recognizer(asr, vosk_model=vosk_model, lang=lang,
                                       whisper_model=whisper_model)
    except SpeechError as exc:
        raise WiringError(str(exc)) from None
    return recognizer, recognizer.description


class MicListener:
    """The microphone, endpointed, through the recognizer. During a countdown the host
    ticks once a second while it keeps listening."""

    listens_in_slices = True
    """It honours a short timeout, so the host can listen while it waits for the phones."""

    def __init__(self, ears: Ears, source: Any, output: Output) -> None:
        self.ears = ears
        self.source = source
        self.output = output

    def listen(self, request: ListenRequest) -> Heard:
        from voice_host.speech.source import EndOfAudio, SilenceTimeout
        from voice_host.speech.types import SpeechError

        self.ears.use(request)
        stop_ticks = threading.Event()
        if request.countdown:
            self._start_ticks(request.countdown, stop_ticks)
        timeout = float(request.countdown) if request.countdown else request.timeout
        from voice_host.speech.source import EndpointedSource

        stream = self.ears.stream(request) if isinstance(self.source, EndpointedSource) \
            else None
        try:
            if stream is not None:
                utterance = self.source.listen(timeout=timeout, on_frame=stream.feed)
            else:
                utterance = self.source.listen(timeout=timeout)
        except SilenceTimeout:
            return Heard(HeardKind.SILENCE, source="microphone")
        except EndOfAudio:
            return Heard(HeardKind.END, source="microphone")
        except SpeechError as exc:
            return Heard(HeardKind.ERROR, error=str(exc), source="microphone")
        finally:
            stop_ticks.set()
        from voice_host.speech.source import utterance_problem

        problem = utterance_problem(utterance)
        if stream is not None:
            heard = stream.finish(utterance.samples, source="microphone")
        else:
            heard = self.ears.hear(utterance.samples, request, source="microphone")
        if problem and (heard.kind is not HeardKind.SPEECH or heard.rejected):
            # clipped or cut off and not understood: say what was wrong with the audio
            return Heard(HeardKind.ERROR, error=problem, source="microphone")
        return heard

    def _start_ticks(self, seconds: int, stop: threading.Event) -> None:
        def run() -> None:
            for remaining in range(seconds - 1, -1, -1):
                if stop.wait(1.0):
                    return
                self.output.tick(remaining)

        threading.Thread(target=run, name="voice-host-countdown", daemon=True).start()

    def close(self) -> None:
        self.source.close()


# --------------------------------------------------------------------------- assembly


@dataclass
class HostIO:
    """What ``play``, ``resume`` and ``demo`` run a session with."""

    output: Output
    listener: Listener
    secret_sink: SecretSink | None
    banner: str = ""
    summary: Callable[[], str] | None = None
    closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        for close in self.closers:
            try:
                close()
            except Exception as exc:  # noqa: BLE001 - closing must not hide the game's end
                print(f"(while closing: {exc})", file=sys.stderr)


def build_io(config: SessionConfig) -> HostIO:
    spec = config.output
    save_path = config.save_path
    assert save_path is not None
    out_dir = Path(spec[4:]) if spec.startswith("wav:") else None
    secrets = SecretFiles(out_dir / "secrets" if out_dir is not None
                          else save_path.parent / f"{save_path.stem}-secrets")
    banner: list[str] = []
    if config.deal == "host" and not config.companion.enabled:
        # (with the companion page the secrets go to the phones: no folder is written)
        banner.append(f"Each player's secrets are written to {secrets.folder}")
    script = config.script
    needs_recognizer = config.listens_to_microphone or (
        script is not None and _script_has_wav(script))

    gate = None
    if config.listens_to_microphone:
        from voice_host.speech.source import HalfDuplexGate

        gate = HalfDuplexGate()  # the microphone is deaf while the host speaks
    ears: Ears | None = None
    if needs_recognizer:
        choice = config.recognizer
        recognizer, described = make_recognizer(
            choice.asr, choice.vosk_model, config.lang,
            choice.whisper_model)
        ears = Ears(recognizer)
        banner.append(described)

    output: Output
    captions = TextOutput(private_sink=secrets)
    if spec == "text":
        output = captions
    elif spec == "speaker" and not _has_speaker():
        # no speaker: say so once, and go on with the words on the screen
        from voice_host.speech.mic import NO_SPEAKER

        banner.append(NO_SPEAKER + " Showing the host's words on the screen instead.")
        output = captions
    elif spec == "speaker" or out_dir is not None:
        output = _speech_output(spec, captions=captions, secrets=secrets, gate=gate)
    else:
        raise WiringError(f"I do not know the output {spec}. Use speaker, text or wav:FOLDER.")

    listener: Listener
    if script is not None:
        if not script.is_file():
            raise WiringError(f"There is no script file at {script}.")
        listener = ScriptListener(script, decode_wav=ears.decode_wav if ears else None,
                                  echo=sys.stdout if spec == "text" else None)
    elif config.input == "text":
        listener = TextListener(echo=sys.stdout)
    else:
        assert ears is not None
        listener = _mic_listener(ears, output, gate)
    io = HostIO(output=output, listener=listener, secret_sink=secrets,
                banner="\n".join(banner), closers=[listener.close, output.close])
    if out_dir is not None:
        io.summary = lambda: f"Narration written to {out_dir} (numbered WAV files and " \
                             f"transcript.txt)."
    return io


def _has_speaker() -> bool:
    """An output device exists (False also when PortAudio itself is missing)."""
    try:
        from voice_host.speech.mic import list_devices

        return any(d.outputs > 0 for d in list_devices())
    except Exception:  # noqa: BLE001 - a missing library means no speaker either
        return False


def _script_has_wav(path: Path) -> bool:
    try:
        return any(line.strip().lower().endswith(".wav")
                   for line in path.read_text(encoding="utf-8").splitlines())
    except OSError:
        return False


def _speech_output(spec: str, *, captions: TextOutput | None, secrets: SecretFiles,
                   gate: Any = None) -> SpeechOutput:
    from voice_host.speech.synthesizer import create_synthesizer
    from voice_host.speech.types import SpeechError

    try:
        synth = create_synthesizer(spec, gate=gate)
    except SpeechError as exc:
        raise WiringError(str(exc)) from None
    return SpeechOutput(synth, captions=captions, secret_sink=secrets)


def _mic_listener(ears: Ears, output: Output, gate: Any) -> MicListener:
    from voice_host.speech.mic import MicrophoneSource
    from voice_host.speech.types import SpeechError

    try:
        source = MicrophoneSource(gate=gate).start()
    except SpeechError as exc:
        raise WiringError(str(exc)) from None
    return MicListener(ears, source, output)

