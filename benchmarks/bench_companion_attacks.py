"""A real phone's service while the companion page is attacked, on 127.0.0.x only.

    python benchmarks/bench_companion_attacks.py [--requests N]

For each attack, a phone at 127.0.0.50 that holds Ada's seat reads its view ``N`` times
(``GET /api/seat/Ada``) while the attack holds its connections open; the table prints how
many of those reads were answered 200 and their median and slowest time. Attacks:

- *none*: the baseline;
- *silent websockets*: 32 websockets from each of 127.0.0.2 and .3 that never say who they
  are (reopened as they are closed);
- *slow headers*: 30 connections from each of 7 addresses that sent one request and then a
  second head that never ends;
- *connection flood*: 200 idle connections from 10 addresses of one /24.

Every loop is bounded (count and time) and everything is closed at the end. Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import threading
import time
from collections.abc import Callable

import httpx
import websockets

from voice_host.games import Deal
from voice_host.games.resistance import ResistanceState
from voice_host.host.companion import CompanionChannel

PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve"]
PHONE = "127.0.0.50"


def seated_channel() -> tuple[CompanionChannel, str]:
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
    url, _ = channel.start()
    origin = {"Origin": url.rstrip("/"), "Sec-Fetch-Site": "same-origin"}
    tokens = {}
    with httpx.Client(base_url=url, headers=origin, timeout=10) as client:
        for seat in PLAYERS:
            tokens[seat] = client.post("/api/claim", json={"room": channel.room_code,
                                                           "seat": seat}).json()["token"]
            client.post(f"/api/seat/{seat}/confirm", json={},
                        headers={"X-Seat-Token": tokens[seat]})
    channel.try_lock_seats()
    state = ResistanceState.new(PLAYERS, deal=Deal.HOST, double_agent=True)
    state.apply(state.setup_action(random.Random(5), first_leader="Ada"))
    channel.publish(state)
    return channel, tokens["Ada"]


def phone_reads(channel: CompanionChannel, token: str, count: int) -> tuple[int, list[float]]:
    ok, times = 0, []
    transport = httpx.HTTPTransport(local_address=PHONE)
    with httpx.Client(base_url=channel.url, timeout=10, transport=transport) as phone:
        for _ in range(count):
            start = time.perf_counter()
            try:
                status = phone.get("/api/seat/Ada", headers={"X-Seat-Token": token}).status_code
            except httpx.HTTPError:
                status = 0
            times.append(time.perf_counter() - start)
            ok += status == 200
            time.sleep(0.02)
    return ok, times


def phone_websocket(channel: CompanionChannel, token: str) -> str:
    """What the phone's own websocket gets first: ``hello``, or how it was refused."""
    url = channel.url.replace("http://", "ws://") + "ws"

    async def one() -> str:
        try:
            async with websockets.connect(url, origin=channel.url.rstrip("/"),  # type: ignore[arg-type]
                                          local_addr=(PHONE, 0), open_timeout=5) as ws:
                await ws.send(json.dumps({"seat": "Ada", "token": token, "since": 0}))
                return str(json.loads(await asyncio.wait_for(ws.recv(), 5))["type"])
        except websockets.InvalidStatus as exc:
            return f"HTTP {exc.response.status_code}"
        except (OSError, TimeoutError, websockets.WebSocketException) as exc:
            return type(exc).__name__

    return asyncio.run(one())


def silent_websockets(channel: CompanionChannel, stop: threading.Event) -> None:
    url = channel.url.replace("http://", "ws://") + "ws"
    origin = channel.url.rstrip("/")

    async def hold() -> None:
        held: list[object] = []
        deadline = time.monotonic() + 60
        while not stop.is_set() and time.monotonic() < deadline:
            for source in ("127.0.0.2", "127.0.0.3"):
                for _ in range(32):
                    try:
                        held.append(await asyncio.wait_for(websockets.connect(
                            url, origin=origin,  # type: ignore[arg-type]
                            local_addr=(source, 0)), 2))
                    except (OSError, TimeoutError, websockets.InvalidStatus,
                            websockets.InvalidHandshake):
                        pass
            await asyncio.sleep(0.5)
        for ws in held:
            await ws.close()  # type: ignore[attr-defined]

    asyncio.run(hold())


def raw_connections(channel: CompanionChannel, stop: threading.Event, sources: list[str],
                    each: int, first: bytes) -> None:
    socks = []
    for i in range(each * len(sources)):
        sock = socket.socket()
        sock.settimeout(3)
        try:
            sock.bind((sources[i % len(sources)], 0))
            sock.connect(("127.0.0.1", channel.port))
            if first:
                sock.sendall(first)
            socks.append(sock)
        except OSError:
            sock.close()
    stop.wait(60)
    for sock in socks:
        sock.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=40)
    args = parser.parse_args()
    head = b"GET /api/strings HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET / HTTP/1.1\r\nX-Slow: 1\r\n"
    attacks: dict[str, Callable[[CompanionChannel, threading.Event], None] | None] = {
        "none": None,
        "silent websockets": silent_websockets,
        "slow headers": lambda c, s: raw_connections(
            c, s, [f"127.0.0.{2 + i}" for i in range(7)], 30, head),
        "connection flood": lambda c, s: raw_connections(
            c, s, [f"127.0.0.{20 + i}" for i in range(10)], 20, b""),
    }
    print("| attack | phone reads answered 200 | median ms | slowest ms | phone websocket |")
    print("|---|---|---|---|---|")
    for name, attack in attacks.items():
        channel, token = seated_channel()
        stop = threading.Event()
        thread = None
        try:
            if attack is not None:
                thread = threading.Thread(target=attack, args=(channel, stop), daemon=True)
                thread.start()
                time.sleep(1.5)  # the attack is in place
            ok, times = phone_reads(channel, token, args.requests)
            ws = phone_websocket(channel, token)
        finally:
            stop.set()
            if thread is not None:
                thread.join(70)
            channel.stop()
        print(f"| {name} | {ok}/{len(times)} | {statistics.median(times) * 1000:.1f} | "
              f"{max(times) * 1000:.1f} | {ws} |")
    print(json.dumps({"phone": PHONE, "requests": args.requests}))


if __name__ == "__main__":
    main()
