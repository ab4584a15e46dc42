"""A scripted session for host tests: script lines in, narration text and the JSONL log out,
each player's secrets collected from the secret sink."""

from __future__ import annotations

import io
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voice_host.host.adapters import make_adapter, new_game
from voice_host.host.core.secrets import Delivery, Via
from voice_host.host.core.session import Session, SessionOptions, Stop
from voice_host.host.core.store import EventLog, SessionRecord
from voice_host.host.core.values import Line, Listener
from voice_host.host.io.terminal import ScriptListener, TextOutput

AFTER_THE_END = {"narration", "recap", "play_again", "heard", "listening"}
"""What a log may hold after its game_over: the recap said, and the "play again?" question."""


def game_over_of(log: list[dict[str, Any]]) -> dict[str, Any]:
    """The log's game_over event, which ends the game: after it come only the recap and
    the "play again?" question."""
    ends = [i for i, e in enumerate(log) if e["event"] == "game_over"]
    assert ends, log[-3:]
    after = {e["event"] for e in log[ends[-1] + 1:]}
    assert after <= AFTER_THE_END, after
    return log[ends[-1]]


@dataclass
class Run:
    """What one scripted session produced."""

    stop: Stop
    session: Session
    text: str
    log: list[dict[str, Any]]
    secrets: dict[str, list[str]]

    @property
    def state(self) -> Any:
        return self.session.state

    def game_over(self) -> dict[str, Any]:
        return game_over_of(self.log)

    def events(self, name: str) -> list[dict[str, Any]]:
        return [e for e in self.log if e["event"] == name]


def run_script(tmp_path: Path, game: str, game_opts: dict[str, Any], lines: list[str], *,
               confirm: str = "never", name: str = "script", save: Path | None = None,
               fresh: bool = True, state: Any = None, rng: random.Random | None = None,
               host_state: dict[str, Any] | None = None,
               undo: list[Any] | None = None, listener: Listener | None = None,
               narration: dict[str, int] | None = None) -> Run:
    """Play ``lines`` as a script file (or, given a ``listener``, what it hears)."""
    script = tmp_path / f"{name}.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    secrets: dict[str, list[str]] = {}

    def sink(line: Line) -> Delivery:
        assert line.to is not None
        secrets.setdefault(line.to, []).append(line.text)
        return Delivery(Via.FILE, f"secret-{line.to}.txt")

    adapter = make_adapter(game, game_opts, secret_sink=sink)
    if host_state:
        adapter.host_state.update(host_state)
    out = io.StringIO()
    log_path = tmp_path / f"{name}.jsonl"
    log = EventLog(log_path)
    session = Session(
        adapter=adapter, state=state if state is not None else new_game(game, game_opts),
        rng=rng or random.Random(game_opts["seed"]),
        output=TextOutput(out, lang=game_opts.get("lang", "en")),
        listener=listener or ScriptListener(script), log=log, game_options=game_opts,
        saved=SessionRecord(undo=list(undo or []), narration=dict(narration or {})),
        options=SessionOptions(confirm=confirm, save_path=save))
    stop = session.run(fresh=fresh)
    log.close()
    events = [json.loads(x) for x in log_path.read_text(encoding="utf-8").splitlines()]
    return Run(stop, session, out.getvalue(), events, secrets)
