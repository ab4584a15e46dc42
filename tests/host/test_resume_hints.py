"""What a player reads and hears around stopping and resuming: the resume hint names a custom
save file, a resumed game says whose turn it is, secret files are private, and the banner
does not promise a secrets folder the companion page never writes."""

from __future__ import annotations

import argparse
import random
import stat
from dataclasses import replace
from pathlib import Path

import pytest

from voice_host.cli import main
from voice_host.games.codenames import Colour, clue_problem
from voice_host.host.adapters import new_game
from voice_host.host.cli import play
from voice_host.host.core.config import SessionConfig
from voice_host.host.core.values import Line
from voice_host.host.io import wiring
from voice_host.host.io.secret_files import SecretFiles


def _script(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / f"{name}.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_stop_with_a_custom_save_names_it_and_resume_says_whose_turn_and_the_clue(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    opts = {"deal": "host", "lang": "en", "red": ["Hannah", "Thomas"],
            "blue": ["Sophie", "Oliver"], "first": "red", "words": "en",
            "invalid_clue": "refuse", "seed": 5}
    state = new_game("codenames", opts)
    state.apply(state.chance_action(random.Random(5)))
    key = state.player_view("Hannah")["key"]
    red = [w for w, c in zip(state.words, key, strict=True) if c == Colour.RED.value]
    clue = next(w for w in ("ocean", "music", "winter", "money", "garden")
                if clue_problem(w, state.words) is None)
    save = tmp_path / "evening" / "codenames-night.json"
    lines = [f"Hannah: {clue} two", f"Thomas: {red[0]}", "stop the game", "yes"]
    code = main(["play", "codenames", "--red", "Hannah,Thomas", "--blue", "Sophie,Oliver",
                 "--first", "red", "--deal", "host", "--input", "text", "--output", "text",
                 "--seed", "5", "--save", str(save), "--script",
                 str(_script(tmp_path, "part", lines))])
    captured = capsys.readouterr()
    assert code == 0
    assert "The game is saved in the file codenames-night.json. Run voice-host resume with " \
           "that file" in captured.out
    assert f"To continue this game: voice-host resume {save}" in captured.err
    code = main(["resume", str(save), "--input", "text", "--output", "text", "--script",
                 str(_script(tmp_path, "none", []))])
    out = capsys.readouterr().out.splitlines()
    assert code == 3
    back = next(i for i, line in enumerate(out) if "Welcome back." in line)
    # the first thing said after "welcome back": whose turn, and which clue
    assert out[back + 1].startswith(f"HOST: The red team is guessing. The clue is {clue}, "
                                    "two."), out[back:]


def test_secret_files_are_private_to_their_user(tmp_path: Path) -> None:
    secrets = SecretFiles(tmp_path / "game-secrets")
    old = secrets.path_for("Ben")
    secrets.folder.mkdir()
    old.write_text("from an older version\n", encoding="utf-8")
    old.chmod(0o644)
    secrets(Line("Ada, you are a spy.", to="Ada"))
    secrets(Line("Ben, you are a hero.", to="Ben"))
    assert stat.S_IMODE(secrets.path_for("Ada").stat().st_mode) == 0o600
    assert stat.S_IMODE(old.stat().st_mode) == 0o600
    assert old.read_text(encoding="utf-8").endswith("Ben, you are a hero.\n")


def test_cli_host_deal_secret_files_are_0600(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    save = tmp_path / "game.json"
    main(["play", "resistance", "--players", "Ada,Ben,Cleo,Dan,Eve", "--deal", "host",
          "--input", "text", "--output", "text", "--seed", "2", "--save", str(save),
          "--script", str(_script(tmp_path, "s", ["(silence)"]))])
    files = list((tmp_path / "game-secrets").glob("secret-*.txt"))
    assert len(files) == 5
    assert {stat.S_IMODE(f.stat().st_mode) for f in files} == {0o600}
    assert stat.S_IMODE((tmp_path / "game-secrets").stat().st_mode) == 0o700
    assert capsys.readouterr().err.count("secrets are written to") == 1


@pytest.mark.parametrize("companion", [False, True])
def test_the_banner_names_a_secrets_folder_only_when_files_are_written(
        tmp_path: Path, companion: bool) -> None:
    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    argv = ["resistance", "--players", "Ada,Ben,Cleo,Dan,Eve", "--deal", "host",
            "--input", "text", "--output", "text"]
    args = parser.parse_args(argv + (["--companion"] if companion else []))
    config = SessionConfig.from_args(args, "resistance", play.game_options(args))
    io = wiring.build_io(replace(config, save_path=tmp_path / "g.json"))
    assert ("secrets are written to" in io.banner) is not companion
    assert not (tmp_path / "g-secrets").exists()
