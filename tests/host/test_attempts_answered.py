"""A player the host waits for is answered when what they said holds a move the host could
not read ("so noor chooses the skull and the wolf"), however long the line; talk stays
talk. Exact cases on made-up sure transcripts (``attention.clearly_talk``), then through the
real Session (the table-talk harness)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.table_talk import play, resistance
from voice_host.host.core.attention import clearly_talk, holds_move
from voice_host.host.core.registry import registration
from voice_host.host.core.values import Heard, HeardKind
from voice_host.intent import SlotValues, load_grammar
from voice_host.speech.decision import GrammarReading, Judgement, Rejection
from voice_host.text import tokenize

PLAYERS = ("Ada", "Ben", "Cleo", "Dan", "Eve")


def phase(game: str, name: str):  # type: ignore[no-untyped-def]
    lists = registration(game).example_lists("en")  # the icons, the board's words
    return load_grammar(game, "en").phase(name, SlotValues(players=PLAYERS, lists=lists))


def spoken(text: str) -> Heard:
    return Heard(HeardKind.SPEECH, text=text, spoken=True)


@pytest.mark.parametrize(("game", "name", "text"), [
    ("ici-londres", "guess", "so noor chooses the skull and the wolf"),
    ("ici-londres", "guess", "ok i should pick the apple and the snake"),
    ("ici-londres", "guess", "ai should take the boat ai should take the boat ai"),
    ("resistance", "vote", "okay ada and ben no cleo you guys"),
    ("resistance", "vote", "ada and ben no cleo dan and eve yes i suppose"),
    ("resistance", "team", "honestly i would say ben and cleo then"),
])
def test_a_line_holding_a_move_is_no_talk(game: str, name: str, text: str) -> None:
    pg = phase(game, name)
    assert pg.matcher.match(text).best is None  # the host cannot read it as a move ...
    assert holds_move(tokenize(text), pg)  # ... but most of it is one
    assert not clearly_talk(spoken(text), pg)


def test_a_team_holding_me_is_read_as_its_speakers() -> None:
    pg = phase("resistance", "team")
    words = tokenize("okay crapos ben cleo and me")
    assert not holds_move(words, pg)  # "me" is nobody when the speaker is not known
    assert holds_move(words, pg, "Ada")
    assert not clearly_talk(spoken("okay crapos ben cleo and me"), pg, "Ada")


def test_a_long_line_mostly_of_the_phases_values_is_no_talk() -> None:
    # a whole table's votes, garbled at its end: no run of it reads as a vote list, but
    # its words are the table's names and a vote
    pg = phase("resistance", "vote")
    text = "so ada ben cleo and dan eve andam elie yes"
    assert not holds_move(tokenize(text), pg)
    assert not clearly_talk(spoken(text), pg)


@pytest.mark.parametrize(("game", "name", "text"), [
    ("resistance", "vote", "ada and ben have been quiet all game"),  # two names, then talk
    ("resistance", "vote", "I am so tired today after all that work"),
    ("resistance", "team", "ben and cleo sounds good to me"),
    ("ici-londres", "guess", "i can't believe it's already november"),
    ("resistance", "count", "so tired today"),
])
def test_talk_holds_no_move_and_stays_talk(game: str, name: str, text: str) -> None:
    pg = phase(game, name)
    assert not holds_move(tokenize(text), pg)
    assert clearly_talk(spoken(text), pg)


def test_an_unsure_or_foreign_transcript_is_judged_by_its_recognizer() -> None:
    pg = phase("ici-londres", "guess")
    text = "so noor chooses the skull and the wolf"

    def searched(logp: float, reason: Rejection) -> Heard:
        judgement = Judgement(text, logp, False, GrammarReading("sun", -5.8, -6.7, 2, 0.15),
                              False, reason, 0.0)
        return Heard(HeardKind.SPEECH, text=text, spoken=True, rejected=True,
                     judgement=judgement)

    assert not clearly_talk(searched(-0.41, Rejection.LOW_MARGIN), pg)  # sure, holds a pick
    assert not clearly_talk(searched(-1.5, Rejection.LOW_MARGIN), pg)  # unsure: misheard
    assert clearly_talk(searched(-0.2, Rejection.FOREIGN), pg)  # the search judged it talk


def reasks(run) -> list[str | None]:  # type: ignore[no-untyped-def]
    return [e["speaker"] for e in run.events("reask")]


def test_an_awaited_voter_is_reasked_for_a_long_misheard_vote_list(tmp_path: Path) -> None:
    run = play(tmp_path, ["Ada: Ada and Ben", "Cleo: okay cleo and dan no eve you guys",
                          "Dan: ada and ben have been quiet all game"])
    assert reasks(run) == ["Cleo"]
    assert [(e["speaker"], e["cue"]) for e in run.events("ignored")] == [("Dan", True)]


def test_the_leader_is_reasked_for_a_misheard_team_in_the_discussion(tmp_path: Path) -> None:
    """Proposing a team is a discussion: the table's talk, the leader's too, gets no answer;
    a line of the leader's that holds a team does, and another player's never."""
    run = play(tmp_path, ["Ben: honestly i would say ben and cleo then",
                          "Ada: ben and cleo sounds good to me",
                          "Ada: honestly i would say ben and cleo then"])
    assert reasks(run) == ["Ada"]
    assert [e["speaker"] for e in run.events("ignored")] == ["Ben", "Ada"]
    assert not run.events("action")[1:]  # nothing was taken


def test_an_unnamed_line_in_a_discussion_gets_no_reask(tmp_path: Path) -> None:
    unnamed = Heard(HeardKind.SPEECH, text="honestly i would say ben and cleo then",
                    spoken=True, source="mic")
    run = play(tmp_path, [unnamed], opts=resistance())
    assert not reasks(run)
