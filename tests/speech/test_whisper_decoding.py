"""How the Whisper recognizer asks CTranslate2 for work: the encoder's window fitted to the
utterance (``WhisperTuning.fit_seconds``) and generate's length (no model)."""

from __future__ import annotations

from voice_host.speech.types import SAMPLE_RATE
from voice_host.speech.whisper_asr import WhisperRecognizer, WhisperTuning


def recognizer(tuning: WhisperTuning) -> WhisperRecognizer:
    return WhisperRecognizer.without_model(tuning=tuning)


def test_the_whole_window_unless_fitted() -> None:
    ears = recognizer(WhisperTuning(window_seconds=8.0))
    assert ears.window_for(SAMPLE_RATE) == 8.0


def test_a_fitted_window_is_the_utterance_and_some_silence_within_bounds() -> None:
    ears = recognizer(WhisperTuning(window_seconds=8.0, fit_seconds=1.5, min_window_seconds=3.0))
    assert ears.window_for(SAMPLE_RATE // 2) == 3.0  # a short word: the shortest window
    assert ears.window_for(3 * SAMPLE_RATE) == 4.5
    assert ears.window_for(12 * SAMPLE_RATE) == 8.0  # never more than the window


def test_generate_is_asked_for_just_the_tokens_wanted() -> None:
    from voice_host.speech.whisper_asr import max_length

    # CTranslate2 writes min(max_length - previous - 1, max_length // 2) tokens
    for previous in (0, 11, 65):
        for tokens in (1, 5, 12, 40):
            length = max_length(tokens, previous)
            assert min(length - previous - 1, length // 2) == tokens


def test_a_call_is_split_in_even_runs_one_per_worker() -> None:
    from voice_host.speech.whisper_asr import _parts

    assert _parts(6, 2) == [(0, 3), (3, 6)]
    assert _parts(5, 2) == [(0, 2), (2, 5)]
    assert _parts(1, 2) == [(0, 1)]  # one row: no split
    assert _parts(7, 1) == [(0, 7)]
    for rows in range(1, 12):
        for workers in range(1, 5):
            parts = _parts(rows, workers)
            assert parts[0][0] == 0 and parts[-1][1] == rows
            assert all(a < b for a, b in parts)
            assert all(b == c for (_, b), (c, _) in zip(parts, parts[1:], strict=False))
            sizes = [b - a for a, b in parts]
            assert max(sizes) - min(sizes) <= 1 and len(parts) == min(rows, workers)


class _Answer:
    def __init__(self, prompt: list[int]) -> None:
        self.prompt = prompt

    def result(self) -> _Answer:
        return self


class _Model:
    """Answers each row with its own prompt; records how each call was made."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, bool]] = []

    def generate(self, batch, prompts, *, asynchronous=False, **options):  # type: ignore[no-untyped-def]
        assert batch.shape[0] == len(prompts)  # the encoder output once a row
        self.calls.append((len(prompts), asynchronous))
        return [_Answer(p) for p in prompts]


def test_a_split_call_gives_its_rows_back_in_order() -> None:
    import types

    import numpy as np

    from voice_host.speech.whisper_asr import _Encoded

    owner = types.SimpleNamespace(
        _ct2=types.SimpleNamespace(StorageView=types.SimpleNamespace(from_array=lambda a: a)),
        _model=_Model(), _workers=2, _start=[1, 2], _eot=0)
    decoder = _Encoded(owner, np.zeros((1, 4, 3), np.float32), [1, 2])  # type: ignore[arg-type]
    prefixes = [(10,), (11, 12), (13,), (14,), (15, 16, 17)]
    answers = decoder._generate(prefixes, 5)
    assert [a.prompt for a in answers] == [[1, 2, *p] for p in prefixes]
    assert owner._model.calls == [(2, True), (3, True)]  # two runs, at once
    owner._model.calls.clear()
    decoder._generate([(10,)], 5)
    assert owner._model.calls == [(1, False)]  # one row: one plain call
