"""The session loop's options, and its record of each time it listens: a ``listening``
event (the phase, who it expects, what for), so that a program driving a game through
``--script -`` knows when to write its next line (docs/automation.md)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voice_host.host.core.patience import DEFAULT_PAUSE_AFTER
from voice_host.host.core.store import EventLog
from voice_host.host.core.values import ListenRequest


@dataclass
class SessionOptions:
    """How the loop behaves (from the :class:`~voice_host.host.core.config.SessionConfig`)."""

    confirm: str = "auto"
    """"auto": confirm low-confidence and irreversible actions; "never": never ask."""
    silence_timeout: float = 12.0
    """Seconds of silence before a re-prompt (each silent listen waits this long)."""
    pause_after: float = DEFAULT_PAUSE_AFTER
    """Seconds with nobody speaking before the host pauses (never in a discussion)."""
    save_path: Path | None = None
    """Where the game is saved after every action."""


class ListenLog:
    """Writes a ``listening`` event for each wait; the short slices of one wait (while the
    phones may answer too) once."""

    def __init__(self, log: EventLog) -> None:
        self.log = log
        self._slice: tuple[Any, ...] | None = None

    def started(self, request: ListenRequest) -> None:
        prompt = request.prompt
        what = (prompt.phase if prompt is not None else request.grammar_name,
                tuple(request.expected), request.purpose, request.grammar_name)
        if request.purpose != "slice" or what != self._slice:
            self.log.write("listening", phase=what[0], expected=list(what[1]),
                           purpose=request.purpose, grammar=request.grammar_name,
                           timeout=request.timeout, countdown=request.countdown)
        self._slice = what if request.purpose == "slice" else None
