"""Seats of the companion page: the room code, one secret token per claimed seat, move codes
for changing device, a brake on guessing, and a record of every refused request.

Thread-safe: the web server's thread and the host's thread both call it. Tokens and codes come
from :mod:`secrets` (never from the game's seeded random generator, so a seeded game stays the
same game with or without the companion)."""

from __future__ import annotations

import hmac
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

log = logging.getLogger("voice_host.companion")

ROOM_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""Letters of a room code: no I or O, which look like 1 and 0."""
ROOM_CODE_LENGTH = 4
MOVE_CODE_DIGITS = 6
MAX_FAILURES = 10
"""Wrong room or move codes one address may send per :data:`FAILURE_WINDOW` seconds."""
FAILURE_WINDOW = 60.0

SPELLING = {
    "A": "alpha", "B": "bravo", "C": "charlie", "D": "delta", "E": "echo", "F": "foxtrot",
    "G": "golf", "H": "hotel", "J": "juliett", "K": "kilo", "L": "lima", "M": "mike",
    "N": "november", "P": "papa", "Q": "quebec", "R": "romeo", "S": "sierra", "T": "tango",
    "U": "uniform", "V": "victor", "W": "whiskey", "X": "x-ray", "Y": "yankee", "Z": "zulu",
}
"""Spelling words, so a room code survives a noisy table."""


class SeatError(Exception):
    """A seat request that cannot be granted. ``reason`` is a sentence for the player;
    ``status`` the HTTP status the server answers with."""

    def __init__(self, reason: str, status: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


@dataclass(frozen=True)
class Refusal:
    """One refused request, kept for the host (and the tests) to inspect."""

    when: float
    """Unix time of the refusal."""
    client: str
    """The address the request came from."""
    seat: str | None
    """The seat the request tried to read or act for, when it named one."""
    what: str
    """What was refused, e.g. ``"read view"``, ``"act"``, ``"claim"``."""
    reason: str
    """Why, in words."""


@dataclass(frozen=True)
class Claim:
    """A seat granted to a device."""

    seat: str
    """The player's name."""
    token: str
    """The secret the device sends with every request (never shown, kept by the page)."""
    move_code: str
    """Six digits the player can type on a new device to move the seat there."""
    replaced: bool
    """True when the seat moved from another device (whose token no longer works)."""


@dataclass(frozen=True)
class SeatInfo:
    """What anyone with the room code may know about a seat."""

    name: str
    """The player's name."""
    claimed: bool
    """Whether a device holds the seat."""


def spell(code: str) -> str:
    """``"KLMX"`` -> ``"kilo, lima, mike, x-ray"``."""
    return ", ".join(SPELLING.get(c, c) for c in code)


class SeatBook:
    """The seats of one room."""

    def __init__(self, players: Sequence[str], *, room_code: str | None = None) -> None:
        self.players: tuple[str, ...] = tuple(players)
        code = room_code or "".join(secrets.choice(ROOM_LETTERS) for _ in range(ROOM_CODE_LENGTH))
        self.room_code = code.upper()
        self._lock = threading.Lock()
        self._tokens: dict[str, str] = {}
        self._move_codes: dict[str, str] = {}
        self._failures: dict[str, deque[float]] = {}
        self.refusals: list[Refusal] = []

    # ------------------------------------------------------------------ queries

    def seats(self) -> list[SeatInfo]:
        with self._lock:
            return [SeatInfo(p, p in self._tokens) for p in self.players]

    def seat_named(self, name: str) -> str | None:
        """The seat whose name matches ``name`` (case and surrounding spaces ignored)."""
        folded = name.strip().casefold()
        for p in self.players:
            if p.casefold() == folded:
                return p
        return None

    def holder(self, token: str | None) -> str | None:
        """The seat ``token`` holds, or None."""
        if not token:
            return None
        with self._lock:
            for seat, good in self._tokens.items():
                if hmac.compare_digest(good, token):
                    return seat
        return None

    def check(self, seat: str, token: str | None, *, client: str, what: str) -> None:
        """Raise a 403 :class:`SeatError` (and record it) unless ``token`` holds ``seat``."""
        if self.holder(token) == seat and seat in self.players:
            return
        reason = "This device does not hold that seat."
        self.refuse(client=client, seat=seat, what=what, reason=reason)
        raise SeatError(reason, 403)

    def move_code(self, seat: str) -> str | None:
        """The current move code of a claimed seat (for the host's screen), else None."""
        with self._lock:
            return self._move_codes.get(seat)

    # ------------------------------------------------------------------ changes

    def check_room(self, room: str, *, client: str) -> None:
        self._brake(client)
        if not hmac.compare_digest(room.strip().upper().encode(), self.room_code.encode()):
            self._failed(client)
            reason = "That is not the room code. Listen to the host and try again."
            self.refuse(client=client, seat=None, what="room code", reason=reason)
            raise SeatError(reason, 403)

    def claim(self, room: str, name: str, *, client: str, move_code: str = "") -> Claim:
        """Give ``name``'s seat to a device. A free seat needs only the room code; a claimed
        one also needs its move code (then the old device loses it)."""
        self.check_room(room, client=client)
        seat = self.seat_named(name)
        if seat is None:
            raise SeatError(f"Nobody called {name.strip() or 'that'} is playing.", 404)
        with self._lock:
            taken = seat in self._tokens
            if taken:
                given = "".join(ch for ch in move_code if ch.isdigit())
                good = self._move_codes.get(seat, "")
                if not given:
                    # the host's screen shows the code, for a player whose old device is gone
                    log.warning("companion: someone at %s asks for %s's seat, which is on "
                                "another device. Its move code is %s: give it only to %s.",
                                client, seat, self._move_codes.get(seat, ""), seat)
                    raise SeatError(
                        f"{seat}'s seat is already on another device. To move it here, type "
                        f"the move code shown on that device, or ask the host for it.", 409)
                if not hmac.compare_digest(given.encode(), good.encode()):
                    self._failed_locked(client)
                    reason = "That move code is not right."
                    self._refuse_locked(client=client, seat=seat, what="move seat",
                                        reason=reason)
                    raise SeatError(reason, 403)
            token = secrets.token_urlsafe(32)
            code = "".join(secrets.choice("0123456789") for _ in range(MOVE_CODE_DIGITS))
            self._tokens[seat] = token
            self._move_codes[seat] = code
        log.info("companion: seat %s claimed from %s%s", seat, client,
                 " (moved from another device)" if taken else "")
        return Claim(seat=seat, token=token, move_code=code, replaced=taken)

    def release(self, seat: str, token: str | None, *, client: str) -> None:
        """The device holding ``seat`` gives it up (it can then be claimed freely)."""
        self.check(seat, token, client=client, what="leave seat")
        with self._lock:
            self._tokens.pop(seat, None)
            self._move_codes.pop(seat, None)
        log.info("companion: seat %s released from %s", seat, client)

    def refuse(self, *, client: str, seat: str | None, what: str, reason: str) -> None:
        with self._lock:
            self._refuse_locked(client=client, seat=seat, what=what, reason=reason)

    # ------------------------------------------------------------------ internals

    def _refuse_locked(self, *, client: str, seat: str | None, what: str, reason: str) -> None:
        self.refusals.append(Refusal(time.time(), client, seat, what, reason))
        del self.refusals[:-1000]
        log.warning("companion: refused %s%s from %s: %s", what,
                    f" for seat {seat}" if seat else "", client, reason)

    def _brake(self, client: str) -> None:
        with self._lock:
            recent = self._failures.get(client)
            now = time.monotonic()
            if recent is None:
                return
            while recent and now - recent[0] > FAILURE_WINDOW:
                recent.popleft()
            if len(recent) >= MAX_FAILURES:
                reason = "Too many wrong codes. Wait a minute and try again."
                self._refuse_locked(client=client, seat=None, what="code", reason=reason)
                raise SeatError(reason, 429)

    def _failed(self, client: str) -> None:
        with self._lock:
            self._failed_locked(client)

    def _failed_locked(self, client: str) -> None:
        self._failures.setdefault(client, deque()).append(time.monotonic())
