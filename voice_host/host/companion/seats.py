"""Seats of the companion page: the room code, one secret token per claimed seat, the table's
confirmation before anything secret is shown, move codes for changing device, brakes on
guessing, and a record of every refused request.

Fair seating: a seat is claimed with the room code only while the table has not confirmed its
seats; once every player has tapped "That's me" the seats are *locked* and a seat changes
device only with its move code, which is shown on that seat's own device only. Wrong codes
are braked per address (exponential back-off) and per seat (the move code is replaced after
:data:`SEAT_TRIES` wrong tries, the owner is told, and the guessing addresses wait); a device
that never guessed wrong is never refused, so a guesser cannot lock the owner out.

Nothing a request sent reaches the host's terminal raw: every value is escaped
(:func:`safe`) and repeated refusals are logged once with a count.

Thread-safe: the web server's thread and the host's thread both call it. Tokens and codes come
from :mod:`secrets` (never from the game's seeded random generator, so a seeded game stays the
same game with or without the companion)."""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from voice_host.text import find

log = logging.getLogger("voice_host.companion")

ROOM_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""Letters of a room code: no I or O, which look like 1 and 0."""
ROOM_CODE_LENGTH = 4
MOVE_CODE_DIGITS = 6
FREE_TRIES = 5
"""Wrong codes an address may send before it has to wait (then 2, 4, 8 ... seconds)."""
SEAT_TRIES = 3
"""Wrong move codes for one seat before its code is replaced."""
LONGEST_WAIT = 900.0
"""The longest back-off, in seconds."""
FORGET_AFTER = 900.0
"""An address's wrong codes are forgotten after this many quiet seconds."""
LOG_WINDOW = 60.0
"""Refusals of the same kind from the same address are logged once per window, with a count."""
LOG_LINES_PER_WINDOW = 20
"""At most this many refusal lines per window in all; the rest are counted."""

SPELLING = {
    "A": "alpha", "B": "bravo", "C": "charlie", "D": "delta", "E": "echo", "F": "foxtrot",
    "G": "golf", "H": "hotel", "J": "juliett", "K": "kilo", "L": "lima", "M": "mike",
    "N": "november", "P": "papa", "Q": "quebec", "R": "romeo", "S": "sierra", "T": "tango",
    "U": "uniform", "V": "victor", "W": "whiskey", "X": "x-ray", "Y": "yankee", "Z": "zulu",
}
"""Spelling words, so a room code survives a noisy table."""


def safe(value: object, limit: int = 60) -> str:
    """``value`` fit for the host's terminal: control and formatting characters (escape
    sequences, carriage returns, bidirectional overrides) written as ``\\xNN``/``\\uNNNN``,
    and cut to ``limit`` characters."""
    import unicodedata

    text = str(value)
    cut = len(text) > limit
    text = text[:limit]
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out) + ("…" if cut else "")


class SafeLogFilter(logging.Filter):
    """Escapes every companion log line as a whole (a second guard behind :func:`safe`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        record.msg = safe(message, limit=400)
        record.args = ()
        return True


if not any(isinstance(f, SafeLogFilter) for f in log.filters):
    log.addFilter(SafeLogFilter())


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
class Refusal:
    """One refused request, kept for the host (and the tests) to inspect."""

    when: float
    """Unix time of the refusal."""
    client: str
    """The address the request came from."""
    seat: str | None
    """The seat the request tried to read or act for, when it named one (escaped)."""
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
    confirmed: bool
    """Whether the player tapped "That's me" on it."""


@dataclass(frozen=True)
class SeatEvent:
    """Something the host says aloud about the seats (from the session's thread)."""

    kind: str
    """``"claimed"``, ``"moved"``, ``"released"``, ``"confirmed"`` or ``"rotated"``."""
    seat: str
    """The seat it is about."""


@dataclass
class _Brake:
    """Wrong codes from one address."""

    failures: int = 0
    wait_until: float = 0.0
    last: float = 0.0


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


class SeatBook:
    """The seats of one room."""

    def __init__(self, players: Sequence[str], *, room_code: str | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.players: tuple[str, ...] = tuple(players)
        code = room_code or "".join(secrets.choice(ROOM_LETTERS) for _ in range(ROOM_CODE_LENGTH))
        self.room_code = code.upper()
        self.clock = clock
        self._lock = threading.Lock()
        self._tokens: dict[str, str] = {}
        """seat -> sha256 of its token (the token itself is kept only by the device)."""
        self._move_codes: dict[str, str] = {}
        self._confirmed: set[str] = set()
        self.locked = False
        """Every seat confirmed: secrets may be shown, seats move only with their code."""
        self._brakes: dict[str, _Brake] = {}
        self._guards: dict[str, _SeatGuard] = {}
        self._log_windows: dict[tuple[str, str], list[float]] = {}
        self._lines_in_window: list[float] = [0.0, 0.0]
        self.refusals: list[Refusal] = []
        self.events: list[SeatEvent] = []
        """Seat changes for the host to announce (taken by :meth:`take_events`)."""
        self.on_change: Callable[[], None] = lambda: None
        """Called (outside the lock) after every change of a seat's claim or confirmation."""
        self.on_new_code: Callable[[str, str], None] = lambda seat, code: None
        """Called with (seat, new code) when guessing replaced a seat's move code."""

    # ------------------------------------------------------------------ queries

    def seats(self) -> list[SeatInfo]:
        with self._lock:
            return [SeatInfo(p, p in self._tokens, p in self._confirmed) for p in self.players]

    def all_claimed(self) -> bool:
        with self._lock:
            return all(p in self._tokens for p in self.players)

    def all_confirmed(self) -> bool:
        with self._lock:
            return all(p in self._confirmed and p in self._tokens for p in self.players)

    def seat_named(self, name: str) -> str | None:
        """The seat whose name matches ``name`` (case, accents and surrounding spaces
        ignored)."""
        return find(self.players, name)

    def holder(self, token: str | None) -> str | None:
        """The seat ``token`` holds, or None."""
        if not token or len(token) > 200:
            return None
        digest = _digest(token)
        with self._lock:
            for seat, good in self._tokens.items():
                if hmac.compare_digest(good, digest):
                    return seat
        return None

    def check(self, seat: str, token: str | None, *, client: str, what: str) -> None:
        """Raise a 403 :class:`SeatError` (and record it) unless ``token`` holds ``seat``.
        Never braked: the owner's device always gets in."""
        if seat in self.players and self.holder(token) == seat:
            return
        error = SeatError("not_your_seat", 403)
        self.refuse(client=client, seat=seat, what=what, reason=error.reason)
        raise error

    def move_code(self, seat: str) -> str | None:
        """The current move code of a claimed seat (for its own device), else None."""
        with self._lock:
            return self._move_codes.get(seat)

    # ------------------------------------------------------------------ changes

    def check_room(self, room: str, *, client: str) -> None:
        with self._lock:
            self._braked_locked(client)
            if not hmac.compare_digest(room.strip().upper().encode(), self.room_code.encode()):
                self._failed_locked(client)
                error = SeatError("wrong_room", 403)
                self._refuse_locked(client=client, seat=None, what="room code",
                                    reason=error.reason)
                raise error

    def claim(self, room: str, name: str, *, client: str, move_code: str = "") -> Claim:
        """Give ``name``'s seat to a device. Before the table confirmed its seats, a free or
        unconfirmed seat needs only the room code; a confirmed seat, and every seat once they
        are locked, also needs its move code (then the old device loses it)."""
        self.check_room(room, client=client)
        seat = self.seat_named(name)
        if seat is None:
            error = SeatError("no_such_player", 404)
            self.refuse(client=client, seat=name, what="claim", reason=error.reason)
            raise error
        with self._lock:
            taken = seat in self._tokens
            needs_code = self.locked or seat in self._confirmed
            if needs_code:
                self._check_move_code_locked(seat, move_code, client=client)
            token = secrets.token_urlsafe(32)
            code = "".join(secrets.choice("0123456789") for _ in range(MOVE_CODE_DIGITS))
            self._tokens[seat] = _digest(token)
            self._move_codes[seat] = code
            if not self.locked:
                self._confirmed.discard(seat)  # the new device confirms again
            self._guards.pop(seat, None)
            self.events.append(SeatEvent("moved" if taken else "claimed", seat))
        log.info("companion: seat %s claimed from %s%s", seat, safe(client),
                 " (moved from another device)" if taken else "")
        self.on_change()
        return Claim(seat=seat, token=token, move_code=code, replaced=taken)

    def confirm(self, seat: str, token: str | None, *, client: str) -> bool:
        """The player on ``seat``'s device tapped "That's me". True when every seat is now
        confirmed."""
        self.check(seat, token, client=client, what="confirm seat")
        with self._lock:
            fresh = seat not in self._confirmed
            self._confirmed.add(seat)
            if fresh:
                self.events.append(SeatEvent("confirmed", seat))
            done = all(p in self._confirmed and p in self._tokens for p in self.players)
        self.on_change()
        return done

    def lock(self) -> None:
        """The seats are fixed (the host deals now): moving a seat needs its move code."""
        with self._lock:
            self.locked = True
        self.on_change()

    def release(self, seat: str, token: str | None, *, client: str) -> None:
        """The device holding ``seat`` gives it up. Before the seats are locked anyone can
        then claim it; after, only with its move code (which stays the same)."""
        self.check(seat, token, client=client, what="leave seat")
        with self._lock:
            self._tokens.pop(seat, None)
            if not self.locked:
                self._move_codes.pop(seat, None)
                self._confirmed.discard(seat)
            self.events.append(SeatEvent("released", seat))
        log.info("companion: seat %s released from %s", seat, safe(client))
        self.on_change()

    def take_events(self) -> list[SeatEvent]:
        with self._lock:
            out, self.events = self.events, []
        return out

    def refuse(self, *, client: str, seat: str | None, what: str, reason: str) -> None:
        with self._lock:
            self._refuse_locked(client=client, seat=seat, what=what, reason=reason)

    def flush_log(self) -> None:
        """Log the counts of refusals not yet reported (when the server stops)."""
        with self._lock:
            for key in list(self._log_windows):
                self._report_locked(key)
            self._log_windows.clear()

    # ------------------------------------------------------------------ saving

    def to_json(self) -> dict[str, Any]:
        """What a resumed game needs to keep its room and seats (token digests, not
        tokens; move codes, which the owners' devices show)."""
        with self._lock:
            return {"room": self.room_code, "tokens": dict(self._tokens),
                    "move_codes": dict(self._move_codes), "confirmed": sorted(self._confirmed),
                    "locked": self.locked}

    def restore(self, data: dict[str, Any]) -> None:
        """Take back the seats of :meth:`to_json` (players no longer in the game dropped)."""
        with self._lock:
            self.room_code = str(data.get("room", self.room_code)).upper()
            tokens = data.get("tokens", {})
            codes = data.get("move_codes", {})
            self._tokens = {s: str(t) for s, t in tokens.items() if s in self.players}
            self._move_codes = {s: str(c) for s, c in codes.items() if s in self.players}
            self._confirmed = {s for s in data.get("confirmed", []) if s in self._tokens}
            self.locked = bool(data.get("locked")) and all(
                p in self._move_codes for p in self.players)

    # ------------------------------------------------------------------ internals

    def _check_move_code_locked(self, seat: str, move_code: str, *, client: str) -> None:
        given = "".join(ch for ch in move_code if ch.isdigit())
        if not given:
            self._failed_locked(client, soft=True)
            error = SeatError("seat_taken", 409, seat=seat)
            self._refuse_locked(client=client, seat=seat, what="claim taken seat",
                                reason=error.reason)
            raise error
        guard = self._guards.setdefault(seat, _SeatGuard())
        now = self.clock()
        if now < guard.wait_until and client in guard.guessers:
            error = SeatError("seat_braked", 429, seconds=int(guard.wait_until - now) + 1)
            self._refuse_locked(client=client, seat=seat, what="move seat",
                                reason=error.reason)
            raise error
        good = self._move_codes.get(seat, "")
        if good and hmac.compare_digest(given.encode(), good.encode()):
            return
        self._failed_locked(client)
        guard.guessers.add(client)
        guard.since_new_code += 1
        error = SeatError("wrong_move_code", 403)
        reason = error.reason
        if guard.since_new_code >= SEAT_TRIES:
            guard.since_new_code = 0
            guard.new_codes += 1
            guard.wait_until = now + min(2.0 ** guard.new_codes, LONGEST_WAIT)
            code = "".join(secrets.choice("0123456789") for _ in range(MOVE_CODE_DIGITS))
            self._move_codes[seat] = code
            self.events.append(SeatEvent("rotated", seat))
            self._refuse_locked(client=client, seat=seat, what="move seat", reason=reason)
            self._lock.release()
            try:
                self.on_new_code(seat, code)
            finally:
                self._lock.acquire()
            raise error
        self._refuse_locked(client=client, seat=seat, what="move seat", reason=reason)
        raise error

    def _braked_locked(self, client: str) -> None:
        brake = self._brakes.get(client)
        if brake is None:
            return
        now = self.clock()
        if now - brake.last > FORGET_AFTER:
            del self._brakes[client]
            return
        if now < brake.wait_until:
            error = SeatError("address_braked", 429, seconds=int(brake.wait_until - now) + 1)
            self._refuse_locked(client=client, seat=None, what="code", reason=error.reason)
            raise error

    def _failed_locked(self, client: str, *, soft: bool = False) -> None:
        now = self.clock()
        brake = self._brakes.setdefault(client, _Brake())
        brake.failures += 1
        brake.last = now
        if brake.failures > FREE_TRIES:
            brake.wait_until = now + min(2.0 ** (brake.failures - FREE_TRIES), LONGEST_WAIT)

    def _refuse_locked(self, *, client: str, seat: str | None, what: str, reason: str) -> None:
        shown = None if seat is None else safe(seat, 40)
        self.refusals.append(Refusal(time.time(), client, shown, what, reason))
        del self.refusals[:-1000]
        key = (client, what)
        now = self.clock()
        window = self._log_windows.get(key)
        if window is not None and now - window[0] < LOG_WINDOW:
            window[1] += 1  # counted, said later in one line
            return
        if window is not None:
            self._report_locked(key)
        self._log_windows[key] = [now, 0.0]
        if len(self._log_windows) > 500:  # many addresses: forget the oldest windows
            for old in sorted(self._log_windows, key=lambda k: self._log_windows[k][0])[:250]:
                self._report_locked(old)
                del self._log_windows[old]
        if now - self._lines_in_window[0] >= LOG_WINDOW:
            if self._lines_in_window[1] > LOG_LINES_PER_WINDOW:
                log.warning("companion: %d more refused requests in the last minute were "
                            "not shown one by one.",
                            int(self._lines_in_window[1]) - LOG_LINES_PER_WINDOW)
            self._lines_in_window = [now, 0.0]
        self._lines_in_window[1] += 1
        if self._lines_in_window[1] > LOG_LINES_PER_WINDOW:
            return
        log.warning("companion: refused %s%s from %s: %s", what,
                    f" for seat {shown}" if shown else "", safe(client), reason)

    def _report_locked(self, key: tuple[str, str]) -> None:
        window = self._log_windows.get(key)
        if window and window[1]:
            client, what = key
            log.warning("companion: refused %s from %s %d more times in that minute.", what,
                        safe(client), int(window[1]))
            window[1] = 0
