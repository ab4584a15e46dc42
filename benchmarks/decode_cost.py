"""Where one command's decoding CPU goes, stage by stage (a diagnosis, not a benchmark).

Each command of the benchmark's quick plan (the split, language and conditions chosen) is
decoded once through the host's recognizer (``WhisperRecognizer.recognize``, the whole
utterance at once: no decoding in the trailing silence), and the process time of each stage
is summed: the encoder, the grammar search (the free decode is its first call), the search
among the sentences nearest a rejected transcript, the prompt's lift and the decode without
the prompt. Process time counts every thread of the process, and a loaded machine inflates
it less than wall-clock time.

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
    """Process time summed per stage."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def timed(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[name] += time.process_time() - started
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
    search_alone = clock.seconds["judge"] - clock.seconds["search"] - clock.seconds[
        "near_search"]
    rows = [("encoder (CTranslate2)", clock.seconds["encode"]),
            ("free decode and grammar search", clock.seconds["search"]),
            ("search of the nearest sentences", clock.seconds["near_search"]),
            ("rest of the judgement (ranking, rules)", search_alone),
            ("prompt lift (scoring without the prompt)", clock.seconds["with_lift"]),
            ("decode without the prompt", clock.seconds["with_unprompted"])]
    print("| stage | CPU s per command |\n|---|---|")
    for name, seconds in rows:
        print(f"| {name} | {seconds / count:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
