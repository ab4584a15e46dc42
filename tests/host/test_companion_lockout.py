"""One device on the Wi-Fi sends wrong room codes by the hundred: only that device (and, once
they guessed wrong themselves, its network's guessers) waits. A new phone of the same /24,
a phone of another network, the host's own machine and already seated phones get in at once,
and the guesser is told what happened in the page's language. Requests carry the client
address they would have on the LAN (Starlette's test client), or come from 127.0.0.x over a
real socket. The seat book's clock stands still, so no wait runs out during a test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.companion_phone import page_origin

pytest.importorskip("starlette", reason="the companion extra (starlette) is not installed")
httpx = pytest.importorskip("httpx", reason="httpx (test client) is not installed")

from starlette.testclient import TestClient  # noqa: E402

from voice_host.host.companion import CompanionChannel  # noqa: E402
from voice_host.host.companion.channel import STATIC_DIR  # noqa: E402
from voice_host.host.companion.server import build_app  # noqa: E402

pytestmark = pytest.mark.network  # a local server on 127.0.0.x

PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve"]


def started(lang: str) -> Iterator[CompanionChannel]:
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0, lang=lang)
    channel.start()
    channel.seats.clock = lambda: 1000.0  # time stands still: no wait runs out mid-test
    try:
        yield channel
    finally:
        channel.stop()


@pytest.fixture()
def channel() -> Iterator[CompanionChannel]:
    yield from started("en")


@pytest.fixture()
def french() -> Iterator[CompanionChannel]:
    yield from started("fr")


def device(channel: CompanionChannel, address: str) -> TestClient:
    """A device at ``address`` talking to ``channel``'s page (the page's own Origin)."""
    return TestClient(build_app(channel, STATIC_DIR), base_url=channel.url,
                      headers=page_origin(channel.url), client=(address, 50123))


def wrong_code(channel: CompanionChannel) -> str:
    return "ZZZZZZ" if channel.room_code != "ZZZZZZ" else "YYYYYY"


def flood(channel: CompanionChannel, count: int, network: str = "192.168.1") -> list[int]:
    """``count`` wrong codes from ten addresses of ``network``.0/24, as fast as they go."""
    statuses = []
    clients = [device(channel, f"{network}.{200 + i}") for i in range(10)]
    for n in range(count):
        statuses.append(clients[n % 10].post("/api/room",
                                              json={"room": wrong_code(channel)}).status_code)
    return statuses


def test_a_flood_from_one_network_locks_nobody_else_out(channel: CompanionChannel) -> None:
    seated = device(channel, "192.168.1.20")
    ada = seated.post("/api/claim", json={"room": channel.room_code, "seat": "Ada"}).json()
    statuses = flood(channel, 130)
    assert statuses.count(429) > 0 and statuses.count(403) > 0
    right = {"room": channel.room_code}
    newcomer = device(channel, "192.168.1.77").post("/api/room", json=right)  # same /24
    other_net = device(channel, "10.0.0.8").post("/api/claim", json={**right, "seat": "Ben"})
    own = device(channel, "127.0.0.1")
    table = own.post("/api/table", json=right)
    again = seated.post("/api/claim", json={"room": "", "seat": "Ada"},
                        headers={"X-Seat-Token": ada["token"]})  # a reload of a seated phone
    view = seated.get("/api/seat/Ada", headers={"X-Seat-Token": ada["token"]})
    print(f"130 wrong codes from one /24: {statuses.count(403)} compared, "
          f"{statuses.count(429)} braked; then a new phone of that /24 -> "
          f"{newcomer.status_code}, another network's claim -> {other_net.status_code}, the "
          f"host's table view -> {table.status_code}, a seated phone's reload -> "
          f"{again.status_code} (before: 429 'Wait 3600 seconds' for all of them)")
    assert newcomer.status_code == 200 and other_net.status_code == 200
    assert table.status_code == 200 and view.status_code == 200
    assert again.status_code == 200 and again.json()["seat"] == "Ada"
    guesser = device(channel, "192.168.1.200").post("/api/room", json=right)
    assert guesser.status_code == 429  # the guesser itself still waits, even with the code
    reason = guesser.json()["reason"]
    assert reason.startswith("Many wrong room codes came from this network, 3 of them from "
                             "this device. Wait ") and "Other phones are not affected" in reason
    alone = device(channel, "10.1.2.3")  # one device alone: its own wrong codes
    for _ in range(6):
        assert alone.post("/api/room", json={"room": wrong_code(channel)}).status_code == 403
    told = alone.post("/api/room", json=right)
    assert told.status_code == 429
    assert told.json()["reason"].startswith("This device sent 6 wrong room codes. Wait ")


def test_a_phone_that_mistyped_once_in_the_flooded_network_gets_in(
        channel: CompanionChannel) -> None:
    flood(channel, 130)
    phone = device(channel, "192.168.1.50")
    assert phone.post("/api/room", json={"room": wrong_code(channel)}).status_code == 403
    assert phone.post("/api/room", json={"room": channel.room_code}).status_code == 200


def test_the_refusal_says_what_happened_in_the_pages_language(
        french: CompanionChannel) -> None:
    flood(french, 130)
    guesser = device(french, "192.168.1.200").post("/api/room",
                                                   json={"room": french.room_code})
    assert guesser.status_code == 429
    assert guesser.json()["reason"].startswith(
        "Beaucoup de faux codes de salle viennent de ce réseau, dont 3 de cet appareil.")
    alone = device(french, "10.1.2.3")
    for _ in range(6):
        alone.post("/api/room", json={"room": wrong_code(french)})
    told = alone.post("/api/room", json={"room": french.room_code})
    assert told.status_code == 429
    assert told.json()["reason"].startswith("Cet appareil a envoyé 6 faux codes de salle.")
    assert device(french, "192.168.1.98").post(
        "/api/room", json={"room": french.room_code}).status_code == 200


def test_over_a_real_socket_the_host_machine_and_a_new_phone_get_in(
        channel: CompanionChannel) -> None:
    wrong = {"room": wrong_code(channel)}
    statuses = []
    for i in range(130):
        source = f"127.0.0.{100 + i % 10}"
        with httpx.Client(base_url=channel.url, headers=page_origin(channel.url), timeout=10,
                          transport=httpx.HTTPTransport(local_address=source)) as attacker:
            statuses.append(attacker.post("/api/room", json=wrong).status_code)
    results = {}
    for source in ("127.0.0.1", "127.0.0.77", "127.0.1.5"):
        with httpx.Client(base_url=channel.url, headers=page_origin(channel.url), timeout=10,
                          transport=httpx.HTTPTransport(local_address=source)) as phone:
            results[source] = phone.post("/api/table",
                                         json={"room": channel.room_code}).status_code
    print(f"130 wrong codes from 127.0.0.100-109: {sorted(set(statuses))}; the right code "
          f"then: {results}")
    assert 429 in statuses and set(results.values()) == {200}
