"""The seat side of :class:`~.channel.CompanionChannel`: who holds a seat, locking the seats,
what a newly connected page is told first, and what a resumed game keeps. A mixin: the
channel owns the state it reads."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from voice_host.host.companion import games, news, tv
from voice_host.host.companion.hub import TABLE, Hub, seat_audience
from voice_host.host.companion.news import SeatNews
from voice_host.host.companion.seats import SeatBook
from voice_host.host.core.registry import registration

if TYPE_CHECKING:
    from pathlib import Path

    from voice_host.games import GameState
    from voice_host.host.core.session import Session


class SeatRoom:
    """The seats of a channel, as the session and the server see them."""

    game: str
    players: tuple[str, ...]
    lang: str
    seats: SeatBook
    hub: Hub
    wait_for_everyone: bool
    news: SeatNews
    _arrived: threading.Condition

    @property
    def room_code(self) -> str:
        return self.seats.room_code

    url: str
    tv_token: str
    """Shows the room code and the join QR code on the table view that sends it (the host's
    own screen, see :mod:`.tv`); new each time the host starts."""

    @property
    def port(self) -> int:
        raise NotImplementedError

    def join_url(self) -> str:
        raise NotImplementedError

    def _show_views(self) -> None:
        raise NotImplementedError

    def move_code(self, seat: str) -> str | None:
        """The code that moves ``seat`` to a new device (shown on the host's screen only when
        the host asks for that one seat)."""
        return self.seats.move_code(seat)

    # ------------------------------------------------------------------ seats

    def seat_list(self) -> dict[str, Any]:
        """Who holds a seat and who confirmed (public: the table sees it)."""
        return {"seats": [{"name": s.name, "claimed": s.claimed, "confirmed": s.confirmed}
                          for s in self.seats.seats()],
                "locked": self.seats.locked, "everyone": self.wait_for_everyone}

    def say_seat_news(self, session: Session) -> bool:
        """Say what changed on the seats, merged, and ask the table about a phone that
        asks for a seat (:func:`.news.seat_news`); True when anything was said."""
        return news.seat_news(self, session)

    def show_move_code(self, session: Session, name: str) -> None:
        """One seat's move code on the host's own terminal (:func:`.news.show_move_code`)."""
        news.show_move_code(self, session, name)

    def take_seat_events(self) -> list[Any]:
        """Seat changes since the last call, for the host to say aloud."""
        return self.seats.take_events()

    def wait_for_seat_event(self, timeout: float) -> None:
        """Sleep until a seat changes or ``timeout`` seconds pass."""
        with self._arrived:
            if not self.seats.events:
                self._arrived.wait(timeout)

    def try_lock_seats(self) -> bool:
        """Lock the seats if every seat is claimed and confirmed and no move waits for the
        host, in one step; then every seat sees its view. True when locked."""
        if self.seats.locked:
            return True
        if not self.seats.lock_if_ready():
            return False
        self._show_views()
        return True

    def game_started(self) -> None:
        """The game is under way (physical cards): the seats lock, and a new phone asks
        the host (who asks the table) before it may play for anyone."""
        if not self.wait_for_everyone:
            self.seats.lock()

    def lock_seats(self) -> None:
        """Every player confirmed their seat: lock them and show each seat its view."""
        self.seats.lock()
        self._show_views()

    # ------------------------------------------------------------------ for the server

    def seat_hello(self, seat: str) -> dict[str, Any]:
        return {"audience": "seat", "seat": seat, "room": self.room_code, "game": self.game,
                "lang": self.lang, "players": list(self.players),
                "move_code": self.seats.move_code(seat), "extras": games.extras(self.game),
                **self.seat_list()}

    def table_url(self) -> str:
        """The host's own table view: the board with the room code and the join QR code."""
        return f"{self.url}table#tv={self.tv_token}"

    def table_script(self) -> Path | None:
        """This game's board on the television (served as ``/board.js``), or None."""
        return registration(self.game).table_script

    def table_view(self, state: GameState) -> dict[str, Any]:
        """The table views' message for ``state``: its public view and the board's facts."""
        return {"type": "view", "game": self.game, "view": state.public_view(),
                "board": tv.board_facts(self.game, state)}

    def table_hello(self, *, host_screen: bool = False) -> dict[str, Any]:
        """What a table view is told first; the host's own screen (``host_screen``: it sent
        the table token) also gets the join panel: room code, address and QR code."""
        hello = {"audience": "table", "room": self.room_code, "game": self.game,
                 "lang": self.lang, "players": list(self.players),
                 "extras": games.extras(self.game), **self.seat_list()}
        if host_screen:
            hello["join"] = tv.join_panel(self.url, self.join_url(), self.room_code)
        return hello

    def seat_snapshot(self, seat: str) -> list[dict[str, Any]]:
        with self.hub._lock:
            return self.hub._stream(seat_audience(seat)).snapshot()

    def table_snapshot(self) -> list[dict[str, Any]]:
        with self.hub._lock:
            return self.hub._stream(TABLE).snapshot()

