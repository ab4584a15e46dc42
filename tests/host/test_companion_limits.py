"""The companion page's limits as plain objects (no sockets): networks of addresses, fair
slots that a heavy holder loses first, brakes per address, network and in all, and merged
seat news. Clocks are injected; nothing waits."""

from __future__ import annotations

from voice_host.host.companion.limits import (
    FREE_TRIES,
    NETWORK_FREE_TRIES,
    Brakes,
    FairSlots,
    RateLimit,
    network_of,
)
from voice_host.host.companion.news import SeatNews
from voice_host.host.companion.seats import SeatEvent


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


def test_brakes_count_per_address_network_and_in_all() -> None:
    now = [0.0]
    brakes = Brakes(lambda: now[0])
    for _ in range(FREE_TRIES):
        brakes.failed("10.0.0.1")
    assert brakes.wait("10.0.0.1") == 0
    brakes.failed("10.0.0.1")
    assert brakes.wait("10.0.0.1") > 0
    assert brakes.wait("10.0.0.9") == 0  # a device that never guessed wrong is not braked
    for i in range(NETWORK_FREE_TRIES):
        brakes.failed(f"10.0.0.{100 + i}")
    brakes.failed("10.0.0.120")  # that address's second wrong code: the network waits
    assert brakes.wait("10.0.0.120") > 0 and brakes.wait("10.0.0.121") == 0
    now[0] += 10_000
    assert brakes.wait("10.0.0.1") == 0  # forgotten after a quiet while


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
