"""The French narrator is understood: French narration lines from the host's own tables,
said by Kokoro (the French narrator) and by espeak-ng (its fallback), run back through
Whisper base. Rates over a set of lines, never one line's outcome (recognition differs
between CPUs)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from voice_host.speech import whisper_models
from voice_host.speech.kokoro_tts import unavailable_reason

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_narration_voices as bench  # noqa: E402

LINES = 8
"""Lines read back (drawn evenly over the games)."""
GOOD_WER = 0.35
"""A line counts as understood when at most this share of its words is wrong."""


def test_french_lines_are_varied_and_normalised_as_french() -> None:
    lines = bench.french_lines(40)
    assert len(lines) == 40 and len(set(lines)) == 40
    assert not any("{" in line for line in lines)
    assert bench.normalize("L'équipe a 2 points, Chloé !", "fr") == [
        "l", "equipe", "a", "deux", "points", "chloe"]
    assert bench.normalize("Une icône", "fr") == bench.normalize("1 icone", "fr")


MIN_UNDERSTOOD = 3
"""Lines (of :data:`LINES`) the French narrator must get understood; espeak-ng's own voice
gets none (measured on the test's 8 lines: MBROLA fr1 5 within 35%, espeak-ng none; over
40 lines: MBROLA fr1 25, espeak-ng none)."""


@pytest.mark.model
@pytest.mark.slow
def test_french_narration_is_heard_back_by_whisper_base() -> None:
    from voice_host.speech.synthesizer import create_engine, narrator_voices

    if whisper_models.locate("base") is None:
        pytest.skip("Whisper base is not installed (speech extra)")
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    engine = create_engine("auto")
    voice = narrator_voices(engine)["fr"]
    if voice == "fr":
        pytest.skip("no French narrator beyond espeak-ng is installed (apt install mbrola "
                    f"mbrola-fr1, or Kokoro: {unavailable_reason()})")
    lines = bench.french_lines(LINES)
    transcribe = bench.whisper("base", "fr")
    narrator = bench.read_back(bench.Candidate("auto", "fr", engine, voice,
                                               bench.VoiceSettings()), lines, transcribe)
    espeak = bench.read_back(bench.candidate("espeak-ng:fr"), lines, transcribe)
    understood = sum(r.wer <= GOOD_WER for r in narrator)
    assert understood >= MIN_UNDERSTOOD, [(r.line, r.transcript) for r in narrator]
    assert understood > sum(r.wer <= GOOD_WER for r in espeak)
