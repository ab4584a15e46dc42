"""The GE2E encoder's loading without PyTorch: a legacy PyTorch weights file written here by
hand is read back exactly, and the ONNX graph built from made-up weights computes the same
LSTM as a plain numpy reference."""

from __future__ import annotations

import io
import pickle
import struct
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from voice_host.speech.ge2e import encoder_graph, read_torch_legacy


def _legacy_file(path: Path, tensors: dict[str, np.ndarray], monkeypatch: pytest.MonkeyPatch
                 ) -> None:
    """Write ``tensors`` in PyTorch's legacy format, with stand-ins for the two torch names
    the format refers to (so that the pickler can name them)."""
    torch = types.ModuleType("torch")
    utils = types.ModuleType("torch._utils")

    class FloatStorage:  # noqa: D401 - a name the pickle refers to
        pass

    def _rebuild_tensor_v2(*args: object) -> None:
        raise AssertionError("never called while writing")

    FloatStorage.__module__ = "torch"
    FloatStorage.__qualname__ = "FloatStorage"
    _rebuild_tensor_v2.__module__ = "torch._utils"
    _rebuild_tensor_v2.__qualname__ = "_rebuild_tensor_v2"
    torch.FloatStorage = FloatStorage  # type: ignore[attr-defined]
    utils._rebuild_tensor_v2 = _rebuild_tensor_v2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setitem(sys.modules, "torch._utils", utils)

    class Storage:
        def __init__(self, key: str, size: int) -> None:
            self.key, self.size = key, size

    class Stored:
        def __init__(self, key: str, array: np.ndarray) -> None:
            self.key, self.array = key, array

        def __reduce__(self) -> tuple[object, ...]:
            strides = tuple(s // self.array.itemsize for s in self.array.strides)
            return (_rebuild_tensor_v2, (Storage(self.key, self.array.size), 0,
                                         self.array.shape, strides, False, {}))

    class Writer(pickle.Pickler):
        def persistent_id(self, obj: object) -> object:
            if isinstance(obj, Storage):
                return ("storage", FloatStorage, obj.key, "cpu", obj.size, None)
            return None

    stored = {name: Stored(str(i), np.ascontiguousarray(a, dtype=np.float32))
              for i, (name, a) in enumerate(tensors.items())}
    buffer = io.BytesIO()
    for header in (0x1950A86A20F9469CFC6C, 1001, {"little_endian": True}):
        pickle.dump(header, buffer, protocol=2)
    Writer(buffer, protocol=2).dump({"step": 7, "model_state": dict(stored)})
    pickle.dump([s.key for s in stored.values()], buffer, protocol=2)
    for s in stored.values():
        buffer.write(struct.pack("<q", s.array.size))
        buffer.write(s.array.tobytes())
    path.write_bytes(buffer.getvalue())


def test_a_legacy_weights_file_is_read_exactly(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    b = np.array([0.5, -2.0], dtype=np.float32)
    path = tmp_path / "weights.pt"
    _legacy_file(path, {"a": a, "b": b}, monkeypatch)
    monkeypatch.delitem(sys.modules, "torch")
    monkeypatch.delitem(sys.modules, "torch._utils")
    loaded = read_torch_legacy(path)
    assert loaded["step"] == 7
    assert np.array_equal(loaded["model_state"]["a"], a)
    assert np.array_equal(loaded["model_state"]["b"], b)


def test_a_file_of_another_kind_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.pt"
    path.write_bytes(pickle.dumps(42))
    with pytest.raises(ValueError):
        read_torch_legacy(path)


def test_a_weights_file_naming_other_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "evil.pt"
    buffer = io.BytesIO()
    for header in (0x1950A86A20F9469CFC6C, 1001, {}):
        pickle.dump(header, buffer, protocol=2)
    buffer.write(b"cos\nsystem\n(S'true'\ntR.")
    path.write_bytes(buffer.getvalue())
    with pytest.raises(pickle.UnpicklingError):
        read_torch_legacy(path)


def _reference(state: dict[str, np.ndarray], mels: np.ndarray, layers: int) -> np.ndarray:
    """PyTorch's LSTM equations (gates input, forget, cell, output), then linear and ReLU."""
    x = mels.astype(np.float64)  # (batch, frames, 40)
    hidden = state["lstm.weight_hh_l0"].shape[1]
    h = np.zeros((x.shape[0], hidden))
    for layer in range(layers):
        wi, wh = state[f"lstm.weight_ih_l{layer}"], state[f"lstm.weight_hh_l{layer}"]
        bias = state[f"lstm.bias_ih_l{layer}"] + state[f"lstm.bias_hh_l{layer}"]
        h = np.zeros((x.shape[0], hidden))
        c = np.zeros((x.shape[0], hidden))
        outputs = []
        for t in range(x.shape[1]):
            g = x[:, t] @ wi.T + h @ wh.T + bias
            i, f, cell, o = np.split(g, 4, axis=1)
            sigmoid = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
            c = sigmoid(f) * c + sigmoid(i) * np.tanh(cell)
            h = sigmoid(o) * np.tanh(c)
            outputs.append(h)
        x = np.stack(outputs, axis=1)
    return np.maximum(h @ state["linear.weight"].T + state["linear.bias"], 0.0)


def test_the_onnx_graph_computes_the_lstm() -> None:
    ort = pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    rng = np.random.default_rng(3)
    hidden, layers, size = 6, 2, 5
    state: dict[str, np.ndarray] = {}
    for layer in range(layers):
        width = 40 if layer == 0 else hidden
        state[f"lstm.weight_ih_l{layer}"] = rng.normal(0, 0.3, (4 * hidden, width))
        state[f"lstm.weight_hh_l{layer}"] = rng.normal(0, 0.3, (4 * hidden, hidden))
        state[f"lstm.bias_ih_l{layer}"] = rng.normal(0, 0.3, 4 * hidden)
        state[f"lstm.bias_hh_l{layer}"] = rng.normal(0, 0.3, 4 * hidden)
    state["linear.weight"] = rng.normal(0, 0.5, (size, hidden))
    state["linear.bias"] = rng.normal(0, 0.5, size)
    state = {k: v.astype(np.float32) for k, v in state.items()}
    mels = rng.uniform(0, 1, (3, 9, 40)).astype(np.float32)
    session = ort.InferenceSession(encoder_graph(state, layers=layers),
                                   providers=["CPUExecutionProvider"])
    out = session.run(None, {"mels": mels.transpose(1, 0, 2).copy()})[0]
    assert out.shape == (3, size)
    assert np.allclose(out, _reference(state, mels, layers), atol=1e-5)
