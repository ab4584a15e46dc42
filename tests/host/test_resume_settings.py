"""``resume`` plays a game as it was played (the save keeps its input, output, recognizer and
companion settings), the command the host prints works as printed, older saves still load,
and unusable paths or a damaged latest save get a sentence (in the game's language), never a
traceback or a silent choice."""

from __future__ import annotations

import json
import os
import pty
import shlex
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from voice_host.cli import main
from voice_host.host.cli import resume
from voice_host.host.core.messages import caption
from voice_host.host.core.store import SAVE_VERSION, SavedGame, load_game

SAVES = Path(__file__).parent / "saves"
PLAY = ["play", "resistance", "--players", "Ada,Ben,Cleo,Dan,Eve", "--first", "Ada",
        "--seed", "3"]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("VOICE_HOST_DATA", str(folder))
    return folder / "saves"


@pytest.fixture
def keyboard(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A terminal as standard input: what is written to the returned fd is typed."""
    master, slave = pty.openpty()
    stream = os.fdopen(slave, "r", encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stream)
    try:
        yield master
    finally:
        stream.close()
        os.close(master)


def _script(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / f"{name}.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _printed_command(err: str, prefix: str) -> list[str]:
    line = next(line for line in err.splitlines() if line.startswith(prefix))
    words = shlex.split(line[len(prefix):])
    assert words[0] == "voice-host"
    return words[1:]


@pytest.mark.parametrize(("lang", "stop", "yes", "prefix"), [
    ("en", "stop the game", "yes", "To continue this game: "),
    ("fr", "arrête la partie", "oui", "Pour reprendre cette partie : "),
])
def test_the_printed_resume_command_plays_as_the_game_was_played(
        tmp_path: Path, data: Path, keyboard: int, capsys: pytest.CaptureFixture[str],
        lang: str, stop: str, yes: str, prefix: str) -> None:
    save = tmp_path / "my games" / "evening.json"  # a space: the command is quoted
    os.write(keyboard, f"{stop}\n{yes}\n".encode())
    code = main([*PLAY, "--lang", lang, "--input", "text", "--output", "text",
                 "--save", str(save), "--silence-timeout", "30"])
    captured = capsys.readouterr()
    assert code == 0
    args = _printed_command(captured.err, prefix)
    assert args == ["resume", str(save)]
    saved = load_game(save)
    assert saved.settings["input"] == "text" and saved.settings["output"] == "text"
    assert saved.settings["silence_timeout"] == 30.0
    # exactly as printed: typed input and text output again, no microphone wanted
    os.write(keyboard, f"{stop}\n{yes}\n".encode())
    code = main(args)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    welcome = "Welcome back." if lang == "en" else "Re-bonjour."
    assert f"{caption(lang)}{welcome}" in captured.out
    assert "microphone" not in captured.err and "micro" not in captured.err
    # every line on the screen is in the game's language
    if lang == "fr":
        for english in ("To continue", "Saving the game", "Stopped", "The game is saved"):
            assert english not in captured.err + captured.out


def test_the_command_line_overrides_what_the_save_kept(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "game.json"
    log = tmp_path / "events.jsonl"
    code = main([*PLAY, "--input", "text", "--output", "text", "--save", str(save),
                 "--log", str(log), "--confirm", "never",
                 "--script", str(_script(tmp_path, "first", ["Ada and Ben"]))])
    assert code == 3
    assert load_game(save).settings["confirm"] == "never"
    wavs = tmp_path / "narration"
    # espeak-ng: the narrator is not what this checks, and Piper takes seconds to load
    code = main(["resume", str(save), "--output", f"wav:{wavs}", "--voice", "espeak-ng",
                 "--script", str(_script(tmp_path, "second", ["status"]))])
    captured = capsys.readouterr()
    assert code == 3
    assert sorted(wavs.glob("*.wav")), "the narration went to the WAV files asked for"
    kept = load_game(save).settings
    assert kept["output"] == f"wav:{wavs}" and kept["confirm"] == "never"
    # the log given when the game started is continued
    events = [json.loads(line)["event"] for line in log.read_text().splitlines()]
    assert events.count("stopped") == 2
    assert "Narration written to" in captured.err


def test_with_settings_fills_only_what_was_left_out() -> None:
    import argparse

    parser = argparse.ArgumentParser()
    resume.add_arguments(parser)
    args = parser.parse_args(["x.json", "--output", "text"])
    filled = resume.with_settings(args, {"input": "text", "output": "speaker",
                                         "companion": True, "port": 9000, "log": "e.jsonl"})
    assert (filled.input, filled.output, filled.companion, filled.port) == (
        "text", "text", True, 9000)
    assert filled.log == Path("e.jsonl")
    bare = resume.with_settings(parser.parse_args([]), {})  # a save before version 3
    assert (bare.input, bare.output, bare.confirm, bare.companion) == (
        "mic", "speaker", "auto", False)


def _v2(data: dict[str, Any]) -> dict[str, Any]:
    """A version-3 save as version 2 wrote it: no settings, no words in the undo steps."""
    old = {k: v for k, v in data.items() if k != "settings"}
    old["version"] = 2
    old["undo"] = [{k: v for k, v in snap.items() if k != "move"} for snap in data["undo"]]
    return old


def test_a_version_2_save_loads_resumes_and_undoes_with_a_generic_sentence(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "game.json"
    code = main([*PLAY, "--input", "text", "--output", "text", "--save", str(save),
                 "--script", str(_script(tmp_path, "first", ["Ada and Ben", "Ada: yes"]))])
    assert code == 3
    written = json.loads(save.read_text(encoding="utf-8"))
    assert written["version"] == SAVE_VERSION == 3
    assert [snap.get("move") for snap in written["undo"]] == [
        "Ada proposes Ada and Ben for mission 1", "Ada votes yes"]
    save.write_text(json.dumps(_v2(written)), encoding="utf-8")
    migrated = SavedGame.from_json(json.loads(save.read_text(encoding="utf-8")))
    assert migrated.settings == {} and migrated.to_json()["version"] == 3
    capsys.readouterr()
    code = main(["resume", str(save), "--input", "text", "--output", "text",
                 "--confirm", "never", "--script", str(_script(tmp_path, "undo", ["undo"]))])
    out = capsys.readouterr().out
    assert code == 3
    assert "Done: the last move is undone." in out
    assert not json.loads(save.read_text(encoding="utf-8"))["state"]["votes"]


def test_undo_says_which_move_and_takes_back_a_mission_as_one_step(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "game.json"
    # seed 3, host deal: Eve leads, Cleo and Dan are the spies
    lines = ["Cleo and Dan", "Eve: yes", *["yes"] * 4, "one sabotage", "undo", "yes", "undo", "yes"]
    code = main([*PLAY, "--deal", "host", "--input", "text", "--output", "text",
                 "--save", str(save), "--script", str(_script(tmp_path, "s", lines))])
    out = capsys.readouterr().out
    assert code == 3
    # the mission's secret cards (one move of several actions) go back in one step, named
    # as the report was; then the last vote
    assert "Undo the last move: mission 1 had one sabotage card?" in out
    assert "Done, I took back the last move: mission 1 had one sabotage card." in out
    assert out.count("Done, I took back the last move: ") == 2
    assert "votes yes." in out.split("Done, I took back the last move: ")[2].split("\n")[0]
    saved = load_game(save)
    assert saved.state["phase"] == "vote" and len(saved.state["votes"]) == 4


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_undo_names_the_move_in_french_too(tmp_path: Path, data: Path, lang: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    lines = (["Ada and Ben", "Ben: yes", "undo"] if lang == "en"
             else ["Ada et Ben", "Ben : oui", "annule"])
    code = main([*PLAY, "--lang", lang, "--input", "text", "--output", "text",
                 "--confirm", "never", "--save", str(tmp_path / "g.json"),
                 "--script", str(_script(tmp_path, "s", lines))])
    out = capsys.readouterr().out
    assert code == 3
    said = ("Done, I took back the last move: Ben votes yes." if lang == "en"
            else "C'est fait, j'ai repris le dernier coup : Ben vote oui.")
    assert said in out


# --------------------------------------------------------------------------- bad paths


@pytest.mark.parametrize(("where", "said"), [
    ("folder", "that is a folder. Give a file with --log"),
    ("proc", "I cannot write the event log to /proc/voice-host-test.jsonl:"),
    ("under_file", "is a file, not a folder"),
])
def test_an_unusable_log_gets_a_sentence_and_exit_2(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str], where: str,
        said: str) -> None:
    if where == "proc" and not Path("/proc/self").is_dir():
        pytest.skip("no /proc here")
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x", encoding="utf-8")
    log = {"folder": tmp_path, "proc": Path("/proc/voice-host-test.jsonl"),
           "under_file": a_file / "events.jsonl"}[where]
    code = main([*PLAY, "--input", "text", "--output", "text", "--log", str(log),
                 "--save", str(tmp_path / "g.json"),
                 "--script", str(_script(tmp_path, "s", ["Ada and Ben"]))])
    err = capsys.readouterr().err
    assert code == 2
    assert said in err and "Traceback" not in err
    assert not (tmp_path / "g.json").exists()


def test_a_save_under_a_file_says_the_parent_is_a_file(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "passwd"
    a_file.write_text("root:x:0:0\n", encoding="utf-8")
    for lang, said in (("en", f"{a_file} is a file, not a folder"),
                       ("fr", f"{a_file} est un fichier, pas un dossier")):
        code = main([*PLAY, "--lang", lang, "--input", "text", "--output", "text",
                     "--save", str(a_file / "game.json")])
        err = capsys.readouterr().err
        assert code == 2
        assert said in err and "exists" not in err.lower()
    assert a_file.read_text(encoding="utf-8") == "root:x:0:0\n"


# --------------------------------------------------------------------------- damaged latest


def _age(path: Path, seconds_ago: float) -> None:
    stamp = time.time() - seconds_ago
    os.utime(path, (stamp, stamp))


def test_a_damaged_latest_save_is_named_and_the_older_game_is_not_resumed_silently(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    older = data / "older game.json"
    code = main([*PLAY, "--lang", "fr", "--input", "text", "--output", "text",
                 "--save", str(older), "--script", str(_script(tmp_path, "s", ["Ada et Ben"]))])
    assert code == 3
    damaged = data / "newest.json"
    damaged.write_text("{not json", encoding="utf-8")
    _age(older, 300)
    before = older.read_bytes()
    capsys.readouterr()
    code = main(["resume", "--lang", "en"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"The most recent saved game, {damaged}, is damaged, so I did not resume" in err
    assert older.read_bytes() == before  # nothing resumed
    # the exact command to resume the older one, as printed
    args = _printed_command(err.split("To resume it: ", 1)[1].join(["X", ""]), "X")
    assert args == ["resume", str(older)]
    code = main([*args, "--script", str(_script(tmp_path, "end", ["statut"]))])
    out = capsys.readouterr().out
    assert code == 3
    assert "Re-bonjour." in out  # the older game, in its own language


def test_a_damaged_latest_save_with_nothing_older(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data.mkdir(parents=True)
    shutil.copy(SAVES / "v1-codenames-host.json", data / "a.json")
    (data / "b.json").write_text("[]", encoding="utf-8")
    done = json.loads((data / "a.json").read_text(encoding="utf-8"))
    done["format"] = "something else"
    (data / "a.json").write_text(json.dumps(done), encoding="utf-8")
    _age(data / "a.json", 600)
    assert main(["resume"]) == 2
    err = capsys.readouterr().err
    assert f"The most recent saved game, {data / 'b.json'}, is damaged" in err
    assert f"The next most recent, {data / 'a.json'}, is damaged too." in err
    assert "There is no older unfinished game to resume." in err


def test_a_french_game_shows_its_screen_lines_in_french(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from voice_host.host.io import wiring

    monkeypatch.setattr(wiring, "has_speaker", lambda: False)
    code = main([*PLAY, "--lang", "fr", "--deal", "host", "--input", "text",
                 "--save", str(tmp_path / "g.json"),
                 "--script", str(_script(tmp_path, "s", ["Ada et Ben"]))])
    err = capsys.readouterr().err
    assert code == 3
    assert "Je ne trouve pas de haut-parleur." in err and "Les secrets de chaque" in err
    assert "Pour reprendre cette partie : voice-host resume" in err
    code = main(["resume", str(tmp_path / "g.json"), "--output", f"wav:{tmp_path / 'w'}",
                 "--script", str(_script(tmp_path, "t", ["statut"]))])
    err = capsys.readouterr().err
    assert code == 3
    assert f"La narration est écrite dans {tmp_path / 'w'}" in err
    for english in ("speaker", "Narration written", "To continue", "Saving the game"):
        assert english not in err.replace("haut-parleur", "")
