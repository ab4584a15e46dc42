"""Microphone input and speaker output through ``sounddevice`` (PortAudio).

``sounddevice`` is imported lazily: nothing here touches the sound system until a microphone
or speaker is actually opened, and a missing package or PortAudio library becomes an
``AudioDeviceError`` that says what to install. Every PortAudio failure is turned into a
sentence a player can hear: no microphone, a device that went away, a rate it cannot do.

Input: ``MicrophoneSource`` opens an ``InputStream`` (mono int16, ~30 ms blocks) whose callback
puts blocks on a queue; blocks captured while the ``HalfDuplexGate`` is closed, or before the
host last spoke (stale audio nobody listened to), are dropped.
When the device cannot record at 16 kHz, it records at its own default rate and the audio
is resampled (``soxr`` stream when installed).

Output: ``SpeakerPlayer`` writes to an ``OutputStream`` in short chunks, closing the gate
while it plays, resampling when the device refuses the audio's rate.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from voice_host.speech.install import apt_install, pip_install
from voice_host.speech.source import (
    FRAME_SAMPLES,
    EndpointedSource,
    EndpointerConfig,
    HalfDuplexGate,
)
from voice_host.speech.types import SAMPLE_RATE, AudioDeviceError, Samples
from voice_host.speech.wav import resample, to_float, to_int16

NO_MICROPHONE = "sound.no_microphone"
NO_SPEAKER = "sound.no_speaker"
MIC_GONE = "sound.microphone_gone"
SPEAKER_GONE = "sound.speaker_gone"


def _sounddevice() -> ModuleType:
    """Import sounddevice, turning a missing package or library into a clear error."""
    try:
        import sounddevice
    except ImportError:
        raise AudioDeviceError("sound.needs_sounddevice",
                               command=pip_install("sounddevice")) from None
    except OSError:  # raised when libportaudio cannot be loaded
        raise AudioDeviceError("sound.needs_portaudio",
                               command=apt_install("libportaudio2")) from None
    return sounddevice


def _portaudio_error(sd: Any) -> type[BaseException]:
    error = getattr(sd, "PortAudioError", None)
    return error if isinstance(error, type) else OSError


@dataclass(frozen=True)
class DeviceInfo:
    """One sound device as PortAudio reports it."""

    index: int
    """PortAudio device index."""
    name: str
    """Device name."""
    inputs: int
    """Maximum input channels (0: cannot record)."""
    outputs: int
    """Maximum output channels (0: cannot play)."""
    default_rate: float
    """The device's default sample rate in hertz."""
    default_input: bool = False
    """This is the system's default input."""
    default_output: bool = False
    """This is the system's default output."""


def list_devices(*, sd: Any = None) -> list[DeviceInfo]:
    """Every device PortAudio knows (an empty list when there are none)."""
    sd = sd or _sounddevice()
    try:
        raw = list(sd.query_devices())
        defaults = list(sd.default.device)
    except _portaudio_error(sd):
        return []
    out = []
    for index, d in enumerate(raw):
        out.append(
            DeviceInfo(
                index=int(d.get("index", index)),
                name=str(d.get("name", f"device {index}")),
                inputs=int(d.get("max_input_channels", 0)),
                outputs=int(d.get("max_output_channels", 0)),
                default_rate=float(d.get("default_samplerate", 0.0) or 0.0),
                default_input=index == defaults[0],
                default_output=len(defaults) > 1 and index == defaults[1],
            )
        )
    return out


def _query(sd: Any, device: int | str | None, kind: str, missing: str) -> dict[str, Any]:
    try:
        info = sd.query_devices(device, kind=kind)
    except (_portaudio_error(sd), ValueError):
        if device is None:
            raise AudioDeviceError(missing) from None
        raise AudioDeviceError("sound.no_device", device=str(device)) from None
    channels = info.get("max_input_channels" if kind == "input" else "max_output_channels", 0)
    if not channels:
        raise AudioDeviceError(missing)
    return dict(info)


def _pick_rate(
    sd: Any, device: int | str | None, kind: str, wanted: int, info: dict[str, Any]
) -> int:
    """``wanted`` when the device takes it, else the device's default rate."""
    check = sd.check_input_settings if kind == "input" else sd.check_output_settings
    try:
        check(device=device, samplerate=wanted, channels=1, dtype="int16")
        return wanted
    except (_portaudio_error(sd), ValueError):
        pass
    fallback = int(round(float(info.get("default_samplerate") or 0)))
    if fallback <= 0:
        raise AudioDeviceError("sound.rate", rate=wanted)
    try:
        check(device=device, samplerate=fallback, channels=1, dtype="int16")
    except (_portaudio_error(sd), ValueError):
        raise AudioDeviceError("sound.rates", rate=wanted, other=fallback) from None
    return fallback


class _StreamResampler:
    """Block-by-block resampling to 16 kHz (soxr's streaming resampler when available)."""

    def __init__(self, rate: int) -> None:
        self.rate = rate
        self._soxr: Any = None
        if rate != SAMPLE_RATE:
            try:
                import soxr

                self._soxr = soxr.ResampleStream(rate, SAMPLE_RATE, 1, dtype="float32")
            except ImportError:
                self._soxr = None

    def __call__(self, block: Samples) -> Samples:
        if self.rate == SAMPLE_RATE:
            return block
        x = to_float(block)
        if self._soxr is not None:
            return to_int16(self._soxr.resample_chunk(x))
        return to_int16(resample(x, self.rate, SAMPLE_RATE))


class MicrophoneSource(EndpointedSource):
    """Utterances from a microphone, endpointed, with the half-duplex gate applied.

    Use as a context manager, or call ``start()`` and ``close()``.
    """

    def __init__(
        self,
        *,
        device: int | str | None = None,
        gate: HalfDuplexGate | None = None,
        config: EndpointerConfig | None = None,
        block_ms: int = 30,
        stall_timeout: float = 2.0,
        sd: Any = None,
    ) -> None:
        super().__init__(config=config)
        self.device = device
        """The PortAudio device (index or name); ``None`` for the system default."""
        self.gate = gate
        """Closed while the host speaks; ``None`` to always listen."""
        self.rate = SAMPLE_RATE
        """The rate the device records at (16 kHz unless it cannot)."""
        self._sd = sd
        self._block_ms = block_ms
        self._stall_timeout = stall_timeout
        self._queue: queue.Queue[tuple[float, Samples]] = queue.Queue(maxsize=1000)
        self._stream: Any = None
        self._buffer = np.zeros(0, dtype=np.int16)
        self._resampler = _StreamResampler(SAMPLE_RATE)
        self.overflows = 0
        """Blocks PortAudio reported as lost (the program did not keep up)."""

    def start(self) -> MicrophoneSource:
        """Open the device and start recording."""
        if self._stream is not None:
            return self
        sd = self._sd or _sounddevice()
        self._sd = sd
        info = _query(sd, self.device, "input", NO_MICROPHONE)
        self.rate = _pick_rate(sd, self.device, "input", SAMPLE_RATE, info)
        self._resampler = _StreamResampler(self.rate)
        try:
            stream = sd.InputStream(
                device=self.device,
                samplerate=self.rate,
                channels=1,
                dtype="int16",
                blocksize=self.rate * self._block_ms // 1000,
                callback=self._callback,
            )
            stream.start()
        except _portaudio_error(sd) as error:
            raise AudioDeviceError("sound.microphone_busy", why=_short(error)) from None
        self._stream = stream
        return self

    def _callback(self, indata: Any, frames: int, time_info: Any, status: Any) -> None:
        if status and getattr(status, "input_overflow", False):
            self.overflows += 1
        block = np.array(indata, dtype=np.int16).reshape(-1)
        captured = time.monotonic()  # the block ends now; the gate's tail covers latency
        try:
            self._queue.put_nowait((captured, block))
        except queue.Full:  # nobody listened for a long time: keep the newest audio
            self.overflows += 1
            with contextlib.suppress(queue.Empty):
                self._queue.get_nowait()
            with contextlib.suppress(queue.Full):
                self._queue.put_nowait((captured, block))

    def _next_block(self) -> tuple[float, Samples]:
        sd = self._sd
        try:
            return self._queue.get(timeout=self._stall_timeout)
        except queue.Empty:
            pass
        stream = self._stream
        active = False
        try:
            active = bool(stream is not None and stream.active)
        except _portaudio_error(sd):
            active = False
        if not active:
            self.close()
            raise AudioDeviceError(MIC_GONE)
        try:  # the stream says it is running: give it one more chance
            return self._queue.get(timeout=self._stall_timeout)
        except queue.Empty:
            self.close()
            raise AudioDeviceError(MIC_GONE) from None

    def _read_frame(self) -> Samples | None:
        if self._stream is None:
            self.start()
        while len(self._buffer) < FRAME_SAMPLES:
            captured, block = self._next_block()
            block16 = self._resampler(block)
            opened = self.gate.opened_at() if self.gate is not None else float("-inf")
            if opened is None or captured < opened:  # the host's voice, or stale audio
                self.endpointer.skip(len(block16) + len(self._buffer))
                self._buffer = np.zeros(0, dtype=np.int16)
                continue
            self._buffer = np.concatenate([self._buffer, block16])
        frame, self._buffer = self._buffer[:FRAME_SAMPLES], self._buffer[FRAME_SAMPLES:]
        return frame

    def close(self) -> None:
        """Stop recording and release the device (safe to call twice)."""
        stream, self._stream = self._stream, None
        if stream is None:
            return
        for method in ("stop", "close"):
            try:
                getattr(stream, method)()
            except Exception:  # noqa: BLE001 - a vanished device fails here; nothing to do
                pass

    def __enter__(self) -> MicrophoneSource:
        return self.start()


def _short(error: BaseException) -> str:
    text = str(error).strip().rstrip(".")
    return text[:80] if text else type(error).__name__


class SpeakerPlayer:
    """Plays int16 audio on the default (or a chosen) output device.

    Playback blocks until the sound has finished (``wait=True``) with the gate closed; with
    ``wait=False`` it plays in the background and holds the gate for the sound's length.
    """

    def __init__(
        self,
        *,
        device: int | str | None = None,
        gate: HalfDuplexGate | None = None,
        chunk_seconds: float = 0.1,
        sd: Any = None,
    ) -> None:
        self.device = device
        """The PortAudio output device; ``None`` for the system default."""
        self.gate = gate
        """Notified while sound plays."""
        self._sd = sd
        self._chunk_seconds = chunk_seconds
        self._stop = threading.Event()
        self._rates: dict[int, int] = {}
        self._threads: list[threading.Thread] = []

    def check(self) -> None:
        """Raise ``AudioDeviceError`` when there is no usable output device."""
        sd = self._sd or _sounddevice()
        self._sd = sd
        _query(sd, self.device, "output", NO_SPEAKER)

    def _device_rate(self, rate: int) -> int:
        if rate not in self._rates:
            sd = self._sd or _sounddevice()
            self._sd = sd
            info = _query(sd, self.device, "output", NO_SPEAKER)
            self._rates[rate] = _pick_rate(sd, self.device, "output", rate, info)
        return self._rates[rate]

    @contextmanager
    def stream(self, rate: int = SAMPLE_RATE, *, gate: bool = True) -> Iterator[_OpenStream]:
        """An open output stream to ``write`` audio into as it becomes available
        (the sentence-by-sentence narration uses this). The gate stays closed throughout."""
        sd = self._sd or _sounddevice()
        self._sd = sd
        device_rate = self._device_rate(rate)
        self._stop.clear()
        token = self.gate.begin_speaking() if (gate and self.gate is not None) else None
        try:
            try:
                out = sd.OutputStream(
                    device=self.device, samplerate=device_rate, channels=1, dtype="int16"
                )
                out.start()
            except _portaudio_error(sd) as error:
                raise AudioDeviceError("sound.speaker_busy", why=_short(error)) from None
            opened = _OpenStream(out, rate, device_rate, self._chunk_seconds, self._stop, sd)
            try:
                yield opened
            finally:
                opened.finish()
        finally:
            if token is not None and self.gate is not None:
                self.gate.end_speaking(token)

    def play(self, samples: Samples, rate: int = SAMPLE_RATE, *, wait: bool = True,
             gate: bool = True) -> None:
        """Play a sound. ``gate=False`` for sounds the microphone may hear (countdown ticks)."""
        if len(samples) == 0:
            return
        if wait:
            with self.stream(rate, gate=gate) as out:
                out.write(samples)
            return
        self._device_rate(rate)  # raise device errors now, in the caller's thread
        if gate and self.gate is not None:
            self.gate.hold(len(samples) / rate)

        def run() -> None:
            try:
                with self.stream(rate, gate=False) as out:
                    out.write(samples)
            except AudioDeviceError:
                pass  # a background cue is not worth a crash; the next spoken line reports it

        thread = threading.Thread(target=run, name="voice-host-cue", daemon=True)
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()

    def wait(self) -> None:
        """Wait for background sounds to finish."""
        for thread in self._threads:
            thread.join()
        self._threads = []

    def stop(self) -> None:
        """Cut off whatever is playing (at the next chunk boundary)."""
        self._stop.set()


class _OpenStream:
    """A started output stream; ``write`` blocks until the audio is queued to the device."""

    def __init__(self, stream: Any, rate: int, device_rate: int, chunk: float,
                 stop: threading.Event, sd: Any) -> None:
        self._stream = stream
        self._rate = rate
        self._device_rate = device_rate
        self._chunk = max(1, int(device_rate * chunk))
        self._stop = stop
        self._sd = sd
        self.first_write_at: float | None = None
        """``time.monotonic()`` of the first audio handed to the device."""

    def write(self, samples: Samples, rate: int | None = None) -> None:
        """Queue audio (at ``rate``, default the stream's) for playing."""
        src_rate = rate or self._rate
        data = samples
        if src_rate != self._device_rate:
            data = to_int16(resample(to_float(samples), src_rate, self._device_rate))
        for i in range(0, len(data), self._chunk):
            if self._stop.is_set():
                return
            if self.first_write_at is None:
                self.first_write_at = time.monotonic()
            try:
                self._stream.write(np.ascontiguousarray(data[i : i + self._chunk]).reshape(-1, 1))
            except _portaudio_error(self._sd):
                raise AudioDeviceError(SPEAKER_GONE) from None

    def finish(self) -> None:
        try:
            if self._stop.is_set():
                self._stream.abort()
            else:
                self._stream.stop()  # waits until the queued audio has been played
        except Exception:  # noqa: BLE001 - a vanished device fails here too
            pass
        try:
            self._stream.close()
        except Exception:  # noqa: BLE001
            pass
