"""Ici Londres on the television: besides the public view, the rounds once the game is over
(each round's Speaker and the icons found, who found them and who intercepted), replayed from
the engine's history. Icons nobody found stay secret, as the rules want."""

from __future__ import annotations

from typing import Any

from voice_host.games import GameState
from voice_host.games.base import Deal
from voice_host.games.ici_londres import (
    IciLondresState,
    IconRevealed,
    RoundEnded,
    RoundStarted,
    Transmission,
)


def facts(state: GameState) -> dict[str, Any]:
    if not isinstance(state, IciLondresState) or not state.is_terminal():
        return {}
    data = state.to_json()
    fresh = IciLondresState.new(list(data["players"]), deal=Deal(data["deal"]),
                                mode=Transmission(data["first_mode"]), rounds=data["rounds"],
                                first_speaker=data["first_speaker"])
    rounds: list[dict[str, Any]] = []
    for action in state.history:
        for event in fresh.apply(action):
            if isinstance(event, RoundStarted):
                rounds.append({"round": event.round, "speaker": event.speaker,
                               "wehrmacht": event.wehrmacht, "found": []})
            elif isinstance(event, IconRevealed) and rounds:
                rounds[-1]["found"].append({"icon": event.icon, "finder": event.finder,
                                            "intercepted": event.by_wehrmacht})
            elif isinstance(event, RoundEnded) and rounds:
                rounds[-1]["complete"] = event.complete
    return {"rounds": rounds}
