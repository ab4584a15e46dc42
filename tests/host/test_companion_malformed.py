"""Malformed input to every route of the companion page, over a real socket on 127.0.0.1:
thousands of ``[``, lone surrogates, bad UTF-8, wrong types, oversize bodies, odd paths and
websocket first messages. Every answer is a 4xx with a sentence, the host's screen shows no
traceback, and a flood of them shows a bounded number of lines. Loops are bounded."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.companion_phone import page_origin

pytest.importorskip("starlette", reason="the companion extra (starlette) is not installed")
httpx = pytest.importorskip("httpx", reason="httpx (test client) is not installed")
websockets = pytest.importorskip("websockets", reason="websockets is not installed")

from voice_host.games import Deal  # noqa: E402
from voice_host.games.resistance import ResistanceState  # noqa: E402
from voice_host.host.companion import CompanionChannel  # noqa: E402
from voice_host.host.companion.refusal_log import LOG_LINES_PER_WINDOW  # noqa: E402

pytestmark = pytest.mark.network  # a local server on 127.0.0.1

PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve"]

BODIES: list[bytes] = [  # malformed for every route
    b"[" * 3000,
    b'{"room": ' + b"[" * 3000,
    b'{"room": ' + b"[" * 3000 + b"]" * 3000 + b"}",
    b'{"a": ' * 1300 + b"1" + b"}" * 1300,
    b'{"room": "\\ud800"}',
    b'{"room": "AB\\udfffCD", "seat": "\\ud83d"}',
    b'{"choice": "\\udcff", "move_code": "\\ud800"}',
    b'{"other": ["\\ud800"]}',
    b'{"room": "\xff\xfe\xfd"}',
    b"\xc3\x28\xa0\xa1",
    b"null", b'"room"', b"[]", b"42", b"   ", b"{", b"}", b"{'room': 'x'}",
    b"x" * 5000,
    b'{"room": "' + b"A" * 5000 + b'"}',
]
FIELDS = {  # each route's own fields, of the wrong type or too long
    "room": [b'{"room": 5}', b'{"room": null}', b'{"room": ["A"]}', b'{"room": {"a": 1}}',
             b'{"room": true}', b'{"room": NaN}', b'{"room": -Infinity}', b'{"room": 1e400}',
             b'{"room": "' + b"A" * 3000 + b'"}', b'{"room": 1' + b"0" * 4000 + b"}"],
    "seat": [b'{"seat": 7}', b'{"seat": ["Ada"]}', b'{"seat": "' + b"B" * 300 + b'"}'],
    "choice": [b'{"choice": false}', b'{"choice": {"x": [1, 2]}}', b'{"choice": 3}',
               b'{"choice": "' + b"c" * 200 + b'"}'],
    "move_code": [b'{"move_code": 123456}', b'{"ticket": []}'],
}
ROUTE_FIELDS = {"/api/room": ["room"], "/api/table": ["room"],
                "/api/claim": ["room", "seat", "move_code"], "/api/seat/Ada/act": ["choice"],
                "/api/seat/Ada/confirm": [], "/api/seat/Ada/leave": []}
POST_ROUTES = ["/api/room", "/api/claim", "/api/table", "/api/seat/Ada/act",
               "/api/seat/Ada/confirm", "/api/seat/Ada/leave"]
ODD_SEATS = ["%ED%A0%80", "%FF%FE", "%00", "A" * 3000, "..%2F..%2Fetc", "Ada%0D%0AX: y"]
ODD_GETS = ["/static/..%2F..%2Fsecret", "/static/%00", "/static/%ED%A0%80.js",
            "/api/strings?%FF=%FE", "/?" + "a" * 3000, "/game.js?x=%ED%A0%80", "/table?%00",
            "/api/room", "/api/table?room=ABCDEF"]
"""Pages and files with odd paths: answered without an error (a page, 404, 405)."""
WS_FIRST = [
    "[" * 3000, '{"table": true, "room": "\\ud800"}', '{"seat": "\\udfff", "token": "x"}',
    '{"seat": "Ada", "token": "\\ud800"}', '{"table": true, "room": 5}',
    '{"seat": ["Ada"]}', '{"table": true, "room": "' + "A" * 500 + '"}', "null", "{",
    '{"seat": "Ada", "since": "\\ud800"}', '{"table": true, "room": null, "since": 1e400}',
]


class Screen:
    """Everything the host's screen would show: the companion's and the server's log lines,
    and anything reaching the root logger."""

    def __init__(self) -> None:
        self.stream = io.StringIO()
        self.handler = logging.StreamHandler(self.stream)
        self.handler.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def __enter__(self) -> Screen:
        logging.getLogger().addHandler(self.handler)
        return self

    def __exit__(self, *exc: object) -> None:
        logging.getLogger().removeHandler(self.handler)

    @property
    def lines(self) -> list[str]:
        return [line for line in self.stream.getvalue().splitlines() if line.strip()]


@pytest.fixture()
def channel() -> Iterator[CompanionChannel]:
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
    channel.start()
    state = ResistanceState.new(PLAYERS, deal=Deal.HOST, double_agent=True)
    state.apply(state.setup_action(random.Random(3), first_leader="Ada"))
    channel.publish(state)
    try:
        yield channel
    finally:
        channel.stop()


def client(channel: CompanionChannel) -> httpx.Client:
    return httpx.Client(base_url=channel.url, headers=page_origin(channel.url), timeout=10)


def post(phone: httpx.Client, route: str, body: bytes, token: str = "") -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Seat-Token"] = token
    return phone.post(route, content=body, headers=headers)


def test_every_route_answers_malformed_input_with_a_4xx_and_no_traceback(
        channel: CompanionChannel, capfd: Any) -> None:
    statuses: dict[int, int] = {}
    bad: list[tuple[str, bytes, int]] = []
    with Screen() as screen, client(channel) as phone:
        token = phone.post("/api/claim", json={"room": channel.room_code,
                                               "seat": "Ada"}).json()["token"]
        for route in POST_ROUTES:
            own = [body for field in ROUTE_FIELDS[route] for body in FIELDS[field]]
            for body in BODIES + own:
                for with_token in ("", token):  # before and after the seat's check
                    answer = post(phone, route, body, with_token)
                    statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
                    if not 400 <= answer.status_code < 500 or "reason" not in answer.json():
                        bad.append((route, body[:40], answer.status_code))
        for name in ODD_SEATS:
            for route in (f"/api/seat/{name}", f"/api/seat/{name}/act"):
                method = phone.get if "act" not in route else phone.post
                answer = method(route, headers={"X-Seat-Token": token})
                if not 400 <= answer.status_code < 500:
                    bad.append((route[:40], b"", answer.status_code))
        for path in ODD_GETS:
            answer = phone.get(path)
            if answer.status_code >= 500:
                bad.append((path[:40], b"", answer.status_code))
        chunked = phone.post("/api/room", content=iter([b"[" * 3000, b"]" * 3000]),
                             headers={"Content-Type": "application/json"})
        statuses[chunked.status_code] = statuses.get(chunked.status_code, 0) + 1
        answers = asyncio.run(_websockets(channel))
        # the phone's seat still works
        view = phone.get("/api/seat/Ada", headers={"X-Seat-Token": token})
    out = capfd.readouterr()
    shown = screen.lines + out.err.splitlines() + out.out.splitlines()
    total = sum(statuses.values())
    print(f"{total} malformed HTTP requests over {len(POST_ROUTES) + 2} routes: statuses "
          f"{dict(sorted(statuses.items()))}; {len(WS_FIRST)} websocket first messages: "
          f"{sorted(set(answers))}; {len(screen.lines)} log lines (before: 500 and a "
          "50-line traceback each)")
    assert not bad, bad
    assert chunked.status_code in (400, 413)
    assert all(a == 4400 or a == 4403 for a in answers), answers
    assert view.status_code == 200
    assert not any("Traceback" in line or "File \"" in line for line in shown), shown[:20]
    assert len(screen.lines) <= 2 * LOG_LINES_PER_WINDOW + 5


async def _websockets(channel: CompanionChannel) -> list[int]:
    url = channel.url.replace("http://", "ws://") + "ws"
    codes = []
    for first in WS_FIRST:
        async with websockets.connect(url, origin=page_origin(channel.url)["Origin"]) as ws:
            await ws.send(first)
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await asyncio.wait_for(ws.recv(), timeout=5)
            codes.append(ws.close_code)
    async with websockets.connect(url, origin=page_origin(channel.url)["Origin"]) as ws:
        await ws.send(b"\xff\xfe binary, not text")
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), timeout=5)
        codes.append(ws.close_code)
    return codes


def test_a_flood_of_malformed_requests_shows_few_lines(
        channel: CompanionChannel, capfd: Any) -> None:
    with Screen() as screen, client(channel) as phone:
        statuses = {post(phone, "/api/room", b'{"room": "\\ud800"}').status_code
                    for _ in range(100)}
        statuses |= {post(phone, "/api/table", b"[" * 3000).status_code for _ in range(100)}
    shown = screen.lines + capfd.readouterr().err.splitlines()
    print(f"200 malformed requests: statuses {sorted(statuses)}, {len(screen.lines)} lines on "
          "the host's screen (before: 5,151 lines for 100)")
    assert statuses == {400}
    assert 1 <= len(screen.lines) <= 3
    assert not any("Traceback" in line for line in shown)


def test_an_unexpected_error_is_one_line_and_a_sentence(
        channel: CompanionChannel, capfd: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> dict[str, Any]:
        raise KeyError("not a sentence")

    monkeypatch.setattr(channel, "seat_list", broken)
    with Screen() as screen, client(channel) as phone:
        answers = [phone.post("/api/room", json={"room": channel.room_code})
                   for _ in range(30)]
    shown = screen.lines + capfd.readouterr().err.splitlines()
    assert {a.status_code for a in answers} == {500}
    assert json.loads(answers[0].content)["reason"] == \
        "The host could not answer that request. Try again."
    assert not any("Traceback" in line for line in shown)
    assert 1 <= len(screen.lines) <= 3, screen.lines
