"""Whisper's text decoder run here, for the grammar search, with what it computed kept.

The grammar search (:mod:`voice_host.speech.search`) asks the decoder, many times an
utterance, to continue short token prefixes that share a previous-text prompt and most of
their tokens. CTranslate2's ``generate`` computes everything again for every row of every
call: the cross-attention keys of the encoder's output (400 frames of the 8-s window), the
prompt, the prefix. On a 2-core AMD EPYC a 6-row call took 120-170 ms, and the slowest
commands made 5 to 9 of them one after the other. This decoder runs the same weights (read
from CTranslate2's ``model.bin``) and keeps, for one utterance:

- the cross-attention keys and values of the encoder's output, computed once (and shared
  with the unprompted decoder of the same audio);
- the prompt's self-attention keys and values, computed once;
- every prefix's keys, values and next-token distribution, in a tree, so that a prefix
  shared by several rows, or asked again in a later round, is computed once.

It runs through ONNX Runtime, in three graphs built here from the weights when the model is
loaded (with the ``onnx`` package; the weights are handed over as arrays, not serialized):

- the encoder output's cross-attention memory;
- every layer for some new tokens at once: a search step (a token for each of a few rows,
  each row with its own earlier tokens) or the prompt's one causal pass;
- the head: the final layer norm, the vocabulary projection and the log-softmax.

The layers run in float32; the vocabulary projection, a step's largest product by far, is
int8 (``DynamicQuantizeMatMul``: one weight scale a token, the input quantized on the fly),
as CTranslate2's whole int8 decoder is. Against CTranslate2's float32 decoder, on real
search steps of tiny.en, the log-probability of the token written differs by a median 0.01
(CTranslate2's int8: 0.05). Quantizing the layers too gained little time (a 6-row step 5.0
against 5.5 ms) and took the difference to 0.08: the input of each product is quantized as
a whole, where CTranslate2 quantizes it row by row. ``precise`` keeps the projection in
float32 as well (float32 recognition). CTranslate2 still encodes the audio.

It answers the search's :class:`~voice_host.speech.search.Decoder` protocol as the
CTranslate2 decoder does: greedy continuations (never a token of ``suppress`` nor of the
model's own suppressed list), their full-vocabulary log-probabilities, and exact sentence
scores.
"""

from __future__ import annotations

import io
import math
import struct
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

import numpy as np

from voice_host.speech.search import Rollout, Scored

_TYPES = {0: np.float32, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.float16}
"""CTranslate2's ``model.bin`` type ids (the order of its DataType enum)."""

LAYER_NORM_EPSILON = 1e-5


class DecoderUnavailable(RuntimeError):
    """The model's decoder cannot be run here (an unknown layout, a missing runtime)."""


class Cancelled(Exception):
    """A decode was called off (a speculative decode the speaker talked over)."""


def own_decoder_installed() -> bool:
    """Whether ONNX Runtime and onnx, which run and build this decoder, are installed."""
    import importlib.util

    return all(importlib.util.find_spec(name) is not None for name in ("onnxruntime", "onnx"))


# --------------------------------------------------------------------------- model.bin


def read_variables(stream: IO[bytes], wanted: str = "decoder/") -> dict[str, np.ndarray]:
    """The variables of a CTranslate2 ``model.bin`` whose names start with ``wanted`` (the
    others are read past). The layout, as CTranslate2's ``ModelSpec._serialize`` writes it
    (binary version 6, CTranslate2 4's; others are refused): version, spec name, revision,
    variable count; for each variable its name, rank, dimensions, type id, byte count and
    bytes; then the aliases."""

    def take(size: int) -> bytes:
        data = stream.read(size)
        if len(data) != size:
            raise DecoderUnavailable("model.bin ends early.")
        return data

    def number(fmt: str) -> int:
        return int(struct.unpack(fmt, take(struct.calcsize(fmt)))[0])

    def string() -> str:
        return take(number("<H")).rstrip(b"\0").decode("utf-8")

    version = number("<I")
    if version != 6:
        raise DecoderUnavailable(f"model.bin version {version} is not read here.")
    string()  # the spec's name
    number("<I")  # its revision
    out: dict[str, np.ndarray] = {}
    for _ in range(number("<I")):
        name = string()
        dims = [number("<I") for _ in range(number("<B"))]
        kind = _TYPES.get(number("<B"))
        size = number("<I")
        if not name.startswith(wanted):
            _skip(stream, size)
            continue
        if kind is None:
            raise DecoderUnavailable(f"{name} has a type this decoder does not read.")
        out[name] = np.frombuffer(take(size), dtype=kind).reshape(dims)
    for _ in range(number("<I")):
        alias, target = string(), string()
        if alias.startswith(wanted) and target in out:
            out[alias] = out[target]
    return out


def _skip(stream: IO[bytes], size: int) -> None:
    try:
        stream.seek(size, io.SEEK_CUR)
    except (OSError, io.UnsupportedOperation):
        while size > 0:
            chunk = stream.read(min(size, 1 << 20))
            if not chunk:
                raise DecoderUnavailable("model.bin ends early.") from None
            size -= len(chunk)


def quantized(weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A float weight (inputs, outputs) as int8 values with one scale an output (a block of
    outputs at a time: the vocabulary's projection is 80 MB in float32)."""
    inputs, outputs = weight.shape
    values = np.empty((inputs, outputs), dtype=np.int8)
    scales = np.empty(outputs, dtype=np.float32)
    for start in range(0, outputs, 4096):
        block = np.asarray(weight[:, start:start + 4096], dtype=np.float32)
        scale = np.abs(block).max(axis=0) / 127.0
        scale[scale == 0] = 1.0
        values[:, start:start + 4096] = np.round(block / scale).clip(-127, 127)
        scales[start:start + 4096] = scale
    return values, scales


# --------------------------------------------------------------------------- the graphs


class _Builder:
    """An ONNX graph under construction: weights become initializers, every node's output
    gets a fresh name."""

    def __init__(self, weights: dict[str, np.ndarray], heads: int, width: int,
                 precise: bool = False) -> None:
        import onnx
        from onnx import helper, numpy_helper

        self.onnx, self.helper, self.numpy_helper = onnx, helper, numpy_helper
        self.weights = weights
        self.heads, self.width, self.size = heads, width, width // heads
        self.precise = precise
        self.nodes: list[Any] = []
        self.initializers: dict[str, Any] = {}
        self.external: dict[str, np.ndarray] = {}
        """The large weights, by name, handed to ONNX Runtime as arrays."""
        self.inputs: list[Any] = []
        self.count = 0

    def input(self, name: str, shape: Sequence[str | int]) -> str:
        self.inputs.append(self.helper.make_tensor_value_info(
            name, self.onnx.TensorProto.FLOAT, list(shape)))
        return name

    def constant(self, name: str, value: np.ndarray) -> str:
        """A weight, by name. A large one stays out of the graph's bytes: ONNX Runtime is
        handed the array itself (``external``), not a serialized copy of it."""
        if name in self.initializers:
            return name
        if value.size < 1024:
            self.initializers[name] = self.numpy_helper.from_array(value, name)
            return name
        tensor = self.onnx.TensorProto()
        tensor.name = name
        tensor.data_type = self.helper.np_dtype_to_tensor_dtype(value.dtype)
        tensor.dims.extend(value.shape)
        tensor.data_location = self.onnx.TensorProto.EXTERNAL
        entry = tensor.external_data.add()
        entry.key, entry.value = "location", name
        self.initializers[name] = tensor
        self.external[name] = np.ascontiguousarray(value)
        return name

    def op(self, kind: str, *inputs: str, outputs: int = 1, domain: str = "",
           **attributes: Any) -> list[str]:
        names = [f"{kind}_{self.count}_{i}" for i in range(outputs)]
        self.count += 1
        self.nodes.append(self.helper.make_node(kind, list(inputs), names, domain=domain,
                                                **attributes))
        return names

    def one(self, kind: str, *inputs: str, **attributes: Any) -> str:
        return self.op(kind, *inputs, **attributes)[0]

    def shape(self, *dims: int) -> str:
        return self.constant("shape_" + "_".join(str(d).replace("-", "m") for d in dims),
                             np.array(dims, dtype=np.int64))

    def linear(self, x: str, name: str) -> str:
        """``x @ weight.T + bias`` (``name``/weight, ``name``/bias), in float32."""
        weight = np.ascontiguousarray(np.asarray(self.weights[f"{name}/weight"],
                                                 dtype=np.float32).T)
        bias = np.asarray(self.weights[f"{name}/bias"], dtype=np.float32)
        return self.one("Add", self.one("MatMul", x, self.constant(f"{name}/w", weight)),
                        self.constant(f"{name}/b", bias))

    def norm(self, x: str, name: str) -> str:
        return self.one("LayerNormalization", x,
                        self.constant(f"{name}/g", np.asarray(self.weights[f"{name}/gamma"],
                                                              dtype=np.float32)),
                        self.constant(f"{name}/b", np.asarray(self.weights[f"{name}/beta"],
                                                              dtype=np.float32)),
                        axis=-1, epsilon=LAYER_NORM_EPSILON)

    def heads_of(self, x: str, rows_first: bool) -> str:
        """(rows, D) -> (rows, H, 1, d) when ``rows_first``, else (H, rows, d)."""
        if rows_first:
            return self.one("Reshape", x, self.shape(0, self.heads, 1, self.size))
        split = self.one("Reshape", x, self.shape(0, self.heads, self.size))
        return self.one("Transpose", split, perm=[1, 0, 2])

    def head(self, hidden: str) -> str:
        """Final layer norm, projection to the vocabulary, log-softmax. The projection, a
        step's one large product, is int8 unless ``precise``: one weight scale a token,
        the input quantized on the fly (``DynamicQuantizeMatMul``)."""
        table = np.asarray(self.weights.get("decoder/projection/weight",
                                            self.weights["decoder/embeddings/weight"]))
        hidden = self.norm(hidden, "decoder/layer_norm")
        if self.precise:
            logits = self.one("MatMul", hidden, self.constant(
                "projection/w", np.ascontiguousarray(table.astype(np.float32).T)))
        else:
            values, scale = quantized(table.T)
            logits = self.one("DynamicQuantizeMatMul", hidden,
                              self.constant("projection/q", values),
                              self.constant("projection/s", scale),
                              self.constant("projection/z", np.zeros(len(scale), np.int8)),
                              domain="com.microsoft")
        return self.one("LogSoftmax", logits, axis=-1)

    def cross(self, x: str, index: int, keys: str, values: str, rows_first: bool) -> str:
        """Residual cross-attention of layer ``index`` (keys (H, d, F), values (H, F, d))."""
        prefix = f"decoder/layer_{index}/attention"
        query = self.linear(self.norm(x, f"{prefix}/layer_norm"), f"{prefix}/linear_0")
        q = self.one("Mul", self.heads_of(query, rows_first), self.scale())
        mixed = self.one("MatMul", self.one("Softmax", self.one("MatMul", q, keys), axis=-1),
                         values)
        return self.one("Add", x, self.linear(self.flat(mixed, rows_first), f"{prefix}/linear_2"))

    def ffn(self, x: str, index: int) -> str:
        prefix = f"decoder/layer_{index}/ffn"
        inner = self.one("Gelu", self.linear(self.norm(x, f"{prefix}/layer_norm"),
                                             f"{prefix}/linear_0"))
        return self.one("Add", x, self.linear(inner, f"{prefix}/linear_1"))

    def flat(self, x: str, rows_first: bool) -> str:
        """(rows, H, 1, d) or (H, rows, d) -> (rows, D)."""
        if not rows_first:
            x = self.one("Transpose", x, perm=[1, 0, 2])
        return self.one("Reshape", x, self.shape(0, self.width))

    def scale(self) -> str:
        return self.constant("scale", np.array(1.0 / math.sqrt(self.size), dtype=np.float32))

    def identity(self, x: str, name: str) -> None:
        self.nodes.append(self.helper.make_node("Identity", [x], [name]))

    def model(self, name: str, outputs: Sequence[str]) -> bytes:
        helper = self.helper
        graph = helper.make_graph(
            self.nodes, name, self.inputs,
            [helper.make_tensor_value_info(o, self.onnx.TensorProto.FLOAT, None)
             for o in outputs],
            initializer=list(self.initializers.values()))
        model = helper.make_model(graph, producer_name="voice-host", opset_imports=[
            helper.make_opsetid("", 20), helper.make_opsetid("com.microsoft", 1)])
        model.ir_version = 9
        return bytes(model.SerializeToString())


def _memory_graph(b: _Builder, layers: int) -> bytes:
    """``encoded`` (F, D) -> every layer's cross-attention ``cross_keys_i`` (H, d, F) and
    ``cross_values_i`` (H, F, d)."""
    encoded = b.input("encoded", ["frames", b.width])
    outputs = []
    for index in range(layers):
        kv = b.linear(encoded, f"decoder/layer_{index}/attention/linear_1")
        key, value = b.op("Split", kv, axis=1, num_outputs=2, outputs=2)
        b.identity(b.one("Transpose", b.one("Reshape", key, b.shape(0, b.heads, b.size)),
                         perm=[1, 2, 0]), f"cross_keys_{index}")
        b.identity(b.heads_of(value, rows_first=False), f"cross_values_{index}")
        outputs += [f"cross_keys_{index}", f"cross_values_{index}"]
    return b.model("whisper_memory", outputs)


def _layers_graph(b: _Builder, layers: int) -> bytes:
    """Every layer, for ``rows`` new tokens at once. Each new token attends to the prompt
    (shared by every row), to its row's own earlier tokens, and to the new tokens its
    ``new_mask`` row lets it see: itself alone for a search step (rows of different
    prefixes), itself and those before for the prompt's one causal pass (one sequence).

    In: ``x`` (rows, D) embedded; ``new_mask`` (rows, rows) and ``own_mask`` (rows, 1, 1, S),
    0 or -inf; for each layer ``prompt_keys_i`` (H, d, P) and ``prompt_values_i`` (H, P, d),
    ``own_keys_i`` (rows, H, d, S) and ``own_values_i`` (rows, H, S, d), padded, and the
    cross memory. P and S may be 0. Out: ``hidden`` (rows, D) and each layer's ``key_i`` and
    ``value_i`` (rows, D) for the new tokens."""
    x = b.input("x", ["rows", b.width])
    new_mask = b.input("new_mask", ["rows", "rows"])
    own_mask = b.input("own_mask", ["rows", 1, 1, "own"])
    outputs = []
    for index in range(layers):
        prompt_keys = b.input(f"prompt_keys_{index}", [b.heads, b.size, "prompt"])
        prompt_values = b.input(f"prompt_values_{index}", [b.heads, "prompt", b.size])
        own_keys = b.input(f"own_keys_{index}", ["rows", b.heads, b.size, "own"])
        own_values = b.input(f"own_values_{index}", ["rows", b.heads, "own", b.size])
        cross_keys = b.input(f"cross_keys_{index}", [b.heads, b.size, "frames"])
        cross_values = b.input(f"cross_values_{index}", [b.heads, "frames", b.size])
        prefix = f"decoder/layer_{index}/self_attention"
        qkv = b.linear(b.norm(x, f"{prefix}/layer_norm"), f"{prefix}/linear_0")
        query, key, value = b.op("Split", qkv, axis=1, num_outputs=3, outputs=3)
        b.identity(key, f"key_{index}")
        b.identity(value, f"value_{index}")
        outputs += [f"key_{index}", f"value_{index}"]
        q = b.one("Mul", b.heads_of(query, rows_first=False), b.scale())      # H, rows, d
        new_keys = b.one("Transpose", b.one("Reshape", key, b.shape(0, b.heads, b.size)),
                         perm=[1, 2, 0])                                      # H, d, rows
        # a row's own earlier tokens: (rows, H, 1, d) @ (rows, H, d, S) -> (H, rows, S)
        q_rows = b.one("Mul", b.heads_of(query, rows_first=True), b.scale())
        own = b.one("Transpose", b.one("Squeeze", b.one(
            "Add", b.one("MatMul", q_rows, own_keys), own_mask), b.shape(2)), perm=[1, 0, 2])
        scores = b.one("Concat", b.one("MatMul", q, prompt_keys), own,
                       b.one("Add", b.one("MatMul", q, new_keys), new_mask), axis=2)
        weights = b.one("Softmax", scores, axis=-1)
        prompt = b.one("Shape", prompt_keys, start=2, end=3)
        seen = b.one("Add", prompt, b.one("Shape", own_keys, start=3, end=4))
        to_prompt = b.one("Slice", weights, b.shape(0), prompt, b.shape(2))
        to_own = b.one("Slice", weights, prompt, seen, b.shape(2))
        to_new = b.one("Slice", weights, seen, b.shape(2 ** 31), b.shape(2))
        from_own = b.one("MatMul", b.one("Unsqueeze", b.one(
            "Transpose", to_own, perm=[1, 0, 2]), b.shape(2)), own_values)   # rows, H, 1, d
        mixed = b.one("Add", b.flat(b.one("Add", b.one("MatMul", to_prompt, prompt_values),
                                          b.one("MatMul", to_new,
                                                b.heads_of(value, rows_first=False))),
                                    rows_first=False),
                      b.flat(from_own, rows_first=True))
        x = b.one("Add", x, b.linear(mixed, f"{prefix}/linear_1"))
        x = b.cross(x, index, cross_keys, cross_values, rows_first=False)
        x = b.ffn(x, index)
    b.identity(x, "hidden")
    return b.model("whisper_layers", ["hidden", *outputs])


def _head_graph(b: _Builder, layers: int) -> bytes:
    """``hidden`` (rows, D) -> ``logp`` (rows, V)."""
    b.identity(b.head(b.input("hidden", ["rows", b.width])), "logp")
    return b.model("whisper_head", ["logp"])


# --------------------------------------------------------------------------- the model


class DecoderModel:
    """Whisper's decoder for one model: its embeddings and the three ONNX Runtime
    sessions (built once, when the recognizer loads)."""

    def __init__(self, variables: dict[str, np.ndarray], threads: int = 1,
                 precise: bool = False) -> None:
        v = variables
        if not own_decoder_installed():
            raise DecoderUnavailable("It needs onnx and onnxruntime.")
        import onnxruntime

        try:
            if int(v["decoder/pre_norm"]) != 1 or int(v.get("decoder/scale_embeddings", 0)):
                raise DecoderUnavailable("Only Whisper's pre-norm decoder is run here.")
            self.heads = int(v["decoder/num_heads"])
            self.embeddings = v["decoder/embeddings/weight"]
            """Kept as stored (float16), the rows converted when looked up."""
            self.positions = np.asarray(v["decoder/position_encodings/encodings"],
                                        dtype=np.float32)
        except KeyError as missing:
            raise DecoderUnavailable(f"model.bin has no {missing}.") from missing
        self.layer_count = 0
        while f"decoder/layer_{self.layer_count}/ffn/linear_0/weight" in v:
            self.layer_count += 1
        if not self.layer_count:
            raise DecoderUnavailable("model.bin has no decoder layers.")
        self.width = int(self.embeddings.shape[1])
        self.size = self.width // self.heads
        self.vocabulary = int(self.embeddings.shape[0])
        self.value = onnxruntime.OrtValue.ortvalue_from_numpy

        self._weights: list[Any] = []
        """The weights ONNX Runtime was handed (kept alive with the sessions)."""

        def session(build: Callable[[_Builder, int], bytes]) -> Any:
            builder = _Builder(v, self.heads, self.width, precise)
            graph = build(builder, self.layer_count)
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = max(1, threads)
            options.inter_op_num_threads = 1
            # no spinning between runs: the cores go back to CTranslate2's encoder and to
            # the search
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            values = [self.value(array) for array in builder.external.values()]
            options.add_external_initializers(list(builder.external), values)
            self._weights += [*builder.external.values(), *values]
            return onnxruntime.InferenceSession(graph, options,
                                                providers=["CPUExecutionProvider"])

        try:
            self.memory = session(_memory_graph)
            self.layers_session = session(_layers_graph)
            self.head = session(_head_graph)
        except KeyError as missing:
            raise DecoderUnavailable(f"model.bin has no {missing}.") from missing
        except Exception as error:  # an ONNX Runtime without these operators
            raise DecoderUnavailable(f"ONNX Runtime cannot run the decoder ({error}).") \
                from error
        self.lock = threading.Lock()
        """One decode at a time: its steps use every core."""
        _give_back_memory()

    @classmethod
    def load(cls, stream: IO[bytes], threads: int = 1, precise: bool = False) -> DecoderModel:
        return cls(read_variables(stream), threads, precise)

    def embed(self, tokens: Sequence[int], positions: Sequence[int]) -> np.ndarray:
        return (self.embeddings[list(tokens)].astype(np.float32)
                + self.positions[list(positions)])

    def layers(self, x: np.ndarray, new_mask: np.ndarray, own_mask: np.ndarray,
               fixed: dict[str, Any], own: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every layer for some new tokens (see ``_layers_graph``): ``fixed`` holds the
        prompt's keys and the cross memory, ``own`` the rows' earlier keys and values
        (rows, S, layers, 2, D). Out: the hidden states (rows, D), the new tokens' keys and
        values (rows, layers, 2, D)."""
        rows = len(x)
        inputs = {**fixed, "x": self.value(np.ascontiguousarray(x, dtype=np.float32)),
                  "new_mask": self.value(new_mask), "own_mask": self.value(own_mask)}
        split = own.reshape(rows, own.shape[1], self.layer_count, 2, self.heads, self.size)
        for index in range(self.layer_count):
            inputs[f"own_keys_{index}"] = self.value(np.ascontiguousarray(
                split[:, :, index, 0].transpose(0, 2, 3, 1)))
            inputs[f"own_values_{index}"] = self.value(np.ascontiguousarray(
                split[:, :, index, 1].transpose(0, 2, 1, 3)))
        names = ["hidden"] + [f"{kind}_{i}" for i in range(self.layer_count)
                              for kind in ("key", "value")]
        with self.lock:
            out = [np.asarray(o.numpy()) for o in
                   self.layers_session.run_with_ort_values(names, inputs)]
        keys = np.stack(out[1:], axis=1).reshape(rows, self.layer_count, 2, self.width)
        return out[0], keys

    def logp(self, hidden: np.ndarray) -> np.ndarray:
        """The next token's log-probabilities after each hidden state (rows, V)."""
        with self.lock:
            out = self.head.run_with_ort_values(
                ["logp"], {"hidden": self.value(np.ascontiguousarray(hidden, np.float32))})
        return np.asarray(out[0].numpy())

    def cross_memory(self, encoded: np.ndarray) -> dict[str, Any]:
        """The cross-attention memory of an encoder output (1, F, D), once an utterance."""
        memory = np.ascontiguousarray(np.asarray(encoded, dtype=np.float32)
                                      .reshape(-1, self.width))
        names = [o.name for o in self.memory.get_outputs()]
        with self.lock:
            out = self.memory.run_with_ort_values(names, {"encoded": self.value(memory)})
        return dict(zip(names, out, strict=True))


def _give_back_memory() -> None:
    """The building's temporary copies returned to the system (glibc keeps freed memory
    otherwise: about 40 MB of tiny.en's); nothing elsewhere."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


# --------------------------------------------------------------------------- one utterance


@dataclass
class _Node:
    """A prefix computed: its last token's keys and values in every layer (layers, 2, D),
    the next token's log-probabilities, its parent and its length."""

    parent: _Node | None
    keys: np.ndarray | None
    logp: np.ndarray
    depth: int


class OwnDecoder:
    """One encoded utterance and its prompt, as the search's decoder (see the module's
    docstring). ``suppressed``: the model's own tokens never written (CTranslate2's
    ``suppress_tokens=[-1]``); ``guard``: ``no_repeat_ngram_size`` for the free decode;
    ``memory``: the utterance's cross memory when already computed."""

    def __init__(self, model: DecoderModel, encoded: np.ndarray, prompt: Sequence[int],
                 eot: int, suppressed: Sequence[int], texts: Callable[[list[int]], str], *,
                 guard: int = 0, cancel: threading.Event | None = None,
                 memory: dict[str, Any] | None = None) -> None:
        self.model = model
        self.eot = eot
        self.prompt = list(prompt)
        self.guard = guard
        self.cancel = cancel
        self.calls = 0
        """Search requests answered (for the figures)."""
        self.steps = 0
        """Rows computed, prompt tokens included (for the figures)."""
        self._texts = texts
        self._suppressed = np.zeros(model.vocabulary, dtype=bool)
        self._suppressed[[t for t in suppressed if 0 <= t < model.vocabulary]] = True
        self._masks: dict[tuple[int, ...], np.ndarray] = {}
        self.memory = memory if memory is not None else model.cross_memory(encoded)
        m, count = model, len(self.prompt)
        empty = {f"prompt_{kind}_{i}": m.value(np.zeros(shape, np.float32))
                 for i in range(m.layer_count)
                 for kind, shape in (("keys", (m.heads, m.size, 0)),
                                     ("values", (m.heads, 0, m.size)))}
        causal = np.triu(np.full((count, count), -np.inf, dtype=np.float32), 1)
        hidden, keys = m.layers(m.embed(self.prompt, range(count)), causal,
                                np.zeros((count, 1, 1, 0), np.float32),
                                {**self.memory, **empty},
                                np.zeros((count, 0, m.layer_count, 2, m.width), np.float32))
        self.steps += count
        self._fixed = dict(self.memory)
        for index in range(m.layer_count):
            split = keys[:, index].reshape(count, 2, m.heads, m.size)
            self._fixed[f"prompt_keys_{index}"] = m.value(
                np.ascontiguousarray(split[:, 0].transpose(1, 2, 0)))
            self._fixed[f"prompt_values_{index}"] = m.value(
                np.ascontiguousarray(split[:, 1].transpose(1, 0, 2)))
        self._nodes: dict[tuple[int, ...], _Node] = {
            (): _Node(None, None, m.logp(hidden[-1:])[0], 0)}

    def _extend(self, items: Sequence[tuple[_Node, int]]) -> list[_Node]:
        """One step for several rows at once: each node followed by one token."""
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled
        m = self.model
        rows = len(items)
        depth = max(node.depth for node, _ in items)
        # each row's own keys and values after the prompt, padded to the longest
        own = np.zeros((rows, depth, m.layer_count, 2, m.width), dtype=np.float32)
        own_mask = np.zeros((rows, 1, 1, depth), dtype=np.float32)
        for row, (node, _) in enumerate(items):
            at: _Node | None = node
            while at is not None and at.keys is not None:
                own[row, at.depth - 1] = at.keys
                at = at.parent
            own_mask[row, 0, 0, node.depth:] = -np.inf
        alone = np.where(np.eye(rows, dtype=bool), 0.0, -np.inf).astype(np.float32)
        start = len(self.prompt)
        hidden, keys = m.layers(m.embed([t for _, t in items],
                                        [start + node.depth for node, _ in items]),
                                alone, own_mask, self._fixed, own)
        logps = m.logp(hidden)
        self.steps += rows
        return [_Node(node, keys[row], logps[row], node.depth + 1)
                for row, (node, _) in enumerate(items)]

    def _ensure(self, sequences: Sequence[tuple[int, ...]]) -> None:
        """Every prefix of these sequences computed, one length of all of them at a time."""
        longest = max((len(s) for s in sequences), default=0)
        for length in range(1, longest + 1):
            missing = sorted({s[:length] for s in sequences
                              if len(s) >= length and s[:length] not in self._nodes})
            if missing:
                made = self._extend([(self._nodes[p[:-1]], p[-1]) for p in missing])
                self._nodes.update(zip(missing, made, strict=True))

    # -- the search's protocol ------------------------------------------------------------

    def _banned(self, suppress: Sequence[int] | None) -> np.ndarray:
        key = tuple(suppress or ())
        mask = self._masks.get(key)
        if mask is None:
            mask = self._suppressed.copy()
            mask[[t for t in key if 0 <= t < self.model.vocabulary]] = True
            self._masks[key] = mask
        return mask

    def _repeats(self, written: Sequence[int]) -> list[int]:
        """Tokens that would repeat an n-gram of ``written`` (``guard`` tokens long)."""
        n = self.guard
        if n <= 0 or len(written) < n - 1:
            return []
        tail = tuple(written[len(written) - n + 1:]) if n > 1 else ()
        return [written[i + n - 1] for i in range(len(written) - n + 1)
                if tuple(written[i:i + n - 1]) == tail]

    def continue_prefixes(self, prefixes: Sequence[tuple[int, ...]], cap: int,
                          suppress: Sequence[int] | None = None) -> list[Rollout]:
        self.calls += 1
        total = max(cap, max(len(p) for p in prefixes) + 1)
        banned = self._banned(suppress)
        guard = self.guard > 0 and not any(prefixes)
        sequences = [tuple(p) for p in prefixes]
        self._ensure(sequences)
        steps: list[list[np.ndarray]] = [[] for _ in sequences]
        active = list(range(len(sequences)))
        while active:
            going: list[int] = []
            for row in active:
                logp = self._nodes[sequences[row]].logp
                steps[row].append(logp)
                if len(sequences[row]) >= total:
                    continue
                choice = np.where(banned, -np.inf, logp)
                if guard:
                    choice[self._repeats(sequences[row])] = -np.inf
                token = int(np.argmax(choice))
                if token == self.eot:
                    continue
                sequences[row] = (*sequences[row], token)
                going.append(row)
            self._ensure([sequences[r] for r in going])
            active = going
        return [Rollout(tuple(seq[len(prefix):]), tuple(rows))
                for prefix, seq, rows in zip(prefixes, sequences, steps, strict=True)]

    def score(self, sentences: Sequence[tuple[int, ...]]) -> list[Scored]:
        self.calls += 1
        sentences = [tuple(s) for s in sentences]
        self._ensure(sentences)
        return [Scored.of(s, (self._nodes[s[:n]].logp for n in range(len(s) + 1)), self.eot)
                for s in sentences]

    def text(self, tokens: Sequence[int]) -> str:
        return str(self._texts([t for t in tokens if t < self.eot])).strip()
