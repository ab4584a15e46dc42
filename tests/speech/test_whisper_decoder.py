"""Our own Whisper decoder (voice_host.speech.whisper_decoder) on a tiny made-up model: it
reads CTranslate2's model.bin layout, computes what a plain float decoder computes (within a
tolerance, never bit for bit), and answers the search's protocol (greedy continuations,
suppression, the length cap, exact scores) with every prefix computed once."""

from __future__ import annotations

import io
import math
import struct
import threading

import numpy as np
import pytest

pytest.importorskip("onnxruntime", reason="ONNX Runtime (the speech extra) is not installed")
pytest.importorskip("onnx", reason="onnx (the speech extra) is not installed")

from voice_host.speech.whisper_decoder import (  # noqa: E402
    Cancelled,
    DecoderModel,
    DecoderUnavailable,
    OwnDecoder,
    read_variables,
)

WIDTH, HEADS, LAYERS, VOCABULARY, FRAMES = 16, 2, 2, 40, 12
EOT = 30
SUPPRESSED = [35, 36]


def made_up_model(seed: int = 7) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)

    def matrix(rows: int, columns: int) -> np.ndarray:
        return (rng.standard_normal((rows, columns)) * 0.4).astype(np.float16)

    def vector(size: int, around: float = 0.0) -> np.ndarray:
        return (around + rng.standard_normal(size) * 0.1).astype(np.float16)

    v: dict[str, np.ndarray] = {
        "decoder/pre_norm": np.array(1, np.int8),
        "decoder/scale_embeddings": np.array(0, np.int8),
        "decoder/num_heads": np.array(HEADS, np.int16),
        "decoder/embeddings/weight": matrix(VOCABULARY, WIDTH),
        "decoder/position_encodings/encodings": matrix(64, WIDTH),
        "decoder/layer_norm/gamma": vector(WIDTH, 1.0),
        "decoder/layer_norm/beta": vector(WIDTH),
    }
    shapes = {"self_attention/linear_0": 3 * WIDTH, "self_attention/linear_1": WIDTH,
              "attention/linear_0": WIDTH, "attention/linear_1": 2 * WIDTH,
              "attention/linear_2": WIDTH, "ffn/linear_0": 4 * WIDTH}
    for i in range(LAYERS):
        for name, out in shapes.items():
            v[f"decoder/layer_{i}/{name}/weight"] = matrix(out, WIDTH)
            v[f"decoder/layer_{i}/{name}/bias"] = vector(out)
        v[f"decoder/layer_{i}/ffn/linear_1/weight"] = matrix(WIDTH, 4 * WIDTH)
        v[f"decoder/layer_{i}/ffn/linear_1/bias"] = vector(WIDTH)
        for norm in ("self_attention", "attention", "ffn"):
            v[f"decoder/layer_{i}/{norm}/layer_norm/gamma"] = vector(WIDTH, 1.0)
            v[f"decoder/layer_{i}/{norm}/layer_norm/beta"] = vector(WIDTH)
    return v


# ------------------------------------------------------------------ a plain float reference


def _norm(x: np.ndarray, v: dict[str, np.ndarray], name: str) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * v[f"{name}/gamma"].astype(np.float64) \
        + v[f"{name}/beta"].astype(np.float64)


def _linear(x: np.ndarray, v: dict[str, np.ndarray], name: str) -> np.ndarray:
    return x @ v[f"{name}/weight"].astype(np.float64).T + v[f"{name}/bias"].astype(np.float64)


def _attend(q: np.ndarray, k: np.ndarray, values: np.ndarray,
            causal: bool) -> np.ndarray:
    size = WIDTH // HEADS
    out = np.zeros_like(q)
    for h in range(HEADS):
        part = slice(h * size, (h + 1) * size)
        scores = q[:, part] @ k[:, part].T / math.sqrt(size)
        if causal:
            scores = scores + np.triu(np.full(scores.shape, -np.inf), 1)
        weights = np.exp(scores - scores.max(-1, keepdims=True))
        weights /= weights.sum(-1, keepdims=True)
        out[:, part] = weights @ values[:, part]
    return out


def reference(v: dict[str, np.ndarray], memory: np.ndarray, tokens: list[int]) -> np.ndarray:
    """The log-probabilities after each token (a float64 pass over the whole sequence)."""
    x = v["decoder/embeddings/weight"].astype(np.float64)[tokens] \
        + v["decoder/position_encodings/encodings"].astype(np.float64)[:len(tokens)]
    for i in range(LAYERS):
        p = f"decoder/layer_{i}"
        q, k, val = np.split(_linear(_norm(x, v, f"{p}/self_attention/layer_norm"), v,
                                     f"{p}/self_attention/linear_0"), 3, axis=1)
        x = x + _linear(_attend(q, k, val, True), v, f"{p}/self_attention/linear_1")
        q = _linear(_norm(x, v, f"{p}/attention/layer_norm"), v, f"{p}/attention/linear_0")
        k, val = np.split(_linear(memory, v, f"{p}/attention/linear_1"), 2, axis=1)
        x = x + _linear(_attend(q, k, val, False), v, f"{p}/attention/linear_2")
        h = _linear(_norm(x, v, f"{p}/ffn/layer_norm"), v, f"{p}/ffn/linear_0")
        h = 0.5 * h * (1 + np.vectorize(math.erf)(h / math.sqrt(2)))
        x = x + _linear(h, v, f"{p}/ffn/linear_1")
    logits = _norm(x, v, "decoder/layer_norm") @ v["decoder/embeddings/weight"].astype(
        np.float64).T
    top = logits.max(-1, keepdims=True)
    return logits - top - np.log(np.exp(logits - top).sum(-1, keepdims=True))


# ------------------------------------------------------------------------------ fixtures


@pytest.fixture(scope="module")
def variables() -> dict[str, np.ndarray]:
    return made_up_model()


@pytest.fixture(scope="module")
def memory() -> np.ndarray:
    return np.random.default_rng(3).standard_normal((1, FRAMES, WIDTH)).astype(np.float32)


@pytest.fixture(scope="module")
def precise(variables: dict[str, np.ndarray]) -> DecoderModel:
    return DecoderModel(variables, precise=True)


PROMPT = [31, 5, 9, 32, 33]


def decoder(model: DecoderModel, memory: np.ndarray, **options: object) -> OwnDecoder:
    return OwnDecoder(model, memory, PROMPT, EOT, SUPPRESSED, lambda t: " ".join(map(str, t)),
                      **options)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------- tests


def write_model_bin(variables: dict[str, np.ndarray], aliases: dict[str, str]) -> bytes:
    """model.bin as CTranslate2's ModelSpec._serialize writes it (binary version 6)."""
    types = {np.dtype(np.float32): 0, np.dtype(np.int8): 1, np.dtype(np.int16): 2,
             np.dtype(np.int32): 3, np.dtype(np.float16): 4}
    out = io.BytesIO()

    def string(text: str) -> None:
        out.write(struct.pack("<H", len(text) + 1) + text.encode() + b"\0")

    out.write(struct.pack("<I", 6))
    string("WhisperSpec")
    out.write(struct.pack("<I", 3))
    out.write(struct.pack("<I", len(variables)))
    for name, value in variables.items():
        string(name)
        out.write(struct.pack("<B", value.ndim))
        for dim in value.shape:
            out.write(struct.pack("<I", dim))
        out.write(struct.pack("<B", types[value.dtype]))
        data = np.ascontiguousarray(value).tobytes()
        out.write(struct.pack("<I", len(data)) + data)
    out.write(struct.pack("<I", len(aliases)))
    for alias, target in aliases.items():
        string(alias)
        string(target)
    return out.getvalue()


def test_model_bin_is_read_for_the_decoder_alone(variables: dict[str, np.ndarray]) -> None:
    encoder = {"encoder/conv1/weight": np.ones((4, 3, 3), np.float16),
               "encoder/num_heads": np.array(2, np.int16)}
    data = write_model_bin({**encoder, **variables},
                           {"decoder/projection/weight": "decoder/embeddings/weight"})
    read = read_variables(io.BytesIO(data))
    assert not any(name.startswith("encoder/") for name in read)
    assert set(read) == {*variables, "decoder/projection/weight"}
    for name, value in variables.items():
        assert read[name].dtype == value.dtype and np.array_equal(read[name], value)
    assert read["decoder/projection/weight"] is read["decoder/embeddings/weight"]
    with pytest.raises(DecoderUnavailable):
        read_variables(io.BytesIO(data[:len(data) // 2]))
    with pytest.raises(DecoderUnavailable):
        read_variables(io.BytesIO(struct.pack("<I", 2) + data[4:]))


def test_a_model_without_a_decoder_is_refused(variables: dict[str, np.ndarray]) -> None:
    broken = {k: v for k, v in variables.items() if "layer_0" not in k}
    with pytest.raises(DecoderUnavailable):
        DecoderModel(broken)
    with pytest.raises(DecoderUnavailable):
        DecoderModel({k: v for k, v in variables.items() if k != "decoder/num_heads"})


def test_the_steps_compute_what_a_plain_decoder_computes(
        variables: dict[str, np.ndarray], memory: np.ndarray, precise: DecoderModel) -> None:
    own = decoder(precise, memory)
    sentences = [(1, 2, 3, 4), (1, 2, 7), (8,), (1, 2, 3, 9, 10, 11)]
    own.score(sentences)  # every prefix, computed in batched steps of unequal rows
    for sentence in sentences:
        want = reference(variables, memory[0].astype(np.float64), PROMPT + list(sentence))
        for length in range(len(sentence) + 1):
            got = own._nodes[sentence[:length]].logp
            assert np.abs(got - want[len(PROMPT) - 1 + length]).max() < 1e-3


def test_the_int8_projection_stays_close_to_float32(
        variables: dict[str, np.ndarray], memory: np.ndarray, precise: DecoderModel) -> None:
    # the projection's input is quantized as a whole (8 bits over 16 values in this tiny
    # model; 384 in tiny.en), so a single value may be off by more than the median
    exact, rough = decoder(precise, memory), decoder(DecoderModel(variables), memory)
    sentences = [tuple(int(t) for t in np.random.default_rng(n).integers(0, EOT, 6))
                 for n in range(8)]
    exact.score(sentences)
    rough.score(sentences)
    errors, agree = [], []
    for prefix, node in exact._nodes.items():
        other = rough._nodes[prefix].logp
        errors.append(np.abs(other - node.logp))
        agree.append(int(np.argmax(other)) == int(np.argmax(node.logp)))
    assert float(np.median(np.concatenate(errors))) < 0.1
    assert sum(agree) >= 0.8 * len(agree)


def test_a_prefix_is_computed_once(precise: DecoderModel, memory: np.ndarray) -> None:
    own = decoder(precise, memory)
    first = own.continue_prefixes([(1, 2), (1, 3), (1, 2)], cap=6)
    steps = own.steps
    again = own.continue_prefixes([(1, 2), (1, 3)], cap=6)
    assert own.steps == steps  # nothing computed anew
    assert [r.tokens for r in again] == [r.tokens for r in first[:2]]
    assert first[0] == first[2]
    own.score([(1, 2, *first[0].tokens)])
    assert own.steps == steps


def test_greedy_continuations_follow_the_protocol(precise: DecoderModel,
                                                  memory: np.ndarray) -> None:
    own = decoder(precise, memory)
    prefixes = [(), (4,), (4, 5, 6)]
    for cap in (2, 5, 9):
        for suppress in (None, tuple(range(0, 20))):
            rollouts = own.continue_prefixes(prefixes, cap=cap, suppress=suppress)
            total = max(cap, max(len(p) for p in prefixes) + 1)
            for prefix, rollout in zip(prefixes, rollouts, strict=True):
                sequence = (*prefix, *rollout.tokens)
                assert len(sequence) <= total
                assert len(rollout.steps) == len(rollout.tokens) + 1
                banned = set(SUPPRESSED) | set(suppress or ())
                for at, token in enumerate(rollout.tokens):
                    row = rollout.steps[at]
                    assert token not in banned and token != EOT
                    allowed = [t for t in range(VOCABULARY) if t not in banned]
                    assert row[token] == max(row[t] for t in allowed)  # greedy
                    assert math.isclose(float(np.exp(row).sum()), 1.0, rel_tol=1e-4)
                last = rollout.steps[-1]
                if len(sequence) < total:  # it stopped on end-of-text
                    allowed = [t for t in range(VOCABULARY) if t not in banned]
                    assert max(allowed, key=lambda t: last[t]) == EOT


def test_scores_sum_the_steps_and_margins_measure_against_the_best(
        precise: DecoderModel, memory: np.ndarray) -> None:
    own = decoder(precise, memory)
    sentence = (3, 1, 4, 1, 5)
    [scored] = own.score([sentence])
    rows = [own._nodes[sentence[:i]].logp for i in range(len(sentence) + 1)]
    chosen = [*sentence, EOT]
    assert math.isclose(scored.score, sum(float(r[t]) for r, t in zip(rows, chosen,
                                                                       strict=True)),
                        rel_tol=1e-5)
    assert math.isclose(scored.margin, sum(float(r[t] - r.max()) for r, t in zip(
        rows, chosen, strict=True)), rel_tol=1e-5, abs_tol=1e-6)
    assert scored.margin <= 0


def test_the_free_decode_never_repeats_an_ngram_when_guarded(
        precise: DecoderModel, memory: np.ndarray) -> None:
    own = decoder(precise, memory, guard=2)
    free = own.continue_prefixes([()], cap=30)[0]
    pairs = list(zip(free.tokens, free.tokens[1:], strict=False))
    assert len(pairs) == len(set(pairs))


def test_a_called_off_decode_stops_at_its_next_step(precise: DecoderModel,
                                                    memory: np.ndarray) -> None:
    cancel = threading.Event()
    own = decoder(precise, memory, cancel=cancel)
    own.continue_prefixes([(1,)], cap=3)
    cancel.set()
    with pytest.raises(Cancelled):
        own.continue_prefixes([(2, 2, 2)], cap=6)


def test_the_unprompted_decoder_shares_the_audio_s_memory(
        precise: DecoderModel, memory: np.ndarray, variables: dict[str, np.ndarray]) -> None:
    prompted = decoder(precise, memory)
    plain = OwnDecoder(precise, memory, [32, 33], EOT, SUPPRESSED, str,
                       memory=prompted.memory)
    want = reference(variables, memory[0].astype(np.float64), [32, 33, 7])
    plain.score([(7,)])
    assert np.abs(plain._nodes[(7,)].logp - want[-1]).max() < 1e-3
