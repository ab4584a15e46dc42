"""The values of the seat book: refusals with a sentence (:class:`SeatError`), a granted or
asked-for seat (:class:`Claim`), what anyone may know of a seat, seat events for the host to
say, and a new phone's request for a held seat."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

SPELLING = {
    "A": "alpha", "B": "bravo", "C": "charlie", "D": "delta", "E": "echo", "F": "foxtrot",
    "G": "golf", "H": "hotel", "J": "juliett", "K": "kilo", "L": "lima", "M": "mike",
    "N": "november", "P": "papa", "Q": "quebec", "R": "romeo", "S": "sierra", "T": "tango",
    "U": "uniform", "V": "victor", "W": "whiskey", "X": "x-ray", "Y": "yankee", "Z": "zulu",
}
"""Spelling words, so a room code survives a noisy table."""

class SeatError(Exception):
    """A request that cannot be granted: ``key`` names its sentence for the player (in
    ``lang/<lang>/page.toml`` under ``[refusal]``), ``reason`` is that sentence in English,
    ``status`` the HTTP status the server answers with."""

    def __init__(self, key: str, status: int, **params: Any) -> None:
        from voice_host.host.companion.strings import page_text

        self.key = key
        self.params = params
        self.reason = page_text("en", f"refusal.{key}", **params)
        super().__init__(self.reason)
        self.status = status

    def text(self, lang: str) -> str:
        """The sentence in the page's language."""
        from voice_host.host.companion.strings import page_text

        return page_text(lang, f"refusal.{self.key}", **self.params)


@dataclass(frozen=True)
class Claim:
    """A seat granted to a device (or, with ``ticket``, asked for: the host asks the table)."""

    seat: str
    """The player's name."""
    token: str = ""
    """The secret the device sends with every request (never shown, kept by the page)."""
    move_code: str = ""
    """Six digits the player can type on a new device to move the seat there."""
    replaced: bool = False
    """True when the seat moved from another device (whose token no longer works)."""
    ticket: str = ""
    """Set when the seat is not granted yet: the new phone asks again with it."""


@dataclass(frozen=True)
class SeatInfo:
    """What anyone with the room code may know about a seat."""

    name: str
    claimed: bool
    confirmed: bool


@dataclass(frozen=True)
class SeatEvent:
    """Something the host says aloud about the seats (from the session's thread)."""

    kind: str
    """``"claimed"``, ``"moved"``, ``"released"``, ``"confirmed"``, ``"rotated"`` or
    ``"asked"`` (a new phone asks for a seat: the host asks the table)."""
    seat: str


@dataclass
class MoveRequest:
    """A new phone asking for a seat the host must let go."""

    seat: str
    client: str
    ticket: str
    """sha256 of the ticket the new phone holds."""
    since: float
    answer: bool | None = None
    """None: not answered yet; True: the table said yes; False: no."""
    claim: Claim | None = None
    """The seat granted, waiting for the new phone to fetch it."""


@dataclass
class _SeatGuard:
    """Wrong move codes for one seat."""

    since_new_code: int = 0
    new_codes: int = 0
    wait_until: float = 0.0
    guessers: set[str] = field(default_factory=set)


def spell(code: str) -> str:
    """``"KLMX"`` -> ``"kilo, lima, mike, x-ray"``."""
    return ", ".join(SPELLING.get(c, c) for c in code)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _new_code(digits: int = 6) -> str:
    return "".join(secrets.choice("0123456789") for _ in range(digits))
