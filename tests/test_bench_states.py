"""The recognition benchmark decides as the host does in the game each command is said in
(``benchmarks/bench_states.py``): a real state per (Setup, phase) of its plans, the host's
move key and prior there, and "Did you mean X, or Y?" only about readings that make
different moves; its re-decision from saved outcomes decides the same way."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_recognition as bench  # noqa: E402
import bench_states as states  # noqa: E402

from voice_host.games.codenames_words import WORD_LISTS  # noqa: E402
from voice_host.host.core.choice import would_ask  # noqa: E402
from voice_host.host.core.commands import UNIVERSAL  # noqa: E402
from voice_host.host.core.understanding import understand  # noqa: E402
from voice_host.host.core.values import Heard, HeardKind  # noqa: E402
from voice_host.intent import IntentMatch, MatchResult  # noqa: E402
from voice_host.speech.decision import GrammarReading, Judgement, Rejection  # noqa: E402

NO_MOVE = {
    ("resistance", "count"): {"vote", "votes"},
    ("codenames", "clue"): {"clue_no_number", "clue_two_words", "clue_number_word"},
}
"""Commands of a phase's grammar that the host answers instead of playing, by design: a
player's own vote in count mode ("the leader tells me how many voted yes"), a clue said
wrong (what is wrong with it)."""


def _plan(lang: str) -> list[bench.Case]:
    """The quick plan's utterances in ``lang`` (report split), one case each."""
    cases = bench.build_cases(bench.QUICK, split="report", seed=6, languages=(lang,))
    return list({c.ident: c for c in cases}.values())


PLANS = {lang: _plan(lang) for lang in ("en", "fr")}


def _where(lang: str) -> Iterator[tuple[bench.Setup, str]]:
    yield from dict.fromkeys((c.setup, c.phase) for c in PLANS[lang])


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_setup_and_phase_of_the_plan_gets_a_state_in_that_phase(lang: str) -> None:
    phases = bench.game_phases(lang)
    seen = set()
    for setup, phase in _where(lang):
        where = states.listening(setup, phase)
        seen.add((setup.game, phase))
        assert where.speaker == setup.speaker
        assert where.speaker in where.prompt.expected
        # the engine lets the speaker move there (the leader, a receiver, the spymaster...)
        assert where.state.legal_actions(where.speaker), (setup.game, phase)
        if where.confirming:  # the answer to the host's question about a clue
            assert (setup.game, phase) == ("codenames", "answer")
            assert where.prompt.phase == where.state.phase() == "clue"
        else:
            assert where.prompt.phase == phase
            assert where.state.phase() in (phase, "vote")  # count mode counts votes
        assert states.listening(setup, phase) is where  # built once
    assert seen == {(g, p) for g, ps in phases.items() for p in ps}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_plan_s_commands_are_moves_of_the_speaker_there(lang: str) -> None:
    checked = set()
    for case in PLANS[lang]:
        where = states.listening(case.setup, case.phase)
        if case.intent is None or case.intent in UNIVERSAL or where.confirming \
                or case.intent in NO_MOVE.get((case.setup.game, case.phase), ()):
            continue
        match = bench.expected_reading(case)
        decision = where.adapter.interpret(where.state, match, where.speaker)
        assert decision.action is not None, (case.phase, case.text, decision.reply)
        named = {str(v) for value in match.slots.values()
                 for v in (value if isinstance(value, tuple) else (value,))}
        actors = {getattr(a, "player", None) for a in (decision.action, *decision.then)}
        if case.intent == "votes":  # the table's votes ("everyone yes", "the rest no")
            named |= set(where.state.players)
        assert actors <= {where.speaker} | named, (case.text, actors)
        checked.add((case.setup.game, case.phase))
    assert len(checked) >= 9  # every phase with moves of its own, but few French samples


def _ici_londres(speaker: str = "Hugo") -> states.Listening:
    setup = bench.Setup("ici-londres", ("Sophie", "Hugo", "Marc", "Emma", "Zoe"), speaker)
    return states.listening(setup, "guess")


def test_the_same_pick_said_two_ways_is_not_asked_about() -> None:
    where = _ici_londres()
    mine = IntentMatch("pick", {"icons": ("rose",), "player": "Hugo"}, 1.0, "rose from me")
    bare = IntentMatch("pick", {"icons": ("rose",)}, 0.9, "rose")
    other = IntentMatch("pick", {"icons": ("bell",)}, 0.9, "bell")
    sophie = IntentMatch("pick", {"icons": ("rose",), "player": "Sophie"}, 0.9,
                         "sophie picks rose")
    assert not would_ask(where.adapter, where.state, MatchResult(mine, (mine, bare), True),
                         "Hugo")
    assert would_ask(where.adapter, where.state, MatchResult(mine, (mine, other), True),
                     "Hugo")
    assert would_ask(where.adapter, where.state, MatchResult(mine, (mine, sophie), True),
                     "Hugo")
    # said by Sophie, "rose from me" is hers: the bare "rose" still agrees with it
    assert not would_ask(where.adapter, where.state,
                         MatchResult(sophie, (sophie, bare), True), "Sophie")
    assert not where.asks(MatchResult(mine, (mine,), False))


def test_the_benchmark_takes_the_pick_its_runner_up_says_again() -> None:
    """Hugo's "rose from me" with the recognizer's runner-up "rose": ambiguous to the
    matcher, one move to the host (the last run counted it as asked)."""
    setup = bench.Setup("ici-londres", ("Sophie", "Hugo", "Marc", "Emma", "Zoe"), "Hugo")
    matcher = bench.phase_grammar(setup, "guess").matcher
    heard = Heard(HeardKind.SPEECH, text="rose from me", speaker="Hugo", closed_grammar=True,
                  alternatives=("rose",), spoken=True)
    where = states.listening(setup, "guess")
    understood = understand(heard, matcher, speaker="Hugo", key=where.key(),
                            prior=where.prior())
    assert understood.result is not None and understood.result.ambiguous
    assert not where.asks(understood.result)
    heard = Heard(HeardKind.SPEECH, text="rose from me", speaker="Hugo", closed_grammar=True,
                  alternatives=("bell",), spoken=True)
    assert where.asks(understand(heard, matcher, speaker="Hugo", key=where.key()).result)


def test_a_confirmation_is_read_by_its_words_and_never_asked_about() -> None:
    setup = bench.Setup("codenames", ("Ada", "Ben", "Cleo", "Dan", "Eve"), "Cleo",
                        tuple(WORD_LISTS["en"][:25]))
    where = states.listening(setup, "answer")
    assert where.confirming and where.key() is None and where.prior() is None
    yes = IntentMatch("answer", {"choice": "yes"}, 1.0, "yes")
    no = IntentMatch("answer", {"choice": "no"}, 1.0, "no")
    assert not where.asks(MatchResult(yes, (yes, no), True))
    assert where.state.phase() == "clue"
    assert where.prompt.expected == ("Cleo",)  # the spymaster whose clue is confirmed


def _spoken(grammar: str, free: str, *, margin: float = -0.05,
            alternatives: tuple[str, ...] = ()) -> Heard:
    """A searched utterance: its grammar sentence and its free transcript."""
    reading = GrammarReading(grammar, margin=margin, score=-0.1, steps=6, similarity=0.8)
    judgement = Judgement(free_text=free, free_logp=-0.1, looped=False, reading=reading,
                          accepted=margin > -0.5, reason=Rejection.NONE, confidence=1.0)
    return Heard(HeardKind.SPEECH, text=grammar, speaker="Hugo", spoken=True, confidence=1.0,
                 closed_grammar=True, judgement=judgement, alternatives=alternatives,
                 details=judgement.figures())


@pytest.mark.parametrize(("grammar", "free", "alternatives", "asked"), [
    ("rose from me", "i pick the rose", (), False),        # one move, two wordings
    ("rose from me", "i pick the bell", (), True),         # two moves: asked
    ("rose from me", "rose from me", ("rose",), False),    # the runner-up is the same pick
    ("rose from me", "rose from me", ("bell",), True),     # ... or another
])
def test_re_deciding_a_saved_outcome_decides_as_the_run_did(
        grammar: str, free: str, alternatives: tuple[str, ...], asked: bool) -> None:
    setup = bench.Setup("ici-londres", ("Sophie", "Hugo", "Marc", "Emma", "Zoe"), "Hugo")
    matcher = bench.phase_grammar(setup, "guess").matcher
    where = states.listening(setup, "guess")
    heard = _spoken(grammar, free, alternatives=alternatives)
    assert heard.judgement is not None
    understood = understand(heard, matcher, speaker="Hugo", key=where.key(),
                            prior=where.prior())
    assert understood.best is not None
    assert where.asks(understood.result) is asked
    features = dict(heard.details) | bench.readings_record(understood, False) \
        | bench.decision_record(understood, where)
    live = bench.Outcome(system="whisper:grammar", ident=0, game="ici-londres",
                         phase="guess", condition="clean", voice="v", text=grammar,
                         expected="pick", expected_slots="{}", intent=understood.best.intent,
                         slots=bench.canonical_slots(understood.best.slots), ambiguous=asked,
                         features=json.dumps(features))
    again = bench.redecide(live, "both", bench.decision_tuning("whisper:grammar"))
    assert (again.intent, again.slots, again.ambiguous) == (live.intent, live.slots, asked)
    # without the host's figures (an older run), the two wordings were a question
    old = {k: v for k, v in features.items()
           if k not in ("same_key", "g_asks", "f_asks", "gf_asks")}
    before = bench.redecide(bench.Outcome(**{**live.__dict__, "features": json.dumps(old)}),
                            "both", bench.decision_tuning("whisper:grammar"))
    assert before.ambiguous is (grammar != free)


# --------------------------------------------------------------------------- counted by the move

HUGO = bench.Setup("ici-londres", ("Sophie", "Hugo", "Marc", "Emma", "Zoe"), "Hugo")


def _case(setup: bench.Setup, phase: str, text: str, intent: str | None,
          slots: dict[str, object]) -> bench.Case:
    return bench.Case(0, setup, phase, text, intent, bench.canonical_slots(slots),
                      bench.Voice("espeak-ng", "en-us", 160, 50), "clean", None)


def _outcome(case: bench.Case, reading: IntentMatch | None, *, asked: bool = False
             ) -> bench.Outcome:
    """What the benchmark records of ``case`` read as ``reading`` (as ``run_system``)."""
    moves = bench.expected_move(case, states.listening(case.setup, case.phase))
    return bench.Outcome(
        system="whisper:grammar", ident=case.ident, game=case.setup.game, phase=case.phase,
        condition=case.condition, voice=case.voice.label, text=case.text,
        expected=case.intent, expected_slots=case.slots,
        intent=reading.intent if reading else None,
        slots=bench.canonical_slots(reading.slots) if reading else "{}", ambiguous=asked,
        same_move=bool(moves and moves(reading)))


ROSE_FROM_ME = _case(HUGO, "guess", "rose from me", "pick",
                     {"icons": ["rose"], "player": "Hugo"})


@pytest.mark.parametrize(("reading", "right"), [
    (IntentMatch("pick", {"icons": ("rose",), "player": "Hugo"}, 1.0, "rose from me"), True),
    (IntentMatch("pick", {"icons": ("rose",)}, 0.9, "rose"), True),         # Hugo's rose
    (IntentMatch("pick", {"icons": ("bell",)}, 0.9, "bell"), False),        # another icon
    (IntentMatch("pick", {"icons": ("rose",), "player": "Sophie"}, 0.9,
                 "sophie picks rose"), False),                              # Sophie's pick
    (IntentMatch("help", {}, 1.0, "help"), False),
    (None, False),
])
def test_a_reading_that_makes_the_expected_move_is_understood(
        reading: IntentMatch | None, right: bool) -> None:
    """Hugo's "rose from me" read as "rose": the host makes exactly the move he said."""
    outcome = _outcome(ROSE_FROM_ME, reading)
    assert outcome.correct is right
    assert outcome.misread is (reading is not None and not right)
    assert not _outcome(ROSE_FROM_ME, reading, asked=True).correct  # a question is no move


def test_the_expected_reading_is_the_matcher_s_reading_of_the_sentence() -> None:
    """Slots of the same types (a run of icons a tuple, a number an int): a reading equal
    to the expected one is the expected one."""
    same = 0
    first = {(setup.game, phase): setup for setup, phase in reversed(list(_where("en")))}
    matchers = {(setup, phase): bench.phase_grammar(setup, phase).matcher
                for (_, phase), setup in first.items()}  # one table per phase: cheaper
    for case in PLANS["en"]:
        if case.intent is None or (case.setup, case.phase) not in matchers:
            continue
        heard = matchers[case.setup, case.phase].match(
            case.text, speaker=case.setup.speaker, closed=True).best  # a grammar sentence
        if heard is not None and bench.canonical_slots(heard.slots) == case.slots:
            assert dict(heard.slots) == dict(bench.expected_reading(case).slots), case.text
            same += 1
    assert same >= 20


def test_a_command_that_makes_no_move_needs_its_intent_and_slots() -> None:
    status = _case(HUGO, "guess", "what's the status", "status", {})
    assert bench.expected_move(status, states.listening(HUGO, "guess")) is None
    assert _outcome(status, IntentMatch("status", {}, 1.0, "status")).correct
    assert not _outcome(status, IntentMatch("help", {}, 1.0, "help")).correct
    assert bench.expected_move(ROSE_FROM_ME, None) is None  # no game: the exact rule


def test_a_yes_no_answer_is_right_only_by_its_words() -> None:
    setup = bench.Setup("codenames", ("Ada", "Ben", "Cleo", "Dan", "Eve"), "Cleo",
                        tuple(WORD_LISTS["en"][:25]))
    where = states.listening(setup, "answer")
    yes = IntentMatch("answer", {"choice": "yes"}, 1.0, "yes")
    assert not where.same_move(yes, yes)
    clue = IntentMatch("clue", {"word": "travel", "number": 2}, 1.0, "travel two")
    assert where.adapter.interpret(where.state, clue, "Cleo").action is not None
    assert not where.same_move(clue, clue)  # a move of the state, but not what is heard
    assert bench.expected_move(_case(setup, "answer", "yes", "answer", {"choice": "yes"}),
                               where) is None


@pytest.mark.parametrize(("grammar", "free", "chosen_right"), [
    ("rose", "rose", True),              # the bare pick, Hugo's rose
    ("rose from me", "rose", True),      # agree (one move): the exact reading chosen
    ("bell", "bell", False),             # another icon: taken as another move
])
def test_re_deciding_scores_the_chosen_reading_by_its_move(
        grammar: str, free: str, chosen_right: bool) -> None:
    matcher = bench.phase_grammar(HUGO, "guess").matcher
    where = states.listening(HUGO, "guess")
    heard = _spoken(grammar, free)
    understood = understand(heard, matcher, speaker="Hugo", key=where.key(),
                            prior=where.prior())
    moves = bench.expected_move(ROSE_FROM_ME, where)
    assert understood.best is not None and moves is not None
    features = dict(heard.details) | bench.readings_record(understood, False) \
        | bench.decision_record(understood, where) | bench.move_record(understood, moves)
    live = bench.Outcome(**{**_outcome(ROSE_FROM_ME, understood.best).__dict__,
                            "features": json.dumps(features)})
    assert live.correct is chosen_right
    for route in bench.ROUTES:  # each route scores the reading it chooses
        again = bench.redecide(live, route, bench.decision_tuning("whisper:grammar"))
        chosen = understood.grammar if route == "grammar" else \
            understood.free if route == "free" else understood.best
        assert again.same_move is bool(moves(chosen)), route
        if route == "both":
            assert bench.Outcome(**{**again.__dict__, "system": live.system}) == live
    # a run older than the figure: only the exact reading is right
    old = {k: v for k, v in features.items() if not k.endswith("_same_move")}
    before = bench.redecide(bench.Outcome(**{**live.__dict__, "features": json.dumps(old)}),
                            "both", bench.decision_tuning("whisper:grammar"))
    assert before.correct is (bench.canonical_slots(understood.best.slots)
                              == ROSE_FROM_ME.slots)


def test_results_saved_before_the_move_was_recorded_still_load(tmp_path: Path) -> None:
    outcome = _outcome(ROSE_FROM_ME, IntentMatch("pick", {"icons": ("rose",)}, 0.9, "rose"))
    outcome.margin = -1.0  # comparable (NaN is not equal to itself)
    assert outcome.same_move
    text = bench.results_json({}, {}, {"whisper:grammar": [outcome]})
    saved = json.loads(text)
    assert bench.Outcome(**dict(zip(saved["columns"], saved["outcomes"]["whisper:grammar"][0],
                                    strict=True))) == outcome
    at = saved["columns"].index("same_move")
    del saved["columns"][at]
    for row in saved["outcomes"]["whisper:grammar"]:
        del row[at]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    (old,) = bench.load_outcomes(path)["whisper:grammar"]
    assert not old.same_move and not old.correct and old.misread
    assert old == bench.Outcome(**{**outcome.__dict__, "same_move": False})


@pytest.mark.parametrize(("grammar", "free", "why"), [
    ("rose from me", "the wifi is so slow", "not_confident"),  # a pick, not believed
    ("the wifi is so slow", "the wifi is so slow", "rejected_by_recognizer"),
])
def test_re_deciding_an_outcome_not_understood_gives_the_run_s_reason(
        grammar: str, free: str, why: str) -> None:
    matcher = bench.phase_grammar(HUGO, "guess").matcher
    where = states.listening(HUGO, "guess")
    heard = _spoken(grammar, free, margin=-2.0)
    understood = understand(heard, matcher, speaker="Hugo", key=where.key(),
                            prior=where.prior())
    assert understood.best is None and understood.why_not == why
    features = dict(heard.details) | bench.readings_record(understood, False) \
        | bench.decision_record(understood, where)
    live = bench.Outcome(**{**_outcome(ROSE_FROM_ME, None).__dict__, "why_not": why,
                            "features": json.dumps(features)})
    assert bench.redecide(live, "both", bench.decision_tuning("whisper:grammar")).why_not == why
