"""The companion page's connections: uvicorn's HTTP protocol with limits of its own, its log
kept quiet, and the server thread.

uvicorn offers a keep-alive timeout, but any byte received cancels it, so a connection that
sends one header line every 2 s after a first request stays open for ever; its
``limit_concurrency`` answers 503 to everyone once anyone holds enough connections. So the
protocol here arms a deadline for *every* request on a connection (the head within
:data:`HEAD_TIMEOUT` s, the whole answer within :data:`REQUEST_TIMEOUT` s) and shares the
connections fairly between addresses and networks (:class:`~.limits.FairSlots`), keeping
slots for the host's own machine."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
from collections.abc import Callable, Iterable
from typing import Any

from starlette.types import ASGIApp

from voice_host.host.companion.limits import FairSlots, Slot
from voice_host.host.companion.refusal_log import safe

CONNECTIONS_PER_ADDRESS = 16
"""Open connections one address may hold (a browser opens up to six)."""
CONNECTIONS_PER_NETWORK = 64
"""Open connections one /24 or /64 may hold before its heaviest holder loses one."""
MAX_CONNECTIONS = 160
"""Connections from other machines at once."""
RESERVED_CONNECTIONS = 24
"""Kept for the host's own machine (the table view on its screen) whatever the others hold."""
BACKSTOP_CONNECTIONS = 256
"""uvicorn's own limit, behind ours."""
HEAD_TIMEOUT = 5.0
"""Seconds a connection has to send each request's whole head (the first and every next)."""
FIRST_REQUEST_TIMEOUT = HEAD_TIMEOUT
REQUEST_TIMEOUT = 10.0
"""Seconds from a request's head to the end of its answer (a body sent slowly is cut)."""

OnRefused = Callable[[str, str], None]


def guarded_protocol(on_refused: OnRefused, own: Iterable[str] = ()) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol with fair connection slots and a deadline on every request.
    ``on_refused(address, what)`` records each refusal; ``own`` are the host's addresses."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    slots: FairSlots[asyncio.BaseTransport] = FairSlots(
        CONNECTIONS_PER_ADDRESS, CONNECTIONS_PER_NETWORK, MAX_CONNECTIONS,
        RESERVED_CONNECTIONS, frozenset(own))

    class Guarded(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _slot: Slot[asyncio.BaseTransport] | None = None
        _armed_for: Any = None
        _address = "unknown"

        def connection_made(self, transport: asyncio.BaseTransport) -> None:  # type: ignore[override]
            super().connection_made(transport)  # type: ignore[arg-type]
            peer = transport.get_extra_info("peername")
            self._address = str(peer[0]) if peer else "unknown"
            for held in [s for s in slots.slots if s.thing.is_closing()]:
                slots.release(held)
            self._slot = slots.admit(self._address, transport, self._evicted, self._idle)
            if self._slot is None:
                on_refused(self._address, "too many connections")
                transport.close()
                return
            self._arm(HEAD_TIMEOUT, "no request in time")

        def _idle(self) -> bool:
            """Between requests (or before the first): its slot may go to a newcomer."""
            return (self.transport.get_protocol() is self
                    and (self.cycle is None or self.cycle.response_complete))

        def _evicted(self) -> None:
            on_refused(self._address, "connection given to another device")
            self.transport.close()

        def _arm(self, seconds: float, why: str) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._armed_for = self.cycle
            self._deadline = self.loop.call_later(seconds, self._late, why)

        def _late(self, why: str) -> None:
            self._deadline = None
            if self.transport.get_protocol() is self and not self.transport.is_closing():
                on_refused(self._address, why)
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.transport.get_protocol() is not self:  # now a websocket: its own limits
                self._disarm()
            elif self.cycle is not None and self.cycle is not self._armed_for:
                self._arm(REQUEST_TIMEOUT, "request too slow")  # a new head came in

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm(HEAD_TIMEOUT, "no request in time")  # the next head, in time

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            slots.release(self._slot)
            super().connection_lost(exc)

    return Guarded


class ServerLogGuard(logging.Filter):
    """uvicorn's own log lines (e.g. "Invalid HTTP request received." for every malformed
    request) are refusals too: counted with the others instead of one line each; anything
    worse is let through, escaped."""

    def __init__(self, on_refused: OnRefused) -> None:
        super().__init__()
        self.on_refused = on_refused

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.levelno < logging.ERROR:
            self.on_refused("network", message)
            return False
        record.msg = safe(message, limit=400)
        record.args = ()
        return True


class ServerThread:
    """uvicorn serving ``app`` on ``host:port`` (0 = any free port) in a daemon thread."""

    def __init__(self, app: ASGIApp, host: str, port: int, *,
                 tls: tuple[str, str] | None = None,
                 on_refused: OnRefused = lambda address, what: None,
                 own: Iterable[str] = ()) -> None:
        import uvicorn

        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))
        self.port: int = self.sock.getsockname()[1]
        # no per-message deflate: compressed padding would let sizes tell secrets again
        config = uvicorn.Config(app, lifespan="off", log_config=None, log_level="warning",
                                access_log=False, loop="asyncio", ws="websockets-sansio",
                                http=guarded_protocol(on_refused, own),
                                ws_max_size=64 * 1024, ws_per_message_deflate=False,
                                timeout_graceful_shutdown=2, timeout_keep_alive=5,
                                server_header=False, limit_concurrency=BACKSTOP_CONNECTIONS,
                                h11_max_incomplete_event_size=16 * 1024,
                                ssl_certfile=tls[0] if tls else None,
                                ssl_keyfile=tls[1] if tls else None)
        self.server = uvicorn.Server(config)
        self.log_guard = ServerLogGuard(on_refused)
        for name in ("uvicorn.error", "uvicorn"):
            logging.getLogger(name).addFilter(self.log_guard)
        self.thread = threading.Thread(target=self._run, name="voice-host-companion",
                                       daemon=True)
        self.error: BaseException | None = None

    def _run(self) -> None:
        try:
            self.server.run(sockets=[self.sock])
        except BaseException as exc:  # noqa: BLE001 - reported to the starting thread
            self.error = exc

    def start(self, timeout: float = 15.0) -> None:
        self.thread.start()
        waited = 0.0
        while not self.server.started:
            if not self.thread.is_alive() or waited > timeout:
                raise OSError(f"The companion server did not start: {self.error}")
            self.thread.join(0.02)
            waited += 0.02

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)
        for name in ("uvicorn.error", "uvicorn"):
            logging.getLogger(name).removeFilter(self.log_guard)
        with contextlib.suppress(OSError):
            self.sock.close()
