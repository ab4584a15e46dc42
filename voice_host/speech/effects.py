"""Sound effects and mixing helpers (numpy only, deterministic with a seed).

- ``radio_effect``: makes recorded speech sound like a 1940s short-wave broadcast
  (band-pass ~300-3000 Hz, soft saturation, hiss, crackle and a slow fading).
- ``mix_at_snr`` / ``speech_rms`` / ``rms``: for benchmarks and tests that add noise to speech.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from voice_host.speech.types import SAMPLE_RATE, Samples
from voice_host.speech.wav import FloatArray, to_float, to_int16

_EPS = 1e-12


def rms(samples: npt.NDArray[Any]) -> float:
    """Root mean square of int16 samples, in int16 units (0 for empty input)."""
    if len(samples) == 0:
        return 0.0
    x = np.asarray(samples, dtype=np.float64)
    return float(np.sqrt(np.mean(x * x)))


def dbfs(value: float) -> float:
    """An int16 RMS value as decibels relative to full scale."""
    return 20.0 * float(np.log10(max(value, _EPS) / 32768.0))


def frame_rms(samples: npt.NDArray[Any], frame: int) -> npt.NDArray[np.float64]:
    """RMS of consecutive non-overlapping frames (the last partial frame is dropped)."""
    n = len(samples) // frame
    if n == 0:
        return np.zeros(0)
    x = np.asarray(samples[: n * frame], dtype=np.float64).reshape(n, frame)
    return np.sqrt(np.mean(x * x, axis=1))


def speech_rms(
    samples: npt.NDArray[Any], rate: int = SAMPLE_RATE, *, window_db: float = 30.0
) -> float:
    """RMS over the active part of a recording: 20 ms frames within ``window_db`` of the loudest.

    This is the level that matters for a signal-to-noise ratio; silence around the words
    does not dilute it.
    """
    levels = frame_rms(samples, max(1, rate // 50))
    if levels.size == 0:
        return rms(samples)
    loudest = float(levels.max())
    if loudest <= 0:
        return 0.0
    active = levels[levels >= loudest * 10 ** (-window_db / 20)]
    return float(np.sqrt(np.mean(active * active)))


def gain(samples: npt.NDArray[Any], db: float) -> Samples:
    """Amplify (or attenuate) by ``db`` decibels, clipping at full scale."""
    return to_int16(to_float(samples) * 10 ** (db / 20))


def silence(seconds: float, rate: int = SAMPLE_RATE) -> Samples:
    """Digital silence."""
    return np.zeros(int(round(seconds * rate)), dtype=np.int16)


def white_noise(n: int, *, rng: np.random.Generator, level_dbfs: float = -40.0) -> Samples:
    """Gaussian white noise with the given RMS level."""
    x = rng.standard_normal(n) * (10 ** (level_dbfs / 20))
    return to_int16(x)


def pink_noise(n: int, *, rng: np.random.Generator, level_dbfs: float = -40.0) -> Samples:
    """1/f noise (spectrally shaped white noise) with the given RMS level."""
    if n == 0:
        return np.zeros(0, dtype=np.int16)
    spectrum = np.fft.rfft(rng.standard_normal(n))
    f = np.arange(spectrum.size, dtype=np.float64)
    f[0] = 1.0
    x = np.fft.irfft(spectrum / np.sqrt(f), n)
    x = x / (np.sqrt(np.mean(x * x)) + _EPS) * (10 ** (level_dbfs / 20))
    return to_int16(x)


def mix_at_snr(
    speech: npt.NDArray[Any],
    noise: npt.NDArray[Any],
    snr_db: float,
    *,
    rate: int = SAMPLE_RATE,
    offset: int = 0,
) -> Samples:
    """Add ``noise`` (looped or cut to length) so that speech RMS / noise RMS = ``snr_db``.

    The speech level is measured with ``speech_rms`` (active frames only); the noise level over
    the whole noise segment used. ``offset`` picks where in the noise to start.
    """
    if len(speech) == 0:
        return np.zeros(0, dtype=np.int16)
    if len(noise) == 0:
        raise ValueError("mix_at_snr needs some noise samples")
    idx = (np.arange(len(speech)) + offset) % len(noise)
    segment = np.asarray(noise, dtype=np.float64)[idx]
    s_level = speech_rms(speech, rate)
    n_level = float(np.sqrt(np.mean(segment * segment)))
    if n_level <= 0:
        return np.asarray(speech, dtype=np.int16).copy()
    scale = s_level / (n_level * 10 ** (snr_db / 20))
    mixed = np.asarray(speech, dtype=np.float64) + segment * scale
    return np.clip(np.round(mixed), -32768, 32767).astype(np.int16)


def fir_bandpass(low_hz: float, high_hz: float, rate: int, *, taps: int = 257) -> FloatArray:
    """A windowed-sinc band-pass FIR filter (odd length, linear phase)."""
    n = np.arange(taps) - (taps - 1) / 2
    nyquist = rate / 2
    hi = min(high_hz, nyquist * 0.98) / rate
    lo = max(low_hz, 1.0) / rate
    h = 2 * hi * np.sinc(2 * hi * n) - 2 * lo * np.sinc(2 * lo * n)
    h *= np.blackman(taps)
    return np.asarray(h, dtype=np.float32)


def bandpass(audio: npt.NDArray[Any], low_hz: float, high_hz: float, rate: int) -> FloatArray:
    """Band-pass float audio (same length out)."""
    h = fir_bandpass(low_hz, high_hz, rate)
    return np.asarray(np.convolve(np.asarray(audio, np.float32), h, mode="same"), np.float32)


def saturate(audio: npt.NDArray[Any], drive: float = 2.0) -> FloatArray:
    """Soft clipping (tanh) normalised so full scale stays full scale."""
    x = np.asarray(audio, dtype=np.float64)
    return np.asarray(np.tanh(drive * x) / np.tanh(drive), dtype=np.float32)


def crackle(n: int, rate: int, *, rng: np.random.Generator, per_second: float = 12.0) -> FloatArray:
    """Sparse clicks and short bursts, like dust and atmospherics on a radio."""
    out = np.zeros(n, dtype=np.float64)
    count = rng.poisson(per_second * n / rate) if n else 0
    for _ in range(count):
        at = int(rng.integers(0, n))
        length = int(rng.integers(rate // 2000 + 1, rate // 100 + 2))
        burst = rng.standard_normal(length) * np.exp(-np.linspace(0, 6, length))
        end = min(n, at + length)
        out[at:end] += burst[: end - at] * float(rng.uniform(0.05, 0.35))
    return np.asarray(out, dtype=np.float32)


def radio_effect(
    samples: npt.NDArray[Any],
    rate: int = SAMPLE_RATE,
    *,
    seed: int = 1940,
    low_hz: float = 300.0,
    high_hz: float = 3000.0,
    hiss_db: float = -24.0,
    crackles_per_second: float = 12.0,
    drive: float = 2.5,
    fade_depth: float = 0.25,
) -> Samples:
    """Make speech sound like a wartime short-wave broadcast.

    ``hiss_db`` is the hiss level relative to the speech level. Deterministic for a given seed.
    The output has the same length as the input and a level close to the input's.
    """
    if len(samples) == 0:
        return np.zeros(0, dtype=np.int16)
    rng = np.random.default_rng(seed)
    x = to_float(samples).astype(np.float64)
    level = speech_rms(samples, rate) / 32768.0
    y = bandpass(x, low_hz, high_hz, rate).astype(np.float64)
    peak = float(np.max(np.abs(y))) or 1.0
    y = saturate(y / peak * 0.9, drive).astype(np.float64)
    t = np.arange(len(y)) / rate
    wobble = 1.0 - fade_depth * 0.5 * (1 + np.sin(2 * np.pi * 0.35 * t + rng.uniform(0, 6.28)))
    y *= wobble
    hiss = bandpass(rng.standard_normal(len(y)), 200.0, 5000.0, rate).astype(np.float64)
    hiss /= float(np.sqrt(np.mean(hiss * hiss))) or 1.0
    y_level = speech_rms(to_int16(y), rate) / 32768.0 or 1.0
    y = y / y_level * max(level, 1e-3)  # back to the speech's own loudness
    y += hiss * max(level, 1e-3) * 10 ** (hiss_db / 20)
    y += crackle(len(y), rate, rng=rng, per_second=crackles_per_second) * max(level, 1e-3) * 3
    return to_int16(np.clip(y, -1.0, 1.0))
