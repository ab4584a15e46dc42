"""A second speaker encoder: the GE2E LSTM whose weights the PyPI package ``Resemblyzer``
(Apache-2.0) ships as ``pretrained.pt``, run by ONNX Runtime without PyTorch.

The weights file is PyTorch's legacy serialization: three small pickles (a magic number, the
format version, system information), the pickled state dictionary whose tensors refer to
storages by key, the list of storage keys, then each storage as an int64 element count and
its raw little-endian values. :func:`read_torch_legacy` reads that with the standard
library's unpickler, which is only allowed to build the few classes such a file names (no
arbitrary code runs). :func:`encoder_graph` turns the weights into an ONNX graph (three LSTM
layers, the last hidden state through a linear layer and a ReLU) built with ``onnx.helper``.

The input recipe is the one the encoder was trained with: 16 kHz audio raised to -30 dBFS
when quieter, 40-band mel power (not its log) of 25-ms Hann frames every 10 ms, partials of
160 frames (1.6 s) every 80; each partial's print is normalized, the mean normalized again.
Frames well below the utterance's loud frames are dropped first, as for the d-vector
encoder.
"""

from __future__ import annotations

import importlib.util
import io
import pickle
import struct
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from voice_host.speech.types import SAMPLE_RATE, Samples

GE2E_INSTALL_HINT = ("The GE2E speaker encoder needs Resemblyzer's weights: "
                     "pip install --no-deps Resemblyzer==0.1.4 (PyTorch is not needed).")

_MAGIC = 0x1950A86A20F9469CFC6C
_DTYPES = {"FloatStorage": np.float32, "DoubleStorage": np.float64,
           "LongStorage": np.int64, "IntStorage": np.int32}


class _Tensor:
    """A tensor as the pickle describes it: storage key, offset, shape, strides."""

    def __init__(self, storage: str, offset: int, shape: tuple[int, ...],
                 stride: tuple[int, ...]) -> None:
        self.storage, self.offset, self.shape, self.stride = storage, offset, shape, stride


def _rebuild(storage: str, offset: int, shape: tuple[int, ...], stride: tuple[int, ...],
             *_: Any) -> _Tensor:
    return _Tensor(storage, offset, tuple(shape), tuple(stride))


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BufferedIOBase, kinds: dict[str, str]) -> None:
        super().__init__(file)
        self.kinds = kinds

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return _rebuild
        if module == "torch" and name in _DTYPES:
            return name
        if (module, name) == ("collections", "OrderedDict"):
            return OrderedDict
        raise pickle.UnpicklingError(f"unexpected {module}.{name} in a weights file")

    def persistent_load(self, pid: Any) -> str:
        _, kind, key, _location, _size, _view = pid
        self.kinds[str(key)] = str(kind)
        return str(key)


def read_torch_legacy(path: Path) -> dict[str, Any]:
    """The object saved in a legacy-format PyTorch file, its tensors as numpy arrays."""
    with open(path, "rb") as f:
        if pickle.load(f) != _MAGIC:  # noqa: S301 - plain integers and strings only
            raise ValueError(f"{path} is not a legacy PyTorch file")
        pickle.load(f)  # noqa: S301 - the format version
        pickle.load(f)  # noqa: S301 - system information
        kinds: dict[str, str] = {}
        obj = _Unpickler(f, kinds).load()  # type: ignore[arg-type]
        keys = pickle.load(f)  # noqa: S301 - a list of strings
        storages: dict[str, npt.NDArray[Any]] = {}
        for key in keys:
            (count,) = struct.unpack("<q", f.read(8))
            dtype = np.dtype(_DTYPES[kinds[key]])
            storages[key] = np.frombuffer(f.read(count * dtype.itemsize), dtype=dtype)

    def build(value: Any) -> Any:
        if isinstance(value, _Tensor):
            flat = storages[value.storage][value.offset:]
            item = flat.itemsize
            return np.lib.stride_tricks.as_strided(
                flat, shape=value.shape, strides=[s * item for s in value.stride]).copy()
        if isinstance(value, dict):
            return {k: build(v) for k, v in value.items()}
        return value
    return dict(build(obj))


def _onnx_gates(matrix: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """PyTorch stacks an LSTM's gates input, forget, cell, output; ONNX input, output,
    forget, cell."""
    i, f, g, o = np.split(matrix, 4, axis=0)
    return np.concatenate([i, o, f, g], axis=0)


def encoder_graph(state: dict[str, npt.NDArray[Any]], layers: int = 3) -> bytes:
    """The ONNX graph of the encoder: ``mels`` (frames, batch, 40) -> ``embedding``
    (batch, 256), before the final normalization."""
    import onnx
    from onnx import helper, numpy_helper

    hidden = int(state["lstm.weight_hh_l0"].shape[1])
    initializers = []
    nodes = []

    def constant(name: str, value: npt.NDArray[Any]) -> str:
        initializers.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    x = "mels"
    axis1 = constant("axis1", np.array([1], np.int64))
    axis0 = constant("axis0", np.array([0], np.int64))
    for layer in range(layers):
        w = constant(f"w{layer}", _onnx_gates(
            state[f"lstm.weight_ih_l{layer}"].astype(np.float32))[None])
        r = constant(f"r{layer}", _onnx_gates(
            state[f"lstm.weight_hh_l{layer}"].astype(np.float32))[None])
        b = constant(f"b{layer}", np.concatenate([
            _onnx_gates(state[f"lstm.bias_ih_l{layer}"].astype(np.float32)),
            _onnx_gates(state[f"lstm.bias_hh_l{layer}"].astype(np.float32))])[None])
        nodes.append(helper.make_node("LSTM", [x, w, r, b], [f"y{layer}", f"h{layer}"],
                                      hidden_size=hidden))
        x = f"s{layer}"
        nodes.append(helper.make_node("Squeeze", [f"y{layer}", axis1], [x]))
    nodes.append(helper.make_node("Squeeze", [f"h{layers - 1}", axis0], ["last"]))
    nodes.append(helper.make_node(
        "Gemm", ["last", constant("linear_w", state["linear.weight"].astype(np.float32)),
                 constant("linear_b", state["linear.bias"].astype(np.float32))],
        ["linear"], transB=1))
    nodes.append(helper.make_node("Relu", ["linear"], ["embedding"]))
    graph = helper.make_graph(
        nodes, "ge2e",
        [helper.make_tensor_value_info("mels", onnx.TensorProto.FLOAT, ["frames", "batch", 40])],
        [helper.make_tensor_value_info("embedding", onnx.TensorProto.FLOAT, ["batch", None])],
        initializer=initializers)
    model = helper.make_model(graph, producer_name="voice-host",
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return bytes(model.SerializeToString())


def weights_path() -> Path | None:
    """Where Resemblyzer's ``pretrained.pt`` is installed, or None."""
    spec = importlib.util.find_spec("resemblyzer")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "pretrained.pt"
    return path if path.is_file() else None


class GE2EEmbedder:
    """Resemblyzer's GE2E encoder (256 values) on ONNX Runtime."""

    name = "resemblyzer/ge2e-0.1.4"
    dim = 256
    N_MELS = 40
    N_FFT = 400
    HOP = 160
    PARTIAL = 160
    STEP = 80
    TARGET_DBFS = -30.0

    def __init__(self, path: Path | None = None, *, threads: int = 1) -> None:
        from voice_host.speech.speakers import SpeakerModelUnavailable
        path = path or weights_path()
        if path is None:
            raise SpeakerModelUnavailable(GE2E_INSTALL_HINT)
        try:
            import librosa
            import onnxruntime as ort
            state = read_torch_legacy(path)["model_state"]
            options = ort.SessionOptions()
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            self._session = ort.InferenceSession(encoder_graph(state), options,
                                                 providers=["CPUExecutionProvider"])
        except (ImportError, OSError, ValueError, KeyError, pickle.UnpicklingError) as exc:
            raise SpeakerModelUnavailable(
                f"The GE2E weights at {path} could not be loaded ({exc}). "
                f"{GE2E_INSTALL_HINT}") from exc
        self._mel = librosa.filters.mel(sr=SAMPLE_RATE, n_fft=self.N_FFT,
                                        n_mels=self.N_MELS).astype(np.float32)
        self._window = np.hanning(self.N_FFT + 1)[:-1].astype(np.float32)
        self._lock = threading.Lock()

    def features(self, audio: Samples) -> npt.NDArray[np.float32]:
        """Mel power frames (frames x 40) of ``audio`` raised to -30 dBFS when quieter."""
        wav = np.asarray(audio, dtype=np.float32) / 32768.0
        level = 10 * np.log10(float(np.mean(wav * wav)) + 1e-12)
        if level < self.TARGET_DBFS:
            wav = wav * np.float32(10 ** ((self.TARGET_DBFS - level) / 20))
        half = self.N_FFT // 2
        if len(wav) <= half:
            return np.zeros((0, self.N_MELS), dtype=np.float32)
        wav = np.pad(wav, half, mode="reflect")
        count = 1 + (len(wav) - self.N_FFT) // self.HOP
        idx = np.arange(self.N_FFT)[None, :] + self.HOP * np.arange(count)[:, None]
        power = np.abs(np.fft.rfft(wav[idx] * self._window[None, :], axis=1)) ** 2
        return (power.astype(np.float32) @ self._mel.T).astype(np.float32)

    def embed(self, audio: Samples) -> npt.NDArray[np.float32] | None:
        from voice_host.speech.speakers import MIN_SPEECH_SECONDS, speech_mask, unit
        mel = self.features(audio)
        mel = mel[speech_mask(np.log10(mel + 1e-10))]
        if len(mel) < MIN_SPEECH_SECONDS * SAMPLE_RATE / self.HOP:
            return None
        if len(mel) < self.PARTIAL:
            mel = np.concatenate([mel, np.zeros((self.PARTIAL - len(mel), self.N_MELS),
                                                np.float32)])
        starts = list(range(0, len(mel) - self.PARTIAL + 1, self.STEP))
        if starts[-1] + self.PARTIAL < len(mel):
            starts.append(len(mel) - self.PARTIAL)
        batch = np.stack([mel[s:s + self.PARTIAL] for s in starts], axis=1)
        with self._lock:
            out = self._session.run(None, {"mels": batch})[0]
        out = out / (np.linalg.norm(out, axis=1, keepdims=True) + 1e-12)
        return unit(out.mean(axis=0))
