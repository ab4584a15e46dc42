"""Endpointing in noise: does the endpointer hand the recognizer the whole command, and not
much more? On the recognition benchmark's English commands and voices (espeak-ng, Festival,
Kokoro), in clean speech, in babble at 12 and 6 dB and in pink noise at 6 dB.

    .venv/bin/python benchmarks/bench_endpointer.py [--split report] [--seed 6]

Each command sits in a stream at a known place (0.5 s of the room's noise before it, 3 s
after, and 5 s of the same noise heard before that, as by a microphone left open). The
*speech* is where the synthesized audio is within 40 dB of its loudest 30 ms frame (the
synthesizers' own leading and trailing silence is not speech). Each endpointer cuts the
stream, and per condition this prints:

* **covers** -- how often the first cut holds the whole speech (within 0.1 s at each end);
  also per synthesizer;
* **median cut / speech** -- the cut's length relative to the speech (1.0 would be exact;
  more is noise handed to the recognizer, and a later end);
* **never ends** -- the cut was still open when the stream ended (3 s after the speech):
  in a room that keeps talking the player would wait for ``max_length``;
* **covers (WAV)**, **median cut / WAV** -- the same against the whole WAV, the
  synthesizer's silence included.

The cut keeps 0.3 s of pre-roll and 0.25 s after the last speech frame on purpose (the first
syllable, and the recognizer likes a little silence), so on commands of about a second even a
perfect cut of clean speech measures about 1.5 times the speech.

The endpointers: the host's (WebRTC over the adaptive floor; the floor, the drop below the
speaker's level and, in a talking room, the fall back to the room's level end an utterance),
the same without the room test, the room test in every room, Silero keeping an utterance
open while the level tests end it, with and without the room test, and
(``--silero-alone``) Silero alone with the same trailing-silence rule.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import bench_recognition as bench  # noqa: E402

from voice_host.speech.source import (  # noqa: E402
    FRAME_SAMPLES,
    ArraySource,
    Endpointer,
    EndpointerConfig,
    SileroVad,
    split_frames,
)
from voice_host.speech.types import SAMPLE_RATE, Samples  # noqa: E402

CONDITIONS = ("clean", "babble 12", "babble 6", "pink 6")
TAIL = 3.0
"""Seconds of the room's noise after the command (a late end shows as a long cut)."""
SLACK = 0.1
"""A cut covers the speech when it starts at most this late and ends at most this early."""
HOST = EndpointerConfig()
ENDPOINTERS: dict[str, EndpointerConfig | None] = {
    "host: WebRTC throughout; floor, drop 8 dB, talking room + 4 dB end": HOST,
    "host, its VAD hearing only the frames over the floor, in a quiet room too": replace(
        HOST, vad_every_frame_dbfs=None),
    "host, its VAD hearing every frame in any room": replace(HOST, vad_every_frame_dbfs=0.0),
    "host, its cut keeping the 150-ms smoothing's lag": replace(HOST, end_trim_frames=0),
    "host, dropping at most 4 frames of that lag": replace(HOST, end_trim_frames=4),
    "WebRTC throughout; floor, drop 8 dB end (no room test)": replace(HOST, end_above_room_db=None),
    "WebRTC throughout; floor, drop 8 dB, any room + 4 dB end": replace(HOST,
                                                                      room_talk_db=-99.0),
    "Silero keeps open; floor, drop 8 dB, talking room + 4 dB end": replace(
        HOST, keep_open="silero"),
    "Silero keeps open; floor, drop 8 dB end": replace(HOST, keep_open="silero",
                                                      end_above_room_db=None),
}
"""What is compared (``None``: Silero alone, no floor)."""


class Replay:
    """Silero's probabilities of one stream, computed once and replayed for each endpointer
    (every endpointer feeds the same frames in the same order)."""

    def __init__(self) -> None:
        self._silero = SileroVad()
        self._seen: list[float] = []
        self._at = 0

    def rewind(self) -> None:
        self._at = 0

    def probability(self, frame: Samples) -> float:
        if self._at == len(self._seen):
            self._seen.append(self._silero.probability(frame))
        self._at += 1
        return self._seen[self._at - 1]

    def reset(self) -> None:
        raise AssertionError("the benchmark's streams have no gaps")


def speech_span(speech: Samples) -> tuple[float, float]:
    """(start, end) in seconds of the speech in synthesized audio: the frames within 40 dB of
    the loudest one."""
    n = len(speech) // FRAME_SAMPLES * FRAME_SAMPLES
    frames = speech[:n].astype(np.float64).reshape(-1, FRAME_SAMPLES)
    power = np.mean(frames * frames, axis=1) + 1e-9
    loud = np.flatnonzero(power >= power.max() * 1e-4)
    return loud[0] * FRAME_SAMPLES / SAMPLE_RATE, (loud[-1] + 1) * FRAME_SAMPLES / SAMPLE_RATE


def floor_cut(stream: Samples, case: bench.Case, babble: Samples | None,
              config: EndpointerConfig, keeper: Replay) -> tuple[float, float, bool]:
    """(start, end, ended) of the first utterance the endpointer cuts from the stream."""
    keeper.rewind()
    source = ArraySource(stream)
    source.endpointer = Endpointer(config, keeper=keeper if config.keep_open else None)
    bench.prime_floor(source, case, babble)
    endpointer = source.endpointer
    for frame in split_frames(stream):
        for utterance in endpointer.feed(frame):
            # its clock started with the room's noise it heard first
            return utterance.start - bench.WARM_UP, utterance.end - bench.WARM_UP, True
    last = endpointer.flush()
    if last is None:
        return 0.0, 0.0, False
    return last.start - bench.WARM_UP, last.end - bench.WARM_UP, False


def silero_cut(stream: Samples, keeper: Replay, *, threshold: float = 0.5,
               trailing: float = 0.5) -> tuple[float, float, bool]:
    """(start, end, ended) of the first stretch of speech Silero hears, with the same
    trailing-silence rule (and no pre-roll)."""
    keeper.rewind()
    start = last = None
    frame_seconds = FRAME_SAMPLES / SAMPLE_RATE
    for index, frame in enumerate(split_frames(stream)):
        t = index * frame_seconds
        if keeper.probability(frame) >= threshold:
            start = t if start is None else start
            last = t + frame_seconds
        elif start is not None and last is not None and t - last >= trailing:
            return start, last, True
    if start is None or last is None:
        return 0.0, 0.0, False
    return start, last, False


@dataclass
class Tally:
    """One endpointer in one condition."""

    cases: int = 0
    covered: int = 0
    covered_wav: int = 0
    never_ended: int = 0
    ratios: list[float] = field(default_factory=list)
    ratios_wav: list[float] = field(default_factory=list)
    by_synth: dict[str, list[int]] = field(default_factory=dict)

    def add(self, cut: tuple[float, float, bool], span: tuple[float, float],
            wav: tuple[float, float], synth: str) -> None:
        start, end, ended = cut
        self.cases += 1
        whole = start <= span[0] + SLACK and end >= span[1] - SLACK
        self.covered += whole
        self.covered_wav += start <= wav[0] + SLACK and end >= wav[1] - SLACK
        self.never_ended += not ended
        self.ratios.append((end - start) / (span[1] - span[0]))
        self.ratios_wav.append((end - start) / (wav[1] - wav[0]))
        cell = self.by_synth.setdefault(synth, [0, 0])
        cell[0] += whole
        cell[1] += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="report", choices=("report", "calib"))
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--conditions", default=",".join(CONDITIONS),
                        help=f"keep only these conditions (of {', '.join(CONDITIONS)})")
    parser.add_argument("--silero-alone", action="store_true",
                        help="also Silero alone, without the floor (its cuts rarely end)")
    args = parser.parse_args(argv)
    conditions = [c.strip() for c in args.conditions.split(",") if c.strip()]
    unknown = sorted(set(conditions) - set(CONDITIONS))
    if unknown:
        parser.error(f"unknown condition {unknown[0]!r} (conditions: {', '.join(CONDITIONS)})")
    endpointers = dict(ENDPOINTERS)
    if args.silero_alone:
        endpointers["Silero alone (p >= 0.5, 0.5 s)"] = None
    cases = [c for c in bench.build_cases(bench.QUICK, split=args.split, seed=args.seed,
                                          languages=("en",)) if c.command]
    commands = list({c.ident: c for c in cases}.values())
    bench.synthesize_all([(c.text, c.voice) for c in commands])
    babble = bench.babble_track()
    synths = sorted({bench.synthesizer_of(c.voice.label) for c in commands})
    print(f"{len(commands)} English commands; voices: " + ", ".join(
        f"{s} {sum(bench.synthesizer_of(c.voice.label) == s for c in commands)}"
        for s in synths))
    print()
    print("| condition | endpointer | covers | " + " | ".join(synths)
          + " | median cut / speech | never ends | covers (WAV) | median cut / WAV |")
    print("|---|---|---|" + "---|" * len(synths) + "---|---|---|---|")
    for condition in conditions:
        noise, _, snr = condition.partition(" ")
        tallies = {name: Tally() for name in endpointers}
        for command in commands:
            case = replace(command, noise=noise, snr=int(snr) if snr else None)
            stream = bench.stream_for(case, babble, tail_seconds=TAIL)
            speech = bench.synthesize(case.text, case.voice)
            inner = speech_span(speech)
            span = (bench.LEAD_IN + inner[0], bench.LEAD_IN + inner[1])
            wav = (bench.LEAD_IN, bench.LEAD_IN + len(speech) / SAMPLE_RATE)
            keeper, alone = Replay(), Replay()  # with the warm-up noise, and without
            for name, config in endpointers.items():
                if config is None:
                    cut = silero_cut(stream, alone)
                else:
                    cut = floor_cut(stream, case, babble, config, keeper)
                tallies[name].add(cut, span, wav, bench.synthesizer_of(case.voice.label))
        for name, t in tallies.items():
            per_synth = [f"{t.by_synth[s][0]}/{t.by_synth[s][1]}" if s in t.by_synth else "-"
                         for s in synths]
            median = statistics.median(t.ratios) if t.ratios else float("nan")
            median_wav = statistics.median(t.ratios_wav) if t.ratios_wav else float("nan")
            print(f"| {condition} | {name} | {t.covered}/{t.cases} "
                  f"({100 * t.covered / max(1, t.cases):.0f}%) | " + " | ".join(per_synth)
                  + f" | {median:.2f} | {t.never_ended}/{t.cases} | "
                  f"{t.covered_wav}/{t.cases} | {median_wav:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
