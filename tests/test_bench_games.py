"""The whole-game benchmark's counting (``benchmarks/bench_games.py``) on made-up logs, and
one tiny game through the real host and recognizer."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bench_games as bg  # noqa: E402

VOTE_ADA = [{"type": "CastVote", "player": "Ada", "approve": True}]
VOTE_BEN = [{"type": "CastVote", "player": "Ben", "approve": True}]


def listening(purpose: str = "command", expected: tuple[str, ...] = ("Ada",)) -> dict[str, Any]:
    return {"event": "listening", "purpose": purpose, "expected": list(expected)}


def said(speaker: str, kind: str = "move", *, attempt: int = 1, expected: bool = True,
         meant: Any = None) -> dict[str, Any]:
    return {"event": "bench_said", "speaker": speaker, "kind": kind, "attempt": attempt,
            "expected": expected, "meant_action": meant, "text": "..."}


def narration(text: str = "Ada votes yes.") -> dict[str, Any]:
    return {"event": "narration", "text": text}


def taken(actions: list[Any], asked: str | None = None) -> list[dict[str, Any]]:
    return [{"event": "move_taken", "asked": asked}] + [
        {"event": "bench_applied", "action": a} for a in actions]


def test_a_move_taken_as_meant_at_once_is_a_first_try() -> None:
    s = bg.score([listening(), said("Ada", meant=VOTE_ADA), *taken(VOTE_ADA), narration(),
                  {"event": "bench_wait", "seconds": 0.5, "replied": True},
                  {"event": "game_over"}])
    assert (s.moves, s.first_try, s.questions, s.wrong_moves, s.silent_drops) == (1, 1, 0, 0, 0)
    assert s.completed and s.waits == [0.5]


def test_a_move_said_again_after_a_silent_miss_is_a_drop_and_no_first_try() -> None:
    s = bg.score([listening(), said("Ada", meant=VOTE_ADA),
                  {"event": "heard", "intent": None},
                  {"event": "ignored", "why": "not_confident"},
                  {"event": "bench_wait", "seconds": 2.0, "replied": False},
                  listening(), said("Ada", attempt=2, meant=VOTE_ADA), *taken(VOTE_ADA),
                  narration(), listening()])
    assert (s.moves, s.first_try, s.silent_drops) == (1, 0, 1)
    assert s.waits == [] and not s.completed


def test_table_talk_gets_no_reply_and_is_no_drop() -> None:
    s = bg.score([listening(), said("Ben", "chat"), {"event": "ignored"}, listening()])
    assert (s.talk, s.talk_acted, s.silent_drops, s.moves) == (1, 0, 0, 0)


def test_talk_answered_is_counted_once_per_line() -> None:
    s = bg.score([listening(), said("Ben", "chat"), {"event": "ignored"}, listening(),
                  said("Ada", "chat"), {"event": "reask"}, narration("Sorry, Ada: yes or no?"),
                  listening(), said("Cleo", "chat"), narration("Not a command I know."),
                  listening()])
    assert (s.talk, s.talk_answered, s.talk_acted, s.silent_drops) == (3, 2, 0, 0)


def test_talk_acted_on() -> None:
    s = bg.score([listening(), said("Ben", "chat"), *taken(VOTE_BEN), narration(),
                  listening(), said("Ada", "chat"), narration("I heard: Ada yes. Right?"),
                  listening("confirm")])
    assert (s.talk, s.talk_acted) == (2, 2)


def test_a_question_then_yes_is_a_question_and_no_first_try() -> None:
    s = bg.score([listening(), said("Ada", meant=VOTE_ADA),
                  narration("I heard: Ada yes. Is that right?"), listening("confirm"),
                  said("Ada", "confirm"), {"event": "confirmation", "answer": True},
                  *taken(VOTE_ADA, asked="doubtful"), narration(), listening()])
    assert (s.moves, s.first_try, s.questions, s.wrong_moves, s.silent_drops) == (1, 0, 1, 0, 0)


def test_a_question_said_again_counts_once() -> None:
    s = bg.score([listening(), said("Ada", meant=VOTE_ADA), narration("Right?"),
                  listening("confirm"), said("Ada", "confirm"), narration("Yes or no?"),
                  listening("confirm"), said("Ada", "confirm"),
                  *taken(VOTE_ADA, asked="doubtful"), narration()])
    assert s.questions == 1


def test_a_wrong_move_and_its_correction_taken() -> None:
    s = bg.score([listening(), said("Cleo", meant=VOTE_ADA), *taken(VOTE_BEN), narration(),
                  listening(expected=("Ben",)), said("Cleo", "correction", expected=False),
                  narration("Undo Ben's vote?"), listening("confirm"),
                  said("Cleo", "confirm", expected=False), {"event": "undo"}, narration(),
                  listening(), said("Cleo", attempt=2, meant=VOTE_ADA), *taken(VOTE_ADA),
                  narration()])
    assert (s.moves, s.wrong_moves, s.corrections, s.corrections_taken) == (1, 1, 1, 1)
    assert s.first_try == 0 and s.questions == 0


def test_a_correction_not_taken() -> None:
    s = bg.score([listening(), said("Cleo", meant=VOTE_ADA), *taken(VOTE_BEN), narration(),
                  listening(), said("Cleo", "correction"), {"event": "ignored"}, listening()])
    assert (s.wrong_moves, s.corrections, s.corrections_taken, s.silent_drops) == (1, 1, 0, 1)


def test_a_move_with_follow_ups_is_compared_whole() -> None:
    both = VOTE_ADA + VOTE_BEN
    s = bg.score([listening(), said("Ada", meant=both), *taken(VOTE_ADA + VOTE_ADA),
                  narration()])
    assert s.wrong_moves == 1
    s = bg.score([listening(), said("Ada", meant=both), *taken(both), narration()])
    assert (s.wrong_moves, s.first_try) == (0, 1)


def test_an_unawaited_players_miss_is_no_drop() -> None:
    s = bg.score([listening(), said("Ben", expected=False, meant=VOTE_BEN),
                  {"event": "ignored"}, listening()])
    assert s.silent_drops == 0


def test_speaker_identification_only_when_the_host_logs_a_voice_seat() -> None:
    s = bg.score([listening(), said("Ada", meant=VOTE_ADA), {"event": "heard"}, narration()])
    assert s.voice_checked == 0
    assert bg.row("x", s, 1, 0)[9] == "n/a"
    s = bg.score([listening(), said("Ada", meant=VOTE_ADA),
                  {"event": "heard", "voice_seat": "Ada", "voice_confidence": 0.97},
                  narration(), listening(), said("Ben", meant=VOTE_BEN),
                  {"event": "heard", "voice_seat": "Ada", "voice_confidence": 0.95},
                  narration(), listening(), said("Cleo", meant=VOTE_BEN),
                  {"event": "heard", "voice_seat": None, "voice_confidence": 0.6},
                  narration(), listening(), said("Dan", "typed", meant=VOTE_BEN),
                  {"event": "heard", "intent": "vote"}, narration()])
    assert (s.voice_checked, s.voice_right, s.voice_wrong) == (3, 1, 1)
    assert bg.row("x", s, 1, 0)[9] == "33% (33%)"


def test_quantile_and_row() -> None:
    assert bg.quantile([], 0.5) is None
    assert bg.quantile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert bg.quantile([float(i) for i in range(1, 21)], 0.95) == 19.0
    s = bg.GameScore(moves=8, first_try=6, questions=2, waits=[1.0, 2.0, 3.0])
    r = bg.row("codenames", s, 2, 2)
    assert r[1:4] == ["2/2", "6/8 (75%)", "2 (2.0/8)"]
    assert r[10:] == ["2.00", "3.00", "0", "0/2"]


def first_attempt(text: str) -> dict[str, Any]:
    return {**said("Ada", meant=VOTE_ADA), "text": text}


def test_a_miss_whose_words_the_recognizer_wrote_right_is_the_hosts() -> None:
    asked = [narration("I heard: Ada yes. Is that right?"), listening("confirm"),
             said("Ada", "confirm"), *taken(VOTE_ADA, asked="doubtful"), narration()]
    right = bg.score([listening(), first_attempt("Um, Ada: yes!"),
                      {"event": "heard", "free": "ada yes", "transcript": "ada yes"}, *asked])
    wrong = bg.score([listening(), first_attempt("Um, Ada: yes!"),
                      {"event": "heard", "free": "ada", "transcript": "ada yes"}, *asked])
    clean = bg.score([listening(), first_attempt("Ada: yes"),
                      {"event": "heard", "free": "ada yes"}, *taken(VOTE_ADA), narration()])
    assert (right.first_try, right.missed_heard_right) == (0, 1)
    assert (wrong.first_try, wrong.missed_heard_right) == (0, 0)
    assert (clean.first_try, clean.missed_heard_right) == (1, 0)
    assert bg.said_words("So, the clue is ocean, 2.", frozenset({"so"})) == [
        "the", "clue", "is", "ocean", "2"]


def test_voices_of_a_table_split_and_at_most_one_espeak() -> None:
    import random

    players = [f"P{i}" for i in range(7)]
    calib = bg.table_voices(players, lang="en", split="calib", rng=random.Random(1))
    report = bg.table_voices(players, lang="en", split="report", rng=random.Random(1))
    names = {v.name for v in calib.values()} & {v.name for v in report.values()}
    assert not names
    if any(v.engine != "espeak" for v in report.values()):
        assert sum(v.engine == "espeak" for v in report.values()) <= 1


@pytest.mark.slow
@pytest.mark.model
def test_a_tiny_game_through_the_host(tmp_path: Path) -> None:
    """The first dozen utterances of a Codenames game played by the table through Whisper
    and the host: the log is written and the counting finds the moves the players set out
    to make."""
    from voice_host.host.io import wiring

    try:
        recognizer, _ = wiring.make_recognizer("whisper", None, "en")
    except wiring.WiringError as exc:
        pytest.skip(f"no Whisper model here: {exc}")
    played = bg.play_game("codenames", lang="en", condition="clean", split="calib", seed=3,
                          players=None, recognizer=recognizer, babble=None,
                          folder=tmp_path, max_utterances=12)
    assert played.score.utterances >= 1
    assert played.score.moves >= 1
    assert (tmp_path / "log.jsonl").is_file()


def test_a_typed_move_is_counted_and_its_wait_left_out() -> None:
    s = bg.score([listening(), said("Ada", meant=VOTE_ADA), {"event": "reask"},
                  {"event": "bench_wait", "seconds": 1.0, "replied": True},
                  listening(), said("Ada", "typed", attempt=7, meant=VOTE_ADA),
                  *taken(VOTE_ADA), narration(),
                  {"event": "bench_wait", "seconds": 0.1, "replied": True}])
    assert (s.moves, s.first_try, s.typed, s.wrong_moves, s.silent_drops) == (1, 0, 1, 0, 0)
    assert s.waits == [1.0]


def test_a_runs_logs_are_tabulated_again_finished_or_stopped(tmp_path: Path) -> None:
    import json

    finished = [{"event": "bench_enrolled", "players": {"Ada": 3, "Ben": 3, "Cleo": 3}},
                listening(), said("Ada", meant=VOTE_ADA), *taken(VOTE_ADA), narration(),
                {"event": "game_over"}]
    stopped = [listening(), said("Ada", meant=VOTE_ADA), {"event": "heard", "intent": None}]
    for folder, events in (("resistance-5-1", stopped), ("codenames-demo-2", finished),
                           ("notes", finished)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "log.jsonl").write_text(
            "".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    played = sorted(bg.played_in(tmp_path), key=lambda p: p.game)
    assert [(p.game, p.players, p.seed, p.stop) for p in played] == [
        ("codenames", 3, 2, "finished"), ("resistance", 5, 1, "stopped")]
    table = bg.tabulate(played, bg.GAMES).splitlines()
    assert table[2].startswith("| resistance (5 p.) | 0/1 | 0/1 (0%) |")
    assert table[3].startswith("| codenames (3 p.) | 1/1 | 1/1 (100%) |")
    assert table[4].startswith("| all | 1/2 | 1/2 (50%) |")
