"""Whisper's two readings of one utterance agree when they make the same move, whatever
their words: "Ben picks the elephant" said by Ben, and its free transcript "I pick the
elephant", are one pick (``Session.move_key``), not a question and no doubt."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tests.support.ici_londres_table import options, play, seed_drawing
from voice_host.host.core.values import Heard, HeardKind
from voice_host.speech.decision import GrammarReading, Judgement, Rejection


def spoken(grammar: str, free: str, speaker: str) -> Heard:
    """Both readings confident: the grammar sentence passed, the free transcript sure."""
    reading = GrammarReading(grammar, margin=-0.05, score=-0.1, steps=6, similarity=0.8)
    judgement = Judgement(free_text=free, free_logp=-0.1, looped=False, reading=reading,
                          accepted=True, reason=Rejection.NONE, confidence=1.0)
    return Heard(HeardKind.SPEECH, text=grammar, speaker=speaker, spoken=True,
                 confidence=1.0, closed_grammar=True, judgement=judgement)


def picks_after(tmp_path: Path, heard: Heard) -> tuple[str, list[tuple[str, list[str]]]]:
    opts = options()
    opts["seed"] = seed_drawing(opts, ("heart", "book"))
    run = play(tmp_path, opts, ["Il adorait ses kilos", heard], confirm="auto")
    picks = [(a["player"], a["icons"]) for a in run.actions() if a["type"] == "Pick"]
    return run.text, picks


def test_two_readings_of_the_same_pick_are_one_reading(tmp_path: Path) -> None:
    text, picks = picks_after(tmp_path, spoken("ben picks the elephant", "i pick the elephant",
                                               "Ben"))
    assert "Did you mean" not in text and "Is that right?" not in text
    assert picks == [("Ben", ["elephant"])]


def test_two_readings_of_different_picks_are_still_asked_about(tmp_path: Path) -> None:
    text, picks = picks_after(tmp_path, spoken("ben picks the elephant", "i pick the anchor",
                                               "Ben"))
    assert "Did you mean" in text and not picks


def test_a_reading_and_its_shorter_alternative_of_the_same_pick_are_not_asked_about(
        tmp_path: Path) -> None:
    # the recognizer's runner-up drops "from me": the same pick by the speaker
    heard = replace(spoken("elephant from me", "elephant from me", "Ben"),
                    alternatives=("elephant",))
    text, picks = picks_after(tmp_path, heard)
    assert "Did you mean" not in text
    assert picks == [("Ben", ["elephant"])]
