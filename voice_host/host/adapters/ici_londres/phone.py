"""Ici Londres on the companion page: picks (one or two icons) and, with physical cards, the
Speaker's hit/miss answer. Choice ids: ``pick:ICON`` or ``pick:ICON+ICON``,
``answer:hit``/``answer:miss``."""

from __future__ import annotations

from typing import Any

from voice_host.games import Action, GameState
from voice_host.games.ici_londres import IciLondresState, JudgePick, Pick
from voice_host.games.icons import ICON_NAMES, ICONS
from voice_host.host.companion.games import Choice, ChoiceError, PageWords


def action(seat: str, choice: str, state: GameState | None) -> Action:
    if (choice in ("answer:hit", "answer:miss") and isinstance(state, IciLondresState)
            and state.pending_icon is not None):
        return JudgePick(seat, state.pending_icon[1], choice == "answer:hit")
    if choice.startswith("pick:"):
        # only the ids are checked here (icons the page knows); how many icons a pick may
        # name, and not twice the same, are the engine's rules (refused with its sentence)
        icons = tuple(choice[5:].split("+"))
        if 0 < len(icons) <= len(ICON_NAMES) and all(i in ICON_NAMES for i in icons):
            return Pick(player=seat, icons=icons)
    raise ChoiceError("unknown")


def choices(state: GameState, seat: str, legal: list[Action], words: PageWords) -> list[Choice]:
    out: list[Choice] = []
    sizes: set[int] = set()
    for act in legal:
        if isinstance(act, Pick) and act.player == seat:
            sizes.add(len(act.icons))
        elif isinstance(act, JudgePick):
            which = "hit" if act.hit else "miss"
            icon = next((i for i in ICONS if i.name == act.icon), None)
            spoken = words("choice.icon", en=act.icon, fr=icon.french if icon else "")
            out.append(Choice(f"answer:{which}", words(f"choice.answer_{which}"),
                              words(f"choice.answer_{which}_confirm", icon=spoken),
                              kind="answer"))
    if sizes and isinstance(state, IciLondresState):
        tried = set(state.named_icons)
        for icon in ICONS:
            if icon.name not in tried:
                out.append(Choice(f"pick:{icon.name}", icon.name, "", kind="pick",
                                  extra={"sizes": sorted(sizes)}))
    return out


def is_private(action: Action) -> bool:
    return False


def is_phone_input(action: Action) -> bool:
    return isinstance(action, Pick | JudgePick)


def phone_turn(state: GameState) -> tuple[str, ...] | None:
    return None


def extras() -> dict[str, Any]:
    return {"icons": [{"name": i.name, "french": i.french} for i in ICONS]}
