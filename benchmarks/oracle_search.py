"""Whose miss is it: the grammar search's or the model's? (a diagnosis, not a benchmark)

For every command of the benchmark's plan in the chosen conditions, the utterance (the
speech's own span and ``bench_recognition.ORACLE_PAD`` either side, noise and all, as
``voice-host bench --segment oracle`` hands it over) is decoded as the host decodes it,
and then the *expected* sentence is searched as a grammar of its own (the grammar's sentence
nearest the spoken text, its best spelling found by the same search with more rounds) and
scored exactly. Each command is then:

- ``right``: the search's reading is the expected sentence, or means the same move (the
  phase's matcher reads it as the expected intent and slots);
- ``search``: the expected sentence scores a better margin than what the search found (a
  better search would have found it; ``passes`` when that margin alone would pass the
  accept bar);
- ``model``: Whisper scores the search's (wrong) sentence higher than the expected one: no
  search can help, only a better model or better audio.

Usage (from the checkout, with the dev extra)::

    .venv/bin/python benchmarks/oracle_search.py --languages en --split report \\
        --conditions "babble 12,babble 6"
"""

from __future__ import annotations

import argparse
import collections
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_recognition as bench  # noqa: E402

from voice_host.speech import search as S  # noqa: E402
from voice_host.speech.grammar_search import (  # noqa: E402
    TokenConstraint,
    WordGraph,
    nearest_sentences,
)


def expected_reading(w: Any, decoder: Any, free: Any, base: Any, text: str,
                     cap: int) -> Any:
    """The expected sentence's best reading: searched as a one-sentence grammar."""
    item = w._grammar.searches[0]
    near = nearest_sentences(item.constraint.graph, text, limit=1, beam=400, max_cost=0.6)
    if not near:
        return None
    document = "#JSGF V1.0;\ngrammar one;\npublic <s> = ( " + " ".join(near[0][0]) + " );\n"
    constraint = TokenConstraint(WordGraph(document), item.constraint.spellings)
    tuning = replace(w._search, rounds=6, rescue_rounds=4, complete_rounds=0)
    found = S.search(decoder, constraint, w._vocab, free, cap=cap + 8, tuning=tuning,
                     suppress=item.suppress)
    return S.rank(decoder, found, base, w._search).reading if found else None


def means(pg: Any, text: str, case: Any) -> bool:
    """The phase's matcher reads ``text`` as the case's own move (intent and slots)."""
    best = pg.matcher.match(text, speaker=case.setup.speaker).best
    return (best is not None and best.intent == case.intent
            and bench.canonical_slots(best.slots) == case.slots)


def main(argv: list[str] | None = None) -> int:
    from voice_host.speech.decision import threshold
    from voice_host.speech.whisper_asr import WhisperRecognizer

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--languages", default="en", choices=("en", "fr"))
    bench.add_case_arguments(parser, split="report", conditions="clean")
    args = parser.parse_args(argv)
    lang = args.languages
    cases = bench.chosen_cases(args, lang)
    ears = bench.make_ears("whisper:grammar" + ("@fr" if lang == "fr" else ""))
    w = ears.ears.recognizer
    assert isinstance(w, WhisperRecognizer)
    babble = bench.babble_track() if any(c.noise == "babble" for c in cases) else None
    tally: collections.Counter[tuple[str, str]] = collections.Counter()
    for c in cases:
        pg = bench.phase_grammar(c.setup, c.phase)
        audio = bench.oracle_audio(c, babble)
        judged = bench.oracle_judgement(ears, c, pg, audio)
        assert judged is not None
        # encoded again (as _decode did): the expected sentence is searched on its own
        decoder = bench.encoded_decoder(w, audio)
        cap = w.token_cap(len(audio))
        free, = decoder.continue_prefixes([()], cap)
        text, logp, looped = S.free_reading(decoder, free, w._search.free_min_logp)
        base = S.Judgement(text, logp, looped, None, False, S.Rejection.NO_SENTENCE, 0.0)
        want = expected_reading(w, decoder, free, base, c.text, cap)
        got = judged.reading
        meant = got is not None and means(pg, got.text, c)
        if meant or (got is not None and want is not None
                     and got.text.split() == want.text.split()):
            kind = "right"
        elif want is not None and (got is None or want.margin > got.margin + 0.02):
            passes = want.margin >= threshold(want.steps, w._search)
            kind = "search, passes" if passes else "search"
        else:
            kind = "model"
        voices = bench.synthesizer_of(c.voice.label)
        tally[(f"{c.condition}, {voices}", kind)] += 1
        verdict = "taken" if judged.accepted else "rejected"
        print(f"{c.condition:9} {voices:9} {kind:14} {verdict:8} "
              f"found {got.margin if got else float('nan'):6.2f} "
              f"expected {want.margin if want else float('nan'):6.2f} | {c.text} | "
              f"free: {judged.free_text} | found: {got.text if got else '-'}", flush=True)
    print()
    for (condition, kind), count in sorted(tally.items()):
        print(f"{condition}: {kind}: {count}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
