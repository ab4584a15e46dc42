"""Recognizer benchmark: accuracy, chatter rejection, real-time factor, latency, memory.

    .venv/bin/python benchmarks/bench_asr.py [--quick] [--weights auto,1e-26,none]

Commands are sampled from the real phase grammars (``voice_host.intent.load_grammar``) and
spoken by several espeak-ng voices; chatter lines are table talk that no phase accepts.  Each
utterance is streamed to the recognizer in 100 ms chunks as a microphone would deliver it, so
the latency printed is end of audio -> transcript.  For every garbage weight (``none`` = the
closed grammar with no escape path, ``auto`` = the recognizer's default) it prints:

* accuracy  - share of commands whose transcript equals the spoken sentence;
* accepted  - share of commands not rejected (the matcher may still understand near misses);
* rejection - share of chatter lines rejected or heard as nothing;
* RTF       - decoding CPU time / audio time;
* latency   - end of audio -> transcript, p50 and p95;
* peak RSS  - of this process.

WAVs are cached under ``$XDG_CACHE_HOME/voice-host/bench`` by a hash of text and voice.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from voice_host.speech.pocketsphinx_asr import PocketSphinxRecognizer
from voice_host.speech.types import RecognitionGrammar, Samples
from voice_host.speech.wav import read_wav

VOICES = [("en-us", 160, 50), ("en-gb-x-rp", 175, 40), ("en-us+f3", 150, 65), ("en", 185, 30)]
PLAYERS = ("Sophie", "Hannah", "Thibault", "Marc", "Zoe")
PHASES = [
    ("resistance", "team"),
    ("resistance", "vote"),
    ("resistance", "mission"),
    ("ici-londres", "guess"),
    ("codenames", "guess"),
    ("codenames", "answer"),
]
BOARD = ("apple", "bridge", "castle", "dragon", "forest", "king", "moon", "piano", "river")
CHATTER = [
    "pass me the chips please",
    "who wants another drink",
    "hold on my phone is ringing",
    "that was a great game last week",
    "i have no idea what you mean",
    "let me think about it for a second",
    "did you see the match yesterday",
    "the pizza is getting cold",
    "can somebody open the window",
    "i am going to get some water",
    "she always wins this game",
    "my sister would love this",
    "wait where did my glasses go",
    "this music is too loud",
    "honestly i trust nobody here",
    "what time do we have to leave",
]


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    path = Path(base) / "voice-host" / "bench"
    path.mkdir(parents=True, exist_ok=True)
    return path


def synthesize(text: str, voice: str, speed: int, pitch: int) -> Samples:
    key = hashlib.sha1(f"{text}|{voice}|{speed}|{pitch}".encode()).hexdigest()[:20]
    out = cache_dir() / f"{key}.wav"
    if not out.exists():
        raw = out.with_suffix(".raw.wav")
        subprocess.run(
            ["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", str(raw), text],
            check=True,
        )
        subprocess.run(["sox", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(out)],
                       check=True)
        raw.unlink()
    return read_wav(out)


@dataclass(frozen=True)
class Case:
    """One utterance of the benchmark."""

    grammar: RecognitionGrammar
    """The phase grammar active while it is spoken."""
    text: str
    """What is said."""
    voice: tuple[str, int, int]
    """espeak-ng voice, speed, pitch."""
    command: bool
    """True for an in-grammar command, False for chatter."""


def build_cases(per_phase: int, seed: int) -> list[Case]:
    from voice_host.intent import SlotValues, load_grammar

    rng = random.Random(seed)
    cases: list[Case] = []
    grammars: list[RecognitionGrammar] = []
    for game, phase_name in PHASES:
        phase = load_grammar(game, "en").phase(
            phase_name, SlotValues(players=PLAYERS, board_words=BOARD)
        )
        jsgf = phase.jsgf()
        if jsgf is None:
            continue
        grammar = RecognitionGrammar(f"{game}.{phase_name}", jsgf, phase.vocabulary())
        grammars.append(grammar)
        for sample in phase.sample(rng, per_phase):
            cases.append(Case(grammar, sample.text, rng.choice(VOICES), True))
    for index, line in enumerate(CHATTER):
        grammar = grammars[index % len(grammars)]
        for voice in VOICES[:2]:
            cases.append(Case(grammar, line, voice, False))
    return cases


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def run(
    cases: list[Case], spec: str, audio: dict[int, Samples], *, exclude: bool
) -> dict[str, float]:
    if spec == "none":
        recognizer = PocketSphinxRecognizer(reject=False)
    else:
        weight = None if spec == "auto" else float(spec)
        recognizer = PocketSphinxRecognizer(
            garbage_weight=weight, garbage_excludes_grammar_words=exclude
        )
    exact = accepted = commands = rejected = chatter = 0
    latencies: list[float] = []
    cpu = 0.0
    audio_total = 0.0
    misses: list[str] = []
    for index, case in enumerate(cases):
        recognizer.set_grammar(case.grammar)
        samples = audio[index]
        started = time.process_time()
        recognizer.start_utterance()
        for start in range(0, len(samples), 1600):  # 100 ms, as a microphone delivers
            recognizer.feed(samples[start : start + 1600])
        transcript = recognizer.finish()
        cpu += time.process_time() - started
        audio_total += transcript.audio_seconds
        latencies.append(transcript.decode_seconds)
        nothing = transcript.rejected or not transcript.text
        if case.command:
            commands += 1
            exact += transcript.text == case.text
            accepted += not nothing
            if transcript.text != case.text and len(misses) < 8:
                misses.append(f"    {case.voice[0]:10s} {case.text!r} -> {transcript.text!r}")
        else:
            chatter += 1
            rejected += nothing
    if misses:
        print(f"  sample misses (weight {spec}):\n" + "\n".join(misses))
    return {
        "accuracy": exact / max(commands, 1),
        "accepted": accepted / max(commands, 1),
        "rejection": rejected / max(chatter, 1),
        "rtf": cpu / max(audio_total, 1e-9),
        "p50": percentile(latencies, 0.5),
        "p95": percentile(latencies, 0.95),
        "commands": commands,
        "chatter": chatter,
        "mean_audio": audio_total / max(len(cases), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer commands per phase")
    parser.add_argument("--weights", default="auto,none",
                        help="garbage weights to compare; 'auto' = the recognizer's default, "
                        "'none' = no escape path")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep-grammar-words-in-garbage", action="store_true",
                        help="let the garbage loop use words the grammar also uses")
    args = parser.parse_args(argv)
    per_phase = 6 if args.quick else 14
    started = time.monotonic()
    cases = build_cases(per_phase, args.seed)
    audio = {i: synthesize(c.text, *c.voice) for i, c in enumerate(cases)}
    print(f"{sum(c.command for c in cases)} commands from {len(PHASES)} phases, "
          f"{sum(not c.command for c in cases)} chatter lines, {len(VOICES)} voices; "
          f"synthesis {time.monotonic() - started:.1f} s")
    rows = []
    for text in args.weights.split(","):
        exclude = not args.keep_grammar_words_in_garbage
        rows.append((text.strip(), run(cases, text.strip(), audio, exclude=exclude)))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print()
    print("| garbage weight | exact | accepted | chatter rejected | RTF | latency p50 | p95 |")
    print("|---|---|---|---|---|---|---|")
    for name, r in rows:
        print(f"| {name} | {r['accuracy']:.1%} | {r['accepted']:.1%} | {r['rejection']:.1%} | "
              f"{r['rtf']:.3f} | {r['p50'] * 1000:.1f} ms | {r['p95'] * 1000:.1f} ms |")
    mean_audio = statistics.fmean(r["mean_audio"] for _, r in rows)
    print(f"\nmean utterance {mean_audio:.2f} s; peak RSS {peak_mb:.0f} MB; "
          f"total {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
