"""What the host's terminal shows of refused requests: every value escaped (:func:`safe`), and
repeated refusals logged once per window with a count, so a flood of bad requests cannot
flood the terminal."""

from __future__ import annotations

import logging
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger("voice_host.companion")

LOG_WINDOW = 60.0
"""Refusals of the same kind from the same address are logged once per window, with a count."""
LOG_LINES_PER_WINDOW = 20
"""At most this many refusal lines per window in all; the rest are counted."""


def safe(value: object, limit: int = 60) -> str:
    """``value`` fit for the host's terminal: control and formatting characters (escape
    sequences, carriage returns, bidirectional overrides) written as ``\\xNN``/``\\uNNNN``,
    and cut to ``limit`` characters. Backslashes stay as they are."""
    text = str(value)
    cut = len(text) > limit
    out = []
    for ch in text[:limit]:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out) + ("…" if cut else "")


class SafeLogFilter(logging.Filter):
    """Escapes every companion log line as a whole (a second guard behind :func:`safe`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        record.msg = safe(message, limit=400)
        record.args = ()
        return True


if not any(isinstance(f, SafeLogFilter) for f in log.filters):
    log.addFilter(SafeLogFilter())


@dataclass(frozen=True)
class Refusal:
    """One refused request, kept for the host (and the tests) to inspect."""

    when: float
    """Unix time of the refusal."""
    client: str
    """The address the request came from."""
    seat: str | None
    """The seat the request tried to read or act for, when it named one (escaped)."""
    what: str
    """What was refused, e.g. ``"read view"``, ``"act"``, ``"claim"``."""
    reason: str
    """Why, in words."""


class RefusalLog:
    """The refusals of one room (the last 1000 kept) and their lines on the terminal. Not
    locked: its owner (the seat book) calls it under its own lock."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.refusals: list[Refusal] = []
        self._windows: dict[tuple[str, str], list[float]] = {}
        self._lines: list[float] = [0.0, 0.0]

    def add(self, *, client: str, seat: str | None, what: str, reason: str) -> None:
        shown = None if seat is None else safe(seat, 40)
        self.refusals.append(Refusal(time.time(), client, shown, what, reason))
        del self.refusals[:-1000]
        key = (client, what)
        now = self.clock()
        window = self._windows.get(key)
        if window is not None and now - window[0] < LOG_WINDOW:
            window[1] += 1  # counted, said later in one line
            return
        if window is not None:
            self._report(key)
        self._windows[key] = [now, 0.0]
        if len(self._windows) > 500:  # many addresses: forget the oldest windows
            for old in sorted(self._windows, key=lambda k: self._windows[k][0])[:250]:
                self._report(old)
                del self._windows[old]
        if now - self._lines[0] >= LOG_WINDOW:
            if self._lines[1] > LOG_LINES_PER_WINDOW:
                log.warning("companion: %d more refused requests in the last minute were "
                            "not shown one by one.", int(self._lines[1]) - LOG_LINES_PER_WINDOW)
            self._lines = [now, 0.0]
        self._lines[1] += 1
        if self._lines[1] > LOG_LINES_PER_WINDOW:
            return
        log.warning("companion: refused %s%s from %s: %s", what,
                    f" for seat {shown}" if shown else "", safe(client), reason)

    def flush(self) -> None:
        """Log the counts not yet reported (when the server stops)."""
        for key in list(self._windows):
            self._report(key)
        self._windows.clear()

    def _report(self, key: tuple[str, str]) -> None:
        window = self._windows.get(key)
        if window and window[1]:
            client, what = key
            log.warning("companion: refused %s from %s %d more times in that minute.", what,
                        safe(client), int(window[1]))
            window[1] = 0
