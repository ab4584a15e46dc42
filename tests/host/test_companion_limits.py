"""The companion page's limits as plain objects (no sockets): networks of addresses, fair
slots that a heavy holder loses first, brakes per address and network (never for everyone),
and merged seat news. Clocks are injected; nothing waits."""

from __future__ import annotations

import heapq

from voice_host.host.companion.limits import (
    FLOOD_PER_HOUR,
    FREE_TRIES,
    NETWORK_FREE_TRIES,
    Brakes,
    FairSlots,
    RateLimit,
    network_of,
)
from voice_host.host.companion.news import SeatNews
from voice_host.host.companion.seats import ROOM_CODE_LENGTH, ROOM_LETTERS, SeatEvent


def test_addresses_are_grouped_by_24_and_64() -> None:
    assert network_of("192.168.1.23") == network_of("192.168.1.200") == "192.168.1.0/24"
    assert network_of("192.168.2.1") != network_of("192.168.1.1")
    assert network_of("2001:db8:1:2::1") == network_of("2001:db8:1:2:ffff::9")
    assert network_of("2001:db8:1:3::1") != network_of("2001:db8:1:2::1")
    assert network_of("::ffff:10.0.0.7") == "10.0.0.0/24"
    assert network_of("unknown") == "unknown"


def test_a_newcomer_takes_the_heaviest_holders_oldest_idle_slot() -> None:
    ended: list[str] = []
    slots: FairSlots[str] = FairSlots(per_address=8, per_network=10, total=100, reserved=2,
                                      own=frozenset({"127.0.0.1"}))
    for i in range(10):  # one IPv6 device with many addresses of its /64 fills the network
        address = f"2001:db8::{1 + i % 2}"
        assert slots.admit(address, f"attacker{i}", lambda i=i: ended.append(f"attacker{i}"))
    phone = slots.admit("2001:db8::99", "phone", lambda: ended.append("phone"))
    assert phone is not None and ended == ["attacker0"]
    assert slots.admit("2001:db8::99", "phone2", lambda: None) is not None  # a reload too
    # the per-address limit holds for others, not for the host's own machine
    for i in range(8):
        slots.admit("10.0.0.5", f"x{i}", lambda: None)
    assert slots.admit("10.0.0.5", "x9", lambda: None) is None
    for i in range(20):
        assert slots.admit("127.0.0.1", f"tv{i}", lambda: None) is not None
    # busy slots are never taken
    busy: FairSlots[str] = FairSlots(per_address=8, per_network=4, total=100)
    for i in range(4):
        busy.admit("10.1.1.1", f"b{i}", lambda: None, idle=lambda: False)
    assert busy.admit("10.1.1.2", "new", lambda: None) is None


def test_brakes_count_per_address_and_network_never_for_everyone() -> None:
    now = [0.0]
    brakes = Brakes(lambda: now[0], own=frozenset({"127.0.0.1"}))
    for _ in range(FREE_TRIES):
        brakes.failed("10.0.0.1")
    assert brakes.wait("10.0.0.1") == 0
    brakes.failed("10.0.0.1")
    assert brakes.why("10.0.0.1").scope == "address" and brakes.wait("10.0.0.1") > 0
    assert brakes.wait("10.0.0.9") == 0  # a device that never guessed wrong is not braked
    for i in range(NETWORK_FREE_TRIES):
        brakes.failed(f"10.0.0.{100 + i}")
    brakes.failed("10.0.0.120")
    brakes.failed("10.0.0.120")  # that address's second wrong code: the network waits
    assert brakes.why("10.0.0.120").scope == "network" and brakes.wait("10.0.0.121") == 0
    brakes.failed("10.0.0.122")  # a phone's one typo: not kept out by its network's guesser
    assert brakes.wait("10.0.0.122") == 0
    for i in range(FLOOD_PER_HOUR + 10):  # a flood from everywhere
        brakes.failed(f"10.{i}.1.1")
    assert brakes.flooding()
    for fresh in ("10.200.0.1", "10.0.0.200", "127.0.0.1", "192.168.1.5"):
        assert brakes.wait(fresh) == 0
    brakes.failed("10.0.0.1")
    brakes.failed("127.0.0.1")  # the host's own machine: its own wrong codes only
    assert brakes.wait("127.0.0.1") == 0
    now[0] += 10_000
    assert brakes.wait("10.0.0.1") == 0  # forgotten after a quiet while
    assert brakes.failures("10.0.0.1") == 0


def test_an_address_of_a_network_that_keeps_guessing_is_remembered() -> None:
    now = [0.0]
    brakes = Brakes(lambda: now[0])
    for _ in range(8):
        brakes.failed("10.0.0.1")
    for step in range(40):  # the rest of the /24 keeps guessing, one code a minute
        now[0] += 60
        brakes.failed(f"10.0.0.{10 + step}")
    assert brakes.failures("10.0.0.1") == 8  # not forgotten after 15 quiet minutes


def test_guessing_from_a_whole_network_stays_hopeless() -> None:
    """Every address of a /24 guesses as fast as its brakes let it, for an hour: the codes
    compared, and the chance that one of them was the room code."""
    now = [0.0]
    brakes = Brakes(lambda: now[0])
    compared = 0
    addresses = [f"192.168.1.{i}" for i in range(1, 255)]
    due = [(0.0, address) for address in addresses]  # when each may try again
    while due:
        when, address = heapq.heappop(due)
        now[0] = max(now[0], when)
        if now[0] >= 3600.0:
            break
        wait = brakes.wait(address)
        if wait == 0:
            compared += 1
            brakes.failed(address)
            wait = brakes.wait(address)
        heapq.heappush(due, (now[0] + max(wait, 0.01), address))
    codes = len(ROOM_LETTERS) ** ROOM_CODE_LENGTH
    print(f"254 addresses of one /24 guessing for an hour: {compared} codes compared, chance "
          f"{compared / codes:.1e} (room codes: {codes:,})")
    assert compared < 5 * len(addresses)  # about one guess per address after the first
    assert compared / codes < 1e-5


def test_rate_limit_and_merged_news() -> None:
    now = [0.0]
    limit = RateLimit(2, 60.0, lambda: now[0])
    limit.note("a")
    limit.note("a")
    assert limit.wait("a") == 60.0 and limit.wait("b") == 0
    now[0] = 61.0
    assert limit.wait("a") == 0
    news = SeatNews(clock=lambda: now[0], gap=4.0)
    news.add([SeatEvent("claimed", "Eve")])
    said, moved = news.due()
    assert said == [("companion.claimed", {"name": "Eve"})] and not moved
    news.add([SeatEvent(k, "Eve") for k in ("released", "claimed", "moved")])
    assert news.due() == ([], False)  # less than 4 s after the last sentence
    now[0] += 4.0
    said, moved = news.due()
    assert said == [("companion.changed_many", {"name": "Eve"})] and moved
