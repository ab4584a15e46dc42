"""Saves carry a version, and a save from an older version is migrated on load.

The fixtures in ``saves/`` were written by voice-host before actions named their actor (save
version 1, engine states version 1; see ``saves/make_v1_saves.py``): one mid-game per game and
deal, and a Resistance game waiting for the accused's answer. Each must load, name every
action's actor, resume, and be written back in the current version."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from voice_host.cli import main
from voice_host.games.base import PlayerAction
from voice_host.games.codenames import Team
from voice_host.host.cli.resume import open_saved
from voice_host.host.core.registry import registration
from voice_host.host.core.store import SAVE_VERSION, SavedGame, SaveError, load_game

SAVES = Path(__file__).parent / "saves"
FIXTURES = sorted(SAVES.glob("v1-*.json"))


def test_there_is_a_version_1_save_of_every_game() -> None:
    games = {json.loads(p.read_text(encoding="utf-8"))["game"] for p in FIXTURES}
    assert games == {reg.name for reg in (registration(g) for g in games)}
    assert {"resistance", "ici-londres", "codenames"} <= games
    for path in FIXTURES:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["version"] == 1 and data["state"]["version"] == 1, path.name


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_a_version_1_save_is_migrated_on_load(path: Path) -> None:
    old = json.loads(path.read_text(encoding="utf-8"))
    saved = load_game(path)
    assert saved.to_json()["version"] == SAVE_VERSION == 3
    reg = registration(saved.game)
    for state_json in [saved.state, *(snap["state"] for snap in saved.undo)]:
        assert state_json["version"] == 2
    # the same game, move for move: only the history's records changed
    new_state = {k: v for k, v in saved.state.items() if k not in ("version", "history")}
    assert new_state == {k: v for k, v in old["state"].items()
                         if k not in ("version", "history")}
    assert len(saved.state["history"]) == len(old["state"]["history"])
    state = reg.state_class.from_json(saved.state)
    history = [record for record in saved.state["history"]
               if record["type"] not in ("Setup", "Draw", "DealGrid")]
    assert history, "the fixture has player actions"
    players = set(state.players)
    for record in history:
        assert record["player"] in players, record
    assert saved.options == reg.complete(old["options"])
    assert saved.host_state == old["host_state"] and saved.rng == old["rng"]


def test_migrated_actors_are_the_ones_who_acted() -> None:
    saved = load_game(SAVES / "v1-resistance-table.json")
    leaders = {tuple(v["team"]): v["leader"] for v in saved.state["vote_log"]}
    for record in saved.state["history"]:
        if record["type"] == "ProposeTeam":
            assert leaders[tuple(record["team"])] == record["player"]
    codenames = load_game(SAVES / "v1-codenames-table.json")
    reg = registration("codenames")
    state = reg.state_class.from_json(codenames.state)
    for record in codenames.state["history"]:
        if record["type"] in ("GiveClue", "StateColour"):
            assert record["player"] in (state.spymaster(t) for t in Team), record
        if record["type"] in ("Guess", "EndTurn"):
            team = state.team_of(record["player"])
            assert team is not None and record["player"] != state.spymaster(team)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_a_version_1_save_resumes_and_is_written_back_as_version_2(
        path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    save = tmp_path / path.name
    shutil.copy(path, save)
    saved, state, _ = open_saved(save)
    assert not state.is_terminal()
    script = tmp_path / "end.txt"
    script.write_text("status\n", encoding="utf-8")
    code = main(["resume", str(save), "--input", "text", "--output", "text", "--script",
                 str(script)])
    out = capsys.readouterr().out
    assert code == 3
    assert "The game continues where it stopped." in out
    written = json.loads(save.read_text(encoding="utf-8"))
    assert written["version"] == SAVE_VERSION and written["state"]["version"] == 2
    assert written["state"] == saved.state


def test_the_accused_answers_in_a_migrated_game_and_nobody_else(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    save = tmp_path / "answer.json"
    shutil.copy(SAVES / "v1-resistance-table-answer.json", save)
    saved = load_game(save)
    accuse = [r for r in saved.state["history"] if r["type"] == "Accuse"]
    assert [r["accused"] for r in accuse] == ["Sophie"] and accuse[0]["player"] in (
        saved.state["players"])
    script = tmp_path / "answer.txt"
    script.write_text("Thomas: no\nSophie: no\n", encoding="utf-8")
    code = main(["resume", str(save), "--input", "text", "--output", "text", "--script",
                 str(script), "--confirm", "never"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Thomas, only Sophie answers this." in out
    written = json.loads(save.read_text(encoding="utf-8"))
    assert written["state"]["phase"] == "over"
    assert written["state"]["history"][-1] == {"type": "ConfirmDoubleAgent", "player": "Sophie",
                                                "was_double_agent": False}
    assert isinstance(registration("resistance").state_class.action_types[-1](
        "Sophie", False), PlayerAction)


def test_a_version_1_save_whose_history_does_not_lead_to_it_is_refused(tmp_path: Path) -> None:
    data = json.loads((SAVES / "v1-resistance-table.json").read_text(encoding="utf-8"))
    data["state"]["mission"] += 1  # the history no longer arrives here
    with pytest.raises(SaveError, match="older version of voice-host, is damaged"):
        SavedGame.from_json(data)


def test_a_save_from_a_newer_version_is_refused_with_a_sentence() -> None:
    data = json.loads((SAVES / "v1-codenames-host.json").read_text(encoding="utf-8"))
    data["version"] = SAVE_VERSION + 1
    with pytest.raises(SaveError, match="another version of voice-host"):
        SavedGame.from_json(data)
