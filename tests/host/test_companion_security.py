"""The companion page attacked the way a cheating player or a hostile page on the same Wi-Fi
would, only on 127.0.0.1: every attack on the page replayed and refused (status, body,
nothing raw on the host's terminal, memory bounded). Each test is bounded in requests and
time and stops by itself; nothing asserts a duration."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import random
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.companion_phone import page_origin

pytest.importorskip("starlette", reason="the companion extra (starlette) is not installed")
httpx = pytest.importorskip("httpx", reason="httpx (test client) is not installed")
websockets = pytest.importorskip("websockets", reason="websockets is not installed")

pytestmark = pytest.mark.network  # a local server on 127.0.0.x

from voice_host.games import Deal  # noqa: E402
from voice_host.games.resistance import ResistanceState  # noqa: E402
from voice_host.host.companion import CompanionChannel, refusal_log, transport  # noqa: E402
from voice_host.host.companion.server import (  # noqa: E402
    CONNECTIONS_PER_ADDRESS,
    SOCKETS_PER_SEAT,
    TABLE_SOCKETS,
)

PLAYERS = ["Ada", "Ben", "Cy", "Di", "Eve"]


class Terminal:
    """What the host's terminal shows of the companion's log."""

    def __init__(self) -> None:
        self.stream = io.StringIO()
        self.handler = logging.StreamHandler(self.stream)
        self.handler.setFormatter(logging.Formatter("%(message)s"))
        self.logger = logging.getLogger("voice_host.companion")

        self.server_logger = logging.getLogger("uvicorn.error")

    def __enter__(self) -> Terminal:
        self.logger.addHandler(self.handler)
        self.server_logger.addHandler(self.handler)
        self.level = self.logger.level
        self.logger.setLevel(logging.INFO)
        return self

    def __exit__(self, *exc: object) -> None:
        self.logger.removeHandler(self.handler)
        self.server_logger.removeHandler(self.handler)
        self.logger.setLevel(self.level)

    @property
    def text(self) -> str:
        return self.stream.getvalue()

    @property
    def lines(self) -> list[str]:
        return [line for line in self.text.splitlines() if line]


@pytest.fixture()
def game() -> Iterator[tuple[CompanionChannel, ResistanceState]]:
    """A Resistance game whose roles are already dealt (as after a resume)."""
    state = ResistanceState.new(PLAYERS, deal=Deal.HOST)
    state.apply(state.setup_action(random.Random(5), first_leader="Ada"))
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
    channel.start()
    channel.publish(state)
    try:
        yield channel, state
    finally:
        channel.stop()


def client_for(channel: CompanionChannel, source: str = "127.0.0.1") -> httpx.Client:
    """A device on the network; ``source`` is its own address (another 127.x address is
    another device)."""
    transport = httpx.HTTPTransport(local_address=source)
    return httpx.Client(base_url=channel.url, headers=page_origin(channel.url), timeout=10,
                        transport=transport)


def claim(client: httpx.Client, channel: CompanionChannel, seat: str,
          move_code: str = "") -> httpx.Response:
    return client.post("/api/claim", json={"room": channel.room_code, "seat": seat,
                                           "move_code": move_code})


def seat_everyone(channel: CompanionChannel) -> dict[str, str]:
    """The whole table claims and confirms; the host locks the seats."""
    tokens = {}
    with client_for(channel, "127.0.0.50") as client:
        for seat in PLAYERS:
            tokens[seat] = claim(client, channel, seat).json()["token"]
            assert client.post(f"/api/seat/{seat}/confirm", json={},
                               headers={"X-Seat-Token": tokens[seat]}).status_code == 200
    channel.lock_seats()
    return tokens


def rss_bytes() -> int:
    """Resident memory of this process (the server runs in it, as in the game)."""
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def raw_request(port: int, head: bytes, body_chunks: Iterator[bytes] | None = None,
                source: str = "127.0.0.1") -> bytes:
    """Send a request head and then body chunks until the server answers or hangs up;
    returns what it answered."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                    source_address=(source, 0))
    try:
        sock.sendall(head)
        sock.setblocking(False)
        answer = b""
        for chunk in body_chunks or iter(()):
            try:
                answer += sock.recv(65536)
            except BlockingIOError:
                pass
            if answer:
                break
            try:
                sock.setblocking(True)
                sock.settimeout(10)
                sock.sendall(chunk)
                sock.setblocking(False)
            except OSError:  # the server hung up: it will not read more
                break
        sock.setblocking(True)
        sock.settimeout(10)
        while b"\r\n\r\n" not in answer:
            try:
                more = sock.recv(65536)
            except OSError:
                break
            if not more:
                break
            answer += more
        return answer
    finally:
        sock.close()


# --------------------------------------------------------------------------- fair seats


def test_a_seat_nobody_confirmed_shows_no_secret_even_to_its_claimer(game: Any) -> None:
    channel, state = game
    with client_for(channel, "127.0.0.9") as thief:
        token = claim(thief, channel, "Ada").json()["token"]
        read = thief.get("/api/seat/Ada", headers={"X-Seat-Token": token})
        assert read.status_code == 200
        assert all(i["type"] != "view" for i in read.json()["items"])
        assert state.role_of("Ada").value not in json.dumps(read.json()["items"]).replace(
            '"type"', "")
        # and a card cannot be played before the table confirmed
        act = thief.post("/api/seat/Ada/act", json={"choice": "sabotage"},
                         headers={"X-Seat-Token": token})
        assert act.status_code == 422 and "confirmed" in act.json()["reason"]
    assert channel.take_seat_events()[0].kind == "claimed"  # said aloud: "Ada has a phone"


def test_another_site_cannot_claim_a_seat_with_a_text_plain_no_cors_post(game: Any) -> None:
    channel, _ = game
    body = json.dumps({"room": channel.room_code, "seat": "Ada"})
    with client_for(channel) as client:
        # what fetch(..., {mode: "no-cors"}) sends from http://evil.example
        forged = client.post("/api/claim", content=body, headers={
            "Content-Type": "text/plain;charset=UTF-8", "Origin": "http://evil.example"})
        assert forged.status_code == 403
        assert "token" not in forged.text
        # the same without an Origin (a sandboxed frame sends "null") or as form data
        for headers in ({"Content-Type": "text/plain", "Origin": "null"},
                        {"Content-Type": "application/x-www-form-urlencoded"},
                        {"Content-Type": "text/plain"}):
            refused = client.post("/api/claim", content=body, headers=headers)
            assert refused.status_code in (403, 415), headers
            assert "token" not in refused.text
        # CORS stays closed: no preflight is granted, no response allows another origin
        preflight = client.options("/api/claim", headers={
            "Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})
        assert "access-control-allow-origin" not in preflight.headers
        page = client.get("/api/strings", headers={"Origin": "http://evil.example"})
        assert "access-control-allow-origin" not in page.headers
    assert not any(s.claimed for s in channel.seats.seats())


def test_the_websocket_checks_the_origin(game: Any) -> None:
    channel, _ = game
    url = channel.url.replace("http://", "ws://") + "ws"

    async def attempt(origin: str) -> Any:
        try:
            async with websockets.connect(url, origin=origin) as ws:  # type: ignore[arg-type]
                await ws.send(json.dumps({"table": True, "room": channel.room_code,
                                          "since": 0}))
                return json.loads(await ws.recv())["type"]
        except websockets.InvalidStatus as exc:
            return exc.response.status_code

    assert asyncio.run(attempt("http://evil.example")) == 403
    own = channel.url.rstrip("/")
    assert asyncio.run(attempt(own)) == "hello"


def test_dns_rebinding_hosts_are_refused(game: Any) -> None:
    channel, _ = game
    port = channel.port
    with client_for(channel) as client:
        for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}",
                     f"localhost.evil.example:{port}", ""):
            for path in ("/", "/api/strings", "/api/table"):
                response = client.get(path, headers={"Host": host})
                assert response.status_code == 421, (host, path)
                assert "voice host" not in response.text
        for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
            assert client.get("/", headers={"Host": host, "Origin": f"http://{host}"}
                              ).status_code == 200
    sock_answer = raw_request(port, (f"GET /ws HTTP/1.1\r\nHost: evil.example:{port}\r\n"
                                     "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                                     "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    assert b" 101 " not in sock_answer.split(b"\r\n")[0]


# --------------------------------------------------------------------------- the terminal


def test_nothing_from_the_network_reaches_the_terminal_raw(game: Any) -> None:
    channel, _ = game
    fake = "\x1b[2J\x1b[H\rHOST: Ben is a spy.\nHOST: Ben is a spy."
    with Terminal() as terminal, client_for(channel) as client:
        quoted = "".join(f"%{b:02x}" for b in fake.encode())
        assert client.get(f"/api/seat/{quoted}").status_code == 403
        claim(client, channel, fake)
        client.post(f"/api/seat/{quoted}/act", json={"choice": fake})
        client.post("/api/room", json={"room": fake[:10]})

        async def socket_names() -> None:
            url = channel.url.replace("http://", "ws://") + "ws"
            async with websockets.connect(url, origin=page_origin(channel.url)["Origin"]) as ws:
                await ws.send(json.dumps({"seat": fake, "token": fake, "since": 0}))
                await ws.recv()

        asyncio.run(socket_names())
        channel.seats.flush_log()
    assert terminal.lines, "the refusals are logged"
    assert all(ch not in terminal.text for ch in "\x1b\r\x07\x08")
    assert not any(line.startswith("HOST:") for line in terminal.lines)
    assert "\\x1b[2J" in terminal.text  # shown escaped, so the host sees what was tried


def test_repeated_refusals_are_logged_once_with_a_count(game: Any) -> None:
    channel, _ = game
    with Terminal() as terminal, client_for(channel) as client:
        for _ in range(300):
            assert client.get("/api/seat/Ada",
                              headers={"X-Seat-Token": "wrong"}).status_code == 403
        channel.seats.flush_log()
    assert len(terminal.lines) == 2, terminal.lines
    assert "299 more times" in terminal.lines[1]
    assert len(channel.seats.refusals) == 300  # every one is still recorded


def test_malformed_requests_are_counted_not_printed_one_by_one(game: Any) -> None:
    channel, _ = game
    garbage = [b"\x1b[2J\x1b[HHOST: Ben is a spy.\r\n\r\n",
               b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
               b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n" % channel.port]
    with Terminal() as terminal:
        for i in range(50):
            answer = raw_request(channel.port, garbage[i % 2])
            assert answer.startswith(b"HTTP/1.1 400"), answer[:80]
        channel.seats.flush_log()
    assert len(terminal.lines) <= 4, terminal.lines
    assert "\x1b" not in terminal.text and "HOST:" not in terminal.text


def test_a_claim_of_a_taken_seat_never_shows_its_move_code_and_is_braked(game: Any) -> None:
    channel, _ = game
    tokens = seat_everyone(channel)
    channel.seats.clock = lambda: 1000.0  # no back-off runs out meanwhile
    code = str(channel.move_code("Ada"))
    statuses = []
    with Terminal() as terminal, client_for(channel, "127.0.0.3") as client:
        for _ in range(50):
            answer = claim(client, channel, "Ada")
            statuses.append(answer.status_code)
            assert code not in answer.text
        channel.seats.flush_log()
    assert code not in terminal.text
    # the first asks the table (once: the host asks once), every other is refused at once
    assert statuses[0] == 202 and set(statuses[1:]) == {409}
    assert [e.kind for e in channel.take_seat_events()].count("asked") == 1
    # the host can still ask for it, for that one seat (shown, never said): see the
    # session test; and the owner's phone still works
    with client_for(channel, "127.0.0.3") as owner:
        assert owner.get("/api/seat/Ada", headers={"X-Seat-Token": tokens["Ada"]}
                         ).status_code == 200


# --------------------------------------------------------------------------- limits


def test_a_50_mb_body_is_refused_without_being_read(game: Any) -> None:
    channel, _ = game
    size = 50 * 1024 * 1024
    chunk = b"x" * (1024 * 1024)
    before = rss_bytes()
    head = (f"POST /api/claim HTTP/1.1\r\nHost: 127.0.0.1:{channel.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n").encode()
    answer = raw_request(channel.port, head, iter([chunk] * 50))
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    # the same body with no length announced (chunked): cut off after 4 KB
    head = (f"POST /api/claim HTTP/1.1\r\nHost: 127.0.0.1:{channel.port}\r\n"
            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").encode()
    framed = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
    answer = raw_request(channel.port, head, iter([framed] * 50))
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    grown = rss_bytes() - before
    assert grown < 10 * 1024 * 1024, f"the server grew by {grown / 1e6:.1f} MB"


def test_idle_sockets_cannot_use_up_the_server(game: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    channel, _ = game
    monkeypatch.setattr(transport, "HEAD_TIMEOUT", 0.5)
    sockets = []
    try:
        for _ in range(CONNECTIONS_PER_ADDRESS + 40):
            sockets.append(socket.create_connection(("127.0.0.1", channel.port), timeout=5,
                                                    source_address=("127.0.0.9", 0)))
        # another device is still served
        with client_for(channel, "127.0.0.7") as other:
            assert other.get("/").status_code == 200
        # the sockets beyond the limit were closed at once
        closed = 0
        for sock in sockets[CONNECTIONS_PER_ADDRESS:]:
            sock.settimeout(5)
            try:
                closed += sock.recv(1) == b""
            except ConnectionResetError:
                closed += 1
        assert closed == 40
        # and the idle ones are closed when they send nothing (bounded wait)
        for sock in sockets[:CONNECTIONS_PER_ADDRESS]:
            sock.settimeout(refusal_log.LOG_WINDOW)
            assert sock.recv(1) == b""
    finally:
        for sock in sockets:
            sock.close()
    # a websocket is not an idle socket: it stays open past that time
    tokens = seat_everyone(channel)
    url = channel.url.replace("http://", "ws://") + "ws"

    async def stays_open() -> str:
        async with websockets.connect(url, origin=page_origin(channel.url)["Origin"]) as ws:
            await ws.send(json.dumps({"seat": "Ada", "token": tokens["Ada"], "since": 0}))
            await ws.recv()  # hello
            await ws.recv()  # reset
            # an idle plain socket opened now is cut at the idle limit: once the server has
            # closed it, the limit has passed for the websocket too (an event, not a sleep)
            reader, writer = await asyncio.open_connection("127.0.0.1", channel.port)
            try:
                assert await asyncio.wait_for(reader.read(1), 10) == b""
            finally:
                writer.close()
            await asyncio.to_thread(channel.caption, "still here")
            return str(json.loads(await asyncio.wait_for(ws.recv(), 10))["text"])

    assert asyncio.run(stays_open()) == "still here"


def test_websockets_are_capped_per_seat_and_for_the_table(game: Any) -> None:
    channel, _ = game
    tokens = seat_everyone(channel)
    url = channel.url.replace("http://", "ws://") + "ws"

    async def open_many(first: dict[str, Any], count: int) -> list[str]:
        kinds = []
        sockets = []
        try:
            for _ in range(count):
                ws = await websockets.connect(url, origin=page_origin(channel.url)["Origin"])
                sockets.append(ws)
                await ws.send(json.dumps({**first, "since": 0}))
                kinds.append(json.loads(await ws.recv())["type"])
        finally:
            for ws in sockets:
                await ws.close()
        return kinds

    seat = asyncio.run(open_many({"seat": "Ada", "token": tokens["Ada"]}, SOCKETS_PER_SEAT + 2))
    assert seat == ["hello"] * SOCKETS_PER_SEAT + ["refused"] * 2
    table = asyncio.run(open_many({"table": True, "room": channel.room_code}, TABLE_SOCKETS + 1))
    assert table == ["hello"] * TABLE_SOCKETS + ["refused"]


# --------------------------------------------------------------------------- guessing


def test_wrong_codes_back_off_exponentially_per_address(game: Any) -> None:
    channel, _ = game
    now = [1000.0]
    channel.seats.clock = lambda: now[0]
    wrong = "ZZZZZZ" if channel.room_code != "ZZZZZZ" else "YYYYYY"
    with client_for(channel, "127.0.0.4") as guesser:
        def room(code: str) -> int:
            return int(guesser.post("/api/room", json={"room": code}).status_code)

        assert [room(wrong) for _ in range(6)] == [403] * 6  # free tries, then a wait
        waits = []
        for _ in range(4):
            assert room(channel.room_code) == 429  # braked: not even checked
            seconds = 0.0
            while room(wrong) == 429:
                seconds += 0.5
                now[0] += 0.5
            waits.append(seconds)
        assert waits == sorted(waits) and waits[-1] >= 4 * waits[0] > 0
    with client_for(channel, "127.0.0.5") as other:  # another device is not braked
        assert other.post("/api/room", json={"room": channel.room_code}).status_code == 200


def test_guessing_a_move_code_from_six_addresses_is_braked_and_never_locks_out_the_owner(
        game: Any) -> None:
    channel, _ = game
    tokens = seat_everyone(channel)
    now = [1000.0]
    channel.seats.clock = lambda: now[0]
    first_code = str(channel.move_code("Ada"))
    told: list[dict[str, Any]] = []
    checked = braked = 0
    clients = [client_for(channel, f"127.0.0.{10 + i}") for i in range(6)]
    try:
        for i in range(60):
            guess = f"{random.Random(i).randrange(10**6):06d}"
            if guess == channel.move_code("Ada"):
                continue
            answer = claim(clients[i % 6], channel, "Ada", guess)
            assert answer.status_code in (403, 429), answer.text
            checked += answer.status_code == 403
            braked += answer.status_code == 429
            now[0] += 0.05
        told = [m for m in channel.seat_snapshot("Ada") if m["type"] == "move_code"]
    finally:
        for client in clients:
            client.close()
    print(f"60 move-code guesses from 6 addresses: {checked} checked, {braked} braked")
    assert checked <= 24 and braked >= 36
    assert channel.move_code("Ada") != first_code  # replaced after a few wrong tries
    assert told and told[-1]["move_code"] == channel.move_code("Ada")  # the owner sees it
    assert {e.kind for e in channel.take_seat_events()} >= {"rotated"}  # said aloud
    # the owner is never locked out: their phone works, and a new phone with the code
    with client_for(channel, "127.0.0.10") as owner:  # even from a guessing address
        assert owner.get("/api/seat/Ada", headers={"X-Seat-Token": tokens["Ada"]}
                         ).status_code == 200
    with client_for(channel, "127.0.0.30") as new_phone:
        asked = claim(new_phone, channel, "Ada", str(channel.move_code("Ada")))
        assert asked.status_code == 202  # locked: the right code asks the table
        channel.seats.answer("Ada", True)
        moved = new_phone.post("/api/claim", json={"room": channel.room_code, "seat": "Ada",
                                                   "ticket": asked.json()["ticket"]})
        assert moved.status_code == 200 and moved.json()["replaced"] is True


def test_bad_json_paths_and_names_get_a_sentence(game: Any) -> None:
    channel, _ = game
    with client_for(channel) as client:
        for body in (b"[1, 2]", b"{", b'{"room": 5}', "{\"room\": \"\u00e9\"}".encode()):
            answer = client.post("/api/room", content=body,
                                 headers={"Content-Type": "application/json"})
            assert answer.status_code in (400, 403), body
            assert answer.json()["reason"]
        assert client.get("/static/../channel.py").status_code == 404
        assert client.get("/static/%2e%2e/channel.py").status_code == 404


# --------------------------------------------------------------------------- HTTPS


def test_the_page_can_be_served_over_https(tmp_path: Any) -> None:
    import shutil
    import ssl
    import subprocess

    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed (needed to make a test certificate)")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True,
                   timeout=60)
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0,
                               tls=(str(cert), str(key)))
    url, room = channel.start()
    try:
        assert url.startswith("https://127.0.0.1:")
        context = ssl.create_default_context(cafile=str(cert))
        with httpx.Client(base_url=url, headers=page_origin(url), timeout=10,
                          verify=context) as client:
            assert client.get("/").status_code == 200
            own = url.rstrip("/")
            ok = client.post("/api/room", json={"room": room}, headers={"Origin": own})
            assert ok.status_code == 200
            # the plain-http origin of the same address is another origin
            other = client.post("/api/room", json={"room": room},
                                headers={"Origin": own.replace("https", "http")})
            assert other.status_code == 403
        with pytest.raises(httpx.HTTPError):  # plain HTTP is not served on that port
            httpx.get(url.replace("https", "http"), timeout=5)

        async def table() -> str:
            async with websockets.connect(url.replace("https", "wss") + "ws", ssl=context,
                                          origin=own) as ws:  # type: ignore[arg-type]
                await ws.send(json.dumps({"table": True, "room": room, "since": 0}))
                return str(json.loads(await ws.recv())["type"])

        assert asyncio.run(table()) == "hello"
    finally:
        channel.stop()
