"""Intent matcher benchmark on typed text.

Prints intent+slot accuracy on the command cases, false acceptance on table talk, the same
on held-out sets written after the grammars, the generated paraphrase set
(``tests/support/paraphrases.py``: hedges, reasons, questions, counts as words, English and
French; calibration and report halves), the table talk of the recognition benchmark
(``benchmarks/recognition_data.py``, every line in every phase) and the match time per
utterance (median, p95). Targets: accuracy >= 99%, false acceptance <= 1%; paraphrases
(report half) >= 98%, chatter acted on <= 1%; median <= 2 ms.

    .venv/bin/python benchmarks/bench_intent.py [--repeat N] [--show-misses]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support
sys.path.insert(0, str(Path(__file__).resolve().parent))

import recognition_data  # noqa: E402

from tests.support.intent_cases import PLAYERS, all_cases, all_phases, case_lang, chatter_cases  # noqa: E402
from tests.support.intent_heldout import (  # noqa: E402
    FIRST_RUNS,
    HELD_OUT,
    HELD_OUT_B,
    HELD_OUT_C,
    HELD_OUT_D,
    HELD_OUT_E,
)
from tests.support.intent_matchers import matcher  # noqa: E402
from tests.support.paraphrases import (  # noqa: E402
    FRESH,
    FRESH_B,
    FRESH_B_CHATTER,
    FRESH_B_FIRST_RUN,
    FRESH_CHATTER,
    FRESH_FIRST_RUN,
    chatter_split,
    paraphrase_chatter,
    paraphrase_split,
)


def _check(game: str, phase: str, lang: str, text: str, intent: str | None,
           slots: dict, times: list[float], repeat: int) -> tuple[bool, str]:
    m = matcher(game, phase, lang)
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = m.match(text)
        times.append(time.perf_counter() - start)
    assert result is not None
    best = result.best
    got = (best.intent, dict(best.slots)) if best else (None, {})
    ok = got == (intent, slots) and not result.ambiguous
    return ok, f"{game}.{phase}: {text!r} -> {got}{' (ambiguous)' if result.ambiguous else ''}"


Row = tuple[str, str, str, str]
Typed = tuple[str, str, str, str, str | None, dict]
"""(game, phase, lang, text, intent or None, slots)."""


def _run(cases: list[Typed], tag: str, times: list[float], misses: list[str]) -> int:
    """How many of ``cases`` come out right (for table talk: how many are acted on)."""
    count = 0
    for game, phase, lang, text, intent, slots in cases:
        ok, line = _check(game, phase, lang, text, intent, slots, times, 1)
        count += ok if intent is not None else not ok
        if not ok:
            misses.append(f"{tag}: {line}")
    return count


def _row(label: str, count: int, total: int, target: str = "") -> Row:
    return (label, f"{count}/{total}", f"{100 * count / max(1, total):.1f}%", target)


def _talk(lines: list[tuple[str, str, str, str]]) -> list[Typed]:
    return [(game, phase, lang, text, None, {}) for game, phase, lang, text in lines]


def _everywhere(lang: str, texts: list[str]) -> list[Typed]:
    return [(game, phase, lang, text, None, {}) for text in texts
            for game, phase in all_phases()]


def _paraphrase_rows(times: list[float], misses: list[str]) -> list[Row]:
    """The paraphrase set's halves, the fresh set, and table talk."""
    rows: list[Row] = []
    for part in ("calib", "report"):
        for lang in ("en", "fr"):
            cases = [c for c in paraphrase_split(part) if c[2] == lang]
            rows.append(_row(f"paraphrases {part} {lang}: understood",
                             _run(cases, f"paraphrase {part} {lang}", times, misses),
                             len(cases), ">= 98%" if part == "report" else ""))
        talk = _talk(chatter_split(part))
        rows.append(_row(f"paraphrase chatter {part}: acted on",
                         _run(talk, f"paraphrase chatter {part}", times, misses), len(talk),
                         "<= 1%"))
    rows.append(_row("fresh paraphrases (seen, then tuned): understood",
                     _run(FRESH, "fresh", times, misses), len(FRESH)))
    talk = _talk(FRESH_CHATTER)
    rows.append(_row("fresh chatter: acted on", _run(talk, "fresh chatter", times, misses),
                     len(talk), "<= 1%"))
    for lang in ("en", "fr"):
        cases = [c for c in FRESH_B if c[2] == lang]
        rows.append(_row(f"fresh set B {lang} (seen, then tuned): understood",
                         _run(cases, f"fresh B {lang}", times, misses), len(cases)))
    talk = _talk(FRESH_B_CHATTER)
    rows.append(_row("fresh set B chatter: acted on",
                     _run(talk, "fresh B chatter", times, misses), len(talk), "<= 1%"))
    for lang in ("en", "fr"):
        talk = _everywhere(lang, recognition_data.chatter_said(lang, PLAYERS))
        rows.append(_row(f"recognition_data chatter {lang} x every phase: acted on",
                         _run(talk, f"recognition chatter {lang}", times, misses), len(talk),
                         "<= 1%"))
    talk = [c for lang in ("en", "fr") for c in _everywhere(
        lang, [t for _, _, lg, t in paraphrase_chatter() + FRESH_CHATTER + FRESH_B_CHATTER
               if lg == lang])]
    rows.append(_row("paraphrase + fresh chatter x every phase: acted on",
                     _run(talk, "paraphrase chatter, any phase", times, misses), len(talk),
                     "<= 1%"))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timed matches per utterance")
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()

    for case in all_cases():  # compile every phase first: timings are per utterance
        matcher(case[0], case[1], case_lang(case))

    times: list[float] = []
    misses: list[str] = []
    commands = all_cases()
    right = 0
    for case in commands:
        game, phase, text, intent, slots = case
        ok, line = _check(game, phase, case_lang(case), text, intent, slots, times, args.repeat)
        right += ok
        if not ok:
            misses.append(line)
    chatter = chatter_cases()
    accepted = 0
    for game, phase, lang, text in chatter:
        ok, line = _check(game, phase, lang, text, None, {}, times, args.repeat)
        if not ok:
            accepted += 1
            misses.append(line)
    held_rows = []
    for label, cases in (("held-out A (seen, then tuned)", HELD_OUT),
                         ("held-out B (seen, then tuned)", HELD_OUT_B),
                         ("held-out C (seen, then tuned)", HELD_OUT_C),
                         ("held-out D (seen, then tuned)", HELD_OUT_D),
                         ("held-out E (seen, then tuned)", HELD_OUT_E)):
        n_cmd = sum(1 for c in cases if c[3] is not None)
        n_talk = len(cases) - n_cmd
        good = false = 0
        for game, phase, text, intent, slots in cases:
            ok, line = _check(game, phase, "en", text, intent, slots, times, args.repeat)
            if intent is None:
                false += not ok
            else:
                good += ok
            if not ok:
                misses.append(f"{label}: {line}")
        held_rows.append((f"{label}: command accuracy", f"{good}/{n_cmd}",
                          f"{100 * good / max(1, n_cmd):.1f}%", ""))
        held_rows.append((f"{label}: talk false acceptance", f"{false}/{n_talk}",
                          f"{100 * false / max(1, n_talk):.1f}%", ""))

    para_rows = _paraphrase_rows(times, misses)

    times_ms = sorted(t * 1000 for t in times)
    p95 = times_ms[int(0.95 * (len(times_ms) - 1))]
    rows = [
        ("command accuracy (intent+slots)", f"{right}/{len(commands)}",
         f"{100 * right / len(commands):.1f}%", ">= 99%"),
        ("chatter false acceptance", f"{accepted}/{len(chatter)}",
         f"{100 * accepted / len(chatter):.1f}%", "<= 1%"),
        ("match time median", f"{len(times_ms)} matches", f"{statistics.median(times_ms):.3f} ms",
         "<= 2 ms"),
        ("match time p95", "", f"{p95:.3f} ms", ""),
    ]
    rows[2:2] = held_rows + para_rows
    print("| measure | count | value | target |")
    print("| --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print("\nheld-out sets at their first run, before any tuning on them: " + "; ".join(
        f"{name}: {figures}" for name, figures in FIRST_RUNS.items()))
    print("fresh paraphrases at their first run: " + FRESH_FIRST_RUN)
    print("fresh set B at its first run: " + FRESH_B_FIRST_RUN)
    if args.show_misses and misses:
        print("\nmisses:")
        for line in misses:
            print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
