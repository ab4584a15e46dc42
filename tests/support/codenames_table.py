"""A Codenames game (host deal, English) played through a real session whose listener
hands over prepared utterances: the confirmation and reading tests share it."""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from voice_host.games.codenames import CodenamesState, clue_problem
from voice_host.host.adapters import make_adapter, new_game
from voice_host.host.core.secrets import Delivery, Via
from voice_host.host.core.session import Session, SessionOptions
from voice_host.host.core.store import EventLog
from voice_host.host.core.values import Heard, HeardKind, ListenRequest
from voice_host.host.io.terminal import TextOutput

RED, BLUE = ["Hannah", "Thomas"], ["Sophie", "Oliver"]
OPTS: dict[str, Any] = {"deal": "host", "lang": "en", "red": RED, "blue": BLUE, "first": "red",
                        "words": "en", "invalid_clue": "refuse", "seed": 7}


def dealt() -> CodenamesState:
    state = new_game("codenames", OPTS)
    assert isinstance(state, CodenamesState)
    state.apply(state.chance_action(random.Random(OPTS["seed"])))
    return state


def clue_word(state: CodenamesState) -> str:
    return next(w for w in ("ocean", "music", "winter", "money", "garden")
                if clue_problem(w, state.words) is None)


class Table:
    """A listener that hands over prepared utterances, then ends."""

    def __init__(self, heard: Sequence[Heard]) -> None:
        self.heard = list(heard)
        self.requests: list[ListenRequest] = []

    def listen(self, request: ListenRequest) -> Heard:
        self.requests.append(request)
        return self.heard.pop(0) if self.heard else Heard(HeardKind.END)

    def close(self) -> None:
        pass


def table_session(tmp_path: Path, heard: Sequence[Heard]) -> tuple[Session, io.StringIO, Table]:
    out = io.StringIO()
    table = Table(heard)
    adapter = make_adapter("codenames", OPTS,
                           secret_sink=lambda line: Delivery(Via.COMPANION, "x"))
    session = Session(adapter=adapter, state=new_game("codenames", OPTS),
                      rng=random.Random(OPTS["seed"]), output=TextOutput(out), listener=table,
                      options=SessionOptions(confirm="auto"), game_options=OPTS,
                      log=EventLog(tmp_path / "log.jsonl"))
    return session, out, table
