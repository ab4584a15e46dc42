"""The private channel between the host and each player's phone: :class:`CompanionChannel`.

The session loop (or a test) drives it from its own thread:

* ``start()`` -> ``(url, room_code)``; ``qr_text()`` a QR code of the URL for the terminal;
* ``take_seat_events()``: seats claimed, moved, confirmed (the host says each aloud);
  ``lock_seats()`` once every player confirmed: only then does any seat see its secrets;
* ``publish(state)`` after every applied action: the public view goes to the table views,
  each seat's ``player_view`` to that seat only, with the secret inputs it may send now;
* ``deliver(line)`` a PRIVATE host line to the one player it is for; ``caption(text)`` a
  public line (what the host says) to every page; ``countdown(n)``; ``recap(lines)``;
* ``open_turn(seats)``: the seats the host asks now (its current prompt): anything sent out
  of turn is refused at once with a sentence, never kept for later (see :mod:`.turns`);
* ``take_actions(state)`` / ``wait_for_action(timeout, state)``: the inputs the pages sent
  (mission cards, votes, picks, guesses), already checked by the engine (on a copy of the
  state), in the order they came, checked again when taken;
* ``to_json()`` / ``restore()``: the room code and seats, kept with the saved game so a
  resumed game keeps every phone; ``stop()``.
"""

from __future__ import annotations

import logging
import ssl
import threading
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from voice_host.games import Action, GameState, IllegalAction
from voice_host.host.companion import games, tv
from voice_host.host.companion.address import (
    host_allowed,
    is_ip,
    lan_address,
    own_addresses,
    qr_text,
)
from voice_host.host.companion.hub import TABLE, Hub, seat_audience
from voice_host.host.companion.inputs import PhoneInputs
from voice_host.host.companion.news import SeatNews
from voice_host.host.companion.padding import bucket, size_of
from voice_host.host.companion.seat_room import SeatRoom
from voice_host.host.companion.seats import SeatBook
from voice_host.host.companion.strings import fill, game_page_strings
from voice_host.host.companion.turns import TurnGate
from voice_host.host.core.messages import HostOSError
from voice_host.host.core.narration import Narrator
from voice_host.host.core.refusals import refusal_text
from voice_host.host.core.registry import registration
from voice_host.host.core.secrets import SPOKEN, Delivery, Via
from voice_host.host.core.values import Line

log = logging.getLogger("voice_host.companion")

STATIC_DIR = Path(__file__).resolve().parent / "static"
VIEW_STEP = 1024
"""Every seat's view at one step is padded to the same multiple of this many bytes."""
PRIVATE_STEP = 1024
"""A private line is padded to a multiple of this many bytes."""
SEQ_ROOM = 24
"""Bytes kept for the sequence number the hub adds."""


class CompanionChannel(PhoneInputs, SeatRoom):
    """Private views and private input for one game, over a small local web server."""

    def __init__(self, game: str, players: Sequence[str], *, host: str = "127.0.0.1",
                 port: int = 0, room_code: str | None = None, lang: str = "en",
                 tls: tuple[str, str] | None = None, wait_for_everyone: bool = True) -> None:
        self.game = game
        self.players = tuple(players)
        self.bind_host = host
        self.requested_port = port
        self.lang = lang if lang in ("en", "fr") else "en"
        self.tls = tls
        self.wait_for_everyone = wait_for_everyone
        """True when the host deals secrets: nothing is shown and nothing taken until every
        seat is confirmed. False (players hold physical cards): a seat is usable as soon as
        its player confirmed it, and the game does not wait for phones."""
        self._narrator = Narrator(game, self.lang)
        self._strings = game_page_strings(self.lang, game)
        self.seats = SeatBook(self.players, room_code=room_code)
        self.seats.on_change = self._seats_changed
        self.seats.on_new_code = self._new_move_code
        self.hub = Hub()
        self.news = SeatNews()
        """Seat news waiting to be said, merged (see :mod:`.news`)."""
        self._lock = threading.RLock()
        self._arrived = threading.Condition(self._lock)
        self._state_cls: type[GameState] | None = None
        self._state_json: dict[str, Any] | None = None
        self._published: GameState | None = None  # read back from _state_json, once
        self._shadow: GameState | None = None
        self._queue: deque[tuple[Action, int, str]] = deque()
        """Inputs waiting for the host, each with the turn it was sent in and its seat."""
        self.turns = TurnGate()
        """Whom the host asks now on the phones (see :mod:`.turns`)."""
        self._server: Any = None
        self._clock_shown = False
        self._port = 0
        self._view_size = VIEW_STEP
        """The padded size of the seats' views at the current step."""
        self.url = ""
        self.tv_token = tv.new_token()  # the host's own table view (see SeatRoom.table_url)
        self.names: set[str] = set()
        """Host names (besides IP literals and localhost) the page may be asked for."""

    # ------------------------------------------------------------------ life cycle

    @property
    def port(self) -> int:
        """The port the page is (or was last) served on."""
        return self._port if self._server is None else int(self._server.port)

    def start(self) -> tuple[str, str]:
        """Start the web server; returns the URL to announce and the room code. Raises
        ``OSError`` with a plain sentence when the address or port cannot be used."""
        from voice_host.host.companion.server import ServerThread, build_app

        self.seats.brakes.own = own = frozenset(self.own_addresses())  # its own codes only
        try:
            server = ServerThread(
                build_app(self, STATIC_DIR), self.bind_host, self.requested_port, tls=self.tls,
                on_refused=lambda address, what: self.seats.refuse(
                    client=address, seat=None, what="connection", reason=what),
                own=own)
        except OSError as exc:
            raise HostOSError("companion_page.cannot_listen", host=self.bind_host,
                              port=self.requested_port, why=str(exc.strerror or exc)) from None
        try:
            server.start()
        except OSError as exc:
            server.stop()
            if self.tls and isinstance(server.error, ssl.SSLError):
                raise HostOSError("companion_page.bad_tls", why=str(server.error)) from None
            raise HostOSError("companion_page.did_not_start", why=str(exc)) from None
        self._server = server
        self._port = int(server.port)
        shown = self.bind_host
        if shown in ("0.0.0.0", "::", ""):
            shown = lan_address() or "127.0.0.1"
        if not is_ip(shown):
            self.names.add(shown.lower())
        if ":" in shown:
            shown = f"[{shown}]"
        scheme = "https" if self.tls else "http"
        self.url = f"{scheme}://{shown}:{server.port}/"
        log.info("companion page at %s, room %s", self.url, self.room_code)
        return self.url, self.room_code

    def stop(self) -> None:
        """Stop the server (every page shows that it is disconnected)."""
        with self._arrived:
            self._arrived.notify_all()
        if self._server is not None:
            self.hub.close_all({"type": "closed", "key": "closed"})
            self._server.stop()
            self._server = None
            self.seats.flush_log()

    def host_allowed(self, host: str) -> bool:
        """Whether a request's ``Host`` header names this server (see :mod:`.address`)."""
        return host_allowed(host, self.port, self.names)

    def own_addresses(self) -> set[str]:
        return own_addresses(self.bind_host)

    def join_url(self) -> str:
        """The URL with the room code after ``#`` (for the QR code: no typing needed)."""
        return f"{self.url}#{self.room_code}"

    def qr_text(self) -> str:
        return qr_text(self.join_url())

    def _show_views(self) -> None:
        with self._lock:
            if self._state_json is not None and self._state_cls is not None:
                self._rebuild_shadow()
                self._post_views(self._published_state(), self.players)

    def _post_views(self, state: GameState, seats: Sequence[str]) -> None:
        """Every seat's view of ``state``, padded to one size whatever the roles (lock
        held): the largest, rounded up to :data:`VIEW_STEP`."""
        views = {seat: self._seat_view(seat, state) for seat in seats}
        if views:
            largest = max(size_of(v) for v in views.values())
            self._view_size = bucket(largest + SEQ_ROOM, VIEW_STEP)
        for seat, view in views.items():
            self._post_view(seat, view)

    def to_json(self) -> dict[str, Any]:
        return {**self.seats.to_json(), "port": self.port}

    def restore(self, data: dict[str, Any]) -> None:
        """The room code and seats of a saved game (before :meth:`start`)."""
        self.seats.restore(data)

    def page_script(self) -> Path | None:
        """This game's part of the page (served as ``/game.js``), or None."""
        return registration(self.game).page_script

    def page_strings(self) -> dict[str, Any]:
        return dict(self._strings)

    def words(self, key: str, **params: Any) -> str:
        """A page string, the game's own (``game.*``) included, with its fields filled."""
        return fill(self._strings, key, **params)

    def refusal(self, error: IllegalAction) -> str:
        """Why the rules refused a seat's input, in the game's language (the session's
        own function: the page and the host say the same sentence)."""
        return refusal_text(self._narrator, error, registration(self.game).refusal_words)

    # ------------------------------------------------------------------ host -> pages

    def publish(self, state: GameState) -> None:
        """Send the new state: public view to the table, each player's view to their seat."""
        with self._lock:
            self._state_cls = type(state)
            self._state_json = state.to_json()
            self._published = None
            self.turns.follow(state, games.phone_turn(self.game, state))
            self._rebuild_shadow()
            self.hub.post(TABLE, self.table_view(state), keep="latest")
            self._post_views(state, [p for p in self.players if self._may_show(p)])
        if self._clock_shown:  # a move ends the running countdown
            self.countdown(None)

    def deliver(self, line: Line) -> Delivery:
        """A PRIVATE host line (``line.to`` names the player) to that player's page only
        (the output's secret sink). A line for nobody at this table stays with the output."""
        seat = line.to
        if seat not in self.players:
            return SPOKEN
        self.hub.post(seat_audience(seat), {"type": "private", "text": line.text},
                      keep="always", pad_step=PRIVATE_STEP)
        # the host says "... is on <this>"
        return Delivery(Via.COMPANION, self.words("host.secret_place"))

    def tell(self, seat: str, text: str) -> None:
        """A private sentence for one seat (not kept for new devices)."""
        if seat in self.players:
            self.hub.post(seat_audience(seat), {"type": "notice", "text": text},
                          pad_step=PRIVATE_STEP)  # why a choice was dropped: its size too

    def caption(self, text: str) -> None:
        """A public line the host says, shown on every page (nothing by sound alone)."""
        self._to_every_page({"type": "caption", "text": text})

    def recap(self, lines: Sequence[str]) -> None:  # for the table's end screen and every seat
        self._to_every_page({"type": "recap", "lines": list(lines)}, keep="latest")

    def _to_every_page(self, message: dict[str, Any], *, keep: str = "") -> None:
        self.hub.post(TABLE, message, keep=keep)
        for player in self.players:
            self.hub.post(seat_audience(player), message, keep=keep)

    def countdown(self, remaining: int | None) -> None:
        """The countdown's seconds left (None when it stops), for every page."""
        self._clock_shown = remaining is not None
        self._to_every_page({"type": "countdown", "remaining": remaining}, keep="latest")

    # ------------------------------------------------------------------ internals

    def _published_state(self) -> GameState:
        """The published state read back from its JSON once per publish (lock held)."""
        if self._published is None:
            assert self._state_cls is not None and self._state_json is not None
            self._published = self._state_cls.from_json(self._state_json)
        return self._published

    def _post_view(self, seat: str, view: dict[str, Any]) -> None:
        self.hub.post(seat_audience(seat), view, keep="latest", pad_to=self._view_size,
                      pad_step=VIEW_STEP)

    def _seat_view(self, seat: str, state: GameState | None) -> dict[str, Any]:
        """``seat``'s view message (from ``state``, else the published one), with its
        choices (lock held)."""
        if state is None:
            state = self._published_state()
        assert self._shadow is not None
        offered = [c for c in games.choices(self.game, self._shadow, seat, self.words)
                   if self._offered(seat, c)]
        waiting = any(sender == seat for _, _, sender in self._queue)
        return {
            "type": "view", "game": self.game, "view": state.player_view(seat),
            "choices": [{"id": c.id, "label": c.label, "confirm": c.confirm, "kind": c.kind,
                         **c.extra} for c in offered],
            "sent": waiting,
        }

    def _seats_changed(self) -> None:
        """A seat was claimed, moved, left or confirmed (any thread): every page and the
        host's loop hear of it (under the lock: the last seat list posted is the newest)."""
        with self._arrived:
            message = {"type": "seats", **self.seat_list()}
            self.hub.post(TABLE, message, keep="latest")
            for player in self.players:
                self.hub.post(seat_audience(player), message, keep="latest")
            if not self.wait_for_everyone and self._state_json is not None:
                for player in self.players:  # a seat just confirmed gets its view
                    if self._may_show(player):
                        self._post_view(player, self._seat_view(player, None))
            self._arrived.notify_all()

    def _may_show(self, seat: str) -> bool:
        """Whether ``seat``'s page may show its view and send choices now."""
        if self.seats.locked:
            return True
        return not self.wait_for_everyone and any(
            s.name == seat and s.claimed and s.confirmed for s in self.seats.seats())

    def _new_move_code(self, seat: str, code: str) -> None:
        """Guessing replaced ``seat``'s move code: its own device shows the new one."""
        self.hub.post(seat_audience(seat), {"type": "move_code", "move_code": code},
                      keep="latest")
        self.hub.post(seat_audience(seat), {"type": "notice", "key": "code_replaced"})
        self.seats.on_change()  # a kept game keeps the new code
