"""The end of a game: a recap in the game's language (roles revealed with what each player
did, the moments worth retelling), then "Play again with the same players?" -- a yes starts
a new game with the seating moved on, in the same modes, saved and resumable."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from voice_host.games import GameState
from voice_host.games.codenames import Colour
from voice_host.host.core.registry import game_names, make_adapter, new_game, registration

NAMES = ["Ada", "Ben", "Cleo", "Dan", "Eve"]


def finished(game: str, seed: int, lang: str, deal: str = "host") -> tuple[GameState,
                                                                           dict[str, Any]]:
    reg = registration(game)
    options = reg.complete({**reg.seat(NAMES[:max(4, reg.description.min_players)]),
                            "deal": deal, "lang": lang, "seed": seed})
    state = new_game(game, options)
    rng = random.Random(seed)
    for _ in range(5000):
        if state.is_terminal():
            break
        state.apply(state.random_action(rng))
    assert state.is_terminal()
    return state, options


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_game_ends_with_a_recap_in_its_language(game: str, lang: str, seed: int) -> None:
    state, options = finished(game, seed, lang)
    adapter = make_adapter(game, options)
    lines = adapter.recap(state)
    assert len(lines) >= 2
    assert all(line.lang == lang for line in lines)
    text = " ".join(line.text for line in lines)
    assert "{" not in text and "}" not in text
    if lang == "fr":
        assert "Here is" not in text


def test_the_resistance_recap_reveals_every_role_with_what_they_did() -> None:
    from voice_host.games.resistance import ResistanceState, Role

    state, options = finished("resistance", 4, "en")
    assert isinstance(state, ResistanceState)
    lines = [line.text for line in make_adapter("resistance", options).recap(state)]
    for player in state.players:
        said = next(line for line in lines if line.startswith(player + " was"))
        role = state.role_of(player)
        word = {Role.SPY: "spy", Role.HERO: "hero", Role.DOUBLE_AGENT: "double agent"}[role]
        assert word in said
        failed = [m.mission for m in state.mission_history
                  if player in m.team and not m.succeeded]
        if role is Role.SPY and failed:
            assert "sabotaged" in said and all(str(n) in said for n in failed)


def test_a_table_dealt_resistance_recap_names_who_was_on_the_sabotaged_missions() -> None:
    from voice_host.games.resistance import ResistanceState

    for seed in range(20):
        state, options = finished("resistance", seed, "en", deal="table")
        assert isinstance(state, ResistanceState)
        failed = [m for m in state.mission_history if not m.succeeded]
        if failed:
            break
    lines = [line.text for line in make_adapter("resistance", options).recap(state)]
    for mission in failed:
        said = next(line for line in lines if line.startswith(f"Mission {mission.mission} "))
        assert all(player in said for player in mission.team)


def test_the_codenames_recap_tells_the_best_clue_and_the_assassin() -> None:
    from voice_host.games.codenames import CodenamesState

    state, options = finished("codenames", 5, "en")
    assert isinstance(state, CodenamesState)
    text = " ".join(line.text for line in make_adapter("codenames", options).recap(state))
    key = state.to_json()["key"]
    assassin = state.words[key.index(Colour.ASSASSIN.value)]
    assert f"The assassin was {assassin}" in text
    for team in ("red", "blue"):
        assert f"The {team} team:" in text


def test_the_ici_londres_recap_counts_interceptions_and_the_best_decoder() -> None:
    from voice_host.games.ici_londres import IciLondresState

    state, options = finished("ici-londres", 6, "en")
    assert isinstance(state, IciLondresState)
    text = " ".join(line.text for line in make_adapter("ici-londres", options).recap(state))
    assert "intercepted" in text
    assert "Best decoding:" in text


def test_no_recap_before_the_end() -> None:
    reg = registration("codenames")
    options = reg.complete({**reg.seat(NAMES[:4]), "deal": "host", "seed": 1})
    assert make_adapter("codenames", options).recap(new_game("codenames", options)) == []


# -------------------------------------------------------------------- play again


def _assassin_script(seed: int, lang: str) -> tuple[list[str], str]:
    """A Codenames game that ends at once: red's first guess is the assassin."""
    reg = registration("codenames")
    options = reg.complete({"red": ["Hannah", "Thomas"], "blue": ["Sophie", "Oliver"],
                            "deal": "host", "lang": lang, "seed": seed, "first": "red"})
    state = new_game("codenames", options)
    deal = state.chance_action(random.Random(seed))
    state.apply(deal)
    key = state.to_json()["key"]
    assassin = state.words[key.index("assassin")]
    clue = next(w for w in ("zebra", "volcano", "pirate", "galaxy", "marathon")
                if state.clue_problem(w) is None)
    if lang == "fr":
        clue = next(w for w in ("zèbre", "volcan", "pirate", "galaxie", "marathon")
                    if state.clue_problem(w) is None)
        return [f"Hannah: {clue} un", f"Thomas: {assassin}"], assassin
    return [f"Hannah: {clue} one", f"Thomas: {assassin}"], assassin


def _play(tmp_path: Path, lines: list[str], lang: str, seed: int) -> tuple[int, str]:
    from voice_host.cli import main

    script = tmp_path / "script.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    save = tmp_path / "evening.json"
    args = ["play", "codenames", "--red", "Hannah,Thomas", "--blue", "Sophie,Oliver",
            "--first", "red", "--deal", "host", "--lang", lang, "--seed", str(seed),
            "--input", "text", "--script", str(script), "--output", "text",
            "--confirm", "never", "--save", str(save)]
    return main(args), str(save)


@pytest.mark.parametrize(("lang", "yes", "no"), [("en", "yes", "no"), ("fr", "oui", "non")])
def test_play_again_starts_a_new_saved_game_with_the_seating_moved_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, yes: str,
        no: str) -> None:
    seed = 11
    lines, _ = _assassin_script(seed, lang)
    rc, save = _play(tmp_path, [*lines, yes], lang, seed)
    out = capsys.readouterr()
    assert rc == 3  # the script ended in the new game, which is saved to continue later
    first = json.loads(Path(save).read_text(encoding="utf-8"))
    assert first["state"]["winner"] == "blue"
    second_path = tmp_path / "evening-game2.json"
    second = json.loads(second_path.read_text(encoding="utf-8"))
    assert second["options"]["red"] == ["Thomas", "Sophie"]
    assert second["options"]["blue"] == ["Oliver", "Hannah"]
    assert second["settings"] == first["settings"]  # the same modes
    assert second["state"]["winner"] is None
    said = out.out
    recap = "Here is how it went." if lang == "en" else "Voici comment la partie s'est jouée."
    assert recap in said
    assert str(second_path) in out.err  # the resume command names the new game

    # the new game resumes like any other
    from voice_host.cli import main

    script = tmp_path / "more.txt"
    script.write_text("Thomas: quit\n", encoding="utf-8")
    assert main(["resume", str(second_path), "--script", str(script)]) in (0, 3)


@pytest.mark.parametrize(("lang", "no", "bye"), [
    ("en", "no", "Good night, and see you next time!"),
    ("fr", "non", "Bonne soirée, et à la prochaine !")])
def test_no_to_play_again_ends_the_evening(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           lang: str, no: str, bye: str) -> None:
    lines, _ = _assassin_script(12, lang)
    rc, _ = _play(tmp_path, [*lines, no], lang, 12)
    out = capsys.readouterr().out
    assert rc == 0
    assert bye in out
    assert not (tmp_path / "evening-game2.json").exists()
