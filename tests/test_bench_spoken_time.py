"""The host says each thing once in full and then in short (``benchmarks/bench_spoken_time.py``
times it): in whole scripted Resistance games every fact the table needs is still said --
each team proposed, each vote's result, each mission's result with its sabotage count, the
winner and every role -- and no line is said twice in a row."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_spoken_time as bench  # noqa: E402

from voice_host.games.resistance import ResistanceState, Role  # noqa: E402

WORDS = {
    "en": {"succeeded": "succeeded", "failed": "failed", "approved": ("approved", "goes",
                                                                     "yes."),
           "rejected": ("rejected", "turned down", "no."),
           "roles": {Role.SPY: "spy", Role.HERO: "hero", Role.DOUBLE_AGENT: "double agent"},
           "spies_win": "The spies win", "heroes_win": "The heroes win"},
    "fr": {"succeeded": "réussi", "failed": "échoué", "approved": ("accepté", "part", "oui"),
           "rejected": ("refusé", "ne part pas", "non"),
           "roles": {Role.SPY: "espion", Role.HERO: "héros", Role.DOUBLE_AGENT: "agent double"},
           "spies_win": "Les espions gagnent", "heroes_win": "Les héros gagnent"},
}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_shorter_game_still_says_every_fact(lang: str, seed: int) -> None:
    said, state = bench.play("resistance", seed, lang)
    assert isinstance(state, ResistanceState) and state.is_terminal()
    texts = [line.text for line in said]
    words = WORDS[lang]
    assert bench.repeats(said) == 0
    # each proposal: the leader and the whole team
    proposals = [t for t in texts if any(v.team and v.leader in t and all(p in t for p in v.team)
                                         for v in state.vote_history)]
    for vote in state.vote_history:
        assert any(vote.leader in t and all(p in t for p in vote.team) for t in proposals)
    # each vote's result, in order, with its count or as unanimous
    results = [t for t in texts if any(w in t.lower() for w in (*words["approved"],
                                                                 *words["rejected"]))
               and ("tout le monde" in t.lower() or "everyone" in t.lower()
                    or any(c.isdigit() for c in t) or "unanim" in t.lower())]
    assert len(results) >= len(state.vote_history)
    # each mission's result
    for mission in state.mission_history:
        word = words["succeeded"] if mission.succeeded else words["failed"]
        assert any(f" {mission.mission}" in t and word in t for t in texts), mission
    # the winner, and every role with what the player did
    outcome = state.outcome()
    assert outcome is not None
    winner = words["spies_win"] if outcome.winners == ("spies",) else words["heroes_win"]
    assert any(winner in t for t in texts)
    for player in state.players:
        role = state.role_of(player)
        assert role is not None
        assert any(t.startswith(player) and words["roles"][role] in t for t in texts), player


def test_the_bench_counts_a_line_said_twice_in_a_row() -> None:
    from voice_host.host.core.values import Line

    lines = [Line("Votes?"), Line("Votes?"), Line("Three, two, one!"), Line("Votes?")]
    assert bench.repeats(lines) == 1
