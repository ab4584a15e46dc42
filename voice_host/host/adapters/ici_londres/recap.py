"""The Ici Londres recap at the end of a game: the interceptions (icons the Wehrmacht
player found first) and the best decoder (the receiver who found the most icons)."""

from __future__ import annotations

from collections import Counter

from voice_host.games import GameState
from voice_host.games.ici_londres import IciLondresState, IconRevealed
from voice_host.host.adapters.ici_londres.words import IciLondresWords
from voice_host.host.core.adapter import narrow
from voice_host.host.core.values import Line


def recap(voice: IciLondresWords, state: GameState) -> list[Line]:
    s = narrow(state, IciLondresState)
    if not s.is_terminal():
        return []
    from voice_host.host.core.registry import new_game  # the registry imports the adapters

    replay = new_game(voice.game, voice.options)
    found: list[IconRevealed] = []
    for action in s.history:
        found.extend(e for e in replay.apply(action) if isinstance(e, IconRevealed))
    lines = [voice.line("recap.intro")]
    caught = [e for e in found if e.by_wehrmacht]
    if caught:
        by = Counter(e.finder for e in caught)
        for player, count in by.items():
            icons = [e.icon for e in caught if e.finder == player]
            lines.append(voice.line("recap.intercepted", player=player, count=count,
                                    icons=voice.icons(icons)))
    else:
        lines.append(voice.line("recap.no_interception"))
    decoded = Counter(e.finder for e in found if not e.by_wehrmacht)
    if decoded:
        top = max(decoded.values())
        best = [p for p in s.players if decoded.get(p) == top]
        lines.append(voice.line("recap.best_decoder", players=voice.narrator.names(best),
                                count=top, many=len(best)))
    return lines
