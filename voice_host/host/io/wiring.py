"""Builds the session's mouth and ears from command-line choices: text or speech output,
keyboard, script or microphone input, the recognizer, and the secret files of host mode.

The speech modules imported here load no speech library: the recognizers, the synthesizer
and the microphone import theirs when they are created, so keyboard play works without the
speech extras."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from voice_host.games import GameState
from voice_host.host.core.config import SessionConfig
from voice_host.host.core.messages import HostError, HostOSError, say
from voice_host.host.core.narration import Narrator, pronunciations
from voice_host.host.core.phones import Companion
from voice_host.host.core.registry import make_adapter
from voice_host.host.core.saving import log_failure
from voice_host.host.core.secrets import SecretSink
from voice_host.host.core.session import Session, SessionOptions
from voice_host.host.core.store import EventLog, SessionRecord
from voice_host.host.core.values import Listener, Output
from voice_host.host.core.voices import VoiceDesk
from voice_host.host.io.listening import MicListener, PhaseEars
from voice_host.host.io.secret_files import SecretFiles
from voice_host.host.io.speech_output import SpeechOutput
from voice_host.host.io.terminal import (
    ScriptListener,
    TextListener,
    TextOutput,
    parse_script_line,
)
from voice_host.speech import mic, recognizers
from voice_host.speech.source import HalfDuplexGate
from voice_host.speech.synthesizer import create_synthesizer, parse_narrators
from voice_host.speech.types import Recognizer, SpeechError
from voice_host.speech.wav import MAX_UTTERANCE_SECONDS, wav_seconds


class WiringError(HostError):
    """A choice on the command line cannot be honoured: a code of the host's catalogue (or
    of the speech layer's, when it comes from there) and its values; ``str()`` says what to
    do in English, :func:`~voice_host.host.core.messages.said` in the game's language."""

    @classmethod
    def because(cls, error: SpeechError) -> WiringError:
        """``error`` of the speech layer as a wiring error, with its code (a sentence without
        one, an engine's own failure, is kept as written)."""
        if error.code:
            return cls(error.code, **error.params)
        return cls("wiring.as_written", text=str(error))

    @classmethod
    def because_os(cls, error: OSError) -> WiringError:
        """A system error as a wiring error: the host's own (:class:`HostOSError`) keeps
        its code, any other its words."""
        if isinstance(error, HostOSError):
            return cls(error.code, **error.params)
        return cls("wiring.as_written", text=str(error))


def make_recognizer(asr: str, vosk_model: Path | None, lang: str,
                    whisper_model: str | None = None,
                    screen: Callable[..., str] | None = None) -> tuple[Recognizer, str]:
    """The recognizer ``--asr`` chose, and the sentence that describes it: the speech
    layer's own (English), or with ``screen`` (the game's narration) in the game's language."""
    try:
        choice = recognizers.choose_backend(asr, vosk_model=vosk_model, lang=lang,
                                            whisper_model=whisper_model)
        recognizer = recognizers.create_chosen(choice, lang)
    except SpeechError as exc:
        raise WiringError.because(exc) from None
    if screen is None or (lang == "en" and choice.backend == "pocketsphinx"):
        return recognizer, recognizer.description  # (its English says why, in detail)
    folder = choice.model_path
    return recognizer, screen(f"common.screen_asr_{choice.backend}", name=choice.model_name
                              or (folder.name if folder else ""), folder=folder or "")


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
    lang: str = "en"
    """The game's language (what ``close`` may have to say)."""
    hears_audio: bool = False
    """Utterances come with their audio (a microphone, or a script with recordings): the
    host can tell the players' voices apart."""

    def close(self) -> None:
        for close in self.closers:
            try:
                close()
            except Exception as exc:  # noqa: BLE001 - closing must not hide the game's end
                print(say("wiring.while_closing", self.lang, error=exc), file=sys.stderr)


def build_io(config: SessionConfig) -> HostIO:
    spec = config.output
    save_path = config.save_path
    assert save_path is not None
    out_dir = Path(spec[4:]) if spec.startswith("wav:") else None
    secrets = SecretFiles(out_dir / "secrets" if out_dir is not None
                          else save_path.parent / f"{save_path.stem}-secrets")
    banner: list[str] = []
    screen = Narrator(config.game, config.lang).text  # the screen's lines, in the game's language
    if config.deal == "host" and not config.companion.enabled:
        # (with the companion page the secrets go to the phones: no folder is written)
        banner.append(screen("common.screen_secrets", folder=secrets.folder))
    script = config.script
    # a script on standard input may bring recordings at any line: the recognizer is ready
    needs_recognizer = config.listens_to_microphone or (
        script is not None and (script == ScriptListener.STDIN or check_script(script)))

    gate = None
    if config.listens_to_microphone:
        gate = HalfDuplexGate()  # the microphone is deaf while the host speaks
    ears: PhaseEars | None = None
    if needs_recognizer:
        choice = config.recognizer
        recognizer, described = make_recognizer(
            choice.asr, choice.vosk_model, config.lang,
            choice.whisper_model, screen=screen)
        ears = PhaseEars(recognizer)
        banner.append(described)

    output: Output
    captions = TextOutput(private_sink=secrets, lang=config.lang)
    if spec == "text":
        output = captions
    elif spec == "speaker" and not has_speaker():
        # no speaker: say so once, and go on with the words on the screen
        banner.append(screen("common.screen_no_speaker"))
        output = captions
    elif spec == "speaker" or out_dir is not None:
        output = speech_output(spec, captions=captions, secrets=secrets, gate=gate,
                               voice=config.voice)
    else:
        raise WiringError("wiring.output", spec=spec)

    listener: Listener
    if script is not None:
        listener = ScriptListener(script, decode_wav=ears.decode_wav if ears else None,
                                  echo=sys.stdout if spec == "text" else None)
    elif config.input == "text":
        listener = TextListener(echo=sys.stdout)
    else:
        assert ears is not None
        listener = _mic_listener(ears, output, gate)
    io = HostIO(output=output, listener=listener, secret_sink=secrets,
                banner="\n".join(banner), closers=[listener.close, output.close],
                lang=config.lang, hears_audio=needs_recognizer)
    if out_dir is not None:
        io.summary = lambda: screen("common.screen_narration_written", folder=out_dir)
    return io


def wire_session(config: SessionConfig, state: GameState, io: HostIO, *, rng: random.Random,
                 companion: Companion | None = None,
                 saved: SessionRecord | None = None) -> Session:
    """The one way a session is put together, for play, resume and the demo: the game's
    adapter, the event log and the loop's options from ``config``, speaking and listening
    through ``io``; ``saved`` is what a resumed game's save file kept of the host."""
    # adapters phrase secret steps for the phones when the companion page runs (not saved:
    # a resumed game may run without it)
    adapter = make_adapter(config.game, {**config.options, "companion": companion is not None},
                           secret_sink=io.secret_sink)
    return Session(adapter=adapter, state=state, rng=rng, output=io.output,
                   listener=io.listener,
                   log=EventLog(config.log, on_failure=log_failure(adapter.narrator, config.log)),
                   game_options=dict(config.options), companion=companion, saved=saved,
                   settings=config.settings(), voices=voice_desk(config, io, state, saved),
                   options=SessionOptions(confirm=config.confirm, save_path=config.save_path,
                                          silence_timeout=config.silence_timeout,
                                          pause_after=config.pause_after))


def voice_desk(config: SessionConfig, io: HostIO, state: GameState,
               saved: SessionRecord | None) -> VoiceDesk | None:
    """The players' voices, when the host hears audio, ``--voices`` asks for them
    (:attr:`SessionConfig.voices`) and the speaker model is installed (else None: who
    speaks is said with the moves, as typed).
    A new game asks every player for a sentence first; a resumed game's prints come back
    from its save."""
    wanted = config.voices == "on" or (config.voices == "auto"
                                        and config.listens_to_microphone)
    if not (wanted and io.hears_audio):
        return None
    from voice_host.speech.speakers import SpeakerModelUnavailable, default_embedder

    try:
        embedder = default_embedder()
    except SpeakerModelUnavailable:
        return None
    if saved is not None:
        return VoiceDesk.start(embedder, saved.voices)
    return VoiceDesk.start(embedder, enrol=state.players)


def has_speaker() -> bool:
    """An output device exists (False also when PortAudio itself is missing)."""
    try:
        return any(d.outputs > 0 for d in mic.list_devices())
    except Exception:  # noqa: BLE001 - a missing library means no speaker either
        return False


MAX_SCRIPT_BYTES = 4 * 1024 * 1024
"""The largest script file read (a script of typed lines is a few kilobytes)."""


def check_script(path: Path) -> bool:
    """Raise :class:`WiringError` (a sentence) when the script at ``path`` cannot be played:
    missing, too large, not UTF-8 text, or naming a recording longer than
    :data:`~voice_host.speech.wav.MAX_UTTERANCE_SECONDS`. True when it names recordings."""
    if path == ScriptListener.STDIN:  # lines written as the game goes: read as they come
        return False
    if not path.is_file():
        raise WiringError("wiring.no_script", path=str(path))
    try:
        if path.stat().st_size > MAX_SCRIPT_BYTES:
            raise WiringError("wiring.script_too_large", path=str(path),
                              size=MAX_SCRIPT_BYTES // (1024 * 1024))
        raw = path.read_bytes()
    except OSError as exc:
        raise WiringError("wiring.script_unreadable", path=str(path),
                          why=(exc.strerror or str(exc)).lower()) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = raw[:exc.start].count(b"\n") + 1
        raise WiringError("wiring.script_not_utf8", path=str(path), line=bad) from None
    has_wav = False
    for no, raw_line in enumerate(text.splitlines(), 1):
        line = raw_line.strip()
        if not line or line.startswith("#"):
            continue
        said = parse_script_line(line)[1]
        if not said.lower().endswith(".wav"):
            continue
        has_wav = True
        wav = ScriptListener.wav_path(path.parent, said)
        seconds = wav_seconds(wav)
        if seconds is not None and seconds > MAX_UTTERANCE_SECONDS:
            raise WiringError("wiring.script_recording_too_long", name=wav.name, line=no,
                              seconds=f"{seconds:.0f}", most=f"{MAX_UTTERANCE_SECONDS:.0f}")
    return has_wav


def speech_output(spec: str, *, captions: TextOutput | None, secrets: SecretFiles,
                  gate: HalfDuplexGate | None = None, voice: str = "auto") -> SpeechOutput:
    """Speech to the speakers (``speaker``) or to numbered WAV files (``wav:FOLDER``), each
    language by its narrator (``voice``: see ``--voice``)."""
    try:
        synth = create_synthesizer(spec, gate=gate, narrators=parse_narrators(voice))
    except SpeechError as exc:
        raise WiringError.because(exc) from None
    synth.pronunciation = pronunciations()
    return SpeechOutput(synth, captions=captions, secret_sink=secrets)


def _mic_listener(ears: PhaseEars, output: Output,
                  gate: HalfDuplexGate | None) -> MicListener:
    try:
        source = mic.MicrophoneSource(gate=gate).start()
    except SpeechError as exc:
        raise WiringError.because(exc) from None
    return MicListener(ears, source, output)

