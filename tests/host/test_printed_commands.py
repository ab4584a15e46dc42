"""The commands the host prints run as printed, from any folder: the resume command names
its save by an absolute path, quoted for the shell."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from voice_host.cli import main
from voice_host.host.cli.play import resume_command

PLAY = ["play", "resistance", "--players", "Ada,Ben,Cleo,Dan,Eve", "--first", "Ada",
        "--seed", "3", "--input", "text", "--output", "text"]
PREFIX = "To continue this game: "


def test_the_resume_command_names_the_save_absolutely_and_quoted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    command = resume_command(Path("my games") / "it's late.json")
    words = shlex.split(command)
    assert words == ["voice-host", "resume", str(tmp_path / "my games" / "it's late.json")]
    assert Path(words[2]).is_absolute()


def test_an_absolute_save_path_is_printed_as_it_is(tmp_path: Path) -> None:
    save = tmp_path / "evening.json"
    assert resume_command(save) == f"voice-host resume {save}"


def _stopped_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                  capsys: pytest.CaptureFixture[str]) -> str:
    """Play a game from ``tmp_path`` with a relative save path, stop it, and return the
    resume command it printed."""
    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "lines.txt"
    script.write_text("Ada and Ben\n", encoding="utf-8")
    code = main([*PLAY, "--save", "saved games/friday.json", "--script", str(script)])
    assert code == 3  # the script ended before the game: saved, to be resumed
    err = capsys.readouterr().err
    return next(line for line in err.splitlines()
                if line.startswith(PREFIX))[len(PREFIX):]


def test_the_printed_command_resumes_from_another_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    command = _stopped_game(tmp_path, monkeypatch, capsys)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    script = tmp_path / "more.txt"
    script.write_text("status\n", encoding="utf-8")
    words = shlex.split(command)
    assert words[:2] == ["voice-host", "resume"]
    code = main([*words[1:], "--script", str(script)])
    out = capsys.readouterr().out
    assert code == 3
    assert "Welcome back." in out


def test_a_shell_runs_the_printed_command_from_the_root_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Pasted into a shell in ``/``, with ``voice-host`` on the PATH as setup puts it."""
    command = _stopped_game(tmp_path, monkeypatch, capsys)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    program = bin_dir / "voice-host"
    program.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m voice_host.cli "$@"\n',
                       encoding="utf-8")
    program.chmod(0o755)
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "PYTHONPATH": root, "VOICE_HOST_DATA": str(tmp_path / "data")}
    done = subprocess.run(["sh", "-c", f"cd / && {command} --input text --output text"],
                          input="stop the game\nyes\n", capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "Welcome back." in done.stdout
    assert PREFIX + command in done.stderr  # stopped again: the same command, still runnable
