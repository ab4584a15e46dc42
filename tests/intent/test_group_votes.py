"""Everyone's vote in one sentence (the Resistance ``votes`` intent), English and French: the
matcher's reading, what it means as votes, and what the recognizers are told."""

from __future__ import annotations

from typing import Any

import pytest

from voice_host.games.resistance import CastVote, ProposeTeam, ResistanceState, Setup
from voice_host.host.adapters.resistance import votes
from voice_host.host.core.understanding import decoder_prompt
from voice_host.intent import PhaseGrammar, SlotValues, load_grammar

EN = ("Ada", "Ben", "Cleo", "Dan", "Eve")
FR = ("Ada", "Ben", "Cléo", "Dan", "Ève")


def vote_phase(lang: str) -> PhaseGrammar:
    return load_grammar("resistance", lang).phase("vote", SlotValues(
        players=EN if lang == "en" else FR))


def reading(lang: str, text: str) -> tuple[str, dict[str, Any]] | None:
    result = vote_phase(lang).matcher.match(text)
    assert not result.ambiguous, result
    best = result.best
    return (best.intent, dict(best.slots)) if best else None


CASES = [
    ("en", "Ada and Ben yes, Cleo no",
     {"p1": ("Ada", "Ben"), "v1": "yes", "p2": ("Cleo",), "v2": "no"}),
    ("en", "Ada, Ben and Eve yes; Cleo and Dan no",
     {"p1": ("Ada", "Ben", "Eve"), "v1": "yes", "p2": ("Cleo", "Dan"), "v2": "no"}),
    ("en", "Ada says yes, Ben says no",
     {"p1": ("Ada",), "v1": "yes", "p2": ("Ben",), "v2": "no"}),
    ("en", "Ada yes, Ben no, Cleo yes",
     {"p1": ("Ada",), "v1": "yes", "p2": ("Ben",), "v2": "no", "p3": ("Cleo",), "v3": "yes"}),
    ("en", "Ada yes, Ben yes, Cleo no, Dan no, Eve yes",
     {"p1": ("Ada",), "v1": "yes", "p2": ("Ben",), "v2": "yes", "p3": ("Cleo",), "v3": "no",
      "p4": "Dan", "v4": "no", "p5": "Eve", "v5": "yes"}),
    ("en", "Ben votes yes", {"p1": ("Ben",), "v1": "yes"}),
    ("en", "Ada and Ben yes", {"p1": ("Ada", "Ben"), "v1": "yes"}),
    ("en", "everyone yes", {"va": "yes"}),
    ("en", "all yes", {"va": "yes"}),
    ("en", "unanimous yes", {"va": "yes"}),
    ("en", "everybody votes no", {"va": "no"}),
    ("en", "all yes except Dan", {"va": "yes", "px": ("Dan",)}),
    ("en", "everyone yes except Dan and Eve", {"va": "yes", "px": ("Dan", "Eve")}),
    ("en", "all no but Ben who votes yes", {"va": "no", "px": ("Ben",), "vx": "yes"}),
    ("en", "yes: Ada, Ben, Eve; the rest no",
     {"v1": "yes", "p1": ("Ada", "Ben", "Eve"), "vr": "no"}),
    ("en", "Ada yes, the others no", {"p1": ("Ada",), "v1": "yes", "vr": "no"}),
    ("en", "Ada and Ben yes, Cleo no, the rest yes",
     {"p1": ("Ada", "Ben"), "v1": "yes", "p2": ("Cleo",), "v2": "no", "vr": "yes"}),
    ("en", "yes Ada and Ben, no Cleo",
     {"v1": "yes", "p1": ("Ada", "Ben"), "v2": "no", "p2": ("Cleo",)}),
    ("fr", "Ada et Ben oui, Cléo non",
     {"p1": ("Ada", "Ben"), "v1": "yes", "p2": ("Cléo",), "v2": "no"}),
    ("fr", "Ada, Ben et Ève oui ; Cléo et Dan non",
     {"p1": ("Ada", "Ben", "Ève"), "v1": "yes", "p2": ("Cléo", "Dan"), "v2": "no"}),
    ("fr", "Ada oui, Ben non, Cléo oui, Dan non",
     {"p1": ("Ada",), "v1": "yes", "p2": ("Ben",), "v2": "no", "p3": ("Cléo",), "v3": "yes",
      "p4": "Dan", "v4": "no"}),
    ("fr", "Ben vote oui", {"p1": ("Ben",), "v1": "yes"}),
    ("fr", "Ada et Ben oui", {"p1": ("Ada", "Ben"), "v1": "yes"}),
    ("fr", "tout le monde oui", {"va": "yes"}),
    ("fr", "tous oui", {"va": "yes"}),
    ("fr", "à l'unanimité oui", {"va": "yes"}),
    ("fr", "on est tous pour", {"va": "yes"}),
    ("fr", "tous oui sauf Dan", {"va": "yes", "px": ("Dan",)}),
    ("fr", "tous non sauf Ben qui vote oui", {"va": "no", "px": ("Ben",), "vx": "yes"}),
    ("fr", "oui : Ada, Ben, Ève ; les autres non",
     {"v1": "yes", "p1": ("Ada", "Ben", "Ève"), "vr": "no"}),
    ("fr", "Ada oui, les autres non", {"p1": ("Ada",), "v1": "yes", "vr": "no"}),
    ("fr", "pour : Ada et Ben ; contre : Cléo et Dan",
     {"v1": "yes", "p1": ("Ada", "Ben"), "v2": "no", "p2": ("Cléo", "Dan")}),
]


@pytest.mark.parametrize(("lang", "text", "slots"), CASES, ids=[c[1] for c in CASES])
def test_a_sentence_of_votes_is_read_with_its_groups(lang: str, text: str,
                                                     slots: dict[str, Any]) -> None:
    assert reading(lang, text) == ("votes", slots)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "yes"), ("en", "I vote yes"), ("en", "no for me"), ("en", "yes for me"),
    ("fr", "oui"), ("fr", "je vote non"), ("fr", "oui pour moi"), ("fr", "pouce en l'air"),
])
def test_a_vote_that_names_nobody_is_still_one_vote(lang: str, text: str) -> None:
    got = reading(lang, text)
    assert got is not None and got[0] == "vote"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Sophie is definitely a spy"), ("en", "Ada and Ben are lying"),
    ("en", "everyone is a spy except Dan"), ("fr", "Ada et Ben sont des espions"),
])
def test_table_talk_about_players_is_no_vote(lang: str, text: str) -> None:
    assert reading(lang, text) is None


# --------------------------------------------------------------------------- meaning


def voting() -> ResistanceState:
    state = ResistanceState.new(list(EN))
    state.apply(Setup(roles=None, first_leader="Ada"))
    state.apply(ProposeTeam("Ada", ("Ada", "Ben")))
    return state


def read(state: ResistanceState, text: str) -> list[tuple[str, bool]] | votes.Problem:
    got = reading("en", text)
    assert got is not None and got[0] == "votes"
    order = [p for p in EN if p not in state.votes]
    return votes.read(state, got[1], order)


@pytest.mark.parametrize(("text", "cast"), [
    ("Ada and Ben yes, Cleo no", [("Ada", True), ("Ben", True), ("Cleo", False)]),
    ("everyone yes", [(p, True) for p in EN]),
    ("all yes except Dan", [("Dan", False), ("Ada", True), ("Ben", True), ("Cleo", True),
                            ("Eve", True)]),
    ("all no but Ben who votes no", [("Ben", False), ("Ada", False), ("Cleo", False),
                                     ("Dan", False), ("Eve", False)]),
    ("yes: Ada, Ben, Eve; the rest no", [("Ada", True), ("Ben", True), ("Eve", True),
                                         ("Cleo", False), ("Dan", False)]),
    ("Ada yes, the others no", [("Ada", True), ("Ben", False), ("Cleo", False),
                                ("Dan", False), ("Eve", False)]),
])
def test_what_a_sentence_of_votes_gives(text: str, cast: list[tuple[str, bool]]) -> None:
    assert read(voting(), text) == cast


def test_the_rest_and_everyone_are_those_who_have_not_voted() -> None:
    state = voting()
    state.apply(CastVote("Dan", False))  # on a phone, say
    assert read(state, "Ada yes, the rest yes") == [("Ada", True), ("Ben", True),
                                                   ("Cleo", True), ("Eve", True)]
    assert read(state, "everyone yes") == [("Ada", True), ("Ben", True), ("Cleo", True),
                                          ("Eve", True)]
    # naming Dan with the vote he gave is no conflict; he is left out
    assert read(state, "Ada yes, Dan no") == [("Ada", True)]


def test_sentences_that_cannot_be_taken_say_why() -> None:
    state = voting()
    assert read(state, "Ada and Ben yes, Ben no") == votes.Problem("votes_both",
                                                                   {"player": "Ben"})
    state.apply(CastVote("Dan", False))
    assert read(state, "Ada and Dan yes") == votes.Problem("votes_already",
                                                           {"player": "Dan", "vote": False})
    assert read(state, "Dan no") == votes.Problem(
        "votes_nothing_new", {"players": ("Ada", "Ben", "Cleo", "Eve")})


# --------------------------------------------------------------------------- recognizers


@pytest.mark.parametrize(("lang", "example"), [
    ("en", "Ada and Ben yes, Cleo no."), ("fr", "Ada et Ben oui, Cléo non.")])
def test_the_whisper_prompt_shows_a_whole_table_vote(lang: str, example: str) -> None:
    assert example in decoder_prompt(vote_phase(lang))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_recognizer_grammar_holds_the_vote_sentences(lang: str) -> None:
    jsgf = vote_phase(lang).jsgf()
    assert jsgf is not None and "<i_votes> = " in jsgf
    body = jsgf.split("<i_votes> = ", 1)[1].split(";\n", 1)[0]
    for word in (("except", "rest", "everyone") if lang == "en"
                 else ("sauf", "autres", "monde")):
        assert word in body
