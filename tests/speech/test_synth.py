"""Narration: engines render real speech, outputs receive it, rate and volume change."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from voice_host.speech.effects import rms, speech_rms
from voice_host.speech.fakes import (
    FakeSoundDevice,
    PlayedSound,
    RecordingSynthesizer,
    ScriptedRecognizer,
    SpokenLine,
)
from voice_host.speech.mic import SpeakerPlayer
from voice_host.speech.source import HalfDuplexGate
from voice_host.speech.synthesizer import (
    MAX_VOLUME,
    EspeakEngine,
    Pyttsx3Engine,
    SpeakerOutput,
    SynthesisError,
    Synthesizer,
    TtsEngine,
    TtsSynthesizer,
    VoiceSettings,
    WavOutput,
    create_synthesizer,
    parse_output,
    split_sentences,
)
from voice_host.speech.types import SAMPLE_RATE, Recognizer, SpeechError
from voice_host.speech.wav import read_wav


def _engine(kind: str) -> TtsEngine:
    try:
        return Pyttsx3Engine() if kind == "pyttsx3" else EspeakEngine()
    except SynthesisError as error:
        pytest.skip(f"{kind} is not available here: {error}")


@pytest.fixture(params=["pyttsx3", "espeak-ng"])
def engine(request: pytest.FixtureRequest) -> TtsEngine:
    return _engine(request.param)


class _Discard:
    def speak(self, parts, *, text, lang):  # type: ignore[no-untyped-def]
        return next((None for _ in parts), None)

    def play(self, samples, rate=SAMPLE_RATE, *, label="", wait=True, gate=True):  # type: ignore[no-untyped-def]
        return None


def _voiced_seconds(samples: np.ndarray) -> float:
    frame = SAMPLE_RATE // 50
    n = len(samples) // frame
    levels = np.sqrt(np.mean(samples[: n * frame].astype(float).reshape(n, frame) ** 2, axis=1))
    return float(np.count_nonzero(levels > 300)) / 50


@pytest.mark.parametrize(
    ("lang", "text", "low", "high"),
    [
        ("en", "The mission succeeded. The resistance wins this round.", 2.0, 6.0),
        ("fr", "Ici Londres. Les Français parlent aux Français.", 1.8, 6.0),
    ],
)
def test_render_gives_speech_of_plausible_length(engine: TtsEngine, lang: str, text: str,
                                                  low: float, high: float) -> None:
    synth = TtsSynthesizer(engine, _Discard())
    audio = synth.render(text, lang=lang)
    assert audio.dtype == np.int16
    seconds = len(audio) / SAMPLE_RATE
    assert low <= seconds <= high
    assert speech_rms(audio) > 1000  # clearly audible, not silence
    assert _voiced_seconds(audio) > 0.5 * low


def test_french_and_english_voices_differ(engine: TtsEngine) -> None:
    synth = TtsSynthesizer(engine, _Discard())
    text = "Les Français parlent aux Français"
    en = synth.render(text, lang="en")
    fr = synth.render(text, lang="fr")
    assert len(en) != len(fr) or not np.array_equal(en, fr)


def test_rate_and_volume_change_the_audio(engine: TtsEngine) -> None:
    synth = TtsSynthesizer(engine, _Discard())
    text = "Choose two players for the first mission."
    normal = synth.render(text)
    assert synth.slower() and synth.slower()
    slow = synth.render(text)
    assert len(slow) > 1.2 * len(normal)
    synth.settings = VoiceSettings()
    again = synth.render(text)  # the change is undone at once, not one line late
    assert abs(len(again) - len(normal)) < 0.02 * len(normal)
    assert synth.quieter() and synth.quieter()
    quiet = synth.render(text)
    assert speech_rms(quiet) < 0.85 * speech_rms(normal)


def test_adjustments_stop_at_their_limits() -> None:
    synth = TtsSynthesizer(_engine("espeak-ng"), _Discard())
    while synth.louder():
        pass
    assert synth.settings.volume == MAX_VOLUME
    assert not synth.louder()
    for _ in range(20):
        synth.faster()
    assert not synth.faster()
    assert synth.slower()


def test_unknown_voice_and_language_are_sentences() -> None:
    synth = TtsSynthesizer(_engine("espeak-ng"), _Discard())
    with pytest.raises(SynthesisError, match="I do not have the voice klingon"):
        synth.say("hello", voice="klingon")
    with pytest.raises(SynthesisError, match="no voice for the language xx"):
        synth.say("hello", lang="xx")


def test_variant_voice_is_accepted(engine: TtsEngine) -> None:
    synth = TtsSynthesizer(engine, _Discard())
    audio = synth.render("Bonjour", lang="fr", voice="fr+f3")
    assert speech_rms(audio) > 1000


def test_wav_output_numbers_files_and_keeps_a_transcript(tmp_path: Path) -> None:
    out_dir = tmp_path / "narration"
    synth = create_synthesizer(f"wav:{out_dir}", engine="espeak-ng")
    synth.say("Welcome. There are five players. Two of them are spies.")
    synth.play(np.full(800, 1000, np.int16), label="tick")
    synth.say("Ici Londres.", lang="fr")
    synth.say("   ")  # nothing to say: no file
    files = sorted(p.name for p in out_dir.glob("*.wav"))
    assert files == ["0001.wav", "0002.wav", "0003.wav"]
    lines = (out_dir / "transcript.txt").read_text(encoding="utf-8").splitlines()
    assert lines == [
        "0001.wav\ten\tWelcome. There are five players. Two of them are spies.",
        "0002.wav\tcue\ttick",
        "0003.wav\tfr\tIci Londres.",
    ]
    first = read_wav(out_dir / "0001.wav")
    assert len(first) / SAMPLE_RATE > 2.0 and rms(first) > 300
    assert synth.last_stats is not None and synth.last_stats.sentences == 1
    # a second run in the same folder continues the numbering
    again = WavOutput(out_dir)
    again.play(np.full(160, 5, np.int16), label="hit")
    assert again.files[-1].name == "0004.wav"


def test_sentences_are_rendered_one_by_one(tmp_path: Path) -> None:
    synth = create_synthesizer(WavOutput(tmp_path), engine="espeak-ng")
    synth.say("First sentence. Second one! And a third?")
    stats = synth.last_stats
    assert stats is not None
    assert stats.sentences == 3
    assert stats.first_audio_seconds <= stats.total_seconds
    assert stats.audio_seconds > 1.5


def test_split_sentences() -> None:
    assert split_sentences("One. Two! Three? Four") == ["One.", "Two!", "Three?", "Four"]
    assert split_sentences("  ") == []
    long = "alpha beta, " * 30 + "end."
    parts = split_sentences(long, max_chars=60)
    assert all(len(p) <= 60 for p in parts[:-1])
    assert " ".join(parts).replace(",", "").split() == long.replace(",", "").split()


def test_speaker_output_plays_with_the_gate_closed() -> None:
    sd = FakeSoundDevice()
    gate = HalfDuplexGate(tail=0.3)
    during: list[bool] = []
    player = SpeakerPlayer(sd=sd, gate=gate)
    synth = TtsSynthesizer(_engine("espeak-ng"), SpeakerOutput(player))
    real_output_stream = sd.OutputStream

    def watched(**kwargs):  # type: ignore[no-untyped-def]
        stream = real_output_stream(**kwargs)
        stream.on_write = lambda: during.append(gate.is_open())
        return stream

    sd.OutputStream = watched  # type: ignore[method-assign]
    synth.say("Team leader, choose three players. Then everyone votes.")
    stream = sd.output_streams[0]
    assert len(stream.samples) > 1.5 * stream.samplerate
    assert during and not any(during)
    assert synth.last_stats is not None and synth.last_stats.sentences == 2
    synth.play(np.full(1600, 3000, np.int16), label="tick", gate=False)
    assert len(sd.output_streams) == 2


def test_parse_output() -> None:
    assert isinstance(parse_output("speaker"), SpeakerOutput)
    with pytest.raises(SpeechError, match="I do not know the output"):
        parse_output("mp3:x")


def test_fakes_satisfy_the_protocols() -> None:
    fake = RecordingSynthesizer()
    assert isinstance(fake, Synthesizer)
    fake.say("Hello", lang="en")
    fake.slower()
    fake.say("Bonjour", lang="fr", voice="fr+f3")
    fake.play(np.zeros(1600, np.int16), label="tick", wait=False, gate=False)
    assert fake.texts == ["Hello", "Bonjour"]
    assert fake.lines[1] == SpokenLine("Bonjour", "fr", "fr+f3", fake.settings)
    assert fake.lines[0].settings.rate > fake.lines[1].settings.rate
    assert fake.sounds == [PlayedSound("tick", 0.1, False, False)]
    recognizer = ScriptedRecognizer(["vote yes", "no"], confidence=0.7)
    assert isinstance(recognizer, Recognizer)
    first = recognizer.recognize(np.zeros(16000, np.int16))
    assert first.text == "vote yes" and first.confidence == 0.7 and len(first.words) == 2
    assert recognizer.recognize(np.zeros(10, np.int16)).text == "no"
    assert recognizer.recognize(np.zeros(10, np.int16)).text == ""


def test_espeak_is_the_fallback_when_pyttsx3_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    from voice_host.speech import synthesizer

    def broken() -> None:
        raise SynthesisError("pyttsx3 cannot start: no driver")

    monkeypatch.setattr(synthesizer, "Pyttsx3Engine", broken)
    auto = synthesizer.create_engine("auto")
    # with Piper installed, espeak-ng speaks the voices Piper lacks (French); without, all
    assert isinstance(getattr(auto, "fallback", auto), EspeakEngine)
    with pytest.raises(SynthesisError, match="no driver"):
        synthesizer.create_engine("pyttsx3")
    with pytest.raises(SynthesisError, match="I do not know the speech engine festival"):
        synthesizer.create_engine("festival")


def test_no_espeak_program(monkeypatch: pytest.MonkeyPatch) -> None:
    from voice_host.speech import synthesizer

    monkeypatch.setattr(synthesizer.shutil, "which", lambda name: None)
    with pytest.raises(SynthesisError, match="apt-get install -y espeak-ng"):
        EspeakEngine()
    with pytest.raises(SynthesisError, match="does not run"):
        EspeakEngine(program="/nonexistent/espeak-ng")
