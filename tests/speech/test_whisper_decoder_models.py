"""Our own Whisper decoder on the real models (installed by the speech extra), against
CTranslate2's float32 decoder of the same weights, on synthesized speech. Rates over a few
utterances and medians, never one value's bits (the int8 projection's kernels differ
between CPUs)."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from voice_host.speech import whisper_models
from voice_host.speech.wav import decode_wav, resample, to_int16

pytest.importorskip("ctranslate2", reason="ctranslate2 is not installed (speech extra)")
pytest.importorskip("onnxruntime", reason="ONNX Runtime is not installed (speech extra)")
pytest.importorskip("onnx", reason="onnx is not installed (speech extra)")
if shutil.which("espeak-ng") is None:
    pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)", allow_module_level=True)

from voice_host.speech.whisper_asr import (  # noqa: E402
    WhisperRecognizer,
    WhisperTuning,
    max_length,
)
from voice_host.speech.whisper_decoder import OwnDecoder  # noqa: E402

pytestmark = pytest.mark.model

SENTENCES = {
    "en": ["I vote yes", "guess piano", "ocean two", "we pick the heart and the book",
           "what is the score"],
    "fr": ["je vote oui", "le cœur et la clé", "quel est le score", "je propose Emma"],
}


def speak(text: str, voice: str) -> np.ndarray:
    raw = subprocess.run(["espeak-ng", "-v", voice, "-s", "150", "--stdout", text],
                         check=True, capture_output=True).stdout
    audio, rate = decode_wav(raw)
    return to_int16(resample(audio, rate, 16_000))


def _log_softmax(rows: np.ndarray) -> np.ndarray:
    top = rows.max(-1, keepdims=True)
    return rows - top - np.log(np.exp(rows - top).sum(-1, keepdims=True))


@pytest.mark.parametrize("name,language", [("tiny.en", "en"), ("base", "fr")])
def test_our_decoder_computes_what_ctranslate2_computes(name: str, language: str) -> None:
    import ctranslate2

    if whisper_models.locate(name) is None:
        pytest.skip(f"the Whisper {name} model package is not installed")
    ears = WhisperRecognizer(whisper_models.ensure(name), language=language, warm=False,
                             tuning=WhisperTuning(decoder="own"))
    assert ears._own is not None, ears.description
    files = whisper_models.model_files(ears.model_path)
    exact = ctranslate2.models.Whisper(str(ears.model_path), device="cpu",
                                       compute_type="float32", files=files)
    prompt = ears.prompt_tokens("")
    same_text, chosen_errors = 0, []
    for sentence in SENTENCES[language]:
        encoded = ears.encoded(speak(sentence, "en-us" if language == "en" else "fr"))
        ours = ears._decoder(encoded, prompt, None)
        assert isinstance(ours, OwnDecoder)
        free = ours.continue_prefixes([()], cap=20)[0]
        theirs = exact.generate(ctranslate2.StorageView.from_array(encoded), [prompt],
                                beam_size=1, max_length=max_length(20, 0),
                                return_logits_vocab=True, suppress_blank=False)[0]
        written = [t for t in theirs.sequences_ids[0] if t != ours.eot]
        same_text += ours.text(free.tokens) == ours.text(written)
        # the same tokens, teacher-forced: our log-probabilities of CTranslate2's choices
        ours.score([tuple(written)])
        rows = _log_softmax(np.stack([np.asarray(r, dtype=np.float32).reshape(-1)
                                      for r in theirs.logits[0]]))
        for step, token in enumerate([*written, ours.eot]):
            mine = ours._nodes[tuple(written[:step])].logp
            chosen_errors.append(abs(float(mine[token]) - float(rows[step][token])))
    assert same_text >= len(SENTENCES[language]) - 1
    assert float(np.median(chosen_errors)) < 0.05
    assert float(np.percentile(chosen_errors, 90)) < 0.5
