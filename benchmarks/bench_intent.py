"""Intent matcher benchmark on typed text.

Prints intent+slot accuracy on the command cases, false acceptance on table talk, the same
on held-out sets written after the grammars, the generated paraphrase set
(``tests/intent/paraphrases.py``: hedges, reasons, questions, counts as words, English and
French; calibration and report halves), the table talk of the recognition benchmark
(``benchmarks/recognition_data.py``, every line in every phase) and the match time per
utterance (median, p95). Targets: accuracy >= 99%, false acceptance <= 1% (issue 3);
paraphrases (report half) >= 98%, chatter acted on <= 1% (issue 17); median <= 2 ms.

    .venv/bin/python benchmarks/bench_intent.py [--repeat N] [--show-misses]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "intent"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import recognition_data  # noqa: E402
from helpers import matcher  # noqa: E402
from intent_cases import PLAYERS, all_cases, all_phases, case_lang, chatter_cases  # noqa: E402
from intent_heldout import FIRST_RUNS, HELD_OUT, HELD_OUT_B, HELD_OUT_C, HELD_OUT_D  # noqa: E402
from paraphrases import (  # noqa: E402
    FRESH,
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
                         ("held-out D (seen, then tuned)", HELD_OUT_D)):
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

    para_rows = []
    for part in ("calib", "report"):
        for lang in ("en", "fr"):
            cases = [c for c in paraphrase_split(part) if c[2] == lang]
            good = 0
            for game, phase, _, text, intent, slots in cases:
                ok, line = _check(game, phase, lang, text, intent, slots, times, 1)
                good += ok
                if not ok:
                    misses.append(f"paraphrase {part} {lang}: {line}")
            para_rows.append((f"paraphrases {part} {lang}: understood", f"{good}/{len(cases)}",
                              f"{100 * good / max(1, len(cases)):.1f}%",
                              ">= 98%" if part == "report" else ""))
        talk = chatter_split(part)
        false = 0
        for game, phase, lang, text in talk:
            ok, line = _check(game, phase, lang, text, None, {}, times, 1)
            false += not ok
            if not ok:
                misses.append(f"paraphrase chatter {part}: {line}")
        para_rows.append((f"paraphrase chatter {part}: acted on", f"{false}/{len(talk)}",
                          f"{100 * false / max(1, len(talk)):.1f}%", "<= 1%"))
    good = false = 0
    for game, phase, lang, text, intent, slots in FRESH:
        ok, line = _check(game, phase, lang, text, intent, slots, times, 1)
        good += ok
        if not ok:
            misses.append(f"fresh: {line}")
    for game, phase, lang, text in FRESH_CHATTER:
        ok, line = _check(game, phase, lang, text, None, {}, times, 1)
        false += not ok
        if not ok:
            misses.append(f"fresh chatter: {line}")
    para_rows.append(("fresh paraphrases (seen, then tuned): understood", f"{good}/{len(FRESH)}",
                      f"{100 * good / len(FRESH):.1f}%", ""))
    para_rows.append(("fresh chatter: acted on", f"{false}/{len(FRESH_CHATTER)}",
                      f"{100 * false / len(FRESH_CHATTER):.1f}%", "<= 1%"))
    phases = all_phases()
    for lang, lines in (("en", recognition_data.CHATTER), ("fr", recognition_data.CHATTER_FR)):
        false = total = 0
        for index, template in enumerate(lines):
            p, q = PLAYERS[index % len(PLAYERS)], PLAYERS[(index + 3) % len(PLAYERS)]
            text = template.format(p=p.lower(), q=q.lower())
            for game, phase in phases:
                ok, line = _check(game, phase, lang, text, None, {}, times, 1)
                total += 1
                false += not ok
                if not ok:
                    misses.append(f"recognition chatter {lang}: {line}")
        para_rows.append((f"recognition_data chatter {lang} x every phase: acted on",
                          f"{false}/{total}", f"{100 * false / max(1, total):.1f}%", "<= 1%"))

    false = total = 0
    for _, _, lang, text in paraphrase_chatter() + FRESH_CHATTER:
        for game, phase in phases:
            ok, line = _check(game, phase, lang, text, None, {}, times, 1)
            total += 1
            false += not ok
            if not ok:
                misses.append(f"paraphrase chatter, any phase: {line}")
    para_rows.append(("paraphrase + fresh chatter x every phase: acted on", f"{false}/{total}",
                      f"{100 * false / max(1, total):.1f}%", "<= 1%"))

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
    if args.show_misses and misses:
        print("\nmisses:")
        for line in misses:
            print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
