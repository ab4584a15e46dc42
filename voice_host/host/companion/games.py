"""What each game lets a player do on the companion page, and what the page adds to the
engine's views.

Only *secret* inputs are taken on the page (a Resistance mission card in host deal mode);
everything public is still said aloud to the host. The choices offered to a seat are the
engine's own legal actions for that player, so a hero is offered only success."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from voice_host.games import Action, GameState
from voice_host.games.icons import ICONS
from voice_host.games.resistance import PlayMissionCard


class ChoiceError(Exception):
    """A request from the page that names no known choice. ``reason`` is for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Choice:
    """One secret input a seat may send now."""

    id: str
    """What the page sends back, e.g. ``"sabotage"``."""
    label: str
    """The button's words, e.g. ``"Play sabotage"``."""
    confirm: str
    """The confirmation question, e.g. ``"Play sabotage? Nobody will know it was you."``."""


_MISSION_CHOICES: Mapping[str, Choice] = {
    "success": Choice("success", "Play success",
                      "Play success? Your card is shuffled with the others."),
    "sabotage": Choice("sabotage", "Play sabotage",
                       "Play sabotage? Your card is shuffled with the others."),
}


def private_action(game: str, seat: str, choice: str) -> Action:
    """The engine action a seat's choice stands for (the seat is always the actor: the page
    never says who acts). Raises :class:`ChoiceError` for an unknown choice."""
    if game == "resistance" and choice in _MISSION_CHOICES:
        return PlayMissionCard(player=seat, sabotage=choice == "sabotage")
    raise ChoiceError("That is not something you can do on this page.")


def is_private(action: Action) -> bool:
    """True for the actions the companion page takes (secret inputs)."""
    return isinstance(action, PlayMissionCard)


def choices(state: GameState, seat: str) -> list[Choice]:
    """The secret inputs ``seat`` may send now, from the engine's legal actions."""
    if state.is_chance_node() or state.is_terminal() or seat not in state.current_players():
        return []
    out: list[Choice] = []
    for action in state.legal_actions(seat):
        if isinstance(action, PlayMissionCard) and action.player == seat:
            out.append(_MISSION_CHOICES["sabotage" if action.sabotage else "success"])
    return out


def private_turn(state: GameState) -> tuple[str, ...]:
    """Players who must now act on the page (empty when the host waits for speech)."""
    if state.is_chance_node() or state.is_terminal():
        return ()
    return tuple(p for p in state.current_players()
                 if any(is_private(a) for a in state.legal_actions(p)))


def extras(game: str) -> dict[str, Any]:
    """Fixed facts the page needs to draw a game (the 36 icons of Ici Londres)."""
    if game == "ici-londres":
        return {"icons": [{"name": i.name, "french": i.french} for i in ICONS]}
    return {}
