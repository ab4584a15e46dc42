"""Checks every request passes before any route of the companion page runs: the ``Host``
header (DNS rebinding), the ``Origin`` (other sites), the POST body's type and announced
length, and the security headers added to every answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
