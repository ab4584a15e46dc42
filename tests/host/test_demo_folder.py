"""`voice-host demo --out DIR` twice: the second game starts in a clean folder (the log was
appended to and numbered WAVs written over, so a second game's figures and its whole-game
audio mixed in the first one's), and a folder holding anything else is never touched."""

from __future__ import annotations

from pathlib import Path

import pytest

from voice_host.cli import main
from voice_host.host.cli.demo import fresh_folder


def earlier_demo(out: Path) -> None:
    for folder in ("narration", "players", "secrets"):
        (out / folder).mkdir(parents=True)
    (out / "narration" / "0240-host.wav").write_bytes(b"RIFF")
    (out / "players" / "0099-Hannah.wav").write_bytes(b"RIFF")
    (out / "secrets" / "secret-Hannah.txt").write_text("spy")
    for name in ("log.jsonl", "transcript.txt", "game.json", "game.ogg", "game-transcript.txt"):
        (out / name).write_text("{}\n")


def test_an_earlier_demo_s_output_is_replaced(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    earlier_demo(out)
    assert fresh_folder(out) is None
    assert list(out.iterdir()) == []
    assert fresh_folder(tmp_path / "new") is None  # a folder not made yet
    assert not (tmp_path / "new").exists()


def test_a_folder_with_other_files_is_left_alone(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "music"
    earlier_demo(out)
    (out / "holiday.mp3").write_bytes(b"ID3")
    said = fresh_folder(out)
    assert said is not None and "holiday.mp3" in said and "new or empty folder" in said
    assert (out / "holiday.mp3").exists() and (out / "narration" / "0240-host.wav").exists()
    # the command says so and stops, before any model is loaded
    assert main(["demo", "--game", "resistance", "--out", str(out), "--quiet"]) == 2
    assert "holiday.mp3" in capsys.readouterr().err
    assert (out / "log.jsonl").read_text() == "{}\n"
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    assert "is a file" in (fresh_folder(a_file) or "")
    assert a_file.read_text() == "mine"
