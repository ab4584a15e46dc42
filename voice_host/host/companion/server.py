"""The companion page's web server: Starlette routes and websockets, run by uvicorn in a
background thread of the host process, bound to one chosen address (HTTPS with ``--tls``).

HTTP API (JSON; a seat's token travels in the ``X-Seat-Token`` header, never in a URL):

* ``GET /api/strings`` -> the page's words in the game's language;
* ``POST /api/room`` ``{room}`` -> the game and its seats (claimed, confirmed, locked);
* ``POST /api/claim`` ``{room, seat, move_code?, ticket?}`` -> ``{seat, token, move_code,
  replaced}``, or 202 ``{pending, ticket}`` when the host must ask the table first (the phone
  then asks again with its ticket);
* ``POST /api/seat/{name}/confirm`` -> the player tapped "That's me";
* ``GET /api/seat/{name}`` -> that seat's private view (403 without its token; no view until
  every seat is confirmed);
* ``POST /api/seat/{name}/act`` ``{choice}`` -> queued for the host, or 422 with the engine's
  reason (403 without the seat's token);
* ``POST /api/seat/{name}/leave`` -> the seat leaves this device;
* ``POST /api/table`` ``{room}`` -> the public view.

A room code counts only in a request from the page itself (same-origin ``Origin``, not
``Sec-Fetch-Site: cross-site``): any other is refused before the code is compared.

Websocket ``/ws``: the first message is ``{"seat", "token", "since"}``,
``{"table": true, "room", "since"}`` or, from the host's own screen, ``{"table": true, "tv",
"since"}`` with the table token (its hello adds the room code and the join QR code); then
the server sends numbered messages of that audience in order (see :mod:`.hub`).

Before any route: :class:`Guard` checks ``Host`` (DNS rebinding), ``Origin`` (other sites),
the POST body's type and announced length (:mod:`.http_guard`); the HTTP protocol shares
connections fairly and puts a deadline on every request (:mod:`.transport`). Websockets that
have not said who they are yet are few per address and network, and closed after
:data:`FIRST_MESSAGE_TIMEOUT` seconds; the host's own machine keeps table views."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp
from starlette.websockets import WebSocket, WebSocketDisconnect

from voice_host.host.companion import tv
from voice_host.host.companion.http_guard import (
    MALFORMED,
    Guard,
    SecurityHeaders,
    Shield,
    json_object,
    read_body,
    refused,
    same_origin,
    text_field,
    writable,
)
from voice_host.host.companion.hub import TABLE, seat_audience
from voice_host.host.companion.limits import FairSlots, Slot
from voice_host.host.companion.padding import padded_json
from voice_host.host.companion.seats import SeatError
from voice_host.host.companion.transport import (  # noqa: F401 - the server's parts, here
    CONNECTIONS_PER_ADDRESS,
    FIRST_REQUEST_TIMEOUT,
    ServerThread,
    guarded_protocol,
)

if TYPE_CHECKING:
    from pathlib import Path

    from voice_host.host.companion.channel import CompanionChannel

log = logging.getLogger("voice_host.companion")

TOKEN_HEADER = "x-seat-token"
SOCKETS_PER_SEAT = 3
"""Websockets one seat may hold at once (a phone, its reload, a second tab)."""
TABLE_SOCKETS = 8
"""Table views at once from other machines (the host's own machine has more, see
:data:`RESERVED_TABLE_SOCKETS`)."""
TABLE_SOCKETS_PER_ADDRESS = 2
RESERVED_TABLE_SOCKETS = 2
"""Table views kept for the host's own machine, whatever the others hold."""
MAX_SOCKETS = 64
"""Websockets in all."""
PENDING_SOCKETS = 32
"""Websockets still saying who they are, in all ..."""
PENDING_PER_ADDRESS = 4
"""... from one address ..."""
PENDING_PER_NETWORK = 16
"""... and from one /24 or /64 (its heaviest address loses its oldest to a newcomer)."""
FIRST_MESSAGE_TIMEOUT = 3.0
"""Seconds a websocket has to say who it is."""
VIEW_BUCKET = 2048
"""A seat's view over HTTP is padded to a multiple of this many bytes."""

def _client(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client else "unknown"


def _refused(reason: str, status: int) -> JSONResponse:
    return JSONResponse({"ok": False, "reason": reason}, status_code=status)


def build_app(channel: CompanionChannel, static_dir: Path) -> ASGIApp:
    """The ASGI application of ``channel``."""
    seats = channel.seats
    lang = channel.lang
    own = frozenset(channel.own_addresses())  # a route lookup: once
    pending: FairSlots[WebSocket] = FairSlots(
        PENDING_PER_ADDRESS, PENDING_PER_NETWORK, PENDING_SOCKETS, PENDING_PER_ADDRESS, own)
    tables: FairSlots[WebSocket] = FairSlots(
        TABLE_SOCKETS_PER_ADDRESS, TABLE_SOCKETS, TABLE_SOCKETS, RESERVED_TABLE_SOCKETS, own)

    def refuse(exc: SeatError, request: Request | None = None) -> JSONResponse:
        if request is not None and exc.key in MALFORMED:
            seats.refuse(client=_client(request), seat=None, what="malformed request",
                         reason=exc.reason)
        return refused(exc, lang)

    async def seat_page(request: Request) -> Response:
        return FileResponse(static_dir / "index.html", media_type="text/html")

    async def table_page(request: Request) -> Response:
        return FileResponse(static_dir / "table.html", media_type="text/html")

    async def table_script(request: Request) -> Response:
        # this table's game's board on the television (see table.js, "boards")
        script = channel.table_script()
        if script is None or not script.is_file():
            return Response("// no board for this game\n", media_type="text/javascript")
        return FileResponse(script, media_type="text/javascript")

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

    def trusted(request: Request | WebSocket) -> bool:
        headers = {k.lower(): v for k, v in request.headers.items()}
        return same_origin(request.scope, headers)

    async def room(request: Request) -> Response:
        try:
            data = await read_body(request)
            seats.check_room(text_field(data, "room"), client=_client(request),
                             trusted=trusted(request))
        except SeatError as exc:
            return refuse(exc, request)
        return JSONResponse({"ok": True, "game": channel.game, "room": seats.room_code,
                             **channel.seat_list()})

    async def claim(request: Request) -> Response:
        token = request.headers.get(TOKEN_HEADER)
        try:
            data = await read_body(request)
            granted = seats.claim(text_field(data, "room"), text_field(data, "seat"),
                                  move_code=text_field(data, "move_code", 20),
                                  ticket=text_field(data, "ticket", 60), token=token or None,
                                  client=_client(request), trusted=trusted(request))
        except SeatError as exc:
            return refuse(exc, request)
        if granted.ticket:  # the host asks the table; the phone asks again with its ticket
            return JSONResponse({"ok": True, "seat": granted.seat, "pending": True,
                                 "ticket": granted.ticket}, status_code=202)
        if granted.replaced:
            channel.hub.close_audience(seat_audience(granted.seat), {
                "type": "moved", "key": "moved_away", "seat": granted.seat})
        return JSONResponse({"ok": True, "seat": granted.seat,
                             "token": granted.token or token, "move_code": granted.move_code,
                             "replaced": granted.replaced})

    def authorised(request: Request, what: str) -> str:
        name = request.path_params["name"]
        seat = seats.seat_named(name) or name
        seats.check(seat, request.headers.get(TOKEN_HEADER), client=_client(request), what=what)
        return seat

    async def seat_view(request: Request) -> Response:
        try:
            seat = authorised(request, "read view")
        except SeatError as exc:
            return refuse(exc, request)
        body = padded_json({"ok": True, **channel.seat_hello(seat),
                            "items": channel.seat_snapshot(seat)}, step=VIEW_BUCKET)
        return Response(body, media_type="application/json")

    async def act(request: Request) -> Response:
        try:
            seat = authorised(request, "act")
            data = await read_body(request)
            choice = text_field(data, "choice", 80)
        except SeatError as exc:
            return refuse(exc, request)
        ok, text = channel.submit(seat, choice)
        if not ok:
            return _refused(text, 422)
        return Response(padded_json({"ok": True, "text": text}, step=256),
                        media_type="application/json")

    async def confirm(request: Request) -> Response:
        try:
            seat = authorised(request, "confirm")
            await read_body(request)
            seats.confirm(seat, request.headers.get(TOKEN_HEADER), client=_client(request))
        except SeatError as exc:
            return refuse(exc, request)
        return JSONResponse({"ok": True})

    async def leave(request: Request) -> Response:
        name = request.path_params["name"]
        seat = seats.seat_named(name) or name
        try:
            await read_body(request)
            seats.release(seat, request.headers.get(TOKEN_HEADER), client=_client(request))
        except SeatError as exc:
            return refuse(exc, request)
        channel.hub.close_audience(seat_audience(seat))
        return JSONResponse({"ok": True})

    async def table(request: Request) -> Response:
        try:
            data = await read_body(request)
            seats.check_room(text_field(data, "room", 20), client=_client(request),
                             trusted=trusted(request))
        except SeatError as exc:
            return refuse(exc, request)
        return JSONResponse({"ok": True, "game": channel.game,
                             "items": channel.table_snapshot()})

    async def websocket(ws: WebSocket) -> None:
        client = _client(ws)
        if channel.hub.client_count() >= MAX_SOCKETS:
            seats.refuse(client=client, seat=None, what="websocket",
                         reason="too many connections")
            await ws.close(4429)
            return
        def end() -> None:  # a newcomer takes this silent socket's place
            asyncio.ensure_future(ws.close(4408))

        hold: Slot[WebSocket] | None = pending.admit(client, ws, end)
        if hold is None:
            seats.refuse(client=client, seat=None, what="websocket",
                         reason="too many websockets saying nothing")
            await ws.close(4429)
            return
        table_slot: Slot[WebSocket] | None = None
        try:
            await ws.accept()
            first = json_object(await asyncio.wait_for(ws.receive_text(),
                                                        timeout=FIRST_MESSAGE_TIMEOUT))
            since = first.get("since", 0)
            since = since if isinstance(since, int) and not isinstance(since, bool) else 0
            if first.get("table"):
                host_screen = "tv" in first
                if host_screen:  # the host's own screen: shows the room code (see .tv)
                    tv.check_token(seats, text_field(first, "tv", 64), channel.tv_token,
                                   client=client)
                else:
                    seats.check_room(text_field(first, "room", 20), client=client,
                                     trusted=trusted(ws))
                table_slot = tables.admit(client, ws, lambda: None, lambda: False)
                if table_slot is None:
                    raise SeatError("too_many_sockets", 429)
                audience = TABLE
                hello = channel.table_hello(host_screen=host_screen)
            else:
                name = text_field(first, "seat")
                seat = seats.seat_named(name) or name
                token = first.get("token")
                seats.check(seat, token if isinstance(token, str) and writable(token)
                            else None, client=client, what="open seat")
                audience = seat_audience(seat)
                hello = channel.seat_hello(seat)
                if channel.hub.client_count(audience) >= SOCKETS_PER_SEAT:
                    raise SeatError("too_many_sockets", 429)
        except SeatError as exc:
            tables.release(table_slot)
            if exc.key == "too_many_sockets" or exc.key in MALFORMED:
                seats.refuse(client=client, seat=None, what="websocket", reason=exc.reason)
            await _send_and_close(ws, {"type": "refused", "reason": exc.text(lang),
                                       "key": exc.key, "status": exc.status}, 4403)
            return
        except (ValueError, TimeoutError, WebSocketDisconnect, RuntimeError, KeyError):
            # KeyError: a binary frame where the page sends text
            tables.release(table_slot)
            seats.refuse(client=client, seat=None, what="websocket",
                         reason="no first message it could read")
            await _send_and_close(ws, {"type": "refused", "status": 400,
                                       "reason": SeatError("not_understood", 400).text(lang)},
                                  4400)
            return
        finally:
            pending.release(hold)
        try:
            await ws.send_text(json.dumps({"type": "hello", "seq": 0, **hello},
                                          ensure_ascii=False))
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
        finally:
            tables.release(table_slot)

    routes = [
        Route("/", seat_page),
        Route("/table", table_page),
        Route("/favicon.ico", favicon),
        Route("/game.js", game_script),
        Route("/board.js", table_script),
        Route("/api/strings", strings),
        Route("/api/room", room, methods=["POST"]),
        Route("/api/claim", claim, methods=["POST"]),
        Route("/api/seat/{name}", seat_view),
        Route("/api/seat/{name}/act", act, methods=["POST"]),
        Route("/api/seat/{name}/confirm", confirm, methods=["POST"]),
        Route("/api/seat/{name}/leave", leave, methods=["POST"]),
        Route("/api/table", table, methods=["POST"]),
        WebSocketRoute("/ws", websocket),
        Mount("/static", StaticFiles(directory=static_dir), name="static"),
    ]
    async def server_error(request: Request, exc: Exception) -> Response:
        # the sentence; the error itself is logged in one line by Shield, which sees it next
        return refused(SeatError("server_error", 500), lang)

    app = Starlette(routes=routes, exception_handlers={Exception: server_error})
    return SecurityHeaders(Shield(Guard(app, channel), channel))


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


