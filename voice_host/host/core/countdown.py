"""The clock of a timed prompt (Contre la montre)."""

from __future__ import annotations

import time
from collections.abc import Callable

from voice_host.host.core.adapter import Prompt


class Countdown:
    """Seconds used on the running countdown. The clock runs only while the host listens
    for it, not while it speaks or the game is paused, and it is one clock for every prompt
    that shares its ``countdown_key``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        """Seconds, monotonic: what a countdown is measured with."""
        self._running: tuple[str, float] | None = None
        """The running countdown: its key and the seconds already used."""

    def left(self, prompt: Prompt) -> float | None:
        """Seconds left on the prompt's clock (None without one)."""
        if not prompt.countdown:
            return None
        key = prompt.countdown_key or prompt.key
        if self._running is None or self._running[0] != key:
            self._running = (key, 0.0)
        return max(0.0, prompt.countdown - self._running[1])

    def spend(self, since: float) -> None:
        """The host listened on the clock from ``since`` (a reading of ``clock``) to now."""
        if self._running is not None:
            key, used = self._running
            self._running = (key, used + max(0.0, self.clock() - since))

    def reset(self) -> None:
        """The game went back (undo): the next countdown starts afresh."""
        self._running = None
