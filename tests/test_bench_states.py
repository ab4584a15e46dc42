"""The recognition benchmark decides as the host does in the game each command is said in
(``benchmarks/bench_states.py``): a real state per (Setup, phase) of its plans, the host's
move key and prior there, and "Did you mean X, or Y?" only about readings that make
different moves; its re-decision from saved outcomes decides the same way."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
from voice_host.text import tokenize  # noqa: E402

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


def _match(case: bench.Case) -> IntentMatch:
    """The reading the benchmark expects of ``case``, as the matcher gives it."""
    def plain(value: Any) -> Any:
        return tuple(plain(v) for v in value) if isinstance(value, list) else value
    assert case.intent is not None
    slots = {k: plain(v) for k, v in json.loads(case.slots).items()}
    return IntentMatch(case.intent, slots, 1.0, " ".join(tokenize(case.text)))


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
        match = _match(case)
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
