"""Narration speed: time to first audio and rendering speed, per text-to-speech engine.

    python benchmarks/bench_tts.py [--runs N]

- *first audio (speaker)*: from ``say()`` to the first audio handed to the output stream,
  through ``SpeakerOutput`` on a simulated sound device (this machine may have none). The
  target is 300 ms or less.
- *first audio (wav)*: the same for ``WavOutput`` (the first sentence rendered).
- *render x real time*: seconds spent rendering per second of speech (lower is faster).

Engines: pyttsx3, the espeak-ng program, and Piper (the English default when the speech
extra is installed; its row routes the French line to espeak-ng, as the host does).

Prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from voice_host.speech.fakes import FakeSoundDevice
from voice_host.speech.mic import SpeakerPlayer
from voice_host.speech.synthesizer import (
    EspeakEngine,
    Pyttsx3Engine,
    SpeakerOutput,
    SynthesisError,
    TtsEngine,
    TtsSynthesizer,
    WavOutput,
)


def _piper() -> TtsEngine:
    from voice_host.speech.piper_tts import PiperEngine, RoutedEngine

    return RoutedEngine(PiperEngine(), EspeakEngine())


LINES = [
    ("en", "Mission two. Alice is the leader. Choose three players for the team."),
    ("en", "The team is Alice, Bob and Carol. Everyone, vote now: say yes or no. "
           "I will call each name in seat order, starting with Dave."),
    ("en", "Red team, your spymaster gave the clue ocean for two. You have three guesses left."),
    ("fr", "Ici Londres. Les Français parlent aux Français. Voici quelques messages personnels."),
]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(q * (len(ordered) - 1)))))
    return ordered[index]


def bench_engine(engine: TtsEngine, runs: int) -> dict[str, float]:
    speaker = TtsSynthesizer(engine, SpeakerOutput(SpeakerPlayer(sd=FakeSoundDevice())))
    first_speaker: list[float] = []
    first_wav: list[float] = []
    render_ratio: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        wav = TtsSynthesizer(engine, WavOutput(Path(tmp)))
        for _ in range(runs):
            for lang, text in LINES:
                speaker.say(text, lang=lang)
                assert speaker.last_stats is not None
                first_speaker.append(speaker.last_stats.first_audio_seconds)
                wav.say(text, lang=lang)
                assert wav.last_stats is not None
                first_wav.append(wav.last_stats.first_audio_seconds)
                started = time.perf_counter()
                audio = wav.render(text, lang=lang)
                spent = time.perf_counter() - started
                render_ratio.append(spent / (len(audio) / 16000))
    return {
        "first_speaker_median": statistics.median(first_speaker),
        "first_speaker_p95": _percentile(first_speaker, 0.95),
        "first_wav_median": statistics.median(first_wav),
        "render_rtf": statistics.median(render_ratio),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="repetitions of each line")
    args = parser.parse_args(argv)
    rows = []
    engines = (("pyttsx3", Pyttsx3Engine), ("espeak-ng", EspeakEngine), ("piper", _piper))
    for name, factory in engines:
        try:
            engine: TtsEngine = factory()
        except SynthesisError as error:
            rows.append(f"| {name:<10} | unavailable: {error} |")
            continue
        r = bench_engine(engine, args.runs)
        rows.append(
            f"| {name:<10} | {r['first_speaker_median'] * 1000:>11.0f} ms | "
            f"{r['first_speaker_p95'] * 1000:>8.0f} ms | {r['first_wav_median'] * 1000:>7.0f} ms | "
            f"{r['render_rtf']:>11.3f} |"
        )
    out = sys.stdout
    out.write(f"Narration time to first audio ({args.runs} x {len(LINES)} lines; "
              "target <= 300 ms)\n")
    out.write("| engine     | speaker median | speaker p95 | wav median | render x RT |\n")
    out.write("|------------|----------------|-------------|------------|-------------|\n")
    for row in rows:
        out.write(row + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
