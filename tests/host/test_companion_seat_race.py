"""The seat list the phones see is never older than the seats: a confirmation (a web
thread) and the host locking the seats (the host's thread) both post it, and the last one
posted must say what is true now. Exact, with the race forced by a pause, no server."""

from __future__ import annotations

import threading
from typing import Any

from voice_host.host.companion.channel import CompanionChannel

PLAYERS = ("Ada", "Ben", "Cleo", "Dan", "Eve")


def test_the_last_seat_list_posted_is_the_newest() -> None:
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
    tokens = {p: channel.seats.claim(channel.room_code, p, client="test").token
              for p in PLAYERS}
    for p in PLAYERS[:-1]:
        channel.seats.confirm(p, tokens[p], client="test")

    read = threading.Event()
    go = threading.Event()
    original = channel.seat_list
    calls = 0

    def slow_first_read() -> dict[str, Any]:
        # the confirmation's thread reads the list (seats still open), then is held up
        # before it posts it, while the host locks the seats
        nonlocal calls
        calls += 1
        listed = original()
        if calls == 1:
            read.set()
            go.wait(2.0)
        return listed

    channel.seat_list = slow_first_read  # type: ignore[method-assign]
    last = PLAYERS[-1]
    confirming = threading.Thread(
        target=lambda: channel.seats.confirm(last, tokens[last], client="test"))
    confirming.start()
    assert read.wait(2.0)
    locking = threading.Thread(target=channel.lock_seats)
    locking.start()
    locking.join(0.3)  # the host's thread locks (or waits for the list being posted)
    go.set()
    confirming.join(2.0)
    locking.join(2.0)
    assert not confirming.is_alive() and not locking.is_alive()
    assert channel.seats.locked
    for seat in PLAYERS:
        lists = [m for m in channel.seat_snapshot(seat) if m.get("type") == "seats"]
        assert lists and lists[-1]["locked"], f"{seat}'s phone was last told the seats are open"
