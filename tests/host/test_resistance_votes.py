"""Resistance votes through the real Session: everyone's vote in one sentence, repeated back
with who is still to vote, mixed with votes from the phones, refused as a whole or taken
back as a whole; and no stray vote (a plain "yes" right after a proposal is nobody's)."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest

from tests.support import scripted
from tests.support.phone_votes import VotingPages
from tests.support.scripted import Run
from voice_host.games.resistance import CastVote
from voice_host.host.adapters import make_adapter, new_game
from voice_host.host.core.session import Session, SessionOptions
from voice_host.host.io.terminal import ScriptListener, TextOutput

PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve"]
COUNTDOWN = {"en": "Three, two, one, vote!", "fr": "Trois, deux, un, votez !"}


def options(**over: Any) -> dict[str, Any]:
    opts: dict[str, Any] = {"deal": "table", "lang": "en", "players": list(PLAYERS),
                            "double_agent": True, "first": "Ada", "votes": "together",
                            "seed": 7}
    opts.update(over)
    return opts


def run_script(tmp_path: Path, lines: list[str], *, confirm: str = "never",
               **opts: Any) -> Run:
    return scripted.run_script(tmp_path, "resistance", options(**opts), lines,
                               confirm=confirm)


def cast(run: Run) -> list[tuple[str, bool]]:
    """Every vote applied, in order, from the log."""
    return [(a["action"]["player"], a["action"]["approve"]) for a in run.events("action")
            if a["action"]["type"] == "CastVote"]


def after_countdown(run: Run, lang: str = "en") -> str:
    return run.text.split(COUNTDOWN[lang], 1)[1]


# --------------------------------------------------------------------------- one sentence


@pytest.mark.parametrize(("lang", "said", "yes", "no"), [
    ("en", "Ada, Ben and Cleo yes, Dan and Eve no", "Ada, Ben and Cleo", "Dan and Eve"),
    # typed, "yes:" is no speaker's name: a word of the phase's commands
    ("en", "yes: Ada, Ben, Eve; the rest no", "Ada, Ben and Eve", "Cleo and Dan"),
    ("en", "all yes except Dan and Cleo", "Ada, Ben and Eve", "Cleo and Dan"),
    ("en", "Dan no, the others yes", "Ada, Ben, Cleo and Eve", "Dan"),
    ("en", "Ada yes, Ben yes, Cleo no, Dan no, Eve yes", "Ada, Ben and Eve", "Cleo and Dan"),
    ("fr", "Ada, Ben et Cleo oui, Dan et Eve non", "Ada, Ben et Cleo", "Dan et Eve"),
    ("fr", "oui : Ada, Ben, Eve ; les autres non", "Ada, Ben et Eve", "Cleo et Dan"),
    ("fr", "tous oui sauf Dan et Cleo", "Ada, Ben et Eve", "Cleo et Dan"),
    ("fr", "Dan non, les autres oui", "Ada, Ben, Cleo et Eve", "Dan"),
])
def test_one_sentence_records_every_vote(tmp_path: Path, lang: str, said: str, yes: str,
                                         no: str) -> None:
    run = run_script(tmp_path, ["Ada and Ben" if lang == "en" else "Ada et Ben", said],
                     lang=lang)
    assert run.state.phase() == "mission"
    assert len(cast(run)) == 5
    after = after_countdown(run, lang)
    if lang == "en":
        assert f"Yes: {yes}. No: {no}." in after
        assert "Still to vote" not in after  # complete: only the result
    else:
        assert f"Oui : {yes}. Non : {no}." in after
        assert "Doivent encore voter" not in after


@pytest.mark.parametrize(("lang", "said", "result"), [
    ("en", "everyone yes", "The team is approved: everyone voted yes."),
    ("en", "unanimous no", "The team is rejected: everyone voted no."),
    ("fr", "tout le monde oui", "L'équipe est acceptée : tout le monde a voté oui."),
])
def test_everyone_votes_the_same(tmp_path: Path, lang: str, said: str, result: str) -> None:
    run = run_script(tmp_path, ["Ada and Ben" if lang == "en" else "Ada et Ben", said],
                     lang=lang)
    assert result in after_countdown(run, lang)
    assert len(cast(run)) == 5


@pytest.mark.parametrize(("lang", "rest"), [
    ("en", "the rest no"), ("en", "everyone else no"), ("en", "the others no"),
    ("en", "all the others no"), ("en", "and the rest reject"), ("en", "no for the others"),
    ("en", "the rest vote no"),
    ("fr", "les autres non"), ("fr", "tous les autres non"), ("fr", "le reste non"),
    ("fr", "le reste contre"), ("fr", "non pour les autres"), ("fr", "et les autres votent non"),
])
def test_the_rest_completes_a_vote_said_one_by_one(tmp_path: Path, lang: str,
                                                  rest: str) -> None:
    first = ["Ada and Ben", "Ben yes", "Cleo no"] if lang == "en" else \
        ["Ada et Ben", "Ben oui", "Cleo non"]
    run = run_script(tmp_path, [*first, rest], lang=lang)
    assert cast(run) == [("Ben", True), ("Cleo", False), ("Ada", False), ("Dan", False),
                         ("Eve", False)]
    assert run.state.phase() == "team"  # rejected: the next leader proposes
    said = "Yes: Ben. No: Ada, Cleo, Dan and Eve." if lang == "en" else \
        "Oui : Ben. Non : Ada, Cleo, Dan et Eve."
    assert said in after_countdown(run, lang)


@pytest.mark.parametrize(("lang", "rest"), [("en", "the rest approve"),
                                            ("fr", "les autres pour")])
def test_the_rest_approving_completes_it_the_other_way(tmp_path: Path, lang: str,
                                                       rest: str) -> None:
    first = ["Ada and Ben", "Ben yes", "Cleo no"] if lang == "en" else \
        ["Ada et Ben", "Ben oui", "Cleo non"]
    run = run_script(tmp_path, [*first, rest], lang=lang)
    assert sorted(cast(run)) == [("Ada", True), ("Ben", True), ("Cleo", False),
                                 ("Dan", True), ("Eve", True)]
    assert run.state.phase() == "mission"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_partial_sentence_is_repeated_back_with_who_is_still_to_vote(
        tmp_path: Path, lang: str) -> None:
    if lang == "en":
        script = ["Ada and Ben", "Ada and Ben yes, Cleo no", "Dan yes, Eve no"]
        echo = "Ada and Ben yes, Cleo no. Still to vote: Dan and Eve. Dan?"
        result = "The team is approved, 3 to 2. Yes: Ada, Ben and Dan. No: Cleo and Eve."
        last_echo = "Dan yes, Eve no."
    else:
        script = ["Ada et Ben", "Ada et Ben oui, Cleo non", "Dan oui, Eve non"]
        echo = "Ada et Ben oui, Cleo non. Doivent encore voter : Dan et Eve. Dan ?"
        result = "L'équipe est acceptée, 3 contre 2. Oui : Ada, Ben et Dan. Non : Cleo et Eve."
        last_echo = "Dan oui, Eve non."
    run = run_script(tmp_path, script, lang=lang)
    after = after_countdown(run, lang)
    assert echo in after
    assert result in after
    assert last_echo not in after  # the sentence that completes the vote: the result only
    assert cast(run) == [("Ada", True), ("Ben", True), ("Cleo", False), ("Dan", True),
                         ("Eve", False)]


def test_the_last_voter_is_asked_by_name(tmp_path: Path) -> None:
    run = run_script(tmp_path, ["Ada and Ben", "Ada, Ben and Cleo yes, Dan no", "no"])
    assert "Ada, Ben and Cleo yes, Dan no. Eve, your vote?" in run.text
    assert cast(run)[-1] == ("Eve", False)


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(("lang", "said", "reason"), [
    ("en", "Ada and Ben yes, Ben no",
     "Ben cannot vote both yes and no, so I took none of these votes."),
    ("fr", "Ada et Ben oui, Ben non",
     "Ben ne peut pas voter à la fois oui et non : je n'ai pris aucun de ces votes."),
])
def test_a_sentence_giving_someone_both_votes_takes_nothing(
        tmp_path: Path, lang: str, said: str, reason: str) -> None:
    run = run_script(tmp_path, ["Ada and Ben" if lang == "en" else "Ada et Ben", said],
                     lang=lang)
    assert run.state.votes == {}
    assert cast(run) == []
    assert reason in run.text


def test_a_named_vote_against_one_already_taken_refuses_the_whole_sentence(
        tmp_path: Path) -> None:
    run = run_script(tmp_path, ["Ada and Ben", "Cleo no", "Ada and Cleo yes, Dan no",
                                "Ada and Cleo no"])
    assert "Cleo already voted no, so I took none of these votes." in run.text
    # repeating a vote already taken is no conflict: Cleo is left out, Ada is taken
    assert run.state.votes == {"Cleo": False, "Ada": False}
    assert cast(run) == [("Cleo", False), ("Ada", False)]


def test_votes_already_in_are_said_to_be_in(tmp_path: Path) -> None:
    run = run_script(tmp_path, ["Ada and Ben", "Ada and Ben yes", "Ben and Ada yes"])
    assert "Those votes are already in. Still to vote: Cleo, Dan and Eve." in run.text
    assert cast(run) == [("Ada", True), ("Ben", True)]


def test_count_mode_asks_the_leader_for_the_count_instead(tmp_path: Path) -> None:
    run = run_script(tmp_path, ["Ada and Ben", "Ada and Ben yes, Cleo no"], votes="count")
    assert "In this game the leader tells me how many voted yes." in run.text
    assert run.state.votes == {}


# --------------------------------------------------------------------------- undo


@pytest.mark.parametrize("confirm", ["never", "auto"])
def test_undo_takes_back_the_whole_sentence(tmp_path: Path, confirm: str) -> None:
    answer = ["yes"] if confirm == "auto" else []
    run = run_script(tmp_path, ["Ada and Ben", "Ada, Ben and Cleo yes", "undo", *answer,
                                "status"], confirm=confirm)
    assert run.state.votes == {}
    assert "Done: the last move is undone." in run.text
    undone = run.text.split("Done: the last move is undone.", 1)[1]
    # the vote is asked for again from the start, the sentence's votes all gone
    assert "votes?" in undone.lower()  # said in full once, now in short
    assert "Still to vote: Ada, Ben, Cleo, Dan and Eve." in undone
    assert len(run.session.undo_stack) == 1  # only the proposal is left to take back
    # the move taken back, in words (for undo to say what it undid): the whole sentence
    described = run.session.adapter.describe(run.state, CastVote("Ada", True))
    assert described == "the votes Ada, Ben and Cleo yes"


@pytest.mark.parametrize(("answer", "taken"), [("no", {}), ("yes", {"Ada": True, "Ben": True,
                                                                   "Cleo": False})])
def test_a_doubtful_sentence_is_confirmed_as_a_whole(tmp_path: Path, answer: str,
                                                     taken: dict[str, bool]) -> None:
    run = run_script(tmp_path, ["Ada and Ben", "Ada and Benn yes, Cleo no", answer],
                     confirm="auto")
    assert "I heard: the votes Ada and Ben yes, Cleo no. Is that right?" in run.text
    assert run.state.votes == taken
    if answer == "no":
        assert "Not done: the votes Ada and Ben yes, Cleo no." in run.text
    else:
        assert "Ada and Ben yes, Cleo no. Still to vote: Dan and Eve. Dan?" in run.text


# --------------------------------------------------------------------------- no stray votes


def dan_leads_mission_2(confirm: str) -> list[str]:
    """Cleo leads mission 1 (approved, clean), so Dan leads mission 2 (a team of 3); with
    --confirm auto the sabotage count is confirmed."""
    return ["Cleo: Ada and Ben", "everyone yes", "no sabotage",
            *(["yes"] if confirm == "auto" else [])]


@pytest.mark.parametrize("confirm", ["never", "auto"])
def test_a_plain_yes_right_after_a_proposal_is_not_a_vote(tmp_path: Path,
                                                          confirm: str) -> None:
    """The reported sequence: after "Dan: my team is Ada, Ben and Eve" (said plainly, so
    applied without a question), a "yes" was recorded as Dan's vote."""
    run = run_script(tmp_path, [*dan_leads_mission_2(confirm), "Dan: my team is Ada, Ben and Eve",
                                "yes", "status"], first="Cleo", confirm=confirm)
    s = run.state
    assert s.phase() == "vote" and s.proposed_team == ("Ada", "Ben", "Eve")
    assert s.votes == {}
    lines = run.text.splitlines()
    asked = max(i for i, line in enumerate(lines) if "Dan" in line and "ission 2" in line
                and "propose" not in line)
    proposal = "\n".join(lines[asked:])
    assert "Is that right?" not in proposal  # said plainly: no yes/no question
    assert ("Whose vote is that? Say the name with it, for example: Dan and Eve yes, "
            "Ada no.") in run.text
    assert "Still to vote: Dan, Eve, Ada, Ben and Cleo." in run.text  # the status


def test_a_doubtful_proposal_is_confirmed_and_the_yes_answers_the_question(
        tmp_path: Path) -> None:
    run = run_script(tmp_path, [*dan_leads_mission_2("auto"),
                                "Dan: maybe Ada, Ben and Eve", "yes", "yes", "Dan yes"],
                     first="Cleo", confirm="auto")
    s = run.state
    assert "I heard: Dan proposes Ada, Ben and Eve for mission 2. Is that right?" in run.text
    assert s.proposed_team == ("Ada", "Ben", "Eve")
    # the first yes confirmed the team; the second, with the vote open but nobody named,
    # is nobody's; the named one is Dan's
    assert s.votes == {"Dan": True}
    assert run.text.count("Whose vote is that?") == 1


def test_a_plain_yes_is_the_vote_of_the_player_asked_by_name(tmp_path: Path) -> None:
    run = run_script(tmp_path, ["Ada and Ben", "Ada yes", "no"])
    assert "Ada yes. Still to vote: Ben, Cleo, Dan and Eve. Ben?" in run.text
    assert run.state.votes == {"Ada": True, "Ben": False}


def test_no_vote_is_taken_before_the_vote_is_open(tmp_path: Path) -> None:
    run = run_script(tmp_path, ["Ada yes", "everyone yes", "Ada and Ben", "status"])
    # in the team phase, vote sentences are not votes (nor a team)
    assert cast(run) == []
    assert run.state.phase() == "vote" and run.state.votes == {}


# --------------------------------------------------------------------------- phones


def with_phones(tmp_path: Path, phone_votes: list[CastVote], lines: list[str]
                ) -> tuple[Session, str]:
    opts = options()
    script = tmp_path / "s.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = io.StringIO()
    session = Session(adapter=make_adapter("resistance", {**opts, "companion": True}),
                      state=new_game("resistance", opts), rng=random.Random(7),
                      output=TextOutput(out), listener=ScriptListener(script),
                      options=SessionOptions(confirm="never"),
                      companion=VotingPages(phone_votes))
    session.run(fresh=True)
    return session, out.getvalue()


def test_the_rest_are_those_who_have_not_voted_on_their_phones(tmp_path: Path) -> None:
    session, text = with_phones(tmp_path, [CastVote("Dan", False)],
                                ["Ada and Ben", "Ada and Ben yes, the others no"])
    # Dan's phone vote stands; "the others" are Cleo and Eve
    assert "The team is rejected, 2 to 3. Yes: Ada and Ben. No: Cleo, Dan and Eve." in text
    assert session.state.phase() == "team"  # rejected


def test_everyone_leaves_a_phone_vote_as_it_was(tmp_path: Path) -> None:
    session, text = with_phones(tmp_path, [CastVote("Dan", False), CastVote("Eve", True)],
                                ["Ada and Ben", "Ada yes", "everyone yes"])
    assert "Still to vote: Ada, Ben and Cleo. Ada?" in text  # the phones' votes, unsaid
    assert "Ada yes. Still to vote: Ben and Cleo. Ben?" in text
    assert "The team is approved, 4 to 1. Yes: Ada, Ben, Cleo and Eve. No: Dan." in text


def test_a_spoken_vote_against_a_phone_vote_takes_nothing(tmp_path: Path) -> None:
    session, text = with_phones(tmp_path, [CastVote("Dan", False)],
                                ["Ada and Ben", "Ada, Ben and Dan yes", "status"])
    assert "Dan already voted no, so I took none of these votes." in text
    assert session.state.votes == {"Dan": False}
    # the same vote as the phone's is no conflict: the others are taken
    session, text = with_phones(tmp_path, [CastVote("Dan", False)],
                                ["Ada and Ben", "Ada yes, Dan no", "status"])
    assert session.state.votes == {"Dan": False, "Ada": True}
    assert "Ada yes. Still to vote: Ben, Cleo and Eve. Ben?" in text


# --------------------------------------------------------------------------- demo bots


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_demo_players_vote_most_rounds_in_one_sentence(lang: str) -> None:
    """The demo's players vote as a table would: most rounds in one sentence by one player
    (the leader, right after the count-in), the rest by name or one by one; every sentence
    is understood and legal."""
    from voice_host.games.resistance import ResistanceState
    from voice_host.host.adapters.resistance import Adapter, bots
    from voice_host.intent import load_grammar

    names = ["Hannah", "Thomas", "Sophie", "Oliver", "Emma"]
    grammar = load_grammar("resistance", lang)
    rounds: list[list[str]] = []
    for seed in range(12):
        opts = options(players=names, first=None, seed=seed, lang=lang)
        state = new_game("resistance", opts)
        assert isinstance(state, ResistanceState)
        adapter = Adapter(opts)
        rng = random.Random(seed)
        state.apply(adapter.chance(state, rng))
        adapter.host_step(state)
        while not state.is_terminal():
            prompt = adapter.prompt(state)
            assert prompt is not None
            speaker, text = bots.bot_utterance(adapter, state, prompt, rng)
            if prompt.phase == "vote":
                if not state.votes:
                    rounds.append([])
                    assert speaker == state.leader
                rounds[-1].append(text)
            match = grammar.phase(prompt.phase, adapter.slot_values(state)).matcher.match(
                text, speaker=speaker)
            assert match.best is not None and not match.ambiguous, text
            decision = adapter.interpret(state, match.best, speaker)
            assert decision.action is not None, text
            for action in (decision.action, *decision.then):
                state.apply(action)
    assert len(rounds) >= 40
    whole = [r[0] for r in rounds if len(r) == 1]
    assert len(whole) / len(rounds) >= 0.6
    every, except_, split = {"en": ("everyone", "except", " no"),
                             "fr": ("tout le monde", "sauf", " non")}[lang]
    assert any("except" not in t and "sauf" not in t and (every in t or "all" in t
                                                          or "tous" in t) for t in whole)
    assert any(except_ in t for t in whole)
    assert any(split in t and except_ not in t for t in whole)


@pytest.mark.parametrize("answer", ["no", "yes"])
def test_a_name_said_twice_is_a_doubtful_reading_and_is_asked_first(
        tmp_path: Path, answer: str) -> None:
    """A recognizer looping over the names ("no Ben, Ada, Dan and Eve, no Ben, Ada, Cleo"
    for "yes Ada, Dan and Eve, no Ben and Cleo") reads as a legal sentence; nobody names a
    player twice, so the host asks before taking it, even when it is sure of the words."""
    run = run_script(tmp_path, ["Ada and Ben", "no Ben, Ada, Dan and Eve, no Ben, Ada, Cleo",
                                answer], confirm="auto")
    assert "I heard: the votes Ben, Ada, Dan, Eve and Cleo no. Is that right?" in run.text
    if answer == "no":
        assert run.state.votes == {} and cast(run) == []
    else:
        assert cast(run) == [(p, False) for p in ("Ben", "Ada", "Dan", "Eve", "Cleo")]
        assert run.state.phase() == "team"  # rejected: the next leader proposes


def test_demo_players_say_the_same_votes_again_when_asked_again() -> None:
    """The thumbs shown on the count-in are drawn once per vote: a sentence the host did not
    catch is said again with the same votes (perhaps in other words)."""
    from voice_host.games.resistance import ResistanceState
    from voice_host.host.adapters.resistance import Adapter, bots
    from voice_host.intent import load_grammar

    opts = options(players=["Hannah", "Thomas", "Sophie", "Oliver", "Emma"], first=None,
                   seed=3)
    state = new_game("resistance", opts)
    assert isinstance(state, ResistanceState)
    adapter = Adapter(opts)
    rng = random.Random(3)
    state.apply(adapter.chance(state, rng))
    adapter.host_step(state)
    team = adapter.prompt(state)
    assert team is not None
    _, text = bots.bot_utterance(adapter, state, team, rng)
    grammar = load_grammar("resistance", "en")
    match = grammar.phase("team", adapter.slot_values(state)).matcher.match(
        text, speaker=state.leader)
    assert match.best is not None
    decision = adapter.interpret(state, match.best, state.leader)
    assert decision.action is not None
    state.apply(decision.action)
    vote = adapter.prompt(state)
    assert vote is not None and vote.phase == "vote"
    matcher = grammar.phase("vote", adapter.slot_values(state)).matcher
    meant = set()
    for _ in range(12):
        speaker, said = bots.bot_utterance(adapter, state, vote, rng)
        got = matcher.match(said, speaker=speaker).best
        assert got is not None
        decision = adapter.interpret(state, got, speaker)
        assert decision.action is not None
        meant.add(tuple(sorted((a.player, a.approve) for a in (decision.action, *decision.then)
                               if isinstance(a, CastVote))))
    # whole-table sentences and partial ones, but never two different votes for a player
    given: dict[str, bool] = {}
    for votes_said in meant:
        for player, approve in votes_said:
            assert given.setdefault(player, approve) is approve


# --------------------------------------------------------------------------- two readings


class Heard2:
    """A listener handing over prepared utterances (with the recognizer's alternatives),
    then the end of input."""

    def __init__(self, heard: list[Any]) -> None:
        self.heard = heard

    def listen(self, request: Any) -> Any:
        from voice_host.host.core.values import Heard, HeardKind
        return self.heard.pop(0) if self.heard else Heard(HeardKind.END)

    def close(self) -> None:
        pass


@pytest.mark.parametrize(("alternative", "asked"), [
    ("ada and ben yes cleo no dan no eve no", False),  # the same five votes, grouped apart
    ("ada and ben yes cleo no dan no", True),           # Eve's vote differs: which was it?
])
def test_two_readings_of_the_same_votes_are_one_reading(tmp_path: Path, alternative: str,
                                                        asked: bool) -> None:
    from voice_host.host.core.values import Heard, HeardKind
    said = "ada and ben yes cleo dan and eve no"
    heard = [Heard(HeardKind.SPEECH, text="ada and ben", spoken=True),
             Heard(HeardKind.SPEECH, text=said, spoken=True, speaker="Ada",
                   alternatives=(alternative,))]
    opts = options()
    out = io.StringIO()
    session = Session(adapter=make_adapter("resistance", opts), state=new_game(
        "resistance", opts), rng=random.Random(7), output=TextOutput(out),
        listener=Heard2(heard), options=SessionOptions(confirm="never"), game_options=opts)
    session.run(fresh=True)
    text = out.getvalue()
    assert ("Did you mean" in text) is asked
    # taken as one reading: the five votes are in, and the team is rejected
    assert ("The team is rejected, 2 to 3." in text) is not asked
