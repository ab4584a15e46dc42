"""How much does the decoder's prompt make each reading? (a diagnosis, not a benchmark)

For every utterance of the benchmark's plan in the chosen conditions, commands and chatter
alike (the speech's own span, noise and all, as ``voice-host bench --segment oracle`` hands it
over), the host's decode gives its grammar reading and free transcript; the reading is then
scored by the same model over the same audio with the phase's words as its prompt and
without them, and the unprompted free transcript is decoded too. The prompt lift is the
difference of the two mean log-probabilities per step: what ``SearchTuning.prompt_lift``
bars (``decision.primed``). Printed most lifted first, each line tagged ``ok`` (the
reading means the command), ``WRONG`` (another move) or ``CHAT`` (a chatter line), and
``ACC`` when the host's decode accepted it before the rule (``prompt_lift`` off).

Usage (from the checkout, with the dev extra)::

    .venv/bin/python benchmarks/prompt_lift_check.py --languages en --split calib \\
        --conditions "clean,babble 6" [--voice-set mbrola]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_recognition as bench  # noqa: E402
from ensemble_check import spelled  # noqa: E402
from oracle_search import means  # noqa: E402

from voice_host.speech import search as S  # noqa: E402


def mean_logp(recognizer: Any, decoder: Any, text: str) -> float:
    """The best spelling's mean log-probability per step (end-of-text included)."""
    return max(s.score / s.steps for s in spelled(recognizer, decoder, text))


def main(argv: list[str] | None = None) -> int:
    from voice_host.speech.whisper_asr import WhisperRecognizer, _Encoded

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--languages", default="en", choices=("en", "fr"))
    bench.add_case_arguments(parser, split="calib", conditions="clean")
    args = parser.parse_args(argv)
    lang = args.languages
    cases = bench.chosen_cases(args, lang, commands_only=False)  # said by --voice-set's voices
    ears = bench.make_ears("whisper:grammar" + ("@fr" if lang == "fr" else ""))
    w = ears.ears.recognizer
    assert isinstance(w, WhisperRecognizer)
    w._search = replace(w._search, prompt_lift=100.0)  # the decode as it was before the rule
    babble = bench.babble_track() if any(c.noise == "babble" for c in cases) else None
    lines = []
    for c in cases:
        pg = bench.phase_grammar(c.setup, c.phase)
        audio = bench.oracle_audio(c, babble)
        judged = bench.oracle_judgement(ears, c, pg, audio)
        if judged is None or judged.reading is None:
            continue
        reading = judged.reading.text
        prompted = bench.encoded_decoder(w, audio)
        alone = _Encoded(w, prompted.encoded, w.prompt_tokens(""))
        lift = mean_logp(w, prompted, reading) - mean_logp(w, alone, reading)
        free, = alone.continue_prefixes([()], w.token_cap(len(audio)))
        unprompted, logp, _ = S.free_reading(alone, free)
        tag = "CHAT" if not c.command else "ok" if means(pg, reading, c) else "WRONG"
        lines.append((lift, f"{tag:5} {'ACC' if judged.accepted else 'rej'} {c.condition:9} "
                            f"{bench.synthesizer_of(c.voice.label):9} lift {lift:5.2f} | "
                            f"{c.text} | reading: {reading} | free: {judged.free_text} | "
                            f"without the prompt: {unprompted} ({logp:.2f})"))
    for _, line in sorted(lines, key=lambda item: -item[0]):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
