"""The table-talk harness: a Resistance table of scripted Heards (typed lines, spoken
lines, silences) with a clock that runs only while the host listens, played through the real
Session; shared by the table-talk and correction tests."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voice_host.host.adapters import make_adapter, new_game
from voice_host.host.core.messages import caption
from voice_host.host.core.patience import DEFAULT_PAUSE_AFTER
from voice_host.host.core.session import Session, SessionOptions, Stop
from voice_host.host.core.store import EventLog
from voice_host.host.core.values import Heard, HeardKind, ListenRequest
from voice_host.host.io.terminal import TextOutput, parse_script_line

PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve"]
TIMEOUT = 12.0

NOT_UNDERSTOOD = {"en": ("not a command I know", "I did not catch a command"),
                  "fr": ("pas une commande que je connais", "Je n'ai pas compris de commande")}


def resistance(lang: str = "en", **over: Any) -> dict[str, Any]:
    return {"deal": "table", "lang": lang, "players": list(PLAYERS), "double_agent": True,
            "first": "Ada", "votes": "together", "seed": 7, **over}


class Table:
    """Scripted Heards ("Name: words" is spoken table speech, None a silence of one timeout)
    with a clock that runs only while the host listens."""

    def __init__(self, items: Iterable[str | Heard | None]) -> None:
        self.items = list(items)
        self.now = 1000.0
        self.requests: list[ListenRequest] = []

    def clock(self) -> float:
        return self.now

    def listen(self, request: ListenRequest) -> Heard:
        self.requests.append(request)
        if not self.items:
            return Heard(HeardKind.END)
        item = self.items.pop(0)
        if item is None:  # the microphone waited its timeout, or the countdown ran out
            self.now += request.countdown or request.timeout
            return Heard(HeardKind.SILENCE, source="test")
        self.now += 2.0
        if isinstance(item, Heard):
            return item
        speaker, text = parse_script_line(item)
        return Heard(HeardKind.SPEECH, text=text, speaker=speaker, source="test", spoken=True)

    def close(self) -> None:
        pass


@dataclass
class Played:
    stop: Stop
    session: Session
    text: str
    log: list[dict[str, Any]]

    def events(self, name: str) -> list[dict[str, Any]]:
        return [e for e in self.log if e["event"] == name]

    opening: str = ""
    """What the host says before anyone speaks (the same game with no input)."""

    def after_opening(self) -> str:
        """What the host said after its opening and first prompt: its answers."""
        assert self.text.startswith(self.opening)
        return self.text[len(self.opening):]


def play(tmp_path: Path, items: Iterable[str | Heard | None], *, game: str = "resistance",
         opts: dict[str, Any] | None = None, pause_after: float = DEFAULT_PAUSE_AFTER,
         confirm: str = "never") -> Played:
    opts = opts or resistance()
    items = list(items)
    table = Table(items)
    out = io.StringIO()
    log_path = tmp_path / f"log-{len(list(tmp_path.glob('log-*.jsonl')))}.jsonl"
    log = EventLog(log_path)
    session = Session(adapter=make_adapter(game, opts), state=new_game(game, opts),
                      rng=random.Random(opts["seed"]),
                      output=TextOutput(out, lang=opts.get("lang", "en")), listener=table,
                      log=log, game_options=opts, clock=table.clock,
                      options=SessionOptions(confirm=confirm, silence_timeout=TIMEOUT,
                                             pause_after=pause_after))
    stop = session.run(fresh=True)
    log.close()
    events = [json.loads(x) for x in log_path.read_text(encoding="utf-8").splitlines()]
    run = Played(stop, session, out.getvalue(), events)
    if items:
        quiet = play(tmp_path, [], game=game, opts=opts)
        # less the "input ended" line
        run.opening = quiet.text.rsplit(caption(opts.get("lang", "en")), 1)[0]
    return run


def helped(text: str, lang: str) -> bool:
    return any(s in text for s in NOT_UNDERSTOOD[lang])
