"""One decision with all the evidence of an utterance: a move the table cannot take back is
made without a question only when both readings (the grammar sentence and the free
transcript) agree on it, and the voice, when known, agrees with the name. Exact cases on
made-up readings (``agreement.doubt``), then the same cases through the real Session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import scripted
from tests.support.ici_londres_table import ListListener
from voice_host.host.core.agreement import Doubt, doubt, phase_vocabulary
from voice_host.host.core.confirm import Why, why_confirm
from voice_host.host.core.understanding import Understood
from voice_host.host.core.values import Heard, HeardKind, Voice
from voice_host.intent import IntentMatch, SlotValues, load_grammar
from voice_host.speech.decision import GrammarReading, Judgement, Rejection, Verdict

PLAYERS = ("Ada", "Ben", "Cleo", "Dan", "Eve")


def phase(game: str, name: str, lang: str = "en"):  # type: ignore[no-untyped-def]
    return load_grammar(game, lang).phase(name, SlotValues(players=PLAYERS))


def read(game: str, name: str, text: str, lang: str = "en") -> IntentMatch | None:
    return phase(game, name, lang).matcher.match(text).best


def two_readings(grammar: IntentMatch | None, free: IntentMatch | None,
                 verdict: Verdict) -> Understood:
    chosen = grammar or free
    return Understood(chosen, None, 0.9, verdict=verdict, free=free, grammar=grammar)


VOTE = ("resistance", "vote")


def test_a_name_the_free_transcript_does_not_hold_is_a_doubt() -> None:
    # "yeah I'm in" said by Cleo: the grammar search read "ada i'm in", the free transcript
    # "eva i'm in" (which the matcher reads, unsurely, as Eve's vote)
    grammar = read(*VOTE, "ada i'm in")
    free = read(*VOTE, "eva i'm in")
    assert grammar is not None and free is not None
    vocabulary = phase_vocabulary(phase(*VOTE))
    # the free reading is a rival: the readings disagree
    assert doubt(grammar, two_readings(grammar, free, Verdict.GRAMMAR),
                 grammar_text="ada i'm in", free_text="eva i'm in",
                 vocabulary=vocabulary, actors=("Ada",)) is Doubt.READINGS
    # the free transcript read as no move at all: it still does not hold "Ada"
    assert doubt(grammar, two_readings(grammar, None, Verdict.GRAMMAR),
                 grammar_text="ada i'm in", free_text="eva i'm in",
                 vocabulary=vocabulary, actors=("Ada",)) is Doubt.WORDS
    # and Cleo's voice says it was not Ada
    assert doubt(grammar, None, actors=("Ada",),
                 voice=Voice("Cleo", 0.93)) is Doubt.VOICE


def test_a_word_the_move_dropped_is_a_doubt() -> None:
    # "yes Ada, Cleo and Dan, no Ben and Eve": the grammar sentence lost its "no"
    said = "yes ada cleo and dan no ben and eve"
    grammar = read(*VOTE, "yes ada cleo and dan ben and eve")
    free = read(*VOTE, said)
    assert grammar is not None and free is not None
    assert grammar.slots != free.slots
    vocabulary = phase_vocabulary(phase(*VOTE))
    assert doubt(grammar, two_readings(grammar, free, Verdict.GRAMMAR),
                 grammar_text=grammar.text, free_text=said,
                 vocabulary=vocabulary) is Doubt.READINGS
    assert doubt(grammar, two_readings(grammar, None, Verdict.GRAMMAR),
                 grammar_text=grammar.text, free_text=said,
                 vocabulary=vocabulary) is Doubt.WORDS


def test_a_number_the_readings_disagree_on_is_a_doubt_in_french() -> None:
    # "aucun sabotage" read "un sabotage" at 0.94: a clean mission recorded as failed
    mission = ("resistance", "mission", "fr")
    grammar = read(mission[0], mission[1], "un sabotage", "fr")
    free = read(mission[0], mission[1], "aucun sabotage", "fr")
    assert grammar is not None and free is not None
    vocabulary = phase_vocabulary(phase(*mission))
    assert doubt(grammar, two_readings(grammar, free, Verdict.GRAMMAR),
                 grammar_text="un sabotage", free_text="aucun sabotage",
                 vocabulary=vocabulary) is Doubt.READINGS
    assert doubt(grammar, two_readings(grammar, None, Verdict.GRAMMAR),
                 grammar_text="un sabotage", free_text="aucun sabotage",
                 vocabulary=vocabulary) is Doubt.WORDS


@pytest.mark.parametrize(("grammar_text", "free_text"), [
    ("ada yes", "ada yes"),
    ("ada yes", "ada yeah"),  # two forms of one value
    ("two sabotages", "2 sabotages"),
    ("two sabotages", "too sabotages"),  # a confusion the grammar lists
    ("ada yes", ""),  # no free transcript: nothing to disagree with
])
def test_readings_that_agree_are_no_doubt(grammar_text: str, free_text: str) -> None:
    name = "mission" if "sabotage" in grammar_text else "vote"
    grammar = read("resistance", name, grammar_text)
    assert grammar is not None
    vocabulary = phase_vocabulary(phase("resistance", name))
    confusions = phase("resistance", name).settings.confusions
    assert doubt(grammar, two_readings(grammar, None, Verdict.GRAMMAR),
                 grammar_text=grammar_text, free_text=free_text, vocabulary=vocabulary,
                 confusions=confusions) is Doubt.NONE
    agreeing = two_readings(grammar, grammar, Verdict.AGREE)
    assert doubt(grammar, agreeing, grammar_text=grammar_text, free_text=free_text,
                 vocabulary=vocabulary) is Doubt.NONE


@pytest.mark.parametrize(("voice", "actors", "expected"), [
    (Voice("Ada", 0.95), ("Ada",), Doubt.NONE),  # her own vote
    (Voice("Cleo", 0.5), ("Ada",), Doubt.NONE),  # an unsure voice contradicts nothing
    (Voice(None, 0.0), ("Ada",), Doubt.NONE),  # unknown
    (Voice("Cleo", 0.95), ("Ada", "Ben"), Doubt.NONE),  # one player speaks for the table
    (Voice("Cleo", 0.95), ("Ada",), Doubt.VOICE),
])
def test_the_voice_contradicts_only_a_one_player_move(voice: Voice, actors: tuple[str, ...],
                                                      expected: Doubt) -> None:
    move = IntentMatch("votes", {"p1": ("Ada",), "v1": "yes"}, 1.0, "ada yes")
    assert doubt(move, None, actors=actors, voice=voice) is expected


def test_the_policy_asks_about_a_move_that_cannot_be_taken_back_when_in_doubt() -> None:
    from voice_host.games.resistance import CastVote
    from voice_host.host.core.adapter import Decision

    vote = Decision(action=CastVote("Ada", True), irreversible="Ada votes yes")
    proposal = Decision(action=CastVote("Ada", True))
    plain = {"confidence": 0.99, "plain": True}
    assert why_confirm(vote, **plain) is Why.NONE
    assert why_confirm(vote, **plain, doubt=Doubt.READINGS) is Why.DISAGREE
    assert why_confirm(vote, **plain, doubt=Doubt.WORDS) is Why.DISAGREE
    assert why_confirm(proposal, **plain, doubt=Doubt.WORDS) is Why.NONE  # can be undone
    assert why_confirm(proposal, **plain, doubt=Doubt.VOICE) is Why.VOICE
    assert why_confirm(vote, **plain, doubt=Doubt.READINGS, mode="never") is Why.NONE


# --------------------------------------------------------------------------- in a game


def spoken(grammar: str, free: str, *, speaker: str | None = None, free_logp: float = -0.9,
           voice: Voice | None = None) -> Heard:
    """A searched utterance: the grammar sentence accepted and sure, the free transcript
    unsure (so the grammar reading alone decides, as in the games that went wrong)."""
    reading = GrammarReading(grammar, margin=-0.05, score=-0.1, steps=6, similarity=0.8)
    judgement = Judgement(free_text=free, free_logp=free_logp, looped=False, reading=reading,
                          accepted=True, reason=Rejection.NONE, confidence=1.0)
    return Heard(HeardKind.SPEECH, text=grammar, speaker=speaker, spoken=True,
                 confidence=1.0, closed_grammar=True, judgement=judgement, voice=voice)


def run(tmp_path: Path, lines: list[str | Heard], lang: str = "en") -> scripted.Run:
    opts = {"deal": "table", "lang": lang, "players": list(PLAYERS), "double_agent": True,
            "first": "Ada", "votes": "together", "seed": 7}
    return scripted.run_script(tmp_path, "resistance", opts, [], confirm="auto",
                               listener=ListListener(lines))


def votes_cast(r: scripted.Run) -> list[tuple[str, bool]]:
    return [(a["action"]["player"], a["action"]["approve"]) for a in r.events("action")
            if a["action"]["type"] == "CastVote"]


def test_a_vote_the_free_transcript_names_otherwise_is_asked_about(tmp_path: Path) -> None:
    r = run(tmp_path, ["Ada and Ben", spoken("ada i'm in", "eva i'm in"), "no"])
    assert "I heard: Ada votes yes. Is that right?" in r.text
    assert votes_cast(r) == []


def test_a_vote_with_a_dropped_no_is_asked_about(tmp_path: Path) -> None:
    r = run(tmp_path, ["Ada and Ben", spoken("yes ada cleo and dan ben and eve",
                                             "yes ada cleo and dan no ben and eve"), "no"])
    assert "Is that right?" in r.text and votes_cast(r) == []


def test_a_vote_the_voice_contradicts_is_asked_about_by_name(tmp_path: Path) -> None:
    r = run(tmp_path, ["Ada and Ben", spoken("ada yes", "ada yes", free_logp=-0.1,
                                             voice=Voice("Cleo", 0.95)), "no"])
    assert "Cleo, I heard: Ada votes yes. Is that right?" in r.text
    assert votes_cast(r) == []


def test_a_vote_all_the_evidence_agrees_on_is_taken_unasked(tmp_path: Path) -> None:
    r = run(tmp_path, ["Ada and Ben", spoken("ada yes", "ada yes", free_logp=-0.1,
                                             voice=Voice("Ada", 0.95))])
    assert "Is that right?" not in r.text
    assert votes_cast(r) == [("Ada", True)]


def test_a_french_mission_report_the_readings_disagree_on_is_asked_about(
        tmp_path: Path) -> None:
    lines: list[str | Heard] = ["Ada et Ben", "Ada : oui", "oui", "oui", "oui", "oui",
                                spoken("un sabotage", "aucun sabotage"), "non"]
    r = run(tmp_path, lines, lang="fr")
    assert "C'est bien ça ?" in r.text.split("sabotage", 1)[1]
    assert not [a for a in r.events("action") if a["action"]["type"] == "ReportSabotages"]


def test_a_text_the_recognizer_does_not_stand_by_is_no_evidence_against_a_move() -> None:
    # "bee please" searched as the board word, the free transcript an unsure "be please"
    # that reads as no move: noise, not a rival (the policy judges the reading alone)
    move = IntentMatch("guess", {"word": "bee"}, 1.0, "bee please")
    vocabulary = {"bee": ("board", "'bee'"), "jam": ("board", "'jam'")}
    alone = two_readings(move, None, Verdict.GRAMMAR)
    assert doubt(move, alone, grammar_text="bee please", free_text="be please",
                 vocabulary=vocabulary, free_sure=False) is Doubt.NONE
    assert doubt(move, alone, grammar_text="bee please", free_text="be please",
                 vocabulary=vocabulary, free_sure=True) is Doubt.WORDS
    # a rival move is a rival however unsure
    rival = IntentMatch("guess", {"word": "jam"}, 0.7, "jam please")
    assert doubt(move, two_readings(move, rival, Verdict.GRAMMAR), grammar_text="bee please",
                 free_text="jam please", vocabulary=vocabulary,
                 free_sure=False) is Doubt.READINGS


@pytest.mark.parametrize(("lang", "team", "correction"), [
    ("en", "Ada and Ben", "wait, undo that"), ("en", "Ada and Ben", "no, that's wrong"),
    ("fr", "Ada et Ben", "non, annule")])
def test_a_correction_in_answer_to_the_question_is_a_no(tmp_path: Path, lang: str, team: str,
                                                        correction: str) -> None:
    r = run(tmp_path, [team, spoken("ada i'm in", "eva i'm in") if lang == "en"
                       else spoken("ada je suis pour", "eva je suis pour"), correction],
            lang=lang)
    assert votes_cast(r) == []
    assert "?" in r.text.split(correction.split(",")[0].capitalize())[0]  # a question was asked
    assert "Please answer yes or no" not in r.text and "par oui ou par non" not in r.text


@pytest.mark.parametrize(("said", "asked"), [
    ("ada ben cleo and dan no", True),  # the "yes" of "Ada, Ben and Cleo yes, Dan no" lost
    ("ada ben cleo dan and eve yes", True),
    ("ada ben and cleo yes dan and eve no", False),  # two verdicts: nothing hides
    ("ada ben and cleo no", False),  # a short list
    ("everyone no", False),
])
def test_one_verdict_for_a_long_list_is_asked_about(said: str, asked: bool) -> None:
    move = read(*VOTE, said)
    assert move is not None
    vocabulary = phase_vocabulary(phase(*VOTE))
    heard = doubt(move, Understood(move, None, 1.0, verdict=Verdict.AGREE, free=move,
                                   grammar=move),
                  grammar_text=said, free_text=said, vocabulary=vocabulary)
    assert (heard is Doubt.LIST) is asked
    # typed, nothing was lost on the way
    assert doubt(move, None, grammar_text=said, vocabulary=vocabulary) is Doubt.NONE
