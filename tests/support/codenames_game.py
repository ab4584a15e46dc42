"""A Codenames game of the host's tests: its options (Hannah and Thomas red, Sophie and
Oliver blue), the deal the session will make, the key, clue words valid on the board, and a
scripted game through the real Session."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.support.scripted import Run, run_script
from voice_host.games.codenames import CodenamesState, Colour, Team, clue_problem
from voice_host.host.adapters import new_game

RED = ["Hannah", "Thomas"]
BLUE = ["Sophie", "Oliver"]


def options(**over: Any) -> dict[str, Any]:
    opts: dict[str, Any] = {"deal": "host", "lang": "en", "red": list(RED), "blue": list(BLUE),
                            "first": None, "words": "en", "invalid_clue": "refuse", "seed": 7}
    opts.update(over)
    return opts


def dealt(opts: dict[str, Any]) -> CodenamesState:
    """The state right after the deal the session will make (same seed, same first draw)."""
    state = new_game("codenames", opts)
    assert isinstance(state, CodenamesState)
    state.apply(state.chance_action(random.Random(opts["seed"])))
    return state


def key_of(state: CodenamesState) -> dict[Colour, list[str]]:
    key = state.player_view(state.spymaster(Team.RED))["key"]
    out: dict[Colour, list[str]] = {c: [] for c in Colour}
    for word, colour in zip(state.words, key, strict=True):
        out[Colour(colour)].append(word)
    return out


def valid_clues(state: CodenamesState, n: int = 6) -> list[str]:
    """Clue words valid on the fresh board (they stay valid as tiles get covered)."""
    return [w for w in ("ocean", "music", "winter", "money", "garden", "river", "summer",
                        "metal", "party", "paper", "island", "market")
            if clue_problem(w, state.words) is None][:n]


def play(tmp_path: Path, opts: dict[str, Any], script: list[str], *, confirm: str = "never",
         name: str = "game") -> Run:
    return run_script(tmp_path, "codenames", opts, script, confirm=confirm, name=name,
                      save=tmp_path / f"{name}.json")
