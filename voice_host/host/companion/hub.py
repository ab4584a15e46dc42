"""Ordered message streams from the host's thread to the web server's connections.

Each audience (the table views, or one seat) has its own stream: every message gets the next
sequence number of that stream, is kept in a short backlog, and is handed to each connected
client's queue in order. A client that reconnects says the last number it saw and receives
what it missed, or a fresh snapshot when that fell out of the backlog."""

from __future__ import annotations

import asyncio
import json
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from voice_host.host.companion.padding import padded_json

BACKLOG = 2000
"""Messages each stream keeps for clients that reconnect."""
QUEUE_LIMIT = 20000
"""A client further behind than this is disconnected (it reconnects and catches up)."""
RESET_BUCKET = 4096
"""A seat's catch-up message is padded to a multiple of this many bytes."""
TABLE = "table"
"""Audience name of the table views; seats use ``"seat:<name>"``."""


def seat_audience(seat: str) -> str:
    return f"seat:{seat}"


@dataclass
class _Stream:
    seq: int = 0
    backlog: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=BACKLOG))
    clients: set[Subscription] = field(default_factory=set)
    latest: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The newest message of each kept kind (e.g. the view), for snapshots."""
    history: list[dict[str, Any]] = field(default_factory=list)
    """Messages every new device must see (private lines), for snapshots."""

    def snapshot(self) -> list[dict[str, Any]]:
        items = [*self.history, *self.latest.values()]
        return sorted(items, key=lambda m: int(m["seq"]))


class Subscription:
    """One connected client's queue of encoded messages (read on the server's loop)."""

    def __init__(self, hub: Hub, audience: str, loop: asyncio.AbstractEventLoop) -> None:
        self.hub = hub
        self.audience = audience
        self.loop = loop
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.overflowed = False

    def _put(self, text: str | None) -> None:
        if self.overflowed:
            return
        if text is not None and self.queue.qsize() >= QUEUE_LIMIT:
            self.overflowed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def close(self) -> None:
        """Stop this client's sender (called from any thread)."""
        self.loop.call_soon_threadsafe(self._put, None)

    def __hash__(self) -> int:
        return id(self)


class Hub:
    """Streams by audience. ``post`` may be called from any thread; ``subscribe`` from the
    server's event loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._streams: dict[str, _Stream] = {}

    def _stream(self, audience: str) -> _Stream:
        stream = self._streams.get(audience)
        if stream is None:
            stream = self._streams[audience] = _Stream()
        return stream

    def post(self, audience: str, message: dict[str, Any], *, keep: str = "",
             pad_to: int = 0, pad_step: int = 0) -> int:
        """Number ``message`` in ``audience``'s stream and send it to its clients, in order.

        ``keep="latest"``: the newest message of its ``type`` is part of every snapshot (the
        view); ``keep="always"``: every such message is (private lines); ``""``: only the
        backlog keeps it (captions, countdown ticks). ``pad_step``: the text is padded to
        ``pad_to`` bytes (or the next multiple of ``pad_step``) so its size tells nothing."""
        with self._lock:
            stream = self._stream(audience)
            stream.seq += 1
            numbered = {**message, "seq": stream.seq}
            text = padded_json(numbered, to=pad_to, step=pad_step) if pad_step \
                else json.dumps(numbered, ensure_ascii=False)
            stream.backlog.append((stream.seq, text))
            if keep == "latest":
                stream.latest[str(message["type"])] = numbered
            elif keep == "always":
                stream.history.append(numbered)
            for client in stream.clients:
                try:
                    client.loop.call_soon_threadsafe(client._put, text)
                except RuntimeError:  # the server's loop is closed
                    pass
            return stream.seq

    def last_seq(self, audience: str) -> int:
        with self._lock:
            return self._stream(audience).seq

    def subscribe(self, audience: str, since: int) -> Subscription:
        """Register a client on the running loop. It first receives what it missed after
        ``since`` (or, for a new client or when that is no longer kept, a ``reset`` message
        with the kept messages: the latest view and every private line), then every new
        message, in order."""
        loop = asyncio.get_running_loop()
        sub = Subscription(self, audience, loop)
        with self._lock:
            stream = self._stream(audience)
            oldest = stream.backlog[0][0] if stream.backlog else stream.seq + 1
            if since > stream.seq or since < 0:
                since = 0
            if since and since + 1 >= oldest:
                for seq, text in stream.backlog:
                    if seq > since:
                        sub._put(text)
            else:
                reset = {"type": "reset", "seq": stream.seq, "items": stream.snapshot()}
                sub._put(padded_json(reset, step=RESET_BUCKET) if audience != TABLE
                         else json.dumps(reset, ensure_ascii=False))
            stream.clients.add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            self._stream(sub.audience).clients.discard(sub)

    def close_audience(self, audience: str, farewell: dict[str, Any] | None = None) -> None:
        """Send ``farewell`` to every client of ``audience`` and disconnect them."""
        with self._lock:
            clients = list(self._stream(audience).clients)
            text = None if farewell is None else json.dumps({**farewell, "seq": 0})
            for client in clients:
                if text is not None:
                    client.loop.call_soon_threadsafe(client._put, text)
                client.close()

    def close_all(self, farewell: dict[str, Any] | None = None) -> None:
        """Say ``farewell`` to every client and disconnect them all."""
        with self._lock:
            audiences = list(self._streams)
        for audience in audiences:
            self.close_audience(audience, farewell)

    def client_count(self, audience: str | None = None) -> int:
        with self._lock:
            if audience is not None:
                return len(self._stream(audience).clients)
            return sum(len(s.clients) for s in self._streams.values())
