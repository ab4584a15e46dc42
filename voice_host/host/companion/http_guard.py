"""Checks every request passes before any route of the companion page runs: the ``Host``
header (DNS rebinding), the ``Origin`` (other sites), the POST body's type and announced
length, and the security headers added to every answer; the reading of a body or a
websocket's first message (anything malformed is a 400), and the last guard that answers
an error no route expected with a sentence and one counted log line."""

from __future__ import annotations

import contextlib
import json
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from voice_host.host.companion.seats import SeatError

if TYPE_CHECKING:
    from voice_host.host.companion.channel import CompanionChannel

MAX_BODY = 4096
"""Largest request body accepted (every request is a few short fields)."""


def own_origin(scope: Scope, host: str) -> str:
    secure = scope.get("scheme") in ("https", "wss")
    return f"{'https' if secure else 'http'}://{host.lower()}"


def same_origin(scope: Scope, headers: dict[str, str]) -> bool:
    """Whether the request was sent by the page itself: its ``Origin`` is the page's own and
    the browser did not mark it as coming from another site. A room code in any other
    request is refused without being compared (and counts as no wrong code)."""
    origin = headers.get("origin")
    if origin is None or headers.get("sec-fetch-site", "").lower() == "cross-site":
        return False
    return origin.lower() == own_origin(scope, headers.get("host", ""))


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
        response = refused(error, self.channel.lang)
        await response(scope, receive, send)

    def problem(self, kind: str, scope: Scope, headers: dict[str, str]
                ) -> tuple[str, int, str] | None:
        host = headers.get("host", "")
        if not self.channel.host_allowed(host):
            return "wrong_host", 421, "unknown Host"
        origin = headers.get("origin")
        if origin is not None and origin.lower() != own_origin(scope, host):
            return "cross_site", 403, "other Origin"
        if kind == "http" and scope.get("method") == "POST":
            media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if media != "application/json":
                return "not_json", 415, "not JSON"
            length = headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
                return "too_long", 413, "long body"
        return None




def refused(error: SeatError, lang: str) -> JSONResponse:
    """A refusal's answer: its sentence in the page's language and its key (the page acts
    on some keys, e.g. forgets a stale token)."""
    return JSONResponse({"ok": False, "reason": error.text(lang), "key": error.key},
                        status_code=error.status)


async def read_body(request: Request) -> dict[str, Any]:
    """The JSON object of a POST, read at most :data:`MAX_BODY` bytes far (a body without a
    length is cut off there too)."""
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise SeatError("too_long", 413)
    return json_object(bytes(raw) or b"{}")


def json_object(raw: bytes | str) -> dict[str, Any]:
    """A JSON object, or a 400 :class:`SeatError` for anything else: bad UTF-8, not JSON,
    nested too deep for the parser (thousands of ``[``), not an object, a lone surrogate
    in any string."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise SeatError("not_understood", 400) from None
    if not isinstance(data, dict) or not writable(json.dumps(data, ensure_ascii=False)):
        raise SeatError("not_understood", 400)
    return data


def text_field(data: dict[str, Any], key: str, limit: int = 100) -> str:
    """``data[key]`` when it is a string of at most ``limit`` characters that UTF-8 can
    write (no lone surrogate), else a 400 :class:`SeatError`."""
    value = data.get(key, "")
    if not isinstance(value, str) or len(value) > limit or not writable(value):
        raise SeatError("not_understood", 400)
    return value


def writable(text: str) -> bool:
    """Whether ``text`` has no lone surrogate (``"\\ud800"`` in JSON is one)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


MALFORMED = frozenset({"not_understood", "too_long"})
"""Refusals of a request's form, logged where they are answered (the others are logged
by the seat book)."""


class Shield:
    """The last guard around the routes: an error no route expected is answered with a
    sentence (500) and one line on the host's screen (counted with the refusals, so a
    flood of them cannot flood the screen), never a traceback."""

    def __init__(self, app: ASGIApp, channel: CompanionChannel) -> None:
        self.app = app
        self.channel = channel

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept",
                                   "websocket.close"):
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception as exc:  # noqa: BLE001 - answered and logged in one line
            client = scope["client"][0] if scope.get("client") else "unknown"
            self.channel.seats.refuse(client=client, seat=None, what="request",
                                      reason=f"could not be answered ({type(exc).__name__})")
            if started:
                return
            if scope["type"] == "websocket":
                with contextlib.suppress(Exception):
                    await send({"type": "websocket.close", "code": 1011})
                return
            await refused(SeatError("server_error", 500), self.channel.lang)(scope, receive,
                                                                            send)
