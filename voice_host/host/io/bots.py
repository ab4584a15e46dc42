"""Typed players for simulations, tests and benchmarks: each answers every prompt with a
legal move of the game's own bots (``registration(game).bots``), and yes to every question."""

from __future__ import annotations

import random

from voice_host.host.core.registry import registration
from voice_host.host.core.session import Session
from voice_host.host.core.values import Heard, HeardKind, ListenRequest

MAX_TURNS = 3000
"""Listens before the bots give up (a game that never ends is a bug to see, not a hang)."""


class TextBots:
    """A :class:`~voice_host.host.core.values.Listener` of typed bot lines; set
    ``session`` before the session runs."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.session: Session | None = None
        self.turns = 0

    def listen(self, request: ListenRequest) -> Heard:
        assert self.session is not None
        self.turns += 1
        if self.turns > MAX_TURNS or self.session.state.is_terminal():
            return Heard(HeardKind.END)
        if request.purpose == "confirm":
            return Heard(HeardKind.SPEECH, text="yes", speaker=request.expected[0])
        assert request.prompt is not None
        speaker, text = registration(self.session.adapter.game).bots(
            self.session.adapter, self.session.state, request.prompt, self.rng)
        return Heard(HeardKind.SPEECH, text=text, speaker=speaker)

    def close(self) -> None:
        pass
