"""Corrections right after a move are always heard: "undo", "wait, undo that", "no, that's
wrong", "non, annule", "stop" take the last move back (with the usual question), even as
the recognizer mangles them ("ben do", "non à n'y là"); outside that window they are what
they always were."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.table_talk import play, resistance
from voice_host.host.core.corrections import (
    WINDOW_SECONDS,
    correction_phrases,
    exactly,
    holds_word,
    loosely,
)
from voice_host.host.core.values import Heard, HeardKind
from voice_host.speech.decision import GrammarReading, Judgement, Rejection


@pytest.mark.parametrize(("said", "lang"), [
    ("undo", "en"), ("Wait, undo that!", "en"), ("No, that's wrong.", "en"), ("stop", "en"),
    ("Non, annule.", "fr"), ("non c'est faux", "fr"), ("Stop !", "fr"), ("arrête", "fr"),
])
def test_correction_sentences_are_heard_exactly(said: str, lang: str) -> None:
    assert exactly([said], lang)


@pytest.mark.parametrize(("said", "lang"), [
    ("okay, no, that's wrong", "en"), ("wait wait undo that", "en"), ("um, undo", "en"),
    ("euh non c'est faux", "fr"),
])
def test_words_that_carry_nothing_around_a_correction_leave_it_one(said: str,
                                                                   lang: str) -> None:
    assert exactly([said], lang)


@pytest.mark.parametrize(("said", "lang", "correction"), [
    ("ben do", "en", True), ("and do", "en", True), ("non à n'y là", "fr", True),
    ("a nulle", "fr", True), ("wait on do that", "en", True), ("where can do that", "en", True),
    ("i know that's wrong", "en", True), ("wait undue that", "en", True),
    # short words, other commands and talk are not
    ("no", "en", False), ("nope", "en", False), ("oh no", "en", False), ("pass", "en", False),
    ("guess bell", "en", False), ("so tired today", "en", False), ("non", "fr", False),
    ("deux sabotages", "fr", False),
    # talk spelled a little like a correction, without its word
    ("we'll do that", "en", False), ("wait for it", "en", False),
    ("that's not for at all", "en", False), ("no that's right", "en", False),
    ("we'll go with that", "en", False), ("into", "en", False),
])
def test_a_line_spelled_nearly_like_a_correction_is_one(said: str, lang: str,
                                                       correction: bool) -> None:
    assert loosely([said], lang) is correction


@pytest.mark.parametrize(("said", "correction"), [
    ("i know that's wrong", True), ("we'll undo that", True), ("wait on do that", False),
])
def test_a_line_read_as_a_command_is_a_correction_only_with_its_word(
        said: str, correction: bool) -> None:
    assert loosely([said], "en", word_itself=True) is correction


@pytest.mark.parametrize(("words", "word", "least", "most"), [
    (["on", "do"], "undo", 0.6, 1.0), (["ben", "do"], "undo", 0.6, 1.0),
    (["a", "n'", "y", "la"], "annule", 0.6, 1.0),
    (["we'll", "do", "that"], "undo", 0.0, 0.59), (["do"], "undo", 0.0, 0.0),
    (["so", "undo", "it"], "undo", 1.0, 1.0),
])
def test_a_correction_word_is_held_by_words_that_sound_like_it(
        words: list[str], word: str, least: float, most: float) -> None:
    assert least <= holds_word(words, word) <= most


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_each_language_has_its_corrections(lang: str) -> None:
    phrases = correction_phrases(lang)
    assert len(phrases) >= 10 and "stop" in phrases


def mangled(free: str, grammar: str = "ben") -> Heard:
    """A searched utterance the host cannot read: the grammar sentence rejected."""
    reading = GrammarReading(grammar, margin=-2.0, score=-2.5, steps=3, similarity=0.5)
    judgement = Judgement(free_text=free, free_logp=-0.9, looped=False, reading=reading,
                          accepted=False, reason=Rejection.LOW_MARGIN, confidence=0.0)
    return Heard(HeardKind.SPEECH, text=grammar, spoken=True, rejected=True, confidence=0.0,
                 judgement=judgement, source="mic")


def proposals(run) -> list[list[str]]:  # type: ignore[no-untyped-def]
    return [e["action"]["team"] for e in run.events("action")
            if e["action"]["type"] == "ProposeTeam"]


def test_a_mangled_undo_right_after_a_move_takes_it_back(tmp_path: Path) -> None:
    run = play(tmp_path, ["Ada: Ada and Ben", mangled("ben do"), "Ada: yes"],
               confirm="auto")
    assert "Undo the last move" in run.text
    assert len(run.events("undo")) == 1
    assert run.session.state.phase() == "team"


def test_a_mangled_french_correction_takes_the_move_back(tmp_path: Path) -> None:
    run = play(tmp_path, ["Ada: Ada et Ben", mangled("non à n'y là", "non"), "Ada: oui"],
               opts=resistance("fr"), confirm="auto")
    assert "Annuler le dernier coup" in run.text
    assert len(run.events("undo")) == 1


def test_stop_right_after_a_move_is_a_correction_not_the_end_of_the_game(
        tmp_path: Path) -> None:
    run = play(tmp_path, ["Ada: Ada and Ben", "Ben: stop", "Ben: yes"], confirm="auto")
    assert "Undo the last move" in run.text and "stop the game" not in run.text
    assert len(run.events("undo")) == 1
    # with no move before it, "stop" is what it always was
    run = play(tmp_path, ["Ada: stop", "Ada: no"], confirm="auto")
    assert "Do you want to stop the game?" in run.text and not run.events("undo")


def test_no_thats_wrong_right_after_a_vote_is_no_vote(tmp_path: Path) -> None:
    run = play(tmp_path, ["Ada: Ada and Ben", "Ada: yes", "Ben: no, that's wrong", "Ben: no"],
               confirm="auto")
    assert "Undo the last move" in run.text
    votes = [e["action"] for e in run.events("action") if e["action"]["type"] == "CastVote"]
    assert votes == [{"type": "CastVote", "player": "Ada", "approve": True}]


def test_a_mangled_undo_long_after_the_move_is_no_correction(tmp_path: Path) -> None:
    silences = [None] * (int(WINDOW_SECONDS // 12) + 1)  # 12 s each: past the window
    run = play(tmp_path, ["Ada: Ada and Ben", "Ben: what a long day", *silences,
                          mangled("ben do")], confirm="auto")
    assert "Undo the last move" not in run.text and not run.events("undo")


def test_a_garbled_wait_undo_that_takes_the_move_back(tmp_path: Path) -> None:
    run = play(tmp_path, ["Ada: Ada and Ben", mangled("wait on do that", "ada"), "Ada: yes"],
               confirm="auto")
    assert "Undo the last move" in run.text
    assert len(run.events("undo")) == 1


@pytest.mark.parametrize("talk", ["we'll do that", "wait for it", "that's not for at all"])
def test_talk_right_after_a_move_takes_nothing_back(tmp_path: Path, talk: str) -> None:
    run = play(tmp_path, ["Ada: Ada and Ben", mangled(talk, "ada")], confirm="auto")
    assert "Undo the last move" not in run.text and not run.events("undo")


def test_a_command_of_every_phase_right_after_a_move_keeps_its_meaning(
        tmp_path: Path) -> None:
    # "stop the game" is spelled a little like "stop that" and holds "stop"
    run = play(tmp_path, ["Ada: Ada and Ben", "Ben: stop the game", "Ben: no"],
               confirm="auto")
    assert "Do you want to stop the game?" in run.text and not run.events("undo")
