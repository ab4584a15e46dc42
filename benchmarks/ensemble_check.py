"""Would tiny.en and base together hear babble better than either? (a diagnosis, not a
benchmark)

For every command of the benchmark's plan in the chosen conditions, the utterance (the
speech's own span, noise and all, as ``voice-host bench --segment oracle`` hands it over) is
decoded as the host decodes it by both English-capable Whispers here, tiny.en and base
(multilingual, told the language), each with its own grammar search and prompt. The
candidates are the expected sentence and each model's found sentence. Each model scores
every candidate exactly (the best of a few spellings: as said, capitalised, with a full
stop or a question mark); tiny.en alone, base alone and the sum of their log-probabilities
each pick one. A pick is right when the phase's matcher reads it as the expected move.

The candidate set always holds the expected sentence, so "right" is an upper bound of what
that scorer could reach with a perfect search, as ``oracle_search.py`` measures for tiny.en.

Usage (from the checkout, with the dev extra)::

    .venv/bin/python benchmarks/ensemble_check.py --split report \\
        --conditions "babble 12,babble 6"
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_recognition as bench  # noqa: E402
from oracle_search import means  # noqa: E402

SYSTEMS = {"tiny.en": "whisper:grammar", "base": "whisper-base:grammar"}
"""The two English-capable models and the benchmark systems that decode with them."""


def spellings(text: str) -> list[str]:
    """A few ways Whisper may write ``text`` (its score is the best of them)."""
    bare = text.strip().rstrip(".?!")
    upper = bare[:1].upper() + bare[1:]
    return list(dict.fromkeys((bare, upper, bare + ".", upper + ".", upper + "?")))


def spelled(recognizer: Any, decoder: Any, text: str) -> list[Any]:
    """``text`` scored exactly by one model in each of its :func:`spellings`."""
    return decoder.score([tuple(recognizer._tokenizer.encode(" " + s))
                          for s in spellings(text)])


def scores(recognizer: Any, decoder: Any, candidates: list[str]) -> dict[str, float]:
    """Each candidate's exact log-probability (the best spelling's) under one model."""
    return {text: max(s.score for s in spelled(recognizer, decoder, text))
            for text in candidates}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    bench.add_case_arguments(parser, split="report", conditions="babble 12,babble 6")
    args = parser.parse_args(argv)
    conditions = [c.strip() for c in args.conditions.split(",")]
    cases = bench.chosen_cases(args)
    ears = {name: bench.make_ears(system) for name, system in SYSTEMS.items()}
    babble = bench.babble_track() if any(c.noise == "babble" for c in cases) else None
    tally: collections.Counter[tuple[str, str]] = collections.Counter()
    for c in cases:
        pg = bench.phase_grammar(c.setup, c.phase)
        audio = bench.oracle_audio(c, babble)
        found: dict[str, str | None] = {}
        decoders = {}
        for name, e in ears.items():
            w = e.ears.recognizer
            judged = bench.oracle_judgement(e, c, pg, audio)
            found[name] = judged.reading.text if judged and judged.reading else None
            decoders[name] = (w, bench.encoded_decoder(w, audio))
        candidates = list(dict.fromkeys(
            [c.text, *(t for t in found.values()
                       if t and t.lower().strip(".?! ") != c.text.lower())]))
        each = {name: scores(w, d, candidates) for name, (w, d) in decoders.items()}
        picks = {name: max(candidates, key=table.__getitem__) for name, table in each.items()}
        picks["sum"] = max(candidates, key=lambda t: sum(table[t] for table in each.values()))
        tally[(c.condition, "commands")] += 1
        for name, text in found.items():
            tally[(c.condition, f"{name} search")] += bool(text) and means(pg, str(text), c)
        marks = []
        for name, text in picks.items():
            right = means(pg, text, c)
            tally[(c.condition, f"{name} pick")] += right
            marks.append(f"{name}={'right' if right else 'wrong'}")
        print(f"{c.condition:9} {' '.join(marks)} | {c.text} | "
              + " | ".join(f"{n}: {t}" for n, t in found.items()), flush=True)
    print()
    columns = ["commands", *(f"{n} search" for n in SYSTEMS),
               *(f"{n} pick" for n in (*SYSTEMS, "sum"))]
    print("| condition | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for condition in conditions:
        print(f"| {condition} | "
              + " | ".join(str(tally[(condition, k)]) for k in columns) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
