"""Resistance on the companion page: the mission card (secret, page only) and the vote.
Choice ids: ``success``/``sabotage``, ``vote:yes``/``vote:no``."""

from __future__ import annotations

from typing import Any

from voice_host.games import Action, GameState
from voice_host.games.resistance import CastVote, PlayMissionCard
from voice_host.host.companion.games import Choice, ChoiceError, PageWords


def action(seat: str, choice: str, state: GameState | None) -> Action:
    if choice in ("success", "sabotage"):
        return PlayMissionCard(player=seat, sabotage=choice == "sabotage")
    if choice in ("vote:yes", "vote:no"):
        return CastVote(player=seat, approve=choice == "vote:yes")
    raise ChoiceError("unknown")


def choices(state: GameState, seat: str, legal: list[Action], words: PageWords) -> list[Choice]:
    """A seat's buttons. Every team member is shown both mission cards, whatever their
    role, so that no screen tells a hero from a spy: a hero's sabotage is refused by the
    rules, on that page only ("Heroes can only play success")."""
    out: list[Choice] = []
    if any(isinstance(act, PlayMissionCard) and act.player == seat for act in legal):
        for which in ("success", "sabotage"):
            out.append(Choice(which, words(f"choice.{which}"), words(f"choice.{which}_confirm")))
    for act in legal:
        if isinstance(act, CastVote) and act.player == seat:
            which = "yes" if act.approve else "no"
            out.append(Choice(f"vote:{which}", words(f"choice.vote_{which}"),
                              words(f"choice.vote_{which}_confirm"), kind="vote"))
    return out


def is_private(action: Action) -> bool:
    return isinstance(action, PlayMissionCard)


def is_phone_input(action: Action) -> bool:
    return isinstance(action, PlayMissionCard | CastVote)


def phone_turn(state: GameState) -> tuple[str, ...] | None:
    return None


def extras() -> dict[str, Any]:
    return {}
