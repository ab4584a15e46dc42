"""Codenames on the television: besides the public view, the game's story once it is over
(each clue and the words its team covered, replayed from the engine's history). The key card
is never part of it: only covered tiles, which everyone saw."""

from __future__ import annotations

from typing import Any

from voice_host.games import GameState
from voice_host.games.base import Deal
from voice_host.games.codenames import ClueGiven, CodenamesState, GuessResolved, Team


def facts(state: GameState) -> dict[str, Any]:
    if not isinstance(state, CodenamesState) or not state.is_terminal():
        return {}
    data = state.to_json()
    first = data["first_option"]
    fresh = CodenamesState(tuple(data["players"]), red_size=int(data["red_size"]),
                           deal=Deal(data["deal"]),
                           first=None if first is None else Team(first),
                           words=str(data["words_option"]),
                           invalid_clue=str(data["invalid_clue"]))
    turns: list[dict[str, Any]] = []
    for action in state.history():
        for event in fresh.apply(action):
            if isinstance(event, ClueGiven):
                turns.append({"team": event.team.value, "clue": event.word,
                              "number": event.number, "covered": []})
            elif isinstance(event, GuessResolved) and turns:
                turns[-1]["covered"].append({"word": event.word,
                                             "colour": event.colour.value})
    return {"turns": turns}
