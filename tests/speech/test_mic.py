"""Microphone and speaker through a simulated sounddevice (no hardware is used)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from voice_host.speech import mic
from voice_host.speech.effects import silence
from voice_host.speech.fakes import FakeSoundDevice
from voice_host.speech.mic import (
    MIC_GONE,
    NO_MICROPHONE,
    NO_SPEAKER,
    SPEAKER_GONE,
    MicrophoneSource,
    SpeakerPlayer,
    list_devices,
)
from voice_host.speech.source import EndpointerConfig, HalfDuplexGate, SilenceTimeout
from voice_host.speech.types import SAMPLE_RATE, AudioDeviceError
from voice_host.speech.wav import resample, to_int16

RNG = np.random.default_rng(2024)


def voiced(seconds: float, rate: int = SAMPLE_RATE) -> np.ndarray:
    """A vowel-like buzz (harmonics of 140 Hz with a syllable rhythm): speech to the VAD."""
    t = np.arange(int(seconds * rate)) / rate
    f0 = 140 + 15 * np.sin(2 * np.pi * 3 * t)
    phase = 2 * np.pi * np.cumsum(f0) / rate
    x = sum(np.sin(k * phase) / k for k in range(1, 20))
    envelope = 0.6 + 0.4 * np.sin(2 * np.pi * 4 * t) ** 2
    return to_int16(0.15 * x * envelope)


def recording(rate: int = SAMPLE_RATE) -> np.ndarray:
    return np.concatenate([silence(1.0, rate), voiced(0.8, rate), silence(1.0, rate)])


def test_no_devices_at_all() -> None:
    sd = FakeSoundDevice(devices=[])
    assert list_devices(sd=sd) == []
    with pytest.raises(AudioDeviceError) as info:
        MicrophoneSource(sd=sd).start()
    assert info.value.code == NO_MICROPHONE
    with pytest.raises(AudioDeviceError) as out_info:
        SpeakerPlayer(sd=sd).play(voiced(0.1))
    assert out_info.value.code == NO_SPEAKER


def test_list_devices_marks_defaults() -> None:
    devices = list_devices(sd=FakeSoundDevice())
    assert [d.name for d in devices] == ["Fake Mic", "Fake Speaker"]
    assert devices[0].default_input and devices[0].inputs == 1
    assert devices[1].default_output and devices[1].outputs == 2


def test_unknown_device_name() -> None:
    with pytest.raises(AudioDeviceError, match="cannot find the sound device Nope"):
        MicrophoneSource(device="Nope", sd=FakeSoundDevice()).start()


def test_microphone_utterance_at_16khz() -> None:
    sd = FakeSoundDevice(recording=recording())
    with MicrophoneSource(sd=sd, stall_timeout=0.05) as source:
        assert source.rate == SAMPLE_RATE
        utterance = source.listen(timeout=5.0)
    assert 0.6 <= utterance.start <= 1.0
    assert 1.75 <= utterance.end <= 2.2
    stream = sd.input_streams[0]
    assert stream.kwargs["channels"] == 1 and stream.kwargs["dtype"] == "int16"
    assert stream.blocksize == 480
    assert stream.closed


def test_unsupported_rate_falls_back_to_the_device_rate() -> None:
    sd = FakeSoundDevice(input_rates=(48000,), recording=recording(48000))
    with MicrophoneSource(sd=sd, stall_timeout=0.05) as source:
        assert source.rate == 48000
        utterance = source.listen(timeout=5.0)
    assert sd.input_streams[0].samplerate == 48000
    assert 0.6 <= utterance.start <= 1.0 and 1.75 <= utterance.end <= 2.2
    # the audio really was converted to 16 kHz: same pitch as the original
    reference = voiced(0.8)
    spectrum = np.abs(np.fft.rfft(utterance.samples.astype(float)))
    peak_hz = np.argmax(spectrum) * SAMPLE_RATE / len(utterance.samples)
    ref_spectrum = np.abs(np.fft.rfft(reference.astype(float)))
    ref_hz = np.argmax(ref_spectrum) * SAMPLE_RATE / len(reference)
    assert abs(peak_hz - ref_hz) < 5


def test_no_usable_rate() -> None:
    sd = FakeSoundDevice(input_rates=(11025,))
    with pytest.raises(AudioDeviceError, match="cannot work at 16000 or 48000 hertz"):
        MicrophoneSource(sd=sd).start()


def test_microphone_that_disappears_mid_stream() -> None:
    sd = FakeSoundDevice(recording=recording(), fail_after_blocks=20)
    source = MicrophoneSource(sd=sd, stall_timeout=0.05).start()
    with pytest.raises(AudioDeviceError) as info:
        source.listen(timeout=10.0)
    assert info.value.code == MIC_GONE
    assert sd.input_streams[0].closed


def test_microphone_busy_when_opening() -> None:
    with pytest.raises(AudioDeviceError, match="cannot open the microphone"):
        MicrophoneSource(sd=FakeSoundDevice(fail_open=True)).start()


def test_silence_timeout_from_the_microphone() -> None:
    sd = FakeSoundDevice(recording=silence(3.0))
    with MicrophoneSource(sd=sd, stall_timeout=0.05) as source, pytest.raises(SilenceTimeout):
        source.listen(timeout=1.5)


def test_gate_hides_the_hosts_own_voice() -> None:
    gate = HalfDuplexGate(tail=0.0)
    tokens: list[int] = []
    audio = np.concatenate([voiced(0.9), silence(0.6), voiced(0.6), silence(1.0)])
    # blocks 0-29 (0.9 s of "host voice") arrive while the host speaks; then it stops
    hooks = {0: lambda: tokens.append(gate.begin_speaking()),
             31: lambda: gate.end_speaking(tokens[0])}
    sd = FakeSoundDevice(recording=audio, hooks=hooks)
    config = EndpointerConfig(pre_roll=0.0)
    with MicrophoneSource(sd=sd, gate=gate, config=config, stall_timeout=0.05) as source:
        heard = source.listen(timeout=5.0)
    assert heard.start >= 1.4  # only the player's words after the host stopped
    assert heard.duration == pytest.approx(0.6 + 0.25, abs=0.1)

    # the same audio without the gate: the host's voice is taken for an utterance
    sd2 = FakeSoundDevice(recording=audio)
    with MicrophoneSource(sd=sd2, config=config, stall_timeout=0.05) as source2:
        first = source2.listen(timeout=5.0)
    assert first.start < 0.1


def test_audio_from_before_the_host_spoke_is_stale() -> None:
    gate = HalfDuplexGate(tail=0.0)

    def host_says_something() -> None:
        gate.end_speaking(gate.begin_speaking())

    # a player talks (blocks 0-29), then the host speaks a line, then the player answers
    audio = np.concatenate([voiced(0.9), silence(0.6), voiced(0.6), silence(1.0)])
    sd = FakeSoundDevice(recording=audio, hooks={40: host_says_something})
    with MicrophoneSource(sd=sd, gate=gate, stall_timeout=0.05) as source:
        heard = source.listen(timeout=5.0)
    assert heard.start >= 1.2
    assert heard.duration < 1.2


def test_a_full_queue_keeps_the_newest_audio() -> None:
    source = MicrophoneSource(sd=FakeSoundDevice())
    for i in range(1005):
        source._callback(np.full((480, 1), i, np.int16), 480, None, None)
    assert source.overflows == 5
    first_kept = source._queue.get_nowait()[1]
    assert int(first_kept[0]) == 5


def test_missing_sounddevice_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sounddevice", None)
    with pytest.raises(AudioDeviceError, match="pip install sounddevice"):
        mic._sounddevice()


def test_missing_portaudio_library(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def fake_import(name: str, *args: object, **kwargs: object) -> object:
        if name == "sounddevice":
            raise OSError("PortAudio library not found")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.delitem(sys.modules, "sounddevice", raising=False)
    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(AudioDeviceError, match="libportaudio2"):
        mic._sounddevice()


def test_speaker_plays_everything_with_the_gate_closed() -> None:
    now = [100.0]
    gate = HalfDuplexGate(tail=0.2, clock=lambda: now[0])
    sd = FakeSoundDevice()
    seen_open: list[bool] = []
    player = SpeakerPlayer(sd=sd, gate=gate)
    sound = voiced(0.5)
    with player.stream(SAMPLE_RATE) as out:
        sd.output_streams[0].on_write = lambda: seen_open.append(gate.is_open())
        out.write(sound)
    stream = sd.output_streams[0]
    np.testing.assert_array_equal(stream.samples, sound)
    assert seen_open and not any(seen_open)
    assert not gate.is_open()  # still within the tail
    now[0] += 0.19
    assert not gate.is_open()
    now[0] += 0.02
    assert gate.is_open()
    assert stream.closed


def test_speaker_resamples_for_a_device_without_the_rate() -> None:
    sd = FakeSoundDevice(output_rates=(48000,))
    sound = voiced(0.5, 22050)
    SpeakerPlayer(sd=sd).play(sound, 22050)
    stream = sd.output_streams[0]
    assert stream.samplerate == 48000
    assert abs(len(stream.samples) - 24000) <= 2  # same duration at the device's rate


def test_speaker_that_disappears() -> None:
    gate = HalfDuplexGate(tail=0.0)
    sd = FakeSoundDevice(fail_after_writes=2)
    player = SpeakerPlayer(sd=sd, gate=gate)
    with pytest.raises(AudioDeviceError) as info:
        player.play(voiced(1.0))
    assert info.value.code == SPEAKER_GONE
    assert not gate.host_speaking  # the gate is not left closed


def test_background_sound_holds_the_gate() -> None:
    gate = HalfDuplexGate(tail=0.1)
    sd = FakeSoundDevice()
    player = SpeakerPlayer(sd=sd, gate=gate)
    player.play(voiced(0.3), wait=False)
    assert not gate.is_open()
    player.wait()
    assert len(sd.output_streams[0].samples) == len(voiced(0.3))
    ticks = SpeakerPlayer(sd=FakeSoundDevice(), gate=HalfDuplexGate(tail=0.1))
    ticks.play(voiced(0.05), wait=False, gate=False)  # a countdown tick: keep listening
    assert ticks.gate is not None and ticks.gate.is_open()
    ticks.wait()


def test_resample_helper_used_for_output_keeps_length() -> None:
    out = to_int16(resample(voiced(1.0).astype(np.float32) / 32768, 16000, 48000))
    assert abs(len(out) - 48000) <= 1
