"""A long spoken list that the decoder's prompt (the players' names, last) turned into a list
of names: both readings lost the "no" of "Sam, Ingrid, Olivia and Nina no; Chloe, Grace and
Amelie yes", which the decode without the prompt keeps. The host asks rather than taking
seven yes. Exact cases on made-up transcripts and log-probabilities: the speech layer's
decode without the prompt (``search.with_unprompted``, the fake decoder), the doubt it
raises (``agreement.doubt``), the policy, and the same through the real Session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import scripted
from tests.support.fake_decoder import TUNING, TableDecoder, say
from tests.support.ici_londres_table import ListListener
from voice_host.games.resistance import CastVote
from voice_host.host.core.adapter import Decision
from voice_host.host.core.agreement import Doubt, doubt, phase_vocabulary
from voice_host.host.core.confirm import Why, why_confirm
from voice_host.host.core.values import Heard, HeardKind
from voice_host.intent import SlotValues, load_grammar
from voice_host.speech.decision import GrammarReading, Judgement, Rejection, SearchTuning
from voice_host.speech.search import with_unprompted

SEVEN = ("Grace", "Amelie", "Sam", "Ingrid", "Chloe", "Olivia", "Nina")
ALL_YES = "sam ingrid olivia and nina chloe grace and amelie yes"


def vote_phase(players: tuple[str, ...] = SEVEN):  # type: ignore[no-untyped-def]
    return load_grammar("resistance", "en").phase("vote", SlotValues(players=players))


@pytest.mark.parametrize(("unprompted", "expected"), [
    ("simon kurt olivia and 9 no chloe grace and amelia", Doubt.PROMPT),  # holds the "no"
    ("simon kurt olivia and nina no chloe grace and amelia yes", Doubt.PROMPT),
    # names written otherwise, a number, no other vote: nothing the move lacks
    ("simon kurt olivia and 9 chloe grace and amelia yes", Doubt.NONE),
    (ALL_YES, Doubt.NONE),
    ("", Doubt.NONE),  # not decoded (a short reading)
])
def test_a_vote_the_decode_without_the_prompt_holds_is_a_doubt(unprompted: str,
                                                                expected: Doubt) -> None:
    pg = vote_phase()
    move = pg.matcher.match(ALL_YES).best
    assert move is not None and move.slots["v1"] == "yes" and len(move.slots["p1"]) == 7
    assert doubt(move, None, vocabulary=phase_vocabulary(pg),
                 unprompted_text=unprompted) is expected


def test_a_mixed_list_heard_whole_is_no_doubt() -> None:
    pg = vote_phase()
    said = "sam ingrid olivia and nina no chloe grace and amelie yes"
    move = pg.matcher.match(said).best
    assert move is not None and move.slots["v2"] == "yes"
    assert doubt(move, None, vocabulary=phase_vocabulary(pg),
                 unprompted_text="simon kurt olivia and nina no chloe grace and amelia yes"
                 ) is Doubt.NONE


def test_the_policy_asks_about_any_move_the_prompt_may_have_changed() -> None:
    proposal = Decision(action=CastVote("Ada", True))  # no irreversible move: undo exists
    assert why_confirm(proposal, confidence=1.0, plain=True, doubt=Doubt.PROMPT) \
        is Why.DISAGREE
    assert why_confirm(proposal, confidence=1.0, plain=True, doubt=Doubt.PROMPT,
                       mode="never") is Why.NONE


# --------------------------------------------------------------------------- speech layer


def judged(reading: str, *, accepted: bool = True, free_logp: float = -0.3,
           reason: Rejection = Rejection.NONE) -> Judgement:
    sentence = GrammarReading(reading, 0.0, -0.3, len(reading.split()) + 1, 1.0)
    return Judgement(reading, free_logp, False, sentence, accepted,
                     reason if not accepted else Rejection.NONE, 1.0 if accepted else 0.0)


def unprompted_decoder() -> TableDecoder:
    """Without the prompt the decoder writes "i vote no"."""
    return TableDecoder(say(("i", 6), ("vote", 6), ("no", 6), ("<end>", 6)))


def test_a_long_reading_is_decoded_again_without_the_prompt() -> None:
    decoder = unprompted_decoder()
    got = with_unprompted(decoder, judged("i vote yes i vote yes"), TUNING, cap=12)
    assert got.unprompted_text == "i vote no" and decoder.calls == 1
    assert got.figures()["unprompted"] == "i vote no"
    assert Judgement.from_figures(got.figures()).unprompted_text == "i vote no"
    # a sure free transcript that would be acted on, its grammar sentence refused
    free = with_unprompted(unprompted_decoder(), judged(
        "i vote yes i vote yes", accepted=False, reason=Rejection.LOW_MARGIN), TUNING, cap=12)
    assert free.unprompted_text == "i vote no"


@pytest.mark.parametrize(("judgement", "tuning"), [
    (judged("i vote yes"), TUNING),  # short: what the prompt is for
    (judged("i vote yes i vote yes", accepted=False, free_logp=-1.5,
            reason=Rejection.LOW_MARGIN), TUNING),  # nothing sure to act on
    (judged("i vote yes i vote yes", accepted=False, reason=Rejection.TALK), TUNING),
    (judged("i vote yes i vote yes"), SearchTuning(unprompted_words=0)),  # off
])
def test_a_short_or_unsure_reading_costs_no_further_decode(judgement: Judgement,
                                                           tuning: SearchTuning) -> None:
    decoder = unprompted_decoder()
    got = with_unprompted(decoder, judgement, tuning, cap=12)
    assert got.unprompted_text == "" and decoder.calls == 0


# --------------------------------------------------------------------------- in a game


def heard_all_yes(unprompted: str) -> Heard:
    reading = GrammarReading(ALL_YES, margin=0.0, score=-0.3, steps=22, similarity=1.0)
    judgement = Judgement(ALL_YES, -0.31, False, reading, True, Rejection.NONE, 1.0,
                          unprompted_text=unprompted)
    return Heard(HeardKind.SPEECH, text=ALL_YES, speaker="Sam", spoken=True, confidence=1.0,
                 closed_grammar=True, judgement=judgement)


def play(tmp_path: Path, lines: list[str | Heard]) -> scripted.Run:
    opts = {"deal": "table", "lang": "en", "players": list(SEVEN), "double_agent": True,
            "first": "Sam", "votes": "together", "seed": 7}
    return scripted.run_script(tmp_path, "resistance", opts, [], confirm="auto",
                               listener=ListListener(lines))


def votes_cast(r: scripted.Run) -> list[tuple[str, bool]]:
    return [(a["action"]["player"], a["action"]["approve"]) for a in r.events("action")
            if a["action"]["type"] == "CastVote"]


def test_the_list_without_its_no_is_asked_about_and_not_taken(tmp_path: Path) -> None:
    r = play(tmp_path, ["Sam and Ingrid",
                        heard_all_yes("simon kurt olivia and 9 no chloe grace and amelia"),
                        "no"])
    assert "Is that right?" in r.text
    assert [e["why"] for e in r.events("confirmation")] == ["disagree"]
    assert votes_cast(r) == []


def test_the_list_the_decode_without_the_prompt_agrees_with_has_no_prompt_doubt(
        tmp_path: Path) -> None:
    # seven names with one verdict is still asked about once (a verdict dropped between two
    # groups hides there, Doubt.LIST); a yes takes all seven votes
    r = play(tmp_path, ["Sam and Ingrid", heard_all_yes(ALL_YES), "yes"])
    assert [e["why"] for e in r.events("confirmation")] == ["disagree"]
    assert len(votes_cast(r)) == 7 and all(yes for _, yes in votes_cast(r))
