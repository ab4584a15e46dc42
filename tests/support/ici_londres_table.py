"""Ici Londres through the real session loop with scripted utterances: the session, its
listener, and what a run leaves (the text, the secrets, the event log)."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voice_host.games.base import Deal
from voice_host.games.ici_londres import Draw, IciLondresState
from voice_host.host.adapters.ici_londres import Adapter, new_game
from voice_host.host.core.secrets import Delivery, Via
from voice_host.host.core.session import Session, SessionOptions, Stop
from voice_host.host.core.store import EventLog
from voice_host.host.core.values import Heard, HeardKind, Line, ListenRequest
from voice_host.host.io.terminal import TextOutput, parse_script_line

PLAYERS4 = ["Ada", "Ben", "Cleo", "Dan"]
PLAYERS3 = ["Ada", "Ben", "Cleo"]
DRAWS = [("heart", "book"), ("bell", "key"), ("moon", "sun"), ("cat", "wolf")]


class ListListener:
    """Scripted utterances: "Name: words", "words", None for silence; records requests."""

    def __init__(self, items: Iterable[str | Heard | None]) -> None:
        self.items = list(items)
        self.requests: list[ListenRequest] = []

    def listen(self, request: ListenRequest) -> Heard:
        self.requests.append(request)
        if not self.items:
            return Heard(HeardKind.END)
        item = self.items.pop(0)
        if item is None:
            return Heard(HeardKind.SILENCE, source="test")
        if isinstance(item, Heard):
            return item
        speaker, text = parse_script_line(item)
        return Heard(HeardKind.SPEECH, text=text, speaker=speaker, source="test")

    def close(self) -> None:
        pass


class FixedDrawAdapter(Adapter):
    """The host deals the given messages in order (a stand-in for a shuffled pile)."""

    def __init__(self, options: dict[str, Any], draws: list[tuple[str, str]], **kw: Any) -> None:
        super().__init__(options, **kw)
        self.draws = list(draws)

    def chance(self, state: Any, rng: random.Random) -> Any:
        if state.deal is Deal.HOST:
            return Draw(self.draws[state.round_number - 1])
        return super().chance(state, rng)


@dataclass
class Run:
    stop: Stop
    session: Session
    text: str
    secrets: list[Line]
    log: list[dict[str, Any]]
    listener: ListListener

    def game_over(self) -> dict[str, Any]:
        ends = [e for e in self.log if e["event"] == "game_over"]
        assert len(ends) == 1, self.text
        return ends[0]

    @property
    def state(self) -> IciLondresState:
        state = self.session.state
        assert isinstance(state, IciLondresState)
        return state

    def actions(self) -> list[dict[str, Any]]:
        return [e["action"] for e in self.log if e["event"] == "action"]


def options(*, players: list[str] = PLAYERS4, deal: str = "host", mode: str = "fragments",
            rounds: int | None = 1, lang: str = "en", seed: int = 1,
            first: str | None = None) -> dict[str, Any]:
    return {"players": players, "deal": deal, "mode": mode, "rounds": rounds, "lang": lang,
            "seed": seed, "first": first}


def play(tmp_path: Path, opts: dict[str, Any], script: Iterable[str | Heard | None], *,
         draws: list[tuple[str, str]] | None = None, confirm: str = "never",
         name: str = "game", state: IciLondresState | None = None, fresh: bool = True,
         host_state: dict[str, Any] | None = None,
         rng: random.Random | None = None, listener: ListListener | None = None,
         clock: Any = None) -> Run:
    secrets: list[Line] = []

    def sink(line: Line) -> Delivery:
        secrets.append(line)
        return Delivery(Via.FILE, str(tmp_path / f"secret-{line.to}.txt"))

    adapter: Adapter = (FixedDrawAdapter(opts, draws, secret_sink=sink) if draws is not None
                        else Adapter(opts, secret_sink=sink))
    if host_state:
        adapter.host_state.update(host_state)
    out = io.StringIO()
    listener = listener or ListListener(script)
    log_path = tmp_path / f"{name}.jsonl"
    log = EventLog(log_path)
    session = Session(adapter=adapter, state=state or new_game(opts),
                      rng=rng or random.Random(opts["seed"]),
                      output=TextOutput(out, lang=opts.get("lang", "en")),
                      listener=listener, log=log, game_options=opts,
                      options=SessionOptions(confirm=confirm,
                                             save_path=tmp_path / f"{name}.json"),
                      **({"clock": clock} if clock is not None else {}))
    stop = session.run(fresh=fresh)
    log.close()
    events = [json.loads(x) for x in log_path.read_text(encoding="utf-8").splitlines()]
    return Run(stop, session, out.getvalue(), secrets, events, listener)


def seed_drawing(opts: dict[str, Any], icons: tuple[str, str]) -> int:
    """A seed whose first chance draw is ``icons`` (found by trying seeds in order)."""
    state = new_game(opts)
    return next(s for s in range(200_000)
                if state.chance_action(random.Random(s)) == Draw(icons))
