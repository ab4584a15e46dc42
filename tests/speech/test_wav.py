"""WAV reading/writing: formats accepted, resampling, and errors spoken as sentences."""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

from voice_host.speech.types import AudioFormatError
from voice_host.speech.wav import (
    decode_wav,
    encode_wav,
    read_wav,
    resample,
    to_float,
    to_int16,
    write_wav,
)


def _tone(freq: float, seconds: float, rate: int, amp: float = 0.5) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    return amp * np.sin(2 * np.pi * freq * t)


def _wav_bytes(frames: bytes, *, rate: int, channels: int, width: int, tag: int = 1,
               extensible: bool = False) -> bytes:
    block = channels * width // 8
    if extensible:
        fmt = struct.pack("<HHIIHHHHI", 0xFFFE, channels, rate, rate * block, block, width,
                          22, width, 0) + struct.pack("<H", tag) + b"\x00" * 14
    else:
        fmt = struct.pack("<HHIIHH", tag, channels, rate, rate * block, block, width)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(frames)) + frames
    return b"RIFF" + struct.pack("<I", len(body)) + body


def _dominant_hz(samples: np.ndarray, rate: int = 16000) -> float:
    spectrum = np.abs(np.fft.rfft(samples.astype(np.float64)))
    return float(np.argmax(spectrum) * rate / len(samples))


def test_write_then_read_round_trip(tmp_path: Path) -> None:
    samples = to_int16(_tone(440, 0.5, 16000))
    write_wav(tmp_path / "a.wav", samples)
    back = read_wav(tmp_path / "a.wav")
    assert back.dtype == np.int16
    np.testing.assert_array_equal(back, samples)


def test_8khz_stereo_is_mixed_down_and_resampled(tmp_path: Path) -> None:
    left = _tone(500, 1.0, 8000, 0.4)
    right = _tone(500, 1.0, 8000, 0.2)
    frames = to_int16(np.stack([left, right], axis=1).reshape(-1)).tobytes()
    path = tmp_path / "stereo8k.wav"
    path.write_bytes(_wav_bytes(frames, rate=8000, channels=2, width=16))
    out = read_wav(path)
    assert abs(len(out) - 16000) <= 2
    assert abs(_dominant_hz(out) - 500) < 3
    level = np.sqrt(np.mean(to_float(out[1000:-1000]) ** 2))
    assert level == pytest.approx(0.3 / np.sqrt(2), rel=0.05)  # mean of the two channels


def test_24_bit_pcm_is_read(tmp_path: Path) -> None:
    x = _tone(1000, 0.25, 16000, 0.7)
    ints = np.round(x * (1 << 23)).astype(np.int32)
    raw = np.stack([ints & 0xFF, (ints >> 8) & 0xFF, (ints >> 16) & 0xFF], axis=1)
    path = tmp_path / "deep.wav"
    path.write_bytes(_wav_bytes(raw.astype(np.uint8).tobytes(), rate=16000, channels=1, width=24))
    out = read_wav(path)
    np.testing.assert_allclose(to_float(out), x, atol=2 / 32768)


def test_24_bit_extensible_made_by_sox(tmp_path: Path) -> None:
    source = tmp_path / "src.wav"
    write_wav(source, to_int16(_tone(700, 0.5, 16000)))
    deep = tmp_path / "sox24.wav"
    try:
        subprocess.run(["sox", str(source), "-b", "24", "-r", "44100", "-c", "2", str(deep)],
                       check=True, capture_output=True)
    except FileNotFoundError:
        pytest.skip("sox is not installed")
    out = read_wav(deep)
    assert abs(len(out) - 8000) <= 2
    assert abs(_dominant_hz(out) - 700) < 4


def test_float32_and_8bit_are_read(tmp_path: Path) -> None:
    x = _tone(300, 0.2, 16000, 0.5)
    floats = _wav_bytes(x.astype("<f4").tobytes(), rate=16000, channels=1, width=32, tag=3)
    audio, rate = decode_wav(floats)
    assert rate == 16000
    np.testing.assert_allclose(audio, x, atol=1e-6)
    u8 = np.round(x * 127 + 128).astype(np.uint8).tobytes()
    audio8, _ = decode_wav(_wav_bytes(u8, rate=16000, channels=1, width=8))
    np.testing.assert_allclose(audio8, x, atol=1 / 100)


def test_streamed_header_with_wrong_sizes_is_read() -> None:
    """espeak-ng --stdout writes 0x7ffff... as sizes; the real data is shorter."""
    pcm = to_int16(_tone(440, 0.1, 22050)).tobytes()
    data = bytearray(_wav_bytes(pcm, rate=22050, channels=1, width=16))
    struct.pack_into("<I", data, 4, 0x7FFFF000)
    struct.pack_into("<I", data, 40, 0x7FFFF000)
    audio, rate = decode_wav(bytes(data))
    assert rate == 22050 and len(audio) == len(pcm) // 2


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "That WAV file is empty."),
        (b"hello, this is plain text and not audio", "That file is not a WAV file."),
        (b"ID3\x03\x00" + b"\x00" * 100, "That file is not a WAV file."),
        (b"RIFF\x24\x00\x00\x00WAVEdata\x00\x00\x00\x00", "That WAV file is damaged"),
        (b"RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00", "damaged"),
    ],
)
def test_bad_files_give_sentences(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.wav"
    path.write_bytes(content)
    with pytest.raises(AudioFormatError) as info:
        read_wav(path)
    text = str(info.value)
    assert message in text
    assert text.endswith(".") and text[0].isupper()


def test_truncated_files(tmp_path: Path) -> None:
    whole = encode_wav(to_int16(_tone(440, 0.5, 16000)))
    header_only = tmp_path / "header.wav"
    header_only.write_bytes(whole[:36])  # cut before the data chunk
    with pytest.raises(AudioFormatError, match="cut short"):
        read_wav(header_only)
    no_frames = tmp_path / "noframes.wav"
    no_frames.write_bytes(whole[:45])  # data chunk with a single byte: not one sample
    with pytest.raises(AudioFormatError, match="no sound"):
        read_wav(no_frames)
    half = tmp_path / "half.wav"
    half.write_bytes(whole[: 44 + 8001])  # cut mid-sample: the whole samples are kept
    assert len(read_wav(half)) == 4000


def test_unsupported_widths_and_compression(tmp_path: Path) -> None:
    path = tmp_path / "x.wav"
    path.write_bytes(_wav_bytes(b"\x00" * 120, rate=16000, channels=1, width=12))
    with pytest.raises(AudioFormatError, match="12-bit"):
        read_wav(path)
    path.write_bytes(_wav_bytes(b"\x00" * 120, rate=8000, channels=1, width=8, tag=7))
    with pytest.raises(AudioFormatError, match="compression"):
        read_wav(path)
    path.write_bytes(_wav_bytes(b"\x00" * 120, rate=16000, channels=1, width=16, tag=0x55))
    with pytest.raises(AudioFormatError, match="compressed"):
        read_wav(path)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(AudioFormatError, match="cannot find"):
        read_wav(tmp_path / "nothere.wav")
    with pytest.raises(AudioFormatError, match="folder"):
        read_wav(tmp_path)


def test_resample_keeps_frequency_and_length() -> None:
    x = _tone(1200, 1.0, 44100).astype(np.float32)
    y = resample(x, 44100, 16000)
    assert abs(len(y) - 16000) <= 1
    assert abs(_dominant_hz(to_int16(y)) - 1200) < 2


def test_fft_fallback_resampler_matches_frequency() -> None:
    from voice_host.speech.wav import _fft_resample

    x = _tone(900, 0.5, 22050).astype(np.float32)
    y = _fft_resample(x, 22050, 16000)
    assert abs(len(y) - 8000) <= 1
    assert abs(_dominant_hz(to_int16(y)) - 900) < 3


def test_to_int16_clips_instead_of_wrapping() -> None:
    out = to_int16(np.array([2.0, -2.0, 0.5]))
    assert out.tolist() == [32767, -32768, 16384]
