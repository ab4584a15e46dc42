"""What a game lets a player do on the companion page, and what the page adds to the
engine's views. Each game's part is a module of its host package (its registration's
``companion``); this module is the generic part.

Secret inputs are taken only on the page (a Resistance mission card in host deal mode);
votes, Ici Londres picks and Codenames guesses can be given on the page *or* aloud. The choices
offered to a seat are the engine's own legal actions for that player, so a hero is offered
both mission cards (the rules refuse a hero's sabotage, on that page only), and the seat is
always the actor (the page never says who acts).

Choice ids the page sends back: ``success``/``sabotage`` (mission card), ``vote:yes`` /
``vote:no``, ``pick:ICON`` or ``pick:ICON+ICON`` and, for the Speaker with physical cards,
``answer:hit`` / ``answer:miss`` (Ici Londres), ``guess:WORD`` and ``end_turn`` (Codenames)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from voice_host.games import Action, GameState

PageWords = Callable[..., str]
"""``words(key, **params)``: a page string in the game's language."""


class ChoiceError(Exception):
    """A request from the page that names no known choice. ``reason`` is for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Choice:
    """One input a seat may send now."""

    id: str
    """What the page sends back, e.g. ``"sabotage"``."""
    label: str
    """The button's words, e.g. ``"Play sabotage"``."""
    confirm: str
    """The confirmation question, e.g. ``"Play sabotage? Nobody will know it was you."``."""
    kind: str = "card"
    """``card``, ``vote``, ``answer``, ``pick``, ``guess`` or ``end_turn`` (how the page
    groups them); any other kind is a plain button under "What you can do now"."""
    extra: dict[str, Any] = field(default_factory=dict)
    """For ``pick``: ``{"sizes": [1, 2]}``, how many icons one pick may name."""


class PhoneGame(Protocol):
    """One game's part of the companion page (a module of the game's host package)."""

    def action(self, seat: str, choice: str, state: GameState | None) -> Action:
        """The action a choice id stands for; :class:`ChoiceError` for one never offered."""
        ...

    def choices(self, state: GameState, seat: str, legal: list[Action],
                words: PageWords) -> list[Choice]:
        """The buttons for ``seat``'s legal actions now."""
        ...

    def is_private(self, action: Action) -> bool:
        """Only the page takes it (a secret input such as a mission card)."""
        ...

    def is_phone_input(self, action: Action) -> bool:
        """A seat may send it from its page."""
        ...

    def phone_turn(self, state: GameState) -> tuple[str, ...] | None:
        """Who may answer on their page now, when the game decides it itself (None: every
        current player with a phone input among their legal actions)."""
        ...

    def extras(self) -> dict[str, Any]:
        """Fixed facts the page needs to draw the game (the 36 icons of Ici Londres)."""
        ...


def _phone(game: str) -> PhoneGame | None:
    from voice_host.host.core.registry import registration

    return registration(game).companion


def private_action(game: str, seat: str, choice: str, state: GameState | None = None) -> Action:
    """The engine action a seat's choice stands for, taken by ``seat`` (the engine decides
    whether ``seat`` may take it). Raises :class:`ChoiceError` for a choice this page never
    offers."""
    phone = _phone(game)
    if phone is None:
        raise ChoiceError("unknown")
    return phone.action(seat, choice, state)


def is_private(game: str, action: Action) -> bool:
    """True for the actions only the companion page takes (secret inputs)."""
    phone = _phone(game)
    return phone is not None and phone.is_private(action)


def choices(game: str, state: GameState, seat: str, words: PageWords) -> list[Choice]:
    """What ``seat`` may send now, from the engine's legal actions."""
    phone = _phone(game)
    if phone is None or state.is_chance_node() or state.is_terminal() \
            or seat not in state.current_players():
        return []
    return phone.choices(state, seat, state.legal_actions(seat), words)


def private_turn(game: str, state: GameState) -> tuple[str, ...]:
    """Players who must now act on the page (empty when the host waits for speech)."""
    phone = _phone(game)
    if phone is None or state.is_chance_node() or state.is_terminal():
        return ()
    return tuple(p for p in state.current_players()
                 if any(phone.is_private(a) for a in state.legal_actions(p)))


def phone_turn(game: str, state: GameState) -> tuple[str, ...]:
    """Players who may now answer on their page (aloud too, unless :func:`private_turn`)."""
    phone = _phone(game)
    if phone is None or state.is_chance_node() or state.is_terminal():
        return ()
    decided = phone.phone_turn(state)
    if decided is not None:
        return decided
    return tuple(p for p in state.current_players()
                 if any(phone.is_phone_input(a) for a in state.legal_actions(p)))


def extras(game: str) -> dict[str, Any]:
    """Fixed facts the page needs to draw a game."""
    phone = _phone(game)
    return phone.extras() if phone is not None else {}
