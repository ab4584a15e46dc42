"""Is the narrator understood? English narration run back through Whisper.

    python benchmarks/bench_narration.py [--lines N] [--engines espeak-ng,piper]

Takes English narration lines from the host's own tables (``host/lang/en/*.toml``, every
game, fields filled with plausible values; the lines that name the French terms of Ici
Londres and the Wehrmacht always included), renders each line with each engine through the
host's synthesizer (with its pronunciation tables), and transcribes it with Whisper tiny.en
(faster-whisper's ``transcribe``, greedy, English). Reports per engine:

- *words right*: median over the lines of 1 - word error rate against the line as written
  (lower case, punctuation dropped, numbers 0-20 as words);
- *lines read back*: lines whose word error rate is at most 20%;
- *terms heard*: the French and German terms (Ici Londres, Bribes de message, Contre la
  montre, Wehrmacht ...) whose transcript comes close to the term in letters (rapidfuzz
  partial ratio >= 75 on the transcript). Whisper tiny.en writes English, so this is a
  proxy for "said so that a listener recognises it", and the transcripts are printed.

Prints a table; asserts nothing. The same lines go to every engine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import string
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

TERMS = ("Ici Londres", "Bribes de message", "Contre la montre", "Réseaux concurrents",
         "Wehrmacht")
"""Foreign terms of the English narration, checked one by one."""

_NUMBERS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
            "fourteen fifteen sixteen seventeen eighteen nineteen twenty").split()

_FIELDS = {
    "player": "Ada", "speaker": "Ben", "wehrmacht": "Cleo", "finder": "Dan", "leader": "Eve",
    "spymaster": "Ada", "players": "Ada, Ben and Cleo", "team": "Ada and Ben", "who": "Ben",
    "icon": "the heart", "icon_cap": "The heart", "icons": "the heart and the book",
    "round": 2, "total": 6, "rounds": "six rounds", "n": 3, "count": 2, "size": 3,
    "mission": 2, "number": 2, "score": 3, "points": 2, "word": "ocean", "clue": "ocean",
    "title": "Bribes de message", "rules": "One icon at a time, in turn order.",
    "colour": "red", "color": "red", "left": 2, "guesses": 2, "words": 12, "seconds": 10,
}


class _Filled(dict[str, Any]):
    def __missing__(self, key: str) -> Any:
        return {"team_colour": "red", "winner": "the red team"}.get(key, "Ada")


def narration_lines(count: int, *, seed: int = 1944) -> list[str]:
    """``count`` English narration lines from every game's table, the term lines first."""
    from voice_host.host.core.narration import catalogue
    from voice_host.host.core.registry import game_names

    pool: dict[str, str] = {}
    for game in game_names():
        for key, template in catalogue("en", game).items():
            if ".refusal." in key or key.startswith("page.") or ".radio." in key:
                continue
            first = template[0] if isinstance(template, list) else template
            try:
                text = first.format_map(_Filled(_FIELDS))
            except (ValueError, IndexError, AttributeError):
                continue
            if len(text.split()) >= 4 and "{" not in text:
                pool.setdefault(text, key)
    texts = sorted(pool)
    with_terms = [t for t in texts if any(term.lower() in t.lower() for term in TERMS)]
    rest = [t for t in texts if t not in with_terms]
    random.Random(seed).shuffle(rest)
    return (with_terms + rest)[:max(count, len(with_terms))]


def normalize(text: str) -> list[str]:
    text = text.lower().replace("-", " ")
    text = text.translate(str.maketrans("", "", string.punctuation + "«»…’"))
    return [(_NUMBERS[int(w)] if w.isdigit() and int(w) <= 20 else w) for w in text.split()]


def word_error_rate(reference: Sequence[str], heard: Sequence[str]) -> float:
    """Levenshtein distance over words, divided by the reference's length."""
    previous = list(range(len(heard) + 1))
    for i, ref in enumerate(reference, 1):
        row = [i]
        for j, word in enumerate(heard, 1):
            row.append(min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (ref != word)))
        previous = row
    return previous[-1] / max(1, len(reference))


def term_heard(term: str, transcript: str) -> bool:
    from rapidfuzz import fuzz

    plain = " ".join(normalize(transcript))
    return fuzz.partial_ratio(" ".join(normalize(term)), plain) >= 75


@dataclass(frozen=True)
class Reading:
    line: str
    transcript: str
    wer: float


def read_back(engine_name: str, lines: Iterable[str], model: Any) -> list[Reading]:
    """Render each line with ``engine_name`` and transcribe it with ``model``."""
    from voice_host.host.core.narration import pronunciations
    from voice_host.speech.synthesizer import TtsSynthesizer, create_engine

    synth = TtsSynthesizer(create_engine(engine_name), _Discard())
    synth.pronunciation = pronunciations()
    out = []
    for line in lines:
        audio = synth.render(line, lang="en").astype(np.float32) / 32768.0
        segments, _ = model.transcribe(audio, language="en", beam_size=1,
                                       condition_on_previous_text=False)
        heard = " ".join(s.text.strip() for s in segments)
        out.append(Reading(line, heard, word_error_rate(normalize(line), normalize(heard))))
    return out


class _Discard:
    def speak(self, parts: Any, *, text: str, lang: str) -> float | None:
        for _ in parts:
            pass
        return None

    def play(self, *args: Any, **kwargs: Any) -> None:
        pass


def whisper_tiny() -> Any:
    from faster_whisper import WhisperModel

    from voice_host.speech import whisper_models

    return WhisperModel(str(whisper_models.ensure("tiny.en")), device="cpu",
                        compute_type="int8", cpu_threads=2)


def summary(readings: Sequence[Reading]) -> dict[str, float]:
    terms = [(term, r) for r in readings for term in TERMS if term.lower() in r.line.lower()]
    return {
        "words": statistics.median(1 - min(1.0, r.wer) for r in readings),
        "lines": sum(r.wer <= 0.2 for r in readings) / len(readings),
        "terms": sum(term_heard(t, r.transcript) for t, r in terms) / max(1, len(terms)),
        "n_lines": len(readings), "n_terms": len(terms),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=40, help="how many lines (default 40)")
    parser.add_argument("--engines", default="espeak-ng,piper")
    parser.add_argument("--show", action="store_true", help="print every transcript")
    args = parser.parse_args(argv)
    lines = narration_lines(args.lines)
    model = whisper_tiny()
    out = sys.stdout
    rows = []
    for engine in args.engines.split(","):
        readings = read_back(engine, lines, model)
        s = summary(readings)
        rows.append(f"| {engine:<9} | {s['words']:>10.0%} | "
                    f"{s['lines']:>6.0%} ({round(s['lines'] * s['n_lines'])}/{s['n_lines']}) | "
                    f"{s['terms']:>5.0%} ({round(s['terms'] * s['n_terms'])}/{s['n_terms']}) |")
        for r in readings:
            if args.show or any(t.lower() in r.line.lower() for t in TERMS):
                out.write(f"{engine}\t{r.wer:.2f}\t{r.line}\t-> {r.transcript}\n")
    out.write(f"\nEnglish narration read back by Whisper tiny.en ({len(lines)} lines)\n")
    out.write("| engine    | words right | lines read back | terms heard |\n")
    out.write("|-----------|-------------|-----------------|-------------|\n")
    for row in rows:
        out.write(row + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

