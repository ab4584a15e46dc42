"""What each game lets a player do on the companion page, and what the page adds to the
engine's views.

Secret inputs are taken only on the page (a Resistance mission card in host deal mode);
votes, Ici Londres picks and Codenames guesses can be given on the page *or* aloud. The choices
offered to a seat are the engine's own legal actions for that player, so a hero is offered
only success, and the seat is always the actor (the page never says who acts).

Choice ids the page sends back: ``success``/``sabotage`` (mission card), ``vote:yes`` /
``vote:no``, ``pick:ICON`` or ``pick:ICON+ICON`` and, for the Speaker with physical cards,
``answer:hit`` / ``answer:miss`` (Ici Londres), ``guess:WORD`` and ``end_turn`` (Codenames)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from voice_host.games import Action, GameState
from voice_host.games.codenames import CodenamesState, EndTurn, Guess
from voice_host.games.ici_londres import IciLondresState, JudgePick, Pick
from voice_host.games.icons import ICON_NAMES, ICONS
from voice_host.games.resistance import CastVote, PlayMissionCard

Words = Callable[..., str]
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
    """``card``, ``vote``, ``pick``, ``guess`` or ``end_turn`` (how the page groups them)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """For ``pick``: ``{"sizes": [1, 2]}``, how many icons one pick may name."""


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold())
                   if unicodedata.category(c) != "Mn")


def private_action(game: str, seat: str, choice: str, state: GameState | None = None) -> Action:
    """The engine action a seat's choice stands for. Raises :class:`ChoiceError` for a
    choice this page never offers, or when it is not ``seat``'s turn (some actions do not
    name their player: the Speaker's answer, a team's guess)."""
    action = _action(game, seat, choice, state)
    if not hasattr(action, "player") and (state is None or seat not in state.current_players()):
        # the engine cannot tell who sent it: only a player whose turn it is may
        raise ChoiceError("not your turn")
    return action


def _action(game: str, seat: str, choice: str, state: GameState | None) -> Action:
    unknown = ChoiceError("unknown")
    if game == "resistance":
        if choice in ("success", "sabotage"):
            return PlayMissionCard(player=seat, sabotage=choice == "sabotage")
        if choice in ("vote:yes", "vote:no"):
            return CastVote(player=seat, approve=choice == "vote:yes")
    elif (game == "ici-londres" and choice in ("answer:hit", "answer:miss")
          and isinstance(state, IciLondresState) and state.pending_icon is not None):
        return JudgePick(state.pending_icon[1], choice == "answer:hit")
    elif game == "ici-londres" and choice.startswith("pick:"):
        icons = tuple(choice[5:].split("+"))
        if 1 <= len(icons) <= 2 and all(i in ICON_NAMES for i in icons) \
                and len(set(icons)) == len(icons):
            return Pick(player=seat, icons=icons)
    elif game == "codenames" and isinstance(state, CodenamesState):
        team = state.team_of(seat)
        if team is not None and choice == "end_turn":
            return EndTurn(team)
        if team is not None and choice.startswith("guess:"):
            word = choice[6:]
            if any(_fold(w) == _fold(word) for w in state.uncovered_words()):
                return Guess(team, word)
    raise unknown


def is_private(action: Action) -> bool:
    """True for the actions only the companion page takes (secret inputs)."""
    return isinstance(action, PlayMissionCard)


def is_phone_input(action: Action) -> bool:
    """True for every action a seat may send from its page."""
    return isinstance(action, PlayMissionCard | CastVote | Pick | JudgePick | Guess | EndTurn)


def choices(state: GameState, seat: str, words: Words) -> list[Choice]:
    """What ``seat`` may send now, from the engine's legal actions."""
    if state.is_chance_node() or state.is_terminal() or seat not in state.current_players():
        return []
    legal = state.legal_actions(seat)
    out: list[Choice] = []
    sizes: set[int] = set()
    for action in legal:
        if isinstance(action, PlayMissionCard) and action.player == seat:
            which = "sabotage" if action.sabotage else "success"
            out.append(Choice(which, words(f"choice.{which}"),
                              words(f"choice.{which}_confirm")))
        elif isinstance(action, CastVote) and action.player == seat:
            which = "yes" if action.approve else "no"
            out.append(Choice(f"vote:{which}", words(f"choice.vote_{which}"),
                              words(f"choice.vote_{which}_confirm"), kind="vote"))
        elif isinstance(action, Pick) and action.player == seat:
            sizes.add(len(action.icons))
        elif isinstance(action, JudgePick):
            which = "hit" if action.hit else "miss"
            icon = next((i for i in ICONS if i.name == action.icon), None)
            spoken = words("choice.icon", en=action.icon, fr=icon.french if icon else "")
            out.append(Choice(f"answer:{which}", words(f"choice.answer_{which}"),
                              words(f"choice.answer_{which}_confirm", icon=spoken),
                              kind="answer"))
        elif isinstance(action, Guess):
            out.append(Choice(f"guess:{action.word}", action.word,
                              words("choice.guess_confirm", word=action.word), kind="guess"))
        elif isinstance(action, EndTurn):
            out.append(Choice("end_turn", words("choice.end_turn"),
                              words("choice.end_turn_confirm"), kind="end_turn"))
    if sizes and isinstance(state, IciLondresState):
        tried = set(state.named_icons)
        for icon in ICONS:
            if icon.name not in tried:
                out.append(Choice(f"pick:{icon.name}", icon.name, "", kind="pick",
                                  extra={"sizes": sorted(sizes)}))
    return out


def private_turn(state: GameState) -> tuple[str, ...]:
    """Players who must now act on the page (empty when the host waits for speech)."""
    if state.is_chance_node() or state.is_terminal():
        return ()
    return tuple(p for p in state.current_players()
                 if any(is_private(a) for a in state.legal_actions(p)))


def phone_turn(state: GameState) -> tuple[str, ...]:
    """Players who may now answer on their page (aloud too, unless :func:`private_turn`)."""
    if state.is_chance_node() or state.is_terminal():
        return ()
    if isinstance(state, CodenamesState):
        return state.current_players() if state.phase() == "guess" else ()
    out = []
    for p in state.current_players():
        for action in state.legal_actions(p):
            if is_phone_input(action):
                out.append(p)
                break
    return tuple(out)


def extras(game: str) -> dict[str, Any]:
    """Fixed facts the page needs to draw a game (the 36 icons of Ici Londres)."""
    if game == "ici-londres":
        return {"icons": [{"name": i.name, "french": i.french} for i in ICONS]}
    return {}
