"""``voice-host resume`` and saving: the most recent unfinished game is resumed (a finished
one is passed over; a damaged one stops the bare resume, see test_resume_settings), and a
damaged save or an unusable save path gets a sentence and exit code 2, never a traceback,
and the file is left as it was."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from voice_host.cli import main

PLAY = ["play", "resistance", "--players", "Ada,Ben,Cleo,Dan,Eve", "--first", "Ada",
        "--input", "text", "--output", "text", "--confirm", "never", "--seed", "3"]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("VOICE_HOST_DATA", str(folder))
    return folder / "saves"


def _script(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / f"{name}.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _finished_game(tmp_path: Path, save: Path) -> None:
    """A whole Resistance game that the spies win (three failed missions)."""
    yes = ["everyone yes"]
    lines = ["Ada and Ben", *yes, "one sabotage", "Ben, Cleo and Dan", *yes, "two sabotages",
             "Cleo and Eve", *yes, "one sabotage"]
    code = main([*PLAY, "--script", str(_script(tmp_path, "whole", lines)), "--save",
                 str(save)])
    assert code == 0


def _unfinished_game(tmp_path: Path, save: Path) -> None:
    code = main([*PLAY, "--script", str(_script(tmp_path, "part", ["Ada and Ben"])), "--save",
                 str(save)])
    assert code == 3


def _age(path: Path, seconds_ago: float) -> None:
    stamp = time.time() - seconds_ago
    os.utime(path, (stamp, stamp))


def test_resume_without_a_path_takes_the_latest_unfinished_game(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    unfinished, finished = data / "a.json", data / "b.json"
    _unfinished_game(tmp_path, unfinished)
    _finished_game(tmp_path, finished)
    _age(unfinished, 300)
    _age(finished, 100)
    capsys.readouterr()
    end = _script(tmp_path, "end", [])
    code = main(["resume", "--input", "text", "--output", "text", "--script", str(end)])
    captured = capsys.readouterr()
    assert code == 3
    assert f"Saving the game after every move in {unfinished}" in captured.err
    assert "The game continues where it stopped." in captured.out


def test_resume_without_a_path_when_every_game_has_ended(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _finished_game(tmp_path, data / "done.json")
    before = (data / "done.json").read_bytes()
    capsys.readouterr()
    assert main(["resume", "--input", "text", "--output", "text"]) == 2
    err = capsys.readouterr().err
    assert "There is no unfinished saved game to resume." in err
    assert (data / "done.json").read_bytes() == before


def test_resume_of_a_finished_game_by_path_says_it_has_ended(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "done.json"
    _finished_game(tmp_path, save)
    capsys.readouterr()
    assert main(["resume", str(save), "--input", "text", "--output", "text"]) == 2
    assert "has already ended" in capsys.readouterr().err


def _damage(saved: dict[str, Any], how: str) -> Any:
    if how == "list":
        return [saved]
    damaged = dict(saved)
    if how == "rng":
        damaged["rng"] = "xyz"
    elif how == "rng_numbers":
        damaged["rng"] = [3, [1, 2], None]
    elif how == "state_null":
        damaged["state"] = None
    elif how == "state_empty":
        damaged["state"] = {}
    elif how == "chess":
        damaged["game"] = "chess"
    elif how == "lang":
        damaged["options"] = {**saved["options"], "lang": "de"}
    elif how == "undo":
        damaged["undo"] = [{"state": None}]
    elif how == "options":
        damaged["options"] = "fast"
    return damaged


@pytest.mark.parametrize(("how", "says"), [
    ("list", "not a voice-host saved game"),
    ("rng", "random state"),
    ("rng_numbers", "random state"),
    ("state_null", "the game itself is missing"),
    ("state_empty", "damaged and cannot be resumed"),
    ("chess", "a game I do not know (chess)"),
    ("lang", "neither English nor French"),
    ("undo", "undo history"),
    ("options", "a part is missing"),
])
def test_a_damaged_save_gets_a_sentence_and_exit_code_2(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str], how: str,
        says: str) -> None:
    save = tmp_path / "game.json"
    _unfinished_game(tmp_path, save)
    saved = json.loads(save.read_text(encoding="utf-8"))
    save.write_text(json.dumps(_damage(saved, how)), encoding="utf-8")
    before = save.read_bytes()
    capsys.readouterr()
    code = main(["resume", str(save), "--input", "text", "--output", "text"])
    err = capsys.readouterr().err
    assert code == 2
    assert says in err and "Traceback" not in err
    assert save.read_bytes() == before


@pytest.mark.parametrize("where", ["/proc/x.json", "folder"])
def test_a_save_path_that_cannot_be_written_is_refused_before_the_game(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    target = tmp_path if where == "folder" else Path(where)
    code = main([*PLAY, "--script", str(_script(tmp_path, "s", ["Ada and Ben"])), "--save",
                 str(target)])
    captured = capsys.readouterr()
    assert code == 2
    assert f"I cannot save the game at {target}" in captured.err
    assert "Choose" in captured.err and "Traceback" not in captured.err
    assert "Welcome to Resistance" not in captured.out


def test_a_paused_game_is_still_paused_after_resume(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = data / "paused.json"
    code = main([*PLAY, "--script", str(_script(tmp_path, "pause", ["pause"])), "--save",
                 str(save)])
    assert code == 3
    assert json.loads(save.read_text(encoding="utf-8"))["paused"] is True
    capsys.readouterr()
    later = _script(tmp_path, "later", ["Ada and Ben"])
    code = main(["resume", str(save), "--input", "text", "--output", "text", "--script",
                 str(later), "--confirm", "never"])
    out = capsys.readouterr().out
    assert code == 3
    assert out.count("We are paused. Say resume when you are ready.") == 1  # at the start
    # a valid move while paused resumes the game and is taken
    assert "Let's go on." in out
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["paused"] is False
    assert saved["state"]["team"] == ["Ada", "Ben"]


def test_varied_sentences_go_on_turning_after_resume(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The host varies "that was not a command" in turn; a resumed game goes on from where it
    was, instead of starting the variants over."""
    save = data / "chatter.json"
    main([*PLAY, "--script", str(_script(tmp_path, "talk", ["host, what a lovely evening"])),
          "--save", str(save)])
    first = capsys.readouterr().out
    turns = json.loads(save.read_text(encoding="utf-8"))["narration"]
    assert turns.get("common.not_understood") == 1
    main(["resume", str(save), "--input", "text", "--output", "text", "--script",
          str(_script(tmp_path, "more", ["host, is there more cake"]))])
    second = capsys.readouterr().out
    assert json.loads(save.read_text(encoding="utf-8"))["narration"][
        "common.not_understood"] == 2
    said_first = {line for line in first.splitlines() if "a command" in line}
    said_second = {line for line in second.splitlines() if "a command" in line}
    assert said_first and said_second and not said_first & said_second


def test_a_save_with_a_broken_host_part_is_refused(tmp_path: Path, data: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    save = data / "g.json"
    _unfinished_game(tmp_path, save)
    saved = json.loads(save.read_text(encoding="utf-8"))
    saved["narration"] = {"common.not_understood": "many"}
    save.write_text(json.dumps(saved), encoding="utf-8")
    before = save.read_bytes()
    capsys.readouterr()
    code = main(["resume", str(save), "--input", "text", "--output", "text"])
    assert code == 2
    assert "damaged" in capsys.readouterr().err
    assert save.read_bytes() == before
