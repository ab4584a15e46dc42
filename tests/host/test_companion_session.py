"""A whole game through the real Session with ``--deal host`` and the companion page: the
host deals the roles to the phones, takes the mission cards from them (no physical card, no
secret file) and reaches the right winner; and ``voice-host play ... --companion`` announces
the page and stops it at the end."""

from __future__ import annotations

import asyncio
import io
import json
import random
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the companion extra (starlette) is not installed")
httpx = pytest.importorskip("httpx", reason="httpx (test client) is not installed")
websockets = pytest.importorskip("websockets", reason="websockets is not installed")

from voice_host import cli  # noqa: E402
from voice_host.games.resistance import ResistanceState, Role, Setup  # noqa: E402
from voice_host.host.adapters import make_adapter, new_game  # noqa: E402
from voice_host.host.companion import CompanionChannel, CompanionOutput  # noqa: E402
from voice_host.host.io import Heard, HeardKind, ListenRequest, ScriptListener, TextOutput  # noqa: E402,E501
from voice_host.host.session import Session, SessionOptions, Stop  # noqa: E402
from voice_host.host.store import EventLog  # noqa: E402

PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve"]


class Phones:
    """Five players' phones: they claim their seats, read their views and play a card when
    their page offers one (spies sabotage, heroes can only succeed)."""

    def __init__(self, channel: CompanionChannel) -> None:
        self.channel = channel
        self.client = httpx.Client(base_url=channel.url, timeout=10)
        self.tokens: dict[str, str] = {}
        for seat in PLAYERS:
            body = self.client.post("/api/claim", json={"room": channel.room_code,
                                                        "seat": seat}).json()
            self.tokens[seat] = body["token"]
        self.played: list[tuple[str, str]] = []
        self.offered: dict[str, set[str]] = {p: set() for p in PLAYERS}
        self.roles_seen: dict[str, str] = {}
        self.private: dict[str, list[str]] = {}
        self.stop = threading.Event()
        self.errors: list[str] = []
        self.thread = threading.Thread(target=self.run, daemon=True)

    def seat(self, seat: str) -> dict[str, Any]:
        response = self.client.get(f"/api/seat/{seat}", headers={"X-Seat-Token": self.tokens[seat]})
        assert response.status_code == 200
        return dict(response.json())

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                for seat in PLAYERS:
                    items = self.seat(seat)["items"]
                    view = next((i for i in items if i["type"] == "view"), None)
                    self.private[seat] = [i["text"] for i in items if i["type"] == "private"]
                    if view is None:
                        continue
                    if view["view"]["role"]:
                        self.roles_seen[seat] = view["view"]["role"]
                    choices = [c["id"] for c in view["choices"]]
                    self.offered[seat].update(choices)
                    if choices and not view["sent"]:
                        choice = "sabotage" if "sabotage" in choices else "success"
                        answer = self.client.post(
                            f"/api/seat/{seat}/act", json={"choice": choice},
                            headers={"X-Seat-Token": self.tokens[seat]})
                        if answer.status_code != 200:
                            self.errors.append(answer.text)
                        else:
                            self.played.append((seat, choice))
                time.sleep(0.03)
        except Exception as exc:  # noqa: BLE001 - reported by the test
            self.errors.append(repr(exc))


def roles_for(seed: int, opts: dict[str, Any]) -> dict[str, Role]:
    state = new_game("resistance", opts)
    action = make_adapter("resistance", opts).chance(state, random.Random(seed))
    assert isinstance(action, Setup) and action.roles is not None
    return dict(zip(PLAYERS, action.roles, strict=True))


def test_a_whole_resistance_game_with_the_host_dealing_to_phones(tmp_path: Path) -> None:
    seed = 21
    opts: dict[str, Any] = {"deal": "host", "lang": "en", "players": list(PLAYERS),
                            "double_agent": True, "first": "Ada", "votes": "names",
                            "seed": seed}
    roles = roles_for(seed, opts)
    spy = next(p for p in PLAYERS if roles[p] is Role.SPY)
    heroes = [p for p in PLAYERS if roles[p] is not Role.SPY]

    def team(size: int) -> str:
        members = [p for p in PLAYERS if p == spy or p in heroes[: size - 1]]
        return " and ".join([", ".join(members[:-1]), members[-1]])

    yes = ["yes", "I vote yes", "approve", "yeah", "yes"]
    # missions of 2, 3 and 2 players, each with a spy: the spies sabotage all three
    script = [f"I choose {team(2)}", *yes, f"I choose {team(3)}", *yes,
              f"I choose {team(2)}", *yes]
    script_path = tmp_path / "script.txt"
    script_path.write_text("\n".join(script) + "\n", encoding="utf-8")

    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
    channel.start()
    phones = Phones(channel)
    out = io.StringIO()
    files: list[Any] = []
    adapter = make_adapter("resistance", {**opts, "companion": True},
                           secret_sink=channel.deliver)
    log_path = tmp_path / "log.jsonl"
    log = EventLog(log_path)
    session = Session(adapter=adapter, state=new_game("resistance", opts),
                      rng=random.Random(seed),
                      output=CompanionOutput(TextOutput(out, private_sink=files.append),
                                             channel),
                      listener=ScriptListener(script_path), log=log, game_options=opts,
                      options=SessionOptions(confirm="never", silence_timeout=20),
                      companion=channel)
    phones.thread.start()
    try:
        stop = session.run(fresh=True)
    finally:
        phones.stop.set()
        phones.thread.join(10)
        log.close()
        table = phones.client.get(f"/api/table?room={channel.room_code}").json()
        phones.client.close()
        channel.stop()

    assert phones.errors == []
    assert stop is Stop.FINISHED
    over = json.loads(log_path.read_text(encoding="utf-8").splitlines()[-1])
    assert over["event"] == "game_over"
    assert over["winner"] == ["spies"] and over["scores"] == {"heroes": 0, "spies": 3}
    # every card came from a phone: the spy sabotaged, heroes were offered success only
    assert sorted(phones.played).count((spy, "sabotage")) == 3
    assert all(choice == "success" for seat, choice in phones.played if seat != spy)
    assert all(phones.offered[h] <= {"success"} for h in heroes)
    # each phone got its own role, privately; nothing secret was printed or written to a file
    assert phones.roles_seen == {p: r.value for p, r in roles.items()}
    assert all(phones.private[p] for p in PLAYERS)
    assert files == []
    text = out.getvalue()
    assert all(secret not in text for p in PLAYERS for secret in phones.private[p])
    said_before_the_end = text.split("The spies win")[0]
    assert all(f"{p} is a spy" not in said_before_the_end for p in PLAYERS)
    assert "sabotage" not in " ".join(t for p in heroes for t in phones.private[p]).replace(
        "sabotages", "")
    final = next(i for i in table["items"] if i["type"] == "view")["view"]
    assert isinstance(session.state, ResistanceState)
    assert final == session.state.public_view()
    assert [m["sabotages"] for m in final["missions"]] == [1, 1, 1]


def test_play_with_companion_announces_the_page_and_stops_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    script = tmp_path / "script.txt"
    script.write_text("status\n", encoding="utf-8")
    code = cli.main(["play", "codenames", "--red", "Ada,Ben", "--blue", "Cy,Di", "--deal",
                     "host", "--companion", "--companion-host", "127.0.0.1", "--port", "0",
                     "--input", "text", "--script", str(script), "--output", "text",
                     "--confirm", "never", "--seed", "3"])
    captured = capsys.readouterr()
    assert code == 3  # the script ended before the game
    said = [line for line in captured.out.splitlines() if "room code" in line]
    assert said and said[0].startswith("HOST: Each player can open http://127.0.0.1:")
    url = said[0].split("open ", 1)[1].split(" ", 1)[0]
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    assert f"Companion page: {url}" in captured.err
    assert "▀" in captured.err or "█" in captured.err  # the QR code
    with pytest.raises(OSError):  # the page stopped with the game
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_play_refuses_a_port_in_use_with_a_sentence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    script = tmp_path / "script.txt"
    script.write_text("status\n", encoding="utf-8")
    try:
        code = cli.main(["play", "codenames", "--red", "Ada,Ben", "--blue", "Cy,Di",
                         "--deal", "host", "--companion", "--companion-host", "127.0.0.1",
                         "--port", str(busy.getsockname()[1]), "--input", "text", "--script",
                         str(script), "--output", "text"])
    finally:
        busy.close()
    assert code == 2
    assert "Choose another port with --port" in capsys.readouterr().err


# --------------------------------------------------------------------------- every game


class BotPlayers:
    """A listener whose players answer every spoken prompt with a legal move (the demo's
    bots, as typed text); secret input never comes from here, only from the phones."""

    def __init__(self, adapter: Any, rng: random.Random) -> None:
        self.adapter = adapter
        self.rng = rng
        self.session: Session | None = None
        self.count = 0

    def listen(self, request: ListenRequest) -> Heard:
        assert self.session is not None
        self.count += 1
        if self.count > 3000:
            return Heard(HeardKind.END)
        if request.purpose == "confirm":
            return Heard(HeardKind.SPEECH, text="yes", speaker=request.expected[0])
        speaker, text = self.adapter.bot_utterance(self.session.state, request.prompt,
                                                   self.rng)
        return Heard(HeardKind.SPEECH, text=text, speaker=speaker, source="bot")

    def close(self) -> None:
        pass


class Watchers(Phones):
    """Phones that play the cards they are offered (at random) and keep every message their
    seat's websocket received, to see which secrets each seat was shown."""

    def __init__(self, channel: CompanionChannel, players: list[str]) -> None:
        self.players = players
        self.channel = channel
        self.client = httpx.Client(base_url=channel.url, timeout=10)
        self.tokens = {}
        for seat in players:
            body = self.client.post("/api/claim", json={"room": channel.room_code,
                                                        "seat": seat}).json()
            self.tokens[seat] = body["token"]
        self.played = []
        self.received: dict[str, list[dict[str, Any]]] = {p: [] for p in players}
        self.stop = threading.Event()
        self.listening = threading.Event()
        self.errors = []
        self.thread = threading.Thread(target=self.play, daemon=True)
        self.sockets = threading.Thread(target=lambda: asyncio.run(self.listen()), daemon=True)

    def secrets(self) -> dict[str, set[str]]:
        return {seat: {k for m in got if m["type"] == "view"
                       for k in ("role", "message", "key") if m["view"].get(k)}
                for seat, got in self.received.items()}

    async def listen(self) -> None:
        url = self.channel.url.replace("http://", "ws://") + "ws"

        async def one(seat: str) -> None:
            async with websockets.connect(url, max_queue=None) as ws:
                await ws.send(json.dumps({"seat": seat, "token": self.tokens[seat],
                                          "since": 0}))
                await ws.recv()  # hello
                self.received[seat].append(json.loads(await ws.recv()))  # reset
                if all(self.received.values()):
                    self.listening.set()
                while True:
                    try:
                        text = await asyncio.wait_for(ws.recv(), timeout=0.2)
                    except TimeoutError:
                        if self.stop.is_set():
                            return
                        continue
                    self.received[seat].append(json.loads(text))

        try:
            await asyncio.gather(*(one(seat) for seat in self.players))
        except Exception as exc:  # noqa: BLE001 - reported by the test
            self.errors.append(repr(exc))

    def play(self) -> None:
        try:
            while not self.stop.is_set():
                for seat in self.players:
                    view = next((i for i in self.seat(seat)["items"] if i["type"] == "view"),
                                None)
                    if view is None or not view["choices"] or view["sent"]:
                        continue
                    choice = random.choice([c["id"] for c in view["choices"]])
                    answer = self.client.post(
                        f"/api/seat/{seat}/act", json={"choice": choice},
                        headers={"X-Seat-Token": self.tokens[seat]})
                    if answer.status_code == 200:
                        self.played.append((seat, choice))
                time.sleep(0.01)
        except Exception as exc:  # noqa: BLE001 - reported by the test
            self.errors.append(repr(exc))


GAMES: dict[str, dict[str, Any]] = {
    "resistance": {"deal": "host", "lang": "en", "players": PLAYERS, "double_agent": True,
                   "first": None, "votes": "names"},
    "ici-londres": {"deal": "host", "lang": "en", "players": ["Ada", "Ben", "Cleo"],
                    "first": None, "mode": "fragments", "rounds": 3},
    "codenames": {"deal": "host", "lang": "en", "red": ["Ada", "Ben"], "blue": ["Cleo", "Dan"],
                  "first": None, "words": "en", "invalid_clue": "refuse"},
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_plays_to_the_end_with_secrets_only_on_the_phones(
        game: str, tmp_path: Path) -> None:
    seed = 5
    opts = {**GAMES[game], "seed": seed}
    state = new_game(game, opts)
    players = list(state.players)
    channel = CompanionChannel(game, players, host="127.0.0.1", port=0)
    channel.start()
    phones = Watchers(channel, players)
    adapter = make_adapter(game, {**opts, "companion": True}, secret_sink=channel.deliver)
    bots = BotPlayers(adapter, random.Random(seed + 1))
    out = io.StringIO()
    log_path = tmp_path / "log.jsonl"
    log = EventLog(log_path)
    session = Session(adapter=adapter, state=state, rng=random.Random(seed),
                      output=CompanionOutput(TextOutput(out), channel), listener=bots,
                      log=log, game_options=opts, companion=channel,
                      options=SessionOptions(confirm="never", silence_timeout=20))
    bots.session = session
    phones.sockets.start()
    assert phones.listening.wait(20)
    phones.thread.start()
    try:
        stop = session.run(fresh=True)
    finally:
        time.sleep(0.3)  # the last messages reach the sockets
        phones.stop.set()
        phones.thread.join(10)
        phones.sockets.join(10)
        log.close()
        phones.client.close()
        channel.stop()
    assert phones.errors == []
    assert stop is Stop.FINISHED, out.getvalue()[-2000:]
    seen = phones.secrets()
    assert json.loads(log_path.read_text(encoding="utf-8").splitlines()[-1])["event"] \
        == "game_over"
    if game == "resistance":
        assert all(s == {"role"} for s in seen.values())
        assert phones.played  # every mission card came from a phone
    elif game == "codenames":
        assert seen == {"Ada": {"key"}, "Ben": set(), "Cleo": {"key"}, "Dan": set()}
    else:  # each player was Speaker once in 3 rounds and saw their two icons then
        assert seen == {p: {"message"} for p in players}
    # and the table saw none of them
    assert all(k not in json.dumps(channel.table_snapshot()) for k in ('"role"', '"message"',
                                                                       '"key"'))
