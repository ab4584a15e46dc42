"""What ``resume`` says before a save names the game's language: ``--lang``, else the game
being resumed, else the most recent readable save (a finished game too), else the system's
language; never English to a French table by default."""

from __future__ import annotations

from pathlib import Path

import pytest

from voice_host.cli import main
from voice_host.host.cli.resume import system_language

PLAY = ["play", "resistance", "--players", "Ada,Ben,Cleo,Dan,Eve", "--seed", "5",
        "--input", "text", "--output", "text"]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    return tmp_path / "data" / "saves"


def _finished_french_game(tmp_path: Path, save: Path) -> None:
    lines = ["Ada et Ben", "tout le monde oui", "un sabotage", "Ben, Cleo et Dan",
             "tout le monde oui", "deux sabotages", "Cleo et Eve", "tout le monde oui",
             "un sabotage"]
    script = tmp_path / "whole.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main([*PLAY, "--lang", "fr", "--script", str(script), "--save", str(save)]) == 0


@pytest.mark.parametrize(("env", "expected"), [
    ({"LANG": "fr_FR.UTF-8"}, "fr"), ({"LANG": "fr_CA"}, "fr"), ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"), ({"LC_ALL": "en_GB.UTF-8", "LANG": "fr_FR"}, "en"),
    ({"LC_MESSAGES": "fr_BE.UTF-8", "LANG": "en_US"}, "fr"),
    ({"LANGUAGE": "de:fr:en", "LANG": "de_DE"}, "fr"), ({"LANGUAGE": "", "LANG": "POSIX"}, "en"),
    ({}, "en"),
])
def test_the_system_language(monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
                             expected: str) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert system_language() == expected


@pytest.mark.parametrize("lang", ["fr_FR.UTF-8", "C.UTF-8"])
def test_nothing_to_resume_is_said_in_the_systems_language(
        data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        lang: str) -> None:
    monkeypatch.setenv("LANG", lang)
    assert main(["resume"]) == 2
    err = capsys.readouterr().err
    french = "Il n'y a aucune partie inachevée à reprendre."
    english = "There is no unfinished saved game to resume."
    assert (french if lang.startswith("fr") else english) in err
    assert (english if lang.startswith("fr") else french) not in err
    assert main(["resume", str(data / "missing.json")]) == 2
    err = capsys.readouterr().err
    assert ("Il n'y a pas de partie sauvegardée" if lang.startswith("fr")
            else "There is no saved game at") in err


def test_after_a_finished_french_game_resume_answers_in_french(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _finished_french_game(tmp_path, data / "done.json")
    before = (data / "done.json").read_bytes()
    capsys.readouterr()
    assert main(["resume"]) == 2  # the system is English: the save's language wins
    err = capsys.readouterr().err
    assert "Il n'y a aucune partie inachevée à reprendre." in err
    assert main(["resume", "--lang", "en"]) == 2  # what the command line says wins over all
    assert "There is no unfinished saved game to resume." in capsys.readouterr().err
    assert (data / "done.json").read_bytes() == before


def test_a_bad_resume_command_line_is_refused_in_the_latest_games_language(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _finished_french_game(tmp_path, data / "done.json")
    capsys.readouterr()
    with pytest.raises(SystemExit) as stopped:
        main(["resume", "--silence-timeout", "soon"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "erreur" in err and "error" not in err


def test_resume_reads_each_save_once_for_its_language(
        data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line's guess of the language is handed to resume, which does not read
    every save again for it: one finished French game, nothing to resume, said in French."""
    from voice_host.host.cli import resume

    _finished_french_game(tmp_path, data / "done.json")
    capsys.readouterr()
    reads: list[Path] = []
    real = resume.load_game

    def counted(path: Path) -> object:
        reads.append(path)
        return real(path)

    monkeypatch.setattr(resume, "load_game", counted)
    assert main(["resume"]) == 2
    assert "Il n'y a aucune partie inachevée à reprendre." in capsys.readouterr().err
    assert len(reads) == 2, reads  # once for the guess, once to look for an unfinished game
