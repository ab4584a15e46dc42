"""The Whisper recognizer with the real models (installed by the speech extra): decoding
searched inside the phase's grammar, rejection of table talk, open slots, and the recognizer
protocol. Speech is synthesized with espeak-ng; nothing is timed. French by voice (Kokoro's
voices, the multilingual model) is ``test_french_round_trips.py``."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

from tests.support import needs
from voice_host.intent.grammar import SlotValues, as_spoken, load_grammar
from voice_host.speech import whisper_models
from voice_host.speech.types import (
    ANY_WORD_RULE,
    RecognitionGrammar,
    RecognizerUnavailable,
    StreamingRecognizer,
)
from voice_host.speech.wav import decode_wav, resample, to_int16

pytest.importorskip("ctranslate2", reason="ctranslate2 is not installed (speech extra)")
pytest.importorskip("faster_whisper", reason="faster-whisper is not installed (speech extra)")
needs.espeak()
needs.whisper_tiny_en()

from voice_host.speech.whisper_asr import WhisperRecognizer  # noqa: E402

pytestmark = pytest.mark.model

PLAYERS = ("Sophie", "Thomas", "Hannah", "Oliver", "Emma")


FESTIVAL = ("ked_diphone", "cmu_us_slt_arctic_hts")


def speak(text: str, voice: str = "en-us", speed: int = 160) -> np.ndarray:
    if voice in FESTIVAL:
        with tempfile.TemporaryDirectory() as folder:  # text2wave's header needs a file
            path = Path(folder) / "speech.wav"
            subprocess.run(["text2wave", "-eval", f"(voice_{voice})", "-o", str(path)],
                           input=text.encode(), check=True, capture_output=True)
            raw = path.read_bytes()
    else:
        raw = subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "--stdout", text],
                             check=True, capture_output=True).stdout
    audio, rate = decode_wav(raw)
    return to_int16(resample(audio, rate, 16_000))


VOICES = ["en-us", "en-gb", *(FESTIVAL if shutil.which("text2wave") else ())]


def grammar(game: str, phase: str, lang: str = "en", **values: object) -> RecognitionGrammar:
    pg = load_grammar(game, lang).phase(phase, SlotValues(**values))  # type: ignore[arg-type]
    return RecognitionGrammar(name=f"{game}.{phase}.{lang}", jsgf=pg.recognition_jsgf(),
                              words=pg.vocabulary(), open_jsgf=pg.open_slot_jsgf(ANY_WORD_RULE),
                              spellings=pg.written_forms())


@pytest.fixture(scope="module")
def english() -> WhisperRecognizer:
    return WhisperRecognizer(whisper_models.ensure("tiny.en"), model_name="tiny.en")


def test_it_is_a_recognizer_that_streams(english: WhisperRecognizer) -> None:
    assert isinstance(english, StreamingRecognizer)
    english.set_grammar(grammar("resistance", "vote"))
    audio = speak("I vote yes")
    english.start_utterance()
    for start in range(0, len(audio), 1600):
        english.feed(audio[start:start + 1600])
    streamed = english.finish()
    whole = english.recognize(audio)
    # the same audio gives the same judgement, streamed or whole (what it is: the rates below)
    assert (streamed.text, streamed.closed_grammar, streamed.rejected) == \
        (whole.text, whole.closed_grammar, whole.rejected)
    assert streamed.backend == "whisper"
    assert 0.0 <= streamed.confidence <= 1.0
    assert streamed.audio_seconds == pytest.approx(len(audio) / 16_000)
    judgement = streamed.judgement
    assert judgement is not None and judgement.free_text
    assert streamed.details["free_text"] == judgement.free_text
    # the thresholds it judged with go along, for the host to decide with the same
    assert streamed.tuning == english.tuning.search_for("en")


def test_the_trailing_silence_is_used_to_decode(english: WhisperRecognizer) -> None:
    """Fed speech then silence, the decode starts before the utterance ends and its result
    is taken; a word after the pause makes it stale, and everything is decoded again."""
    english.set_grammar(grammar("resistance", "vote"))
    silence = np.zeros(16_000 // 2, dtype=np.int16)
    audio = np.concatenate([speak("I vote yes"), silence])
    before = english.speculated
    english.start_utterance()
    for start in range(0, len(audio), 480):
        english.feed(audio[start:start + 480])
    transcript = english.finish()
    assert english.speculated - before == 1
    assert transcript.judgement is not None
    assert transcript.audio_seconds == pytest.approx(len(audio) / 16_000, abs=0.05)
    # a word after the speculative decode's audio: that decode is not taken
    english.start_utterance()
    audio = np.concatenate([speak("I vote"), silence])
    for start in range(0, len(audio), 480):
        english.feed(audio[start:start + 480])
    for start in range(0, 8000, 480):  # loud frames arrive after the quiet ones
        english.feed(speak("yes")[start:start + 480])
    before = english.speculated
    english.finish()
    assert english.speculated == before


COMMANDS = [
    ("resistance", "team", {"players": PLAYERS}, "my team is Sophie and Thomas",
     {"my team is sophie and thomas"}),
    ("resistance", "vote", {}, "I vote yes", {"i vote yes"}),
    ("resistance", "mission", {}, "two sabotages",
     {"two sabotages", "2 sabotages", "two sabotage", "2 sabotage"}),
    ("ici-londres", "answer", {}, "miss", {"miss"}),
    ("codenames", "colour", {}, "it's red", {"it's red"}),
]


def test_commands_come_back_as_sentences_of_the_grammar(english: WhisperRecognizer) -> None:
    """Over the set (commands x voices), most come back as their own grammar sentence,
    accepted (the benchmark measures how often; a rate is the same on every CPU where one
    utterance's outcome is not)."""
    assert english._own is not None  # English decodes with our own decoder
    assert_commands_understood(english)


def test_without_onnx_ctranslate2_decodes_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from voice_host.speech import whisper_asr

    monkeypatch.setattr(whisper_asr, "own_decoder_installed", lambda: False)
    ears = WhisperRecognizer(whisper_models.ensure("tiny.en"), warm=False)
    assert ears._own is None and "needs onnx" in ears.description
    assert_commands_understood(ears)


def assert_commands_understood(english: WhisperRecognizer) -> None:
    right = total = 0
    for game, phase, values, said, expected in COMMANDS:
        english.set_grammar(grammar(game, phase, **values))
        for voice in VOICES:
            transcript = english.recognize(speak(said, voice))
            total += 1
            right += transcript.text in expected and transcript.closed_grammar
    assert right >= 0.6 * total, f"{right} of {total}"


def test_table_talk_is_not_accepted_as_a_grammar_sentence(english: WhisperRecognizer) -> None:
    english.set_grammar(grammar("resistance", "vote"))
    lines = ("pass me the chips please", "did you see the match last night",
             "I really don't trust Thomas at all", "whose turn is it to deal")
    accepted = 0
    for line in lines:
        transcript = english.recognize(speak(line))
        judgement = transcript.judgement
        assert judgement is not None
        accepted += judgement.accepted
        if not judgement.accepted:  # what was heard is kept, for the host to judge
            assert transcript.rejected and not transcript.closed_grammar
            assert judgement.reason.value
    assert accepted <= 1, accepted


def test_an_open_slot_takes_a_word_nobody_listed(english: WhisperRecognizer) -> None:
    english.set_grammar(grammar("codenames", "clue",
                                 lists=(as_spoken("board_word", ("piano", "ocean")),)))
    heard = [english.recognize(speak(said, voice)) for said in ("lighthouse three",
                                                                "volcano two")
             for voice in VOICES]
    numbers = sum(t.text.split()[-1:] in (["three"], ["3"], ["two"], ["2"]) for t in heard)
    assert numbers >= len(heard) // 2, heard


def test_silence_and_tiny_clips_give_nothing(english: WhisperRecognizer) -> None:
    english.set_grammar(grammar("resistance", "vote"))
    assert english.recognize(np.zeros(800, dtype=np.int16)).text == ""
    quiet = english.recognize(np.zeros(16_000, dtype=np.int16))
    assert quiet.text == "" and not quiet.closed_grammar


def test_a_broken_grammar_is_refused_with_a_sentence(english: WhisperRecognizer) -> None:
    with pytest.raises(RecognizerUnavailable, match="could not be loaded"):
        english.set_grammar(RecognitionGrammar(name="bad", jsgf="public <a> = ( one ;",
                                               words=frozenset()))


def test_english_only_model_refuses_french() -> None:
    with pytest.raises(RecognizerUnavailable, match="only knows English"):
        WhisperRecognizer(whisper_models.ensure("tiny.en"), language="fr", warm=False)


def test_float32_kernels_can_be_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    from voice_host.speech.whisper_asr import COMPUTE_ENV

    monkeypatch.setenv(COMPUTE_ENV, "float32")
    recognizer = WhisperRecognizer(whisper_models.ensure("tiny.en"), warm=False)
    assert recognizer.compute_type == "float32"
    recognizer.set_grammar(grammar("resistance", "vote"))
    assert recognizer.recognize(speak("I vote yes")).judgement is not None


def test_a_folder_that_is_not_a_model_is_refused(tmp_path: Path) -> None:
    for name in ("model.bin", "config.json", "tokenizer.json"):
        (tmp_path / name).write_text("not a model")
    with pytest.raises(RecognizerUnavailable, match="could not be loaded"):
        WhisperRecognizer(tmp_path, warm=False)


def test_the_decoder_may_attend_to_the_utterance_and_a_margin_only() -> None:
    """The encoder hears the whole window; the decoder's memory is cut to the utterance and
    ``memory_seconds`` after it (50 frames a second), never beyond the window."""
    from voice_host.speech.whisper_asr import WhisperTuning

    whole = WhisperRecognizer(whisper_models.ensure("tiny.en"), warm=False)
    cut = WhisperRecognizer(whisper_models.ensure("tiny.en"), warm=False,
                            tuning=WhisperTuning(memory_seconds=2.0))
    second = np.zeros(16000, dtype=np.int16)
    assert whole.encoded(second).shape[1] == 400  # the 8-s window
    assert cut.encoded(second).shape[1] == 150  # 1 s and 2 s
    assert cut.encoded(np.zeros(16000 * 7, dtype=np.int16)).shape[1] == 400
