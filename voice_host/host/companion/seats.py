"""Seats of the companion page: the room code, one secret token per claimed seat, the
table's confirmation before anything secret is shown, and who may move a seat.

A seat belongs to its phone until that phone or the host lets it go. Before the lock a free
seat is claimed with the room code, and a held one moves only with its move code (shown on
the owner's phone) or on the table's spoken yes (a :class:`MoveRequest`); such a move clears
every confirmation. Once the seats are locked every move and every new claim waits for the
table's yes. Wrong codes are braked per address and per network, never for everyone
(:mod:`.limits`): a device that never guessed wrong, the host's own machine and a seated
phone are never kept out by another device's guesses; a room code in a request not sent by
the page itself is refused before it is compared.
Successful claims and leaves are rate-limited per address.

Thread-safe (the server's and the host's threads both call it). Tokens and codes come from
:mod:`secrets`, never from the game's seeded random generator."""

from __future__ import annotations

import hmac
import logging
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from voice_host.host.companion.limits import Brakes, RateLimit
from voice_host.host.companion.refusal_log import Refusal, RefusalLog, safe
from voice_host.host.companion.seat_types import (
    Claim,
    MoveRequest,
    SeatError,
    SeatEvent,
    SeatInfo,
    _digest,
    _new_code,
    _SeatGuard,
    spell,
)
from voice_host.text import find

log = logging.getLogger("voice_host.companion")

ROOM_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""Letters of a room code: no I or O, which look like 1 and 0."""
ROOM_CODE_LENGTH = 6
"""24**6 = 191,102,976 room codes (about 27.5 bits)."""
MOVE_CODE_DIGITS = 6
SEAT_TRIES = 3
"""Wrong move codes for one seat before its code is replaced."""
SEAT_CHANGES = 12
"""Successful claims and leaves one address may make ..."""
SEAT_CHANGE_WINDOW = 60.0
"""... in this many seconds."""
REQUEST_TTL = 120.0
"""A move request the host has not answered by then lapses."""
AFTER_NO = 60.0
"""After the table said no, a seat cannot be asked for again for this many seconds."""

__all__ = ["Claim", "MoveRequest", "Refusal", "SeatBook", "SeatError", "safe", "spell"]


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
        """Seats fixed: every move and new claim needs the host's spoken yes."""
        self.brakes = Brakes(lambda: self.clock())
        self._changes = RateLimit(SEAT_CHANGES, SEAT_CHANGE_WINDOW, lambda: self.clock())
        self._guards: dict[str, _SeatGuard] = {}
        self._requests: dict[str, MoveRequest] = {}
        self._refused_until: dict[str, float] = {}
        self.log = RefusalLog(lambda: self.clock())
        self.events: list[SeatEvent] = []
        """Seat changes for the host to announce (taken by :meth:`take_events`)."""
        self.on_change: Callable[[], None] = lambda: None
        """Called (outside the lock) after every change of a seat's claim or confirmation."""
        self.on_new_code: Callable[[str, str], None] = lambda seat, code: None
        """Called with (seat, new code) when guessing replaced a seat's move code."""

    @property
    def refusals(self) -> list[Refusal]:
        return self.log.refusals

    # ------------------------------------------------------------------ queries

    def seats(self) -> list[SeatInfo]:
        with self._lock:
            return [SeatInfo(p, p in self._tokens, p in self._confirmed) for p in self.players]

    def all_confirmed(self) -> bool:
        with self._lock:
            return self._all_confirmed_locked()

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
            return next((s for s, good in self._tokens.items()
                         if hmac.compare_digest(good, digest)), None)

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

    def pending_request(self) -> MoveRequest | None:
        """The oldest move request the host has not answered (expired ones dropped)."""
        with self._lock:
            self._expire_locked()
            waiting = [r for r in self._requests.values() if r.answer is None]
            return min(waiting, key=lambda r: r.since) if waiting else None

    # ------------------------------------------------------------------ changes

    def check_room(self, room: str, *, client: str, trusted: bool = True) -> None:
        """The room code, from a request the page itself sent (``trusted``: its Origin is
        the page's own). Anything else is refused before the code is compared, and counts
        as no wrong code, so a foreign page cannot lock a phone out."""
        with self._lock:
            if not trusted:
                self._raise_locked(SeatError("cross_site", 403), client, None, "room code")
            wait = self.brakes.why(client)
            if wait.seconds > 0:
                key = "network_braked" if wait.scope == "network" else "address_braked"
                self._raise_locked(SeatError(key, 429, seconds=int(wait.seconds) + 1,
                                             count=wait.failures), client, None, "code")
            if not hmac.compare_digest(room.strip().upper().encode(), self.room_code.encode()):
                self.brakes.failed(client)
                self._raise_locked(SeatError("wrong_room", 403), client, None, "room code")

    def claim(self, room: str, name: str, *, client: str, move_code: str = "",
              token: str | None = None, ticket: str = "", trusted: bool = True) -> Claim:
        """Give ``name``'s seat to a device, or ask the host for it (a :class:`Claim` with a
        ticket). ``token`` is the one the device already holds, if any: a stale one, or one
        of another seat, is refused. ``ticket`` asks how an earlier request went. A device
        whose token holds the seat it asks for (a reload) has it back without the room code
        being checked: no wrong code of another device can keep it out."""
        seat = self.seat_named(name)
        if trusted and token and seat is not None and not ticket and self.holder(token) == seat:
            with self._lock:
                return Claim(seat=seat, move_code=self._move_codes.get(seat, ""))
        self.check_room(room, client=client, trusted=trusted)
        if seat is None:
            error = SeatError("no_such_player", 404)
            self.refuse(client=client, seat=name, what="claim", reason=error.reason)
            raise error
        if ticket:
            return self._ticket(seat, ticket, client)
        held = self.holder(token) if token else None
        if token and held != seat:
            key = "stale_token" if held is None else "other_seat"
            error = SeatError(key, 409, seat=held or "")
            self.refuse(client=client, seat=seat, what="claim", reason=error.reason)
            raise error
        with self._lock:
            if held == seat:  # this device already holds it
                return Claim(seat=seat, move_code=self._move_codes.get(seat, ""))
            taken = seat in self._tokens
            code_ok = False
            if taken and move_code.strip():
                self._check_move_code_locked(seat, move_code, client=client)
                code_ok = True
            if self.locked or (taken and not code_ok):
                granted = self._ask_locked(seat, client)
            else:
                self._rate_locked(client, seat)
                granted = self._give_locked(seat, client)
        self.on_change()
        return granted

    def answer(self, seat: str, yes: bool) -> None:
        """The host heard the table: ``seat`` may (``yes``) or may not move to the phone
        that asked."""
        with self._lock:
            request = self._requests.get(seat)
            if request is None or request.answer is not None:
                return
            request.answer = yes
            if yes:
                request.claim = self._give_locked(seat, request.client)
            else:
                self._refused_until[seat] = self.clock() + AFTER_NO
        self.on_change()

    def confirm(self, seat: str, token: str | None, *, client: str) -> bool:
        """The player on ``seat``'s device tapped "That's me". True when every seat is now
        confirmed."""
        self.check(seat, token, client=client, what="confirm seat")
        with self._lock:
            fresh = seat not in self._confirmed
            self._confirmed.add(seat)
            if fresh:
                self.events.append(SeatEvent("confirmed", seat))
            done = self._all_confirmed_locked()
        if fresh:
            self.on_change()
        return done

    def lock(self) -> None:
        """The seats are fixed: moving a seat needs the host's spoken yes."""
        with self._lock:
            changed = not self.locked
            self.locked = True
        if changed:
            self.on_change()

    def lock_if_ready(self) -> bool:
        """Lock the seats when every seat is claimed and confirmed and no move is waiting
        for the host, in one step (no claim can slip in between). True when locked."""
        with self._lock:
            self._expire_locked()
            if self.locked or not self._all_confirmed_locked() or any(
                    r.answer is None for r in self._requests.values()):
                return self.locked
            self.locked = True
        self.on_change()
        return True

    def release(self, seat: str, token: str | None, *, client: str) -> None:
        """The device holding ``seat`` gives it up. Before the seats are locked anyone can
        then claim it; after, a new phone asks the host."""
        self.check(seat, token, client=client, what="leave seat")
        with self._lock:
            self._rate_locked(client, seat)
            self._changes.note(client)
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
            self.log.add(client=client, seat=seat, what=what, reason=reason)

    def flush_log(self) -> None:
        """Log the counts of refusals not yet reported (when the server stops)."""
        with self._lock:
            self.log.flush()

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
            self.locked = bool(data.get("locked"))

    # ------------------------------------------------------------------ internals

    def _all_confirmed_locked(self) -> bool:
        return all(p in self._confirmed and p in self._tokens for p in self.players)

    def _raise_locked(self, error: SeatError, client: str, seat: str | None, what: str) -> None:
        self.log.add(client=client, seat=seat, what=what, reason=error.reason)
        raise error

    def _rate_locked(self, client: str, seat: str) -> None:
        wait = self._changes.wait(client)
        if wait > 0:
            self._raise_locked(SeatError("too_many_changes", 429, seconds=int(wait) + 1),
                               client, seat, "seat change")

    def _give_locked(self, seat: str, client: str) -> Claim:
        """``seat`` to a new device: a new token and move code; a move before the lock
        clears every confirmation (everyone checks their phone again)."""
        taken = seat in self._tokens
        token = secrets.token_urlsafe(32)
        code = _new_code()
        self._tokens[seat] = _digest(token)
        self._move_codes[seat] = code
        self._changes.note(client)
        if not self.locked:
            if taken:
                self._confirmed.clear()
            else:
                self._confirmed.discard(seat)
        self._guards.pop(seat, None)
        self.events.append(SeatEvent("moved" if taken else "claimed", seat))
        log.info("companion: seat %s claimed from %s%s", seat, safe(client),
                 " (moved from another device)" if taken else "")
        return Claim(seat=seat, token=token, move_code=code, replaced=taken)

    def _ask_locked(self, seat: str, client: str) -> Claim:
        """A new phone asks for ``seat``: the host will ask the table."""
        now = self.clock()
        self._expire_locked()
        if now < self._refused_until.get(seat, 0.0):
            self._raise_locked(SeatError("table_said_no", 403), client, seat, "ask seat")
        if seat in self._requests or any(r.client == client for r in self._requests.values()):
            self._raise_locked(SeatError("already_asked", 409, seat=seat), client, seat,
                               "ask seat")
        self._rate_locked(client, seat)
        self._changes.note(client)
        ticket = secrets.token_urlsafe(24)
        self._requests[seat] = MoveRequest(seat, client, _digest(ticket), now)
        self.events.append(SeatEvent("asked", seat))
        return Claim(seat=seat, ticket=ticket)

    def _ticket(self, seat: str, ticket: str, client: str) -> Claim:
        with self._lock:
            self._expire_locked()
            request = self._requests.get(seat)
            if request is None or not hmac.compare_digest(request.ticket, _digest(ticket)):
                self._raise_locked(SeatError("request_gone", 410), client, seat, "ask seat")
            assert request is not None
            if request.answer is None:
                return Claim(seat=seat, ticket=ticket)
            del self._requests[seat]
            if not request.answer or request.claim is None:
                self._raise_locked(SeatError("table_said_no", 403), client, seat, "ask seat")
            assert request.claim is not None
            if self._tokens.get(seat) != _digest(request.claim.token):
                self._raise_locked(SeatError("request_gone", 410), client, seat, "ask seat")
            return request.claim

    def _expire_locked(self) -> None:
        now = self.clock()
        for seat, request in list(self._requests.items()):
            if now - request.since > REQUEST_TTL:
                del self._requests[seat]

    def _check_move_code_locked(self, seat: str, move_code: str, *, client: str) -> None:
        given = "".join(ch for ch in move_code if ch.isdigit())
        guard = self._guards.setdefault(seat, _SeatGuard())
        now = self.clock()
        if now < guard.wait_until and client in guard.guessers:
            self._raise_locked(SeatError("seat_braked", 429,
                                         seconds=int(guard.wait_until - now) + 1),
                               client, seat, "move seat")
        good = self._move_codes.get(seat, "")
        if given and good and hmac.compare_digest(given.encode(), good.encode()):
            return
        self.brakes.failed(client)
        guard.guessers.add(client)
        guard.since_new_code += 1
        error = SeatError("wrong_move_code", 403)
        if guard.since_new_code >= SEAT_TRIES:
            guard.since_new_code = 0
            guard.new_codes += 1
            guard.wait_until = now + min(2.0 ** guard.new_codes, 900.0)
            code = _new_code()
            self._move_codes[seat] = code
            self.events.append(SeatEvent("rotated", seat))
            self.log.add(client=client, seat=seat, what="move seat", reason=error.reason)
            self._lock.release()
            try:
                self.on_new_code(seat, code)
            finally:
                self._lock.acquire()
            raise error
        self._raise_locked(error, client, seat, "move seat")
