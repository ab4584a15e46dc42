"""Where one command's decoding CPU goes, stage by stage (a diagnosis, not a benchmark).

Each command of the benchmark's quick plan (the split, language and conditions chosen) is
decoded once through the host's recognizer (``WhisperRecognizer.recognize``, the whole
utterance at once: no decoding in the trailing silence), and the process time of each stage
is summed: the encoder, the free decode and the exact scores of the sentences found, the
grammar search's rollouts, the search among the sentences nearest a rejected transcript,
the prompt's lift and the decode without the prompt. Process time counts every thread of
the process, and a loaded machine inflates it less than wall-clock time.

Usage (from the checkout, with the dev extra)::

    .venv/bin/python benchmarks/decode_cost.py --languages fr --split calib --fillers \\
        --limit 12
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_recognition as bench  # noqa: E402

from voice_host.speech import search as search_module  # noqa: E402
from voice_host.speech import whisper_asr  # noqa: E402

STAGES = ((whisper_asr, "judge"), (search_module, "search"), (search_module, "near_search"),
          (whisper_asr, "with_lift"), (whisper_asr, "with_unprompted"))
"""The functions timed, as the recognizer calls them (its module's own names)."""


class Clock:
    """Process time summed per stage, each stage's own (a stage called inside another is
    counted for itself only: the search inside the near search is the near search's)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.inner: list[float] = []
        """Per stage running, the time its inner stages took so far."""

    def timed(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            self.inner.append(0.0)
            try:
                return function(*args, **kwargs)
            finally:
                spent = time.process_time() - started
                self.seconds[name] += spent - self.inner.pop()
                if self.inner:
                    self.inner[-1] += spent
        return wrapper

    def install(self) -> None:
        for module, name in STAGES:
            setattr(module, name, self.timed(name, getattr(module, name)))
        whisper_asr.WhisperRecognizer._encode = self.timed(  # type: ignore[method-assign]
            "encode", whisper_asr.WhisperRecognizer._encode)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    bench.add_case_arguments(parser, split="calib", conditions="clean")
    parser.add_argument("--languages", default="fr", choices=("en", "fr"))
    parser.add_argument("--limit", type=int, default=12, help="commands decoded")
    args = parser.parse_args(argv)
    cases = bench.chosen_cases(args, args.languages)
    cases = cases[::max(1, len(cases) // args.limit)][:args.limit]
    if not cases:
        print("no command in these conditions")
        return 1
    system = "whisper:grammar" + ("@fr" if args.languages == "fr" else "")
    ears = bench.make_ears(system)
    clock = Clock()
    clock.install()
    total = 0.0
    for case in cases:
        audio = bench.synthesize(case.text, case.voice)
        expected = ears.expected(bench.listen_request(case, bench.phase_grammar(
            case.setup, case.phase)))
        ears.recognizer.set_grammar(expected.grammar)
        started = time.process_time()
        transcript = ears.recognizer.recognize(audio)
        spent = time.process_time() - started
        total += spent
        judgement = transcript.judgement
        reading = judgement.reading.text if judgement and judgement.reading else None
        print(f"{spent:5.2f} s  {case.text!r} -> {reading!r}"
              f" ({'accepted' if judgement and judgement.accepted else 'not accepted'})")
    count = len(cases)
    print(f"\nCPU per command: {total / count:.2f} s over {count} commands")
    rows = [("encoder (CTranslate2)", clock.seconds["encode"]),
            ("free decode, exact scores of the sentences found", clock.seconds["judge"]),
            ("grammar search rollouts (the near search's too)", clock.seconds["search"]),
            ("choice of the nearest sentences", clock.seconds["near_search"]),
            ("prompt lift (scoring without the prompt)", clock.seconds["with_lift"]),
            ("decode without the prompt", clock.seconds["with_unprompted"])]
    print("| stage | CPU s per command |\n|---|---|")
    for name, seconds in rows:
        print(f"| {name} | {seconds / count:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
