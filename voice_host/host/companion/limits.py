"""Limits that hold against many connections and many addresses: fair slots (per address, per
network, in all, with slots kept for the host's own machine) and brakes on wrong codes (per
address and per network, never for everyone: one device cannot lock the others out).

A *network* is an IPv4 address's /24 or an IPv6 address's /64: one device on the Wi-Fi can
take many addresses of its network (IPv6 gives it as many as it wants), and a phone of the
table shares that network with it. So a full network or a full server is not simply closed:
a newcomer with fewer slots than the heaviest holder takes that holder's oldest idle slot
(:class:`FairSlots`). Whoever opens many connections loses them first; a phone with one or
two is always served.

Nothing here knows HTTP: the server's protocol and its websocket route use it. Thread-safe
where the host's thread calls it (:class:`Brakes`); :class:`FairSlots` runs on the server's
event loop only."""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar


def network_of(address: str) -> str:
    """The /24 of an IPv4 address or the /64 of an IPv6 one (an IPv4-mapped IPv6 address
    counts as IPv4); anything else is its own network."""
    try:
        ip = ipaddress.ip_address(address.strip("[]").split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    bits = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


T = TypeVar("T")


@dataclass(eq=False)
class Slot(Generic[T]):
    """One held slot: ``thing`` (a transport, a websocket) and how to end it."""

    address: str
    thing: T
    order: int
    end: Callable[[], None]
    """Closes the thing (when a newcomer takes its slot)."""
    idle: Callable[[], bool] = lambda: True
    """Whether it may be taken now (a connection between two requests, a websocket that
    has not said who it is yet)."""


@dataclass
class FairSlots(Generic[T]):
    """At most ``per_address`` slots for one address, ``per_network`` for one network and
    ``total`` in all; addresses in ``own`` (the host's machine) have no limit of their own,
    always get ``reserved`` slots whatever the others hold, and are never counted in a
    network."""

    per_address: int
    per_network: int
    total: int
    reserved: int = 0
    own: frozenset[str] = frozenset()
    slots: list[Slot[T]] = field(default_factory=list)
    _order: int = 0

    def held(self, address: str) -> int:
        return sum(1 for s in self.slots if s.address == address)

    def admit(self, address: str, thing: T, end: Callable[[], None],
              idle: Callable[[], bool] = lambda: True) -> Slot[T] | None:
        """A slot for ``thing``, or None (refused). May end another holder's idle slot."""
        mine = self.held(address)
        if mine >= self.per_address and address not in self.own:
            return None
        if address in self.own:
            own = [s for s in self.slots if s.address in self.own]
            if len(self.slots) >= self.total and len(own) >= self.reserved \
                    and not self._take_from(self._others(), mine):
                return None
        else:
            net = network_of(address)
            same = [s for s in self.slots if s.address not in self.own
                    and network_of(s.address) == net]
            if len(same) >= self.per_network and not self._take_from(same, mine):
                return None
            public = self._others()
            if len(public) >= self.total and not self._take_from(public, mine):
                return None
        self._order += 1
        slot = Slot(address, thing, self._order, end, idle)
        self.slots.append(slot)
        return slot

    def release(self, slot: Slot[T] | None) -> None:
        if slot is not None and slot in self.slots:
            self.slots.remove(slot)

    def _others(self) -> list[Slot[T]]:
        return [s for s in self.slots if s.address not in self.own]

    def _take_from(self, scope: list[Slot[T]], newcomer_holds: int) -> bool:
        """End the oldest idle slot of the address holding most of ``scope``, when it holds
        at least two more than the newcomer. True when a slot was freed."""
        counts: dict[str, int] = {}
        for s in scope:
            counts[s.address] = counts.get(s.address, 0) + 1
        for address in sorted(counts, key=lambda a: -counts[a]):
            if counts[address] < newcomer_holds + 2:
                return False
            victims = sorted((s for s in scope if s.address == address and s.idle()),
                             key=lambda s: s.order)
            if victims:
                victim = victims[0]
                self.release(victim)
                victim.end()
                return True
        return False


# ---------------------------------------------------------------------- wrong codes

FREE_TRIES = 5
"""Wrong codes an address may send before it has to wait (then 2, 4, 8 ... seconds)."""
FLOOD_FREE_TRIES = 1
"""... while wrong codes flood in (:data:`FLOOD_PER_HOUR`): one, then 2, 4, 8 ... seconds."""
NETWORK_FREE_TRIES = 20
"""Wrong codes one network (/24, /64) may send before its guessing addresses wait."""
NETWORK_AFTER = 2
"""An address waits for its network's wrong codes only once it sent this many itself: a
phone that mistyped once is not kept out by a guesser on its Wi-Fi."""
FLOOD_PER_HOUR = 120
"""Wrong codes from everywhere in an hour beyond which every address that guesses wrong
has a single free try. Never a wait for an address that has not guessed wrong: one device
cannot lock the others out."""
LONGEST_WAIT = 900.0
"""The longest back-off, in seconds."""
FORGET_AFTER = 900.0
"""An address's wrong codes are forgotten after this many quiet seconds of it and of its
network (an address of a network that keeps guessing is remembered)."""


@dataclass
class _Count:
    failures: int = 0
    wait_until: float = 0.0
    last: float = 0.0


@dataclass(frozen=True)
class Wait:
    """How long a room-code check must still wait, and whose wrong codes caused it."""

    seconds: float
    scope: str = ""
    """``"address"`` (this device's own wrong codes), ``"network"`` (its network's, which
    it joined in) or ``""`` (no wait)."""
    failures: int = 0
    """This address's wrong codes (what the refusal tells the device)."""


class Brakes:
    """Back-off on wrong codes, per address and per network, never for all together: an
    address waits only for wrong codes it sent itself or, once it sent
    :data:`NETWORK_AFTER`, for those of its network. The host's own machine (``own``) waits
    for its own only. ``wait`` says how long a request must still wait; ``failed`` counts
    one wrong code."""

    def __init__(self, clock: Callable[[], float], own: frozenset[str] = frozenset()) -> None:
        self.clock = clock
        self.own = own
        """The host machine's addresses (set by the companion when it starts)."""
        self._lock = threading.Lock()
        self._addresses: dict[str, _Count] = {}
        self._networks: dict[str, _Count] = {}
        self._recent: list[float] = []
        """Times of the wrong codes of the last hour, from everywhere."""
        self._swept = float("-inf")

    def wait(self, client: str) -> float:
        return self.why(client).seconds

    def why(self, client: str) -> Wait:
        now = self.clock()
        with self._lock:
            net = network_of(client)
            self._forget(now)
            count = self._addresses.get(client)
            if count is None:  # never guessed wrong: never waits for anyone else
                return Wait(0.0)
            wait = Wait(max(0.0, count.wait_until - now), "address", count.failures)
            network = self._networks.get(net)
            if client not in self.own and network is not None \
                    and count.failures >= NETWORK_AFTER:
                seconds = network.wait_until - now
                if seconds > wait.seconds:
                    wait = Wait(seconds, "network", count.failures)
            return wait if wait.seconds > 0 else Wait(0.0)

    def failed(self, client: str) -> None:
        now = self.clock()
        with self._lock:
            self._recent = [t for t in self._recent if now - t < 3600.0]
            self._recent.append(now)
            free = FLOOD_FREE_TRIES if len(self._recent) > FLOOD_PER_HOUR else FREE_TRIES
            self._count(self._addresses, client, now, free)
            if client not in self.own:
                self._count(self._networks, network_of(client), now, NETWORK_FREE_TRIES)
            if len(self._addresses) > 5000:  # forget the quietest when flooded
                for key in sorted(self._addresses, key=lambda k: self._addresses[k].last)[:2500]:
                    del self._addresses[key]

    def failures(self, client: str) -> int:
        with self._lock:
            count = self._addresses.get(client)
            return count.failures if count else 0

    def flooding(self) -> bool:
        """Whether more than :data:`FLOOD_PER_HOUR` wrong codes came in the last hour."""
        now = self.clock()
        with self._lock:
            return sum(1 for t in self._recent if now - t < 3600.0) > FLOOD_PER_HOUR

    def _forget(self, now: float) -> None:
        if now - self._swept < 5.0 and now >= self._swept:
            return
        self._swept = now
        for key in [k for k, c in self._networks.items() if now - c.last > FORGET_AFTER]:
            del self._networks[key]
        for key in [k for k, c in self._addresses.items()
                    if now - c.last > FORGET_AFTER and network_of(k) not in self._networks]:
            del self._addresses[key]

    @staticmethod
    def _count(table: dict[str, _Count], key: str, now: float, free: int) -> None:
        count = table.setdefault(key, _Count())
        count.failures += 1
        count.last = now
        if count.failures > free:
            count.wait_until = now + min(2.0 ** (count.failures - free), LONGEST_WAIT)


class RateLimit:
    """At most ``count`` events per ``window`` seconds for each key (successful claims and
    leaves of one address)."""

    def __init__(self, count: int, window: float, clock: Callable[[], float]) -> None:
        self.count = count
        self.window = window
        self.clock = clock
        self._seen: dict[str, list[float]] = {}

    def wait(self, key: str) -> float:
        """Seconds before ``key`` may act again (0: now)."""
        now = self.clock()
        times = [t for t in self._seen.get(key, []) if now - t < self.window]
        self._seen[key] = times
        if len(self._seen) > 5000:
            self._seen = {k: v for k, v in self._seen.items() if v}
        return 0.0 if len(times) < self.count else times[0] + self.window - now

    def note(self, key: str) -> None:
        self._seen.setdefault(key, []).append(self.clock())
