"""Cue sounds (generated, loadable, reproducible) and the sound effects."""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from voice_host.speech.cues import AUDIO_ENV, Cue, audio_dir, cue_path, load_cue, missing_cues
from voice_host.speech.effects import (
    frame_rms,
    mix_at_snr,
    pink_noise,
    radio_effect,
    speech_rms,
    white_noise,
)
from voice_host.speech.types import SAMPLE_RATE, AudioFormatError
from voice_host.speech.wav import read_wav, write_wav

REPO = Path(__file__).resolve().parents[2]


def _check(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(REPO / "scripts" / "make_cues.py"), "--check",
                           str(folder)], capture_output=True, text=True)


def test_regenerating_gives_the_committed_cues() -> None:
    result = _check(REPO / "audio")
    assert result.returncode == 0, result.stdout


def _copy_with(tmp_path: Path, cue: Cue, change: Callable[[np.ndarray], np.ndarray]) -> Path:
    folder = tmp_path / "audio"
    shutil.copytree(REPO / "audio", folder)
    path = folder / f"{cue.value}.wav"
    write_wav(path, change(read_wav(path).astype(np.int32)).clip(-32768, 32767)
              .astype(np.int16), SAMPLE_RATE)
    return folder


def test_last_bit_rounding_of_another_cpu_is_not_a_difference(tmp_path: Path) -> None:
    # another CPU's libm rounds a few boundary samples the other way: one step, a few places
    def another_cpu(x: np.ndarray) -> np.ndarray:
        y = x.copy()
        y[::997] += 1
        y[500::1499] -= 1
        return y

    folder = _copy_with(tmp_path, Cue.TUNING, another_cpu)
    assert (folder / "tuning.wav").read_bytes() != (REPO / "audio" / "tuning.wav").read_bytes()
    result = _check(folder)
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("change", [
    lambda x: (x * 0.97).round(),                       # 0.26 dB quieter
    lambda x: np.concatenate([x[1:], x[-1:]]),          # shifted by one sample
    lambda x: np.concatenate([x, np.zeros(16)]),        # one millisecond longer
    lambda x: x + np.where(np.arange(len(x)) % 50 == 0, 3, 0),  # a faint added click
])
def test_a_changed_cue_is_caught(tmp_path: Path, change: Callable[[np.ndarray], np.ndarray]
                                 ) -> None:
    result = _check(_copy_with(tmp_path, Cue.TUNING, change))
    assert result.returncode == 1
    assert "tuning.wav" in result.stdout and "run scripts/make_cues.py" in result.stdout


def test_every_cue_is_present_small_and_16khz_mono() -> None:
    # the package reads the repository's audio/ (through its voice_host/audio symlink)
    assert Path(str(audio_dir())).resolve() == (REPO / "audio").resolve()
    assert missing_cues() == []
    total = 0
    for cue in Cue:
        data = cue_path(cue).read_bytes()
        total += len(data)
        channels, rate = struct.unpack_from("<HI", data, 22)
        width = struct.unpack_from("<H", data, 34)[0]
        assert (channels, rate, width) == (1, SAMPLE_RATE, 16)
    assert total < 1_000_000


@pytest.mark.parametrize(
    ("cue", "low", "high"),
    [(Cue.TUNING, 1.2, 2.0), (Cue.V_MOTIF, 1.8, 3.0), (Cue.TICK, 0.02, 0.2),
     (Cue.HIT, 0.3, 1.0), (Cue.MISS, 0.3, 1.0), (Cue.TURN, 0.4, 1.2),
     (Cue.GAME_OVER, 1.0, 2.5), (Cue.LISTENING, 0.05, 0.4)],
)
def test_cue_lengths_and_levels(cue: Cue, low: float, high: float) -> None:
    samples = load_cue(cue)
    assert low <= len(samples) / SAMPLE_RATE <= high
    peak = int(np.max(np.abs(samples.astype(np.int32))))
    assert 8000 < peak < 32767  # audible, never clipped


def test_v_motif_is_three_short_strokes_and_a_long_one() -> None:
    samples = load_cue(Cue.V_MOTIF).astype(np.float64)
    levels = frame_rms(samples, SAMPLE_RATE // 100)  # 10 ms frames
    onsets = [i for i in range(1, len(levels))
              if levels[i] > 2.5 * levels[i - 1] + 200 and levels[i] > 0.3 * levels.max()]
    merged: list[int] = []
    for i in onsets:
        if not merged or i - merged[-1] > 8:
            merged.append(i)
    assert len(merged) == 4
    gaps = np.diff(merged) / 100
    assert all(0.18 <= g <= 0.4 for g in gaps)
    # the short strokes are damped before the next one; the last one rings on
    for here, following in zip(merged, merged[1:], strict=False):
        peak = levels[here : here + 10].max()
        assert levels[here + 10 : following + 1].min() < 0.3 * peak
    last = merged[-1]
    assert levels[last + 100] > 0.05 * levels[last : last + 10].max()


def test_listening_earcon_rises() -> None:
    samples = load_cue(Cue.LISTENING).astype(np.float64)
    half = len(samples) // 2

    def pitch(x: np.ndarray) -> float:
        spectrum = np.abs(np.fft.rfft(x * np.hanning(len(x))))
        return float(np.argmax(spectrum) * SAMPLE_RATE / len(x))

    assert pitch(samples[half:]) > pitch(samples[:half]) * 1.1


def test_cue_names_and_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert np.array_equal(load_cue("v-motif"), load_cue(Cue.V_MOTIF))
    with pytest.raises(AudioFormatError, match="no cue sound called trumpet"):
        load_cue("trumpet")
    monkeypatch.setenv(AUDIO_ENV, str(tmp_path))
    assert audio_dir() == tmp_path
    with pytest.raises(AudioFormatError, match="scripts/make_cues.py"):
        load_cue(Cue.TICK)
    assert set(missing_cues()) == set(Cue)


def _band_energy(x: np.ndarray, low: float, high: float) -> float:
    spectrum = np.abs(np.fft.rfft(x.astype(np.float64))) ** 2
    freqs = np.fft.rfftfreq(len(x), 1 / SAMPLE_RATE)
    return float(spectrum[(freqs >= low) & (freqs < high)].sum())


def test_radio_effect_band_limits_and_is_deterministic() -> None:
    rng = np.random.default_rng(9)
    t = np.arange(SAMPLE_RATE * 2) / SAMPLE_RATE
    voice = (0.3 * np.sin(2 * np.pi * 120 * t) + 0.2 * np.sin(2 * np.pi * 1000 * t)
             + 0.2 * np.sin(2 * np.pi * 6000 * t))
    samples = (voice * 20000 / 0.7).astype(np.int16)
    out = radio_effect(samples)
    assert len(out) == len(samples) and out.dtype == np.int16
    np.testing.assert_array_equal(out, radio_effect(samples))
    assert not np.array_equal(out, radio_effect(samples, seed=2))
    kept_mid = _band_energy(out, 900, 1100) / _band_energy(samples, 900, 1100)
    kept_low = _band_energy(out, 100, 140) / _band_energy(samples, 100, 140)
    kept_high = _band_energy(out, 5900, 6100) / _band_energy(samples, 5900, 6100)
    assert kept_low < 0.05 * kept_mid
    assert kept_high < 0.05 * kept_mid
    assert 0.5 < speech_rms(out) / speech_rms(samples) < 1.5
    assert radio_effect(np.zeros(0, np.int16)).size == 0
    del rng


@pytest.mark.parametrize("snr", [0.0, 10.0, 20.0])
def test_mix_at_snr_hits_the_ratio(snr: float) -> None:
    rng = np.random.default_rng(4)
    t = np.arange(SAMPLE_RATE) / SAMPLE_RATE
    tone = (8000 * np.sin(2 * np.pi * 440 * t)).astype(np.int16)
    speech = np.concatenate([np.zeros(SAMPLE_RATE // 2, np.int16), tone])
    noise = pink_noise(SAMPLE_RATE // 3, rng=rng, level_dbfs=-30)  # shorter: it is looped
    mixed = mix_at_snr(speech, noise, snr)
    added = mixed.astype(np.float64) - speech
    measured = 20 * np.log10(speech_rms(speech) / np.sqrt(np.mean(added**2)))
    assert measured == pytest.approx(snr, abs=0.3)
    assert len(mixed) == len(speech)
    with pytest.raises(ValueError):
        mix_at_snr(speech, white_noise(0, rng=rng), 10)
