"""Wraps the host's output so the companion pages get everything the host says: PRIVATE lines
go to their player's page (instead of a file), public lines are shown as captions, and the
countdown ticks reach every page."""

from __future__ import annotations

from collections.abc import Sequence

from voice_host.host.companion.channel import CompanionChannel
from voice_host.host.core.values import Line, Output, Style


class CompanionOutput:
    """An :class:`~voice_host.host.io.Output` that also feeds a :class:`CompanionChannel`."""

    def __init__(self, inner: Output, channel: CompanionChannel) -> None:
        self.inner = inner
        self.channel = channel

    def emit(self, lines: Sequence[Line]) -> None:
        public: list[Line] = []
        for line in lines:
            if line.style is Style.PRIVATE:
                self.channel.deliver(line)
                continue
            public.append(line)
            if line.text:
                self.channel.caption(line.text)
        if public:
            self.inner.emit(public)

    def adjust(self, *, rate: int = 0, volume: float = 0.0) -> str:
        return self.inner.adjust(rate=rate, volume=volume)

    def tick(self, remaining: int) -> None:
        self.channel.countdown(remaining)
        self.inner.tick(remaining)

    def close(self) -> None:
        self.inner.close()

