"""The companion page's web server: Starlette routes and websockets, run by uvicorn in a
background thread of the host process, bound to one chosen address (HTTPS with ``--tls``).

HTTP API (JSON; a seat's token travels in the ``X-Seat-Token`` header, never in a URL):

* ``GET /api/strings`` -> the page's words in the game's language;
* ``POST /api/room`` ``{room}`` -> the game and its seats (claimed, confirmed, locked);
* ``POST /api/claim`` ``{room, seat, move_code?}`` -> ``{seat, token, move_code, replaced}``;
* ``POST /api/seat/{name}/confirm`` -> the player tapped "That's me";
* ``GET /api/seat/{name}`` -> that seat's private view (403 without its token; no view until
  every seat is confirmed);
* ``POST /api/seat/{name}/act`` ``{choice}`` -> queued for the host, or 422 with the engine's
  reason (403 without the seat's token);
* ``POST /api/seat/{name}/leave`` -> the seat leaves this device;
* ``GET /api/table?room=CODE`` -> the public view.

Websocket ``/ws``: the first message is ``{"seat", "token", "since"}`` or
``{"table": true, "room", "since"}``; then the server sends numbered messages of that
audience in order (see :mod:`.hub`).

Before any route: :class:`Guard` checks ``Host`` (DNS rebinding), ``Origin`` (other sites),
the POST body's type and announced length; the HTTP protocol itself caps connections per
address and closes idle ones (:func:`guarded_protocol`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from voice_host.host.companion.hub import TABLE, seat_audience
from voice_host.host.companion.seats import SeatError, safe

if TYPE_CHECKING:
    from pathlib import Path

    from voice_host.host.companion.channel import CompanionChannel

log = logging.getLogger("voice_host.companion")

MAX_BODY = 4096
"""Largest request body accepted (every request is a few short fields)."""
TOKEN_HEADER = "x-seat-token"
SOCKETS_PER_SEAT = 3
"""Websockets one seat may hold at once (a phone, its reload, a second tab)."""
TABLE_SOCKETS = 8
"""Table views at once."""
MAX_SOCKETS = 64
"""Websockets in all, and websockets still saying who they are."""
MAX_CONNECTIONS = 200
"""Connections the server serves at once (uvicorn answers 503 beyond)."""
CONNECTIONS_PER_ADDRESS = 32
"""Open connections one address may hold (a phone needs a few); more are closed at once."""
FIRST_REQUEST_TIMEOUT = 5.0
"""A connection that has not sent a whole request head by then is closed."""
FIRST_MESSAGE_TIMEOUT = 10.0

SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


class SecurityHeaders:
    """Adds the security headers above to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


class Guard:
    """Refuses, before any route runs: a ``Host`` that is not a name this server announced
    (DNS rebinding), an ``Origin`` other than the page's own (another site's page), and on
    POST any body that is not ``application/json`` or is longer than :data:`MAX_BODY` by its
    ``Content-Length`` (not read)."""

    def __init__(self, app: ASGIApp, channel: CompanionChannel) -> None:
        self.app = app
        self.channel = channel

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        client = scope["client"][0] if scope.get("client") else "unknown"
        problem = self.problem(kind, scope, headers)
        if problem is None:
            await self.app(scope, receive, send)
            return
        key, status, what = problem
        error = SeatError(key, status)
        self.channel.seats.refuse(client=client, seat=None, what=what, reason=error.reason)
        if kind == "websocket":
            await send({"type": "websocket.close", "code": 4403})
            return
        response = _refused(error.text(self.channel.lang), status)
        await response(scope, receive, send)

    def problem(self, kind: str, scope: Scope, headers: dict[str, str]
                ) -> tuple[str, int, str] | None:
        host = headers.get("host", "")
        if not self.channel.host_allowed(host):
            return "wrong_host", 421, "unknown Host"
        origin = headers.get("origin")
        secure = scope.get("scheme") in ("https", "wss")
        own = f"{'https' if secure else 'http'}://{host.lower()}"
        if origin is not None and origin.lower() != own:
            return "cross_site", 403, "other Origin"
        if kind == "http" and scope.get("method") == "POST":
            media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if media != "application/json":
                return "not_json", 415, "not JSON"
            length = headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
                return "too_long", 413, "long body"
        return None


def _client(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client else "unknown"


def _refused(reason: str, status: int) -> JSONResponse:
    return JSONResponse({"ok": False, "reason": reason}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    """The JSON object of a POST, read at most :data:`MAX_BODY` bytes far (a body without a
    length is cut off there too)."""
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise SeatError("too_long", 413)
    try:
        data = json.loads(bytes(raw) or b"{}")
    except ValueError:
        raise SeatError("not_understood", 400) from None
    if not isinstance(data, dict):
        raise SeatError("not_understood", 400)
    return data


def _text(data: dict[str, Any], key: str, limit: int = 100) -> str:
    value = data.get(key, "")
    if not isinstance(value, str) or len(value) > limit:
        raise SeatError("not_understood", 400)
    return value


def build_app(channel: CompanionChannel, static_dir: Path) -> ASGIApp:
    """The ASGI application of ``channel``."""
    seats = channel.seats
    lang = channel.lang
    opening = {"count": 0}

    def refused(exc: SeatError) -> JSONResponse:
        return _refused(exc.text(lang), exc.status)

    async def seat_page(request: Request) -> Response:
        return FileResponse(static_dir / "index.html", media_type="text/html")

    async def table_page(request: Request) -> Response:
        return FileResponse(static_dir / "table.html", media_type="text/html")

    async def game_script(request: Request) -> Response:
        # this table's game's part of the page (see companion.js, "games"); none: the page
        # shows the game by name only
        script = channel.page_script()
        if script is None or not script.is_file():
            return Response("// no page script for this game\n", media_type="text/javascript")
        return FileResponse(script, media_type="text/javascript")

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    async def strings(request: Request) -> Response:
        return JSONResponse({"lang": lang, "strings": channel.page_strings()})

    async def room(request: Request) -> Response:
        try:
            data = await _body(request)
            seats.check_room(_text(data, "room"), client=_client(request))
        except SeatError as exc:
            return refused(exc)
        return JSONResponse({"ok": True, "game": channel.game, "room": seats.room_code,
                             **channel.seat_list()})

    async def claim(request: Request) -> Response:
        try:
            data = await _body(request)
            granted = seats.claim(_text(data, "room"), _text(data, "seat"),
                                  move_code=_text(data, "move_code", 20),
                                  client=_client(request))
        except SeatError as exc:
            return refused(exc)
        if granted.replaced:
            channel.hub.close_audience(seat_audience(granted.seat), {
                "type": "moved", "key": "moved_away", "seat": granted.seat})
        return JSONResponse({"ok": True, "seat": granted.seat, "token": granted.token,
                             "move_code": granted.move_code, "replaced": granted.replaced})

    def authorised(request: Request, what: str) -> str:
        name = request.path_params["name"]
        seat = seats.seat_named(name) or name
        seats.check(seat, request.headers.get(TOKEN_HEADER), client=_client(request), what=what)
        return seat

    async def seat_view(request: Request) -> Response:
        try:
            seat = authorised(request, "read view")
        except SeatError as exc:
            return refused(exc)
        return JSONResponse({"ok": True, **channel.seat_hello(seat),
                             "items": channel.seat_snapshot(seat)})

    async def act(request: Request) -> Response:
        try:
            seat = authorised(request, "act")
            data = await _body(request)
            choice = _text(data, "choice", 80)
        except SeatError as exc:
            return refused(exc)
        ok, text = channel.submit(seat, choice)
        if not ok:
            return _refused(text, 422)
        return JSONResponse({"ok": True, "text": text})

    async def confirm(request: Request) -> Response:
        try:
            seat = authorised(request, "confirm")
            await _body(request)
            seats.confirm(seat, request.headers.get(TOKEN_HEADER), client=_client(request))
        except SeatError as exc:
            return refused(exc)
        return JSONResponse({"ok": True})

    async def leave(request: Request) -> Response:
        name = request.path_params["name"]
        seat = seats.seat_named(name) or name
        try:
            await _body(request)
            seats.release(seat, request.headers.get(TOKEN_HEADER), client=_client(request))
        except SeatError as exc:
            return refused(exc)
        channel.hub.close_audience(seat_audience(seat))
        return JSONResponse({"ok": True})

    async def table(request: Request) -> Response:
        try:
            seats.check_room(request.query_params.get("room", "")[:20], client=_client(request))
        except SeatError as exc:
            return refused(exc)
        return JSONResponse({"ok": True, "game": channel.game,
                             "items": channel.table_snapshot()})

    async def websocket(ws: WebSocket) -> None:
        client = _client(ws)
        if opening["count"] >= MAX_SOCKETS or channel.hub.client_count() >= MAX_SOCKETS:
            seats.refuse(client=client, seat=None, what="websocket",
                         reason="too many connections")
            await ws.close(4429)
            return
        opening["count"] += 1
        try:
            await ws.accept()
            first = json.loads(await asyncio.wait_for(ws.receive_text(),
                                                      timeout=FIRST_MESSAGE_TIMEOUT))
            if not isinstance(first, dict):
                raise ValueError
            since = first.get("since", 0)
            since = since if isinstance(since, int) and not isinstance(since, bool) else 0
            if first.get("table"):
                seats.check_room(str(first.get("room", ""))[:20], client=client)
                audience, limit = TABLE, TABLE_SOCKETS
                hello = channel.table_hello()
            else:
                name = str(first.get("seat", ""))[:100]
                seat = seats.seat_named(name) or name
                token = first.get("token")
                seats.check(seat, token if isinstance(token, str) else None, client=client,
                            what="open seat")
                audience, limit = seat_audience(seat), SOCKETS_PER_SEAT
                hello = channel.seat_hello(seat)
            if channel.hub.client_count(audience) >= limit:
                raise SeatError("too_many_sockets", 429)
        except SeatError as exc:
            if exc.key == "too_many_sockets":
                seats.refuse(client=client, seat=None, what="websocket", reason=exc.reason)
            await _send_and_close(ws, {"type": "refused", "reason": exc.text(lang),
                                       "status": exc.status}, 4403)
            return
        except (ValueError, TimeoutError, WebSocketDisconnect, RuntimeError):
            await _send_and_close(ws, {"type": "refused", "status": 400,
                                       "reason": SeatError("not_understood", 400).text(lang)},
                                  4400)
            return
        finally:
            opening["count"] -= 1
        await ws.send_text(json.dumps({"type": "hello", "seq": 0, **hello}, ensure_ascii=False))
        sub = channel.hub.subscribe(audience, since)
        sender = asyncio.create_task(_pump(ws, sub.queue))
        receiver = asyncio.create_task(_drain(ws))
        try:
            await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            channel.hub.unsubscribe(sub)
            for task in (sender, receiver):
                task.cancel()
            with contextlib.suppress(Exception):
                await ws.close(4000 if sub.overflowed else 1000)

    routes = [
        Route("/", seat_page),
        Route("/table", table_page),
        Route("/favicon.ico", favicon),
        Route("/game.js", game_script),
        Route("/api/strings", strings),
        Route("/api/room", room, methods=["POST"]),
        Route("/api/claim", claim, methods=["POST"]),
        Route("/api/seat/{name}", seat_view),
        Route("/api/seat/{name}/act", act, methods=["POST"]),
        Route("/api/seat/{name}/confirm", confirm, methods=["POST"]),
        Route("/api/seat/{name}/leave", leave, methods=["POST"]),
        Route("/api/table", table),
        WebSocketRoute("/ws", websocket),
        Mount("/static", StaticFiles(directory=static_dir), name="static"),
    ]
    return SecurityHeaders(Guard(Starlette(routes=routes), channel))


async def _send_and_close(ws: WebSocket, message: dict[str, Any], code: int) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps({**message, "seq": 0}))
        await ws.close(code)


async def _pump(ws: WebSocket, queue: asyncio.Queue[str | None]) -> None:
    while True:
        text = await queue.get()
        if text is None:
            return
        await ws.send_text(text)


async def _drain(ws: WebSocket) -> None:
    """Read (and ignore) what the page sends after its first message, until it leaves."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await ws.receive_text()


def guarded_protocol(on_refused: Any) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol, with two limits of its own: at most
    :data:`CONNECTIONS_PER_ADDRESS` open connections per address, and a connection that
    sends no request head within :data:`FIRST_REQUEST_TIMEOUT` seconds is closed (idle or
    slow sockets cannot use up the server). ``on_refused(address, what)`` records each."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    live: dict[str, set[asyncio.BaseTransport]] = {}

    class Guarded(H11Protocol):
        _first_request: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:  # type: ignore[override]
            super().connection_made(transport)  # type: ignore[arg-type]
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if peer else "unknown"
            mine = {t for t in live.get(address, set()) if not t.is_closing()}
            if len(mine) >= CONNECTIONS_PER_ADDRESS:
                live[address] = mine
                on_refused(address, "too many connections")
                transport.close()
                return
            mine.add(transport)
            live[address] = mine
            for other in [a for a, ts in live.items() if not ts]:
                del live[other]
            self._first_request = self.loop.call_later(FIRST_REQUEST_TIMEOUT,
                                                       self._no_request, address)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            # a request came, or the connection became a websocket (another protocol)
            started = self.cycle is not None or self.transport.get_protocol() is not self
            if started and self._first_request is not None:
                self._first_request.cancel()
                self._first_request = None

        def _no_request(self, address: str) -> None:
            self._first_request = None
            if (self.cycle is None and self.transport.get_protocol() is self
                    and not self.transport.is_closing()):
                on_refused(address, "no request in time")
                self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._first_request is not None:
                self._first_request.cancel()
                self._first_request = None
            super().connection_lost(exc)

    return Guarded


class ServerLogGuard(logging.Filter):
    """uvicorn's own log lines (e.g. "Invalid HTTP request received." for every malformed
    request) are refusals too: counted with the others instead of one line each; anything
    worse is let through, escaped."""

    def __init__(self, on_refused: Any) -> None:
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
                 on_refused: Any = lambda address, what: None) -> None:
        import uvicorn

        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))
        self.port: int = self.sock.getsockname()[1]
        config = uvicorn.Config(app, lifespan="off", log_config=None, log_level="warning",
                                access_log=False, loop="asyncio", ws="websockets-sansio",
                                http=guarded_protocol(on_refused),
                                ws_max_size=64 * 1024, timeout_graceful_shutdown=2,
                                server_header=False, limit_concurrency=MAX_CONNECTIONS,
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
