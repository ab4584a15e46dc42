"""How a secret reaches its player, typed: the companion page, a file, or the output's own
private route (spoken to them / shown only to them). Written once for every game."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from voice_host.host.core.narration import Narrator
from voice_host.host.core.values import Line


class Via(enum.StrEnum):
    COMPANION = "companion"
    """The player's companion page."""
    FILE = "file"
    """A file only that player should open (host deal without the page)."""
    SPOKEN = "spoken"
    """No private channel of the host's: the output decides (a private caption, or the
    sentence said to the player)."""


@dataclass(frozen=True)
class Delivery:
    """Where a secret went."""

    via: Via
    place: str = ""
    """What the table hears of it: the file's name, or the page's name ("your phone")."""


SPOKEN = Delivery(Via.SPOKEN)

SecretSink = Callable[[Line], Delivery]
"""Takes a PRIVATE line (``to`` names its player) and says where it put it."""


def deliver(narrator: Narrator, sink: SecretSink | None, secret: Line, *,
            elsewhere: str = "common.secret_elsewhere",
            sent: str | None = None, **params: Any) -> tuple[list[Line], Delivery]:
    """Give ``secret`` to its player and return what the table hears, and how it went.

    ``elsewhere`` is the key for "your secret is on {where}" (the game may name the secret:
    "your role", "your key"); ``sent`` the key said after a secret the output routes itself
    (None: the caller says it, e.g. once for several spymasters). ``params`` fill them."""
    player = secret.to or ""
    delivery = sink(secret) if sink is not None else SPOKEN
    if delivery.via is Via.FILE:
        # the table hears where in words; the file's name is on the screen (its folder)
        return [_one_of(narrator.line("common.secret_file", player=player),
                        "common.secret_file", player)], delivery
    if delivery.via is Via.COMPANION:
        return [_one_of(narrator.line(elsewhere, player=player, where=delivery.place,
                                      **params), elsewhere, player)], delivery
    lines = [secret]
    if sent is not None:
        lines.append(_one_of(narrator.line(sent, player=player, **params), sent, player))
    return lines, delivery


def _one_of(line: Line, key: str, player: str) -> Line:
    """``line``, said for each player in turn: several in a row are said as one."""
    return replace(line, group=key, player=player)
