"""Reading and writing WAV files, and sample-rate conversion.

Every WAV that enters voice-host is turned into 16 kHz mono int16 (``Samples``). The reader
parses the RIFF chunks itself so that it can accept what people actually have (8/16/24/32-bit
integer PCM, 32/64-bit float, WAVE_FORMAT_EXTENSIBLE, files whose size fields are wrong, as
``espeak-ng --stdout`` writes them) and refuse everything else with a sentence.

Resampling uses ``soxr`` (libsoxr, high quality) when it is installed, else a numpy FFT
resampler that is fine for whole utterances.
"""

from __future__ import annotations

import struct
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from voice_host.speech.types import (
    SAMPLE_RATE,
    AudioFormatError,
    RecordingTooLong,
    RecordingTooShort,
    Samples,
)

FloatArray = npt.NDArray[np.float32]

_PCM = 0x0001
_FLOAT = 0x0003
_ALAW = 0x0006
_MULAW = 0x0007
_EXTENSIBLE = 0xFFFE


def to_float(samples: npt.NDArray[Any]) -> FloatArray:
    """int16 samples -> float32 in [-1, 1)."""
    return np.asarray(samples, dtype=np.float32) / 32768.0


def to_int16(audio: npt.NDArray[Any]) -> Samples:
    """float audio in [-1, 1] -> int16, clipped (never wrapped)."""
    scaled = np.round(np.asarray(audio, dtype=np.float64) * 32768.0)
    return np.clip(scaled, -32768, 32767).astype(np.int16)


def resample(audio: npt.NDArray[Any], src_rate: int, dst_rate: int) -> FloatArray:
    """Resample mono float audio from ``src_rate`` to ``dst_rate`` (float32 out)."""
    x = np.asarray(audio, dtype=np.float32)
    if src_rate == dst_rate or x.size == 0:
        return x.copy()
    try:
        import soxr
    except ImportError:
        return _fft_resample(x, src_rate, dst_rate)
    return np.asarray(soxr.resample(x, src_rate, dst_rate, quality="HQ"), dtype=np.float32)


def _fft_resample(x: FloatArray, src_rate: int, dst_rate: int) -> FloatArray:
    """Band-limited resampling by zero-padding/truncating the spectrum (whole signal)."""
    n_out = int(round(x.size * dst_rate / src_rate))
    if n_out <= 0:
        return np.zeros(0, dtype=np.float32)
    pad = min(x.size, 256)
    padded = np.concatenate([x[:pad][::-1], x, x[-pad:][::-1]])  # reflect: fewer edge clicks
    spectrum = np.fft.rfft(padded)
    n_pad_out = int(round(padded.size * dst_rate / src_rate))
    out_bins = n_pad_out // 2 + 1
    if out_bins <= spectrum.size:
        spectrum = spectrum[:out_bins]
    else:
        spectrum = np.concatenate([spectrum, np.zeros(out_bins - spectrum.size, complex)])
    y = np.fft.irfft(spectrum, n_pad_out) * (n_pad_out / padded.size)
    start = int(round(pad * dst_rate / src_rate))
    return np.asarray(y[start : start + n_out], dtype=np.float32)


def read_wav(path: str | Path | Traversable) -> Samples:
    """Read any PCM/float WAV (a file, or a package resource) and return 16 kHz mono int16
    samples.

    Raises ``AudioFormatError`` (a sentence) for a missing, empty, corrupt or unsupported file.
    """
    p = Path(path) if isinstance(path, str) else path
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise AudioFormatError("wav.missing", name=p.name) from None
    except IsADirectoryError:
        raise AudioFormatError("wav.folder", name=p.name) from None
    except OSError:
        raise AudioFormatError("wav.unreadable", name=p.name) from None
    audio, rate = decode_wav(data)
    return to_int16(resample(audio, rate, SAMPLE_RATE))


MIN_UTTERANCE_SECONDS = 0.25
"""The shortest recording that can hold a spoken word ("no" takes about a quarter second)."""
_STREAMED_SIZES = frozenset({0, 0xFFFFFFFF})
"""Data sizes a streaming writer puts in the header when it does not know the length."""


MAX_UTTERANCE_SECONDS = 60.0
"""The longest recording read as one utterance (a script's WAV line): a minute of 16 kHz
audio is about 2 MB, while a half-hour file would take over a gigabyte once decoded."""


def wav_seconds(path: str | Path) -> float | None:
    """How long the WAV at ``path`` lasts, from its header and its size on disk, without
    reading its sound (None: not a WAV whose length can be told)."""
    p = Path(path)
    try:
        size = p.stat().st_size
        with p.open("rb") as f:
            head = f.read(65536)
    except OSError:
        return None
    if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"WAVE":
        return None
    found = _data_header(head)
    if found is None or found[0] <= 0:
        return None
    byte_rate, chunk, pos = found
    there = size - (pos + 8)  # a streamed header's size is a placeholder: the file's
    data = there if chunk in _STREAMED_SIZES else min(chunk, there)
    return max(0, data) / byte_rate


def read_utterance_wav(path: str | Path) -> Samples:
    """Read a WAV that should hold one spoken utterance, as :func:`read_wav` does, but refuse
    (``RecordingTooShort``) a file whose data is shorter than its header says (a cut-off
    recording) or too short to hold a word, and (``RecordingTooLong``, before reading its
    sound) one longer than :data:`MAX_UTTERANCE_SECONDS`."""
    p = Path(path)
    seconds = wav_seconds(p)
    if seconds is not None and seconds > MAX_UTTERANCE_SECONDS:
        raise RecordingTooLong(seconds=seconds, most=MAX_UTTERANCE_SECONDS)
    samples = read_wav(p)
    data = p.read_bytes()
    actual = len(samples) / SAMPLE_RATE
    declared = _declared_seconds(data)
    if declared is not None and declared - actual > 0.01:
        raise RecordingTooShort(
            f"That recording is cut short: its header says {declared:.1f} seconds, but only "
            f"{actual:.1f} seconds of sound are there.", actual=actual, declared=declared)
    if actual < MIN_UTTERANCE_SECONDS:
        raise RecordingTooShort(
            f"That recording is too short to hold a word: {actual:.2f} seconds.",
            actual=actual)
    return samples


def _declared_seconds(data: bytes) -> float | None:
    """The length the data chunk's header announces, in seconds (None when unknown, e.g. a
    streamed file's placeholder size)."""
    found = _data_header(data)
    if found is None:
        return None
    byte_rate, size, _ = found
    if size in _STREAMED_SIZES or size >= 0x7FFF0000 or byte_rate <= 0:
        return None
    return size / byte_rate


def _data_header(data: bytes) -> tuple[int, int, int] | None:
    """The byte rate of the format chunk before the data chunk, the data chunk's announced
    size and its position; None when no data chunk header is in ``data``."""
    pos, byte_rate = 12, 0
    while pos + 8 <= len(data):
        chunk_id = data[pos : pos + 4]
        (size,) = struct.unpack_from("<I", data, pos + 4)
        if chunk_id == b"fmt " and pos + 16 <= len(data):
            (byte_rate,) = struct.unpack_from("<I", data, pos + 16)
        elif chunk_id == b"data":
            return byte_rate, size, pos
        pos += 8 + size + (size & 1)
    return None


def decode_wav(data: bytes) -> tuple[FloatArray, int]:
    """Decode WAV bytes to mono float32 at the file's rate: ``(audio, rate)``."""
    if len(data) == 0:
        raise AudioFormatError("wav.empty")
    if len(data) < 12 or data[:4] not in (b"RIFF", b"RIFX") or data[8:12] != b"WAVE":
        raise AudioFormatError("wav.not_wav")
    if data[:4] == b"RIFX":
        raise AudioFormatError("wav.big_endian")
    fmt: bytes | None = None
    payload: bytes | None = None
    pos = 12
    while pos + 8 <= len(data):
        chunk_id = data[pos : pos + 4]
        (size,) = struct.unpack_from("<I", data, pos + 4)
        body = data[pos + 8 : pos + 8 + size]  # may be short: a truncated or streamed file
        if chunk_id == b"fmt ":
            fmt = body
        elif chunk_id == b"data":
            payload = body
            if fmt is not None:
                break
        pos += 8 + size + (size & 1)
    if fmt is None:
        raise AudioFormatError("wav.no_format")
    tag, channels, rate, width = _parse_fmt(fmt)
    if payload is None:
        raise AudioFormatError("wav.no_data")
    frame_bytes = channels * width // 8
    n_frames = len(payload) // frame_bytes
    if n_frames == 0:
        raise AudioFormatError("wav.no_sound")
    raw = payload[: n_frames * frame_bytes]
    audio = _decode_samples(raw, tag, width)
    mono = audio.reshape(n_frames, channels).mean(axis=1, dtype=np.float64)
    return np.asarray(mono, dtype=np.float32), rate


def _parse_fmt(fmt: bytes) -> tuple[int, int, int, int]:
    if len(fmt) < 16:
        raise AudioFormatError("wav.format_short")
    tag, channels, rate, _byte_rate, _align, width = struct.unpack_from("<HHIIHH", fmt, 0)
    if tag == _EXTENSIBLE:
        if len(fmt) < 26:
            raise AudioFormatError("wav.format_cut")
        (tag,) = struct.unpack_from("<H", fmt, 24)  # first two bytes of the sub-format GUID
    if tag in (_ALAW, _MULAW):
        raise AudioFormatError("wav.telephone")
    if tag not in (_PCM, _FLOAT):
        raise AudioFormatError("wav.compressed")
    if channels < 1:
        raise AudioFormatError("wav.no_channels")
    if not 1000 <= rate <= 384_000:
        raise AudioFormatError("wav.rate", rate=rate)
    if tag == _PCM and width not in (8, 16, 24, 32):
        raise AudioFormatError("wav.bits", bits=width)
    if tag == _FLOAT and width not in (32, 64):
        raise AudioFormatError("wav.float_bits", bits=width)
    return tag, channels, rate, width


def _decode_samples(raw: bytes, tag: int, width: int) -> npt.NDArray[np.float64]:
    if tag == _FLOAT:
        values = np.frombuffer(raw, dtype="<f4" if width == 32 else "<f8").astype(np.float64)
        return np.nan_to_num(np.clip(values, -1.0, 1.0))
    if width == 8:  # unsigned
        return (np.frombuffer(raw, dtype=np.uint8).astype(np.float64) - 128.0) / 128.0
    if width == 16:
        return np.frombuffer(raw, dtype="<i2").astype(np.float64) / 32768.0
    if width == 24:
        b = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        v = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
        v = np.where(v >= 1 << 23, v - (1 << 24), v)
        return v.astype(np.float64) / float(1 << 23)
    return np.frombuffer(raw, dtype="<i4").astype(np.float64) / float(1 << 31)


def encode_wav(samples: npt.NDArray[Any], rate: int = SAMPLE_RATE) -> bytes:
    """Mono int16 samples -> the bytes of a 16-bit PCM WAV file."""
    pcm = np.ascontiguousarray(samples, dtype="<i2").tobytes()
    header = struct.pack(
        "<4sI4s4sIHHIIHH4sI",
        b"RIFF",
        36 + len(pcm),
        b"WAVE",
        b"fmt ",
        16,
        _PCM,
        1,
        rate,
        rate * 2,
        2,
        16,
        b"data",
        len(pcm),
    )
    return header + pcm


def write_wav(path: str | Path, samples: npt.NDArray[Any], rate: int = SAMPLE_RATE) -> None:
    """Write mono int16 samples as a 16-bit PCM WAV (atomically: temp file then rename)."""
    p = Path(path)
    if samples.dtype != np.int16:
        raise TypeError("write_wav expects int16 samples; use to_int16() first.")
    tmp = p.with_name(p.name + ".part")
    tmp.write_bytes(encode_wav(samples, rate))
    tmp.replace(p)


def duration(samples: npt.NDArray[Any], rate: int = SAMPLE_RATE) -> float:
    """Length in seconds."""
    return float(len(samples)) / rate
