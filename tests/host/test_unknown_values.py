"""Refusals that say why: a command naming a player who is not playing, a word not on the
board or an icon that does not exist is refused with that reason (and, for a name, who the
players are), in both languages; nothing is taken."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import scripted
from tests.support.codenames_game import dealt, valid_clues
from tests.support.codenames_game import options as codenames_options
from tests.support.codenames_game import play as play_codenames
from tests.support.ici_londres_table import PLAYERS3, options, play

RESISTANCE = {"deal": "table", "players": ["Ada", "Ben", "Cleo", "Dan", "Eve"],
              "double_agent": True, "first": "Ada", "votes": "together", "seed": 7}


@pytest.mark.parametrize(("lang", "lines", "says"), [
    ("en", ["Ada and Ben", "Frank yes"],
     "Frank is not playing: the players are Ada, Ben, Cleo, Dan and Eve."),
    ("en", ["Ada and Ben", "Ada and Frank yes, Cleo no"],
     "Frank is not playing: the players are Ada, Ben, Cleo, Dan and Eve."),
    ("en", ["I choose Ada and Zoe"],
     "Zoe is not playing: the players are Ada, Ben, Cleo, Dan and Eve."),
    ("en", ["Ada and Ben", "Frank and Zoe no"],
     "Frank and Zoe are not playing: the players are Ada, Ben, Cleo, Dan and Eve."),
    ("fr", ["Ada et Ben", "Frank oui"],
     "Frank ne joue pas : les joueurs sont Ada, Ben, Cleo, Dan et Eve."),
    ("fr", ["je choisis Ada et Zoé"],
     "Zoé ne joue pas : les joueurs sont Ada, Ben, Cleo, Dan et Eve."),
])
def test_a_name_nobody_has_is_refused_with_the_players(
        tmp_path: Path, lang: str, lines: list[str], says: str) -> None:
    run = scripted.run_script(tmp_path, "resistance", {**RESISTANCE, "lang": lang}, lines)
    assert says in run.text
    moves = [a["action"]["type"] for a in run.events("action")]
    assert "CastVote" not in moves  # nothing of the refused line was taken
    assert len([m for m in moves if m == "ProposeTeam"]) == (1 if len(lines) == 2 else 0)
    assert run.events("refused")


def test_a_word_not_on_the_board_is_refused_as_such(tmp_path: Path) -> None:
    opts = codenames_options(first="red")
    state = dealt(opts)
    clue = valid_clues(state)[0]
    assert "animal" not in state.words
    run = play_codenames(tmp_path, opts, [f"Hannah: {clue} two", "Thomas: animal",
                                          "Thomas: guess animal"])
    assert run.text.count("animal is not on the board.") == 2
    assert not [a for a in run.events("action") if a["action"]["type"] == "Guess"]


def test_a_french_word_not_on_the_board(tmp_path: Path) -> None:
    opts = codenames_options(first="red", lang="fr", words="fr")
    state = dealt(opts)
    run = play_codenames(tmp_path, opts, ["Hannah: océan deux", "Thomas: girafe"])
    if "girafe" in state.words:
        pytest.skip("the board has girafe on it")
    assert "girafe n'est pas sur le plateau." in run.text


@pytest.mark.parametrize(("lang", "lines", "says"), [
    ("en", ["Love", "the giraffe"], "There is no icon called giraffe."),
    ("fr", ["Amour", "la girafe"], "Il n'y a pas d'icône « girafe »."),
])
def test_an_icon_that_does_not_exist(tmp_path: Path, lang: str, lines: list[str],
                                     says: str) -> None:
    run = play(tmp_path, options(players=PLAYERS3, deal="table", lang=lang), lines)
    assert says in run.text
    assert not [a for a in run.actions() if a["type"] == "Pick"]


def test_table_talk_with_an_unknown_word_stays_talk(tmp_path: Path) -> None:
    run = scripted.run_script(tmp_path, "resistance", {**RESISTANCE, "lang": "en"},
                              ["Ada and Ben", "pass me the guacamole please"])
    assert "is not playing" not in run.text and "not on the board" not in run.text
