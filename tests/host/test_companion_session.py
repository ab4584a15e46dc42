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

from tests.support.companion_phone import page_origin

pytest.importorskip("starlette", reason="the companion extra (starlette) is not installed")
httpx = pytest.importorskip("httpx", reason="httpx (test client) is not installed")
websockets = pytest.importorskip("websockets", reason="websockets is not installed")

pytestmark = pytest.mark.network  # a local server on 127.0.0.x

from tests.support.scripted import game_over_of  # noqa: E402
from voice_host import cli  # noqa: E402
from voice_host.games.ici_londres import IciLondresState  # noqa: E402
from voice_host.games.icons import ICON_NAMES  # noqa: E402
from voice_host.games.resistance import ResistanceState, Role, Setup  # noqa: E402
from voice_host.host.adapters import make_adapter, new_game  # noqa: E402
from voice_host.host.companion import CompanionChannel, CompanionOutput  # noqa: E402
from voice_host.host.companion.hub import seat_audience  # noqa: E402
from voice_host.host.companion.strings import page_text  # noqa: E402
from voice_host.host.core.registry import registration  # noqa: E402
from voice_host.host.core.session import Session, SessionOptions, Stop  # noqa: E402
from voice_host.host.core.store import EventLog  # noqa: E402
from voice_host.host.core.values import Heard, HeardKind, ListenRequest  # noqa: E402,E501
from voice_host.host.io.terminal import ScriptListener, TextOutput  # noqa: E402,E501

PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve"]


def take_seats(client: httpx.Client, channel: CompanionChannel,
               players: list[str]) -> dict[str, str]:
    """Each player claims their seat and taps "That's me"; returns the tokens."""
    tokens = {}
    for seat in players:
        body = client.post("/api/claim", json={"room": channel.room_code, "seat": seat}).json()
        tokens[seat] = body["token"]
    for seat, token in tokens.items():
        assert client.post(f"/api/seat/{seat}/confirm", json={},
                           headers={"X-Seat-Token": token}).status_code == 200
    return tokens


def cards(view: dict[str, Any]) -> list[str]:
    """The mission cards a view offers (votes are said aloud in these games)."""
    return [c["id"] for c in view["choices"] if c["kind"] == "card"]


class Phones:
    """Five players' phones: they claim their seats, read their views and play a card when
    their page offers them (spies sabotage, heroes succeed)."""

    def __init__(self, channel: CompanionChannel) -> None:
        self.channel = channel
        self.client = httpx.Client(
                base_url=channel.url, headers=page_origin(channel.url), timeout=10)
        self.tokens: dict[str, str] = take_seats(self.client, channel, PLAYERS)
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
                    choices = cards(view)
                    self.offered[seat].update(choices)
                    if choices and not view["sent"]:
                        # every team member sees both cards: spies sabotage, heroes succeed
                        spy = view["view"]["role"] == "spy"
                        choice = "sabotage" if spy else "success"
                        answer = self.client.post(
                            f"/api/seat/{seat}/act", json={"choice": choice},
                            headers={"X-Seat-Token": self.tokens[seat]})
                        if answer.status_code != 200:
                            self.errors.append(answer.text)
                        else:
                            self.played.append((seat, choice))
                self.stop.wait(0.03)  # a phone's polling pace; ends at once when stopped
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
                            "double_agent": True, "first": "Ada", "votes": "together",
                            "seed": seed}
    roles = roles_for(seed, opts)
    spy = next(p for p in PLAYERS if roles[p] is Role.SPY)
    heroes = [p for p in PLAYERS if roles[p] is not Role.SPY]

    def team(size: int) -> str:
        members = [p for p in PLAYERS if p == spy or p in heroes[: size - 1]]
        return " and ".join([", ".join(members[:-1]), members[-1]])

    yes = ["Ada: yes", "I vote yes", "approve", "yeah", "yes"]
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
        table = phones.client.post("/api/table", json={"room": channel.room_code}).json()
        phones.client.close()
        channel.stop()

    assert phones.errors == []
    assert stop is Stop.FINISHED
    over = game_over_of([json.loads(line) for line in
                         log_path.read_text(encoding="utf-8").splitlines()])
    assert over["winner"] == ["spies"] and over["scores"] == {"heroes": 0, "spies": 3}
    # every card came from a phone: the spy sabotaged, heroes succeeded; every team member
    # was offered the same two cards, whatever their role
    assert sorted(phones.played).count((spy, "sabotage")) == 3
    assert all(choice == "success" for seat, choice in phones.played if seat != spy)
    assert all(phones.offered[p] == {"success", "sabotage"}
               for p in PLAYERS if phones.offered[p])
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
    started: list[CompanionChannel] = []
    start = CompanionChannel.start

    def start_and_join(channel: CompanionChannel) -> tuple[str, str]:
        # the four players take their seats from their phones as soon as the page is up
        started.append(channel)
        url, room = start(channel)

        def join() -> None:
            with httpx.Client(base_url=url, headers=page_origin(url), timeout=10) as client:
                take_seats(client, channel, list(channel.players))

        threading.Thread(target=join, daemon=True).start()
        return url, room

    monkeypatch.setattr(CompanionChannel, "start", start_and_join)
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
    # each claim was said aloud, then the table confirmed before anything was dealt
    out = captured.out
    assert all(f"HOST: {p} has a phone." in out for p in ("Ada", "Ben", "Cy", "Di"))
    assert out.index("Di has a phone") < out.index("Everyone confirmed their seat") \
        < out.index("Here is the grid")
    assert started and started[0].seats.locked
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
        self.phones: Watchers | None = None
        self.count = 0

    def listen(self, request: ListenRequest) -> Heard:
        assert self.session is not None
        self.count += 1
        if self.count > 3000:
            return Heard(HeardKind.END)
        if request.purpose == "confirm":
            return Heard(HeardKind.SPEECH, text="yes", speaker=request.expected[0])
        speaker, text = registration(self.adapter.game).bots(
            self.adapter, self.session.state, request.prompt,
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
        self.client = httpx.Client(
                base_url=channel.url, headers=page_origin(channel.url), timeout=10)
        self.tokens = take_seats(self.client, channel, players)
        self.played = []
        self.received: dict[str, list[dict[str, Any]]] = {p: [] for p in players}
        self.stop = threading.Event()
        self.listening = threading.Event()
        self.acted = threading.Event()
        """Set when a phone's move was taken (a listening slice ends early on it)."""
        self.arrived = threading.Condition()
        self.errors = []
        self.thread = threading.Thread(target=self.play, daemon=True)
        self.sockets = threading.Thread(target=lambda: asyncio.run(self.listen()), daemon=True)

    def wait_caught_up(self, timeout: float) -> bool:
        """Wait until every seat's socket got the last message its stream has now."""
        targets = {seat: self.channel.hub.last_seq(seat_audience(seat)) for seat in self.players}

        def caught_up() -> bool:
            return all(max((int(m.get("seq", 0)) for m in self.received[seat]), default=0)
                       >= target for seat, target in targets.items())

        with self.arrived:
            return self.arrived.wait_for(caught_up, timeout)

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
                    with self.arrived:
                        self.received[seat].append(json.loads(text))
                        self.arrived.notify_all()

        try:
            await asyncio.gather(*(one(seat) for seat in self.players))
        except Exception as exc:  # noqa: BLE001 - reported by the test
            self.errors.append(repr(exc))

    rng = random.Random(7)

    def choose(self, view: dict[str, Any]) -> str | None:
        """What this phone sends for ``view`` (None: nothing now): a card at random."""
        return self.rng.choice(cards(view)) if cards(view) else None

    def play(self) -> None:
        try:
            while not self.stop.is_set():
                for seat in self.players:
                    view = next((i for i in self.seat(seat)["items"] if i["type"] == "view"),
                                None)
                    choice = None if view is None or view["sent"] else self.choose(view)
                    if choice is None:
                        continue
                    answer = self.client.post(
                        f"/api/seat/{seat}/act", json={"choice": choice},
                        headers={"X-Seat-Token": self.tokens[seat]})
                    if answer.status_code == 200:
                        self.played.append((seat, choice))
                        self.acted.set()
                self.stop.wait(0.01)  # a phone's polling pace; ends at once when stopped
        except Exception as exc:  # noqa: BLE001 - reported by the test
            self.errors.append(repr(exc))


GAMES: dict[str, dict[str, Any]] = {
    "resistance": {"deal": "host", "lang": "en", "players": PLAYERS, "double_agent": True,
                   "first": None, "votes": "together"},
    "ici-londres": {"deal": "host", "lang": "en", "players": ["Ada", "Ben", "Cleo"],
                    "first": None, "mode": "fragments", "rounds": 3},
    "codenames": {"deal": "host", "lang": "en", "red": ["Ada", "Ben"], "blue": ["Cleo", "Dan"],
                  "first": None, "words": "en", "invalid_clue": "refuse"},
}


def play_with_phones(game: str, opts: dict[str, Any], phones_class: type[Watchers],
                     bots_class: type[BotPlayers], log_path: Path, *, lang: str = "en",
                     silence_timeout: float = 20) -> tuple[Stop, Watchers, str,
                                                           CompanionChannel]:
    """A whole game through the Session with the companion page: ``phones_class`` plays on
    the phones (their websockets open first), ``bots_class`` speaks."""
    seed = int(opts["seed"])
    state = new_game(game, opts)
    players = list(state.players)
    channel = CompanionChannel(game, players, host="127.0.0.1", port=0, lang=lang)
    channel.start()
    phones = phones_class(channel, players)
    adapter = make_adapter(game, {**opts, "companion": True}, secret_sink=channel.deliver)
    bots = bots_class(adapter, random.Random(seed + 1))
    bots.phones = phones
    out = io.StringIO()
    log = EventLog(log_path)
    session = Session(adapter=adapter, state=state, rng=random.Random(seed),
                      output=CompanionOutput(TextOutput(out), channel), listener=bots,
                      log=log, game_options=opts, companion=channel,
                      options=SessionOptions(confirm="never", silence_timeout=silence_timeout))
    bots.session = session
    phones.sockets.start()
    assert phones.listening.wait(20)
    phones.thread.start()
    try:
        stop = session.run(fresh=True)
    finally:
        caught_up = phones.wait_caught_up(10)
        phones.stop.set()
        phones.thread.join(10)
        phones.sockets.join(10)
        log.close()
        phones.client.close()
        channel.stop()
    assert caught_up, "the last messages never reached the phones' sockets"
    return stop, phones, out.getvalue(), channel


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_plays_to_the_end_with_secrets_only_on_the_phones(
        game: str, tmp_path: Path) -> None:
    log_path = tmp_path / "log.jsonl"
    stop, phones, said, channel = play_with_phones(game, {**GAMES[game], "seed": 5}, Watchers,
                                                   BotPlayers, log_path)
    players = list(channel.players)
    assert phones.errors == []
    assert stop is Stop.FINISHED, said[-2000:]
    seen = phones.secrets()
    assert game_over_of([json.loads(line) for line in
                         log_path.read_text(encoding="utf-8").splitlines()])
    if game == "resistance":
        assert all(s == {"role"} for s in seen.values())
        assert phones.played  # every mission card came from a phone
    elif game == "codenames":
        assert seen == {"Ada": {"key"}, "Ben": set(), "Cleo": {"key"}, "Dan": set()}
    else:  # each player was Speaker once in 3 rounds and saw their two icons then
        assert seen == {p: {"message"} for p in players}
    # and the table saw none of them; at the end the television's board turns the role
    # cards over (as the players do), and shows nothing else secret
    table = json.loads(json.dumps(channel.table_snapshot()))
    final = next(i for i in table if i["type"] == "view")
    board = final.pop("board")
    assert all(k not in json.dumps(table) for k in ('"role"', '"message"', '"key"'))
    if game == "resistance":
        assert sorted(r["player"] for r in board["roles"]) == sorted(players)
    else:
        assert all(k not in json.dumps(board) for k in ('"role"', '"message"', '"key"'))


# --------------------------------------------------------------------------- phone input


class QuietBots(BotPlayers):
    """Bots that let the phones answer: while the host listens in short slices (because the
    phones may answer too) they stay silent; they speak only for what a phone cannot do
    (a team proposal, a clue, the Speaker's radio message)."""

    listens_in_slices = True
    last_act: float | None = None

    def listen(self, request: ListenRequest) -> Heard:
        if request.purpose == "slice":
            # a slice of listening in which nobody speaks: it ends when a phone's move
            # arrives (or after a short while, for the host to look again)
            assert self.phones is not None
            if self.phones.acted.wait(0.25) or self.last_act is None:
                self.last_act = time.monotonic()
            self.phones.acted.clear()
            # no phone acted for two minutes: the game is stuck; end it (the test fails on
            # its result) rather than wait for ever
            stuck = time.monotonic() - self.last_act > 120
            return Heard(HeardKind.END) if stuck else Heard(HeardKind.SILENCE)
        heard = super().listen(request)
        if self.adapter.narrator.lang == "fr" and request.prompt.phase == "clue":
            # the demo's Codenames bots speak English clues: say this one in French
            word = heard.text.replace(",", " ").replace("the clue is", "").replace(
                "my clue is", "").split()[0]
            return Heard(HeardKind.SPEECH, text=f"indice {word} pour un",
                         speaker=heard.speaker, source="bot")
        return heard


class PhonePlayers(Watchers):
    """Phones that send every choice their page offers: votes, picks, guesses, cards."""

    def choose(self, view: dict[str, Any]) -> str | None:
        if not view["choices"]:
            return None
        choice = self.rng.choice(view["choices"])
        if choice["kind"] == "pick" and 1 not in choice["sizes"]:
            free = [c["id"][5:] for c in view["choices"] if c["kind"] == "pick"]
            return "pick:" + "+".join(self.rng.sample(free, 2))
        if choice["kind"] == "end_turn" and self.rng.random() < 0.8:
            return None  # mostly keep guessing
        return str(choice["id"])


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_plays_to_the_end_with_votes_picks_and_guesses_on_the_phones(
        game: str, lang: str, tmp_path: Path) -> None:
    opts = {**GAMES[game], "seed": 9, "lang": lang}
    if game == "codenames":
        opts["words"] = lang
    log_path = tmp_path / "log.jsonl"
    stop, phones, said, _ = play_with_phones(game, opts, PhonePlayers, QuietBots, log_path,
                                             lang=lang, silence_timeout=600)
    assert phones.errors == []
    assert stop is Stop.FINISHED, said[-2000:]
    kinds = {cid.split(":")[0] for _, cid in phones.played}
    expected = {"resistance": {"vote"}, "ici-londres": {"pick"}, "codenames": {"guess"}}[game]
    assert expected <= kinds, kinds
    events = [json.loads(line) for line in log_path.read_text(encoding="utf-8").splitlines()]
    assert game_over_of(events)
    if lang == "fr":  # the host spoke French about the phones too
        assert "a un téléphone." in said and "has a phone" not in said
        assert "votre page compagnon" in said and "companion page" not in said


class SlowPhones(PhonePlayers):
    """Phones whose players take their time: a choice is sent now and then, so the host
    waits through several silent slices between two votes."""

    def choose(self, view: dict[str, Any]) -> str | None:
        return super().choose(view) if self.rng.random() < 0.1 else None


def test_a_table_voting_on_phones_hears_no_nagging(tmp_path: Path) -> None:
    opts = {**GAMES["resistance"], "seed": 9}
    stop, phones, said, _ = play_with_phones("resistance", opts, SlowPhones, QuietBots,
                                             tmp_path / "log.jsonl", silence_timeout=3)
    assert stop is Stop.FINISHED, said[-2000:]
    assert phones.errors == []
    events = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text(
        encoding="utf-8").splitlines()]
    waits = [e for e in events if e["event"] == "reprompt" and e.get("phones")]
    assert waits, "the phones never kept the host waiting: the test proves nothing"
    assert "I did not hear anything" not in said
    # whom the host waits for, at most once per prompt (between two prompts said)
    assert said.count(": on your phone, or aloud.") + said.count(
        "Still waiting for a card from") == len(waits)
    per_prompt = [0]
    for e in events:
        if e["event"] == "prompt":
            per_prompt.append(0)
        elif e in waits:
            per_prompt[-1] += 1
    assert max(per_prompt) == 1


class EarlyTappers(QuietBots):
    """Quiet bots whose table also taps an icon on every receiver's phone each time the
    Speaker is asked for the coded sentence, before anyone may guess."""

    early: list[tuple[str, int, str, list[str]]]

    def listen(self, request: ListenRequest) -> Heard:
        if request.record and self.phones is not None and self.session is not None:
            state = self.session.state
            assert isinstance(state, IciLondresState)
            free = [i for i in ICON_NAMES if i not in state.named_icons]
            for seat in state.receivers:
                view = next(i for i in self.phones.seat(seat)["items"] if i["type"] == "view")
                answer = self.phones.client.post(
                    f"/api/seat/{seat}/act", json={"choice": f"pick:{free[0]}"},
                    headers={"X-Seat-Token": self.phones.tokens[seat]})
                self.early.append((seat, answer.status_code, answer.json().get("reason", ""),
                                   [c["id"] for c in view["choices"]]))
        return super().listen(request)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_tap_before_the_coded_sentence_is_refused_and_never_scored(
        lang: str, tmp_path: Path) -> None:
    opts = {**GAMES["ici-londres"], "seed": 9, "lang": lang}
    EarlyTappers.early = []
    log_path = tmp_path / "log.jsonl"
    stop, phones, said, _ = play_with_phones("ici-londres", opts, PhonePlayers, EarlyTappers,
                                             log_path, lang=lang, silence_timeout=600)
    assert stop is Stop.FINISHED, said[-2000:]
    early = EarlyTappers.early
    assert len(early) >= 2 * 3  # two receivers in each of the three rounds
    # no icon was offered before the coded sentence, and every early tap was refused with
    # the page's sentence: none was kept, so none could be scored when guessing opened
    assert all(choices == [] for _, _, _, choices in early)
    assert {(code, reason) for _, code, reason, _ in early} == {
        (422, page_text(lang, "refusal.not_now"))}
    assert phones.errors == []


# --------------------------------------------------------------------------- resume


def test_a_resumed_game_keeps_its_room_code_seats_and_address(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    save = tmp_path / "game.json"
    script = tmp_path / "script.txt"
    script.write_text("status\n", encoding="utf-8")
    started: list[CompanionChannel] = []
    tokens: dict[str, str] = {}
    resumed_reads: list[dict[str, Any]] = []
    joining: list[threading.Thread] = []
    start = CompanionChannel.start

    def start_and_join(channel: CompanionChannel) -> tuple[str, str]:
        started.append(channel)
        url, room = start(channel)
        if not joining:  # the first evening: everyone joins
            def join() -> None:
                with httpx.Client(base_url=url, headers=page_origin(url), timeout=10) as client:
                    tokens.update(take_seats(client, channel, PLAYERS))

            joining.append(threading.Thread(target=join, daemon=True))
            joining[0].start()
        else:  # the next one: Ada's phone still has its token and the address
            resumed_reads.append(read_when_shown(url, tokens["Ada"]))
        return url, room

    def read_when_shown(url: str, token: str) -> dict[str, Any]:
        with httpx.Client(base_url=url, headers=page_origin(url), timeout=10) as client:
            return dict(client.get("/api/seat/Ada", headers={"X-Seat-Token": token}).json())

    monkeypatch.setattr(CompanionChannel, "start", start_and_join)
    common = ["--companion", "--companion-host", "127.0.0.1", "--input", "text", "--script",
              str(script), "--output", "text", "--confirm", "never"]
    assert cli.main(["play", "resistance", "--players", ",".join(PLAYERS), "--deal", "host",
                     "--seed", "4", "--save", str(save), "--port", "0", *common]) == 3
    first = capsys.readouterr()
    joining[0].join(10)
    kept = save.with_suffix(".seats")
    assert kept.is_file() and oct(kept.stat().st_mode & 0o777) == "0o600"
    assert tokens["Ada"] not in kept.read_text(encoding="utf-8")  # only digests are kept

    # `voice-host resume` without --port: the same address, room code and seats
    assert cli.main(["resume", str(save), *common]) == 3
    second = capsys.readouterr()
    one, two = started
    assert (two.room_code, two.port, two.url) == (one.room_code, one.port, one.url)
    assert two.seats.locked
    assert resumed_reads[0]["ok"] is True  # the token still holds the seat
    view = next(i for i in two.seat_snapshot("Ada") if i["type"] == "view")["view"]
    assert view["you"] == "Ada" and view["role"]  # shown at once: no new claim, no wait
    assert "The phones keep their seats" in second.out
    assert "has a phone" not in second.out and "has a phone" in first.out


# --------------------------------------------------------------------------- listening


def resistance_session(channel: CompanionChannel, listener: Any, out: io.StringIO,
                       opts: dict[str, Any], *, silence_timeout: float) -> Session:
    """A Resistance session whose players use the companion page of ``channel``."""
    adapter = make_adapter("resistance", {**opts, "companion": True},
                           secret_sink=channel.deliver)
    return Session(adapter=adapter, state=new_game("resistance", opts),
                   rng=random.Random(3), output=CompanionOutput(TextOutput(out), channel),
                   listener=listener, companion=channel, game_options=opts,
                   options=SessionOptions(confirm="never", silence_timeout=silence_timeout))


class Microphone:
    """A listener that can stop early, like the microphone: each short listen takes the
    next line; ``(silence)`` is nobody talking; ``(Ada joins)`` / ``(everyone joins)`` are
    phones taking their seats meanwhile."""

    listens_in_slices = True

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.channel: CompanionChannel | None = None
        self.client: httpx.Client | None = None
        self.purposes: list[str] = []

    def listen(self, request: ListenRequest) -> Heard:
        self.purposes.append(request.purpose)
        assert self.channel is not None and self.client is not None
        if not self.lines:
            return Heard(HeardKind.END)
        line = self.lines.pop(0)
        if line == "(Ada joins)":
            self.tokens = {"Ada": self.client.post("/api/claim", json={
                "room": self.channel.room_code, "seat": "Ada"}).json()["token"]}
            return Heard(HeardKind.SILENCE)
        if line == "(everyone joins)":
            others = [p for p in PLAYERS if p != "Ada"]
            self.tokens.update(take_seats(self.client, self.channel, others))
            assert self.client.post("/api/seat/Ada/confirm", json={}, headers={
                "X-Seat-Token": self.tokens["Ada"]}).status_code == 200
            return Heard(HeardKind.SILENCE)
        if line == "(silence)":
            return Heard(HeardKind.SILENCE)
        return Heard(HeardKind.SPEECH, text=line, source="microphone", spoken=True)

    def close(self) -> None:
        pass


def test_the_host_listens_for_commands_while_it_waits_for_phones() -> None:
    opts: dict[str, Any] = {"deal": "host", "lang": "en", "players": list(PLAYERS),
                            "double_agent": True, "first": "Ada", "votes": "together",
                            "seed": 3}
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
    channel.start()
    mic = Microphone(["(silence)", "help", "(Ada joins)", "move code for Ada", "(silence)",
                      "(everyone joins)", "quit"])
    mic.channel = channel
    mic.client = httpx.Client(base_url=channel.url, headers=page_origin(channel.url), timeout=10)
    out, screen = io.StringIO(), io.StringIO()
    session = resistance_session(channel, mic, out, opts, silence_timeout=20)
    session.screen = screen
    try:
        stop = session.run(fresh=True)
    finally:
        mic.client.close()
        channel.stop()
    said = out.getvalue()
    assert stop is Stop.QUIT
    # while waiting for the phones: help was answered, the claim said aloud
    waiting = said.split("Everyone confirmed their seat")[0]
    assert "I am waiting until every player has taken their seat" in waiting, waiting[-800:]
    assert "Ada has a phone." in waiting
    # the move code was asked for aloud: anyone can say that, so it is not given
    code = str(channel.move_code("Ada"))
    assert code[:3] not in screen.getvalue() and code[:3] not in said
    assert "Move codes are not given out loud" in said
    assert mic.purposes[:6] == ["slice"] * 6  # short listens while waiting for the phones


def test_a_terminal_is_listened_to_in_short_slices() -> None:
    import os

    from voice_host.host.io.terminal import TextListener

    leader, follower = os.openpty()
    with os.fdopen(follower, "r", encoding="utf-8") as stream:
        keyboard = TextListener(stream=stream)
        assert keyboard.listens_in_slices
        request = ListenRequest(grammar=None, grammar_name="x", expected=(), timeout=0.05,
                                purpose="slice")
        assert keyboard.listen(request).kind is HeardKind.SILENCE  # nobody typed
        os.write(leader, b"help\n")
        heard = keyboard.listen(request)
        assert heard.kind is HeardKind.SPEECH and heard.text == "help"
    os.close(leader)
    assert not TextListener(stream=io.StringIO("help\n")).listens_in_slices


def test_with_physical_cards_the_game_does_not_wait_for_phones(tmp_path: Path) -> None:
    opts: dict[str, Any] = {"deal": "table", "lang": "en", "red": ["Ada", "Ben"],
                            "blue": ["Cleo", "Dan"], "first": "red", "words": "en",
                            "invalid_clue": "refuse", "seed": 4}
    state = new_game("codenames", opts)
    channel = CompanionChannel("codenames", state.players, host="127.0.0.1", port=0,
                               wait_for_everyone=False)
    channel.start()
    client = httpx.Client(base_url=channel.url, headers=page_origin(channel.url), timeout=10)
    adapter = make_adapter("codenames", {**opts, "companion": True},
                           secret_sink=channel.deliver)
    guessed: list[str] = []

    class Table:
        """The spymaster speaks; only Ben has a phone, and touches a word on it. The game
        has started, so his new phone asks the host, who asks the table: it says yes."""

        listens_in_slices = True
        ticket = ""

        def listen(self, request: ListenRequest) -> Heard:
            phase = session.state.phase()
            if request.purpose == "confirm":  # "a new phone asks to play for Ben": yes
                return Heard(HeardKind.SPEECH, text="yes")
            if request.purpose == "slice" and phase == "guess" and not self.ticket:
                asked = client.post("/api/claim", json={"room": channel.room_code,
                                                        "seat": "Ben"})
                assert asked.status_code == 202, asked.text  # the seats are locked now
                self.ticket = asked.json()["ticket"]
                return Heard(HeardKind.SILENCE)
            if request.purpose == "slice" and phase == "guess" and not guessed:
                got = client.post("/api/claim", json={"room": channel.room_code, "seat": "Ben",
                                                      "ticket": self.ticket})
                if got.status_code == 202:  # the host has not asked yet
                    return Heard(HeardKind.SILENCE)
                headers = {"X-Seat-Token": got.json()["token"]}
                assert client.post("/api/seat/Ben/act", json={"choice": "guess:x"},
                                   headers=headers).status_code == 422  # not confirmed
                assert client.post("/api/seat/Ben/confirm", json={},
                                   headers=headers).status_code == 200
                word = session.state.uncovered_words()[0]
                answer = client.post("/api/seat/Ben/act", json={"choice": f"guess:{word}"},
                                     headers=headers)
                assert answer.status_code == 200, answer.text
                guessed.append(word)
                return Heard(HeardKind.SILENCE)
            if phase == "clue":
                clue = next(w for w in ("zebra", "ocean", "planet")
                            if w not in session.state.words)
                return Heard(HeardKind.SPEECH, text=f"{clue} one", speaker="Ada")
            return Heard(HeardKind.END)

        def close(self) -> None:
            pass

    out = io.StringIO()
    log_path = tmp_path / "log.jsonl"
    log = EventLog(log_path)
    session = Session(adapter=adapter, state=state, rng=random.Random(4),
                      output=CompanionOutput(TextOutput(out), channel), listener=Table(),
                      log=log, game_options=opts, companion=channel,
                      options=SessionOptions(confirm="never", silence_timeout=20))
    try:
        stop = session.run(fresh=True)
    finally:
        log.close()
        client.close()
        channel.stop()
    assert stop is Stop.INPUT_ENDED
    said = out.getvalue()
    assert "Everyone has a phone" not in said and "Waiting for a phone" not in said
    assert "A new phone asks to play for Ben." in said and "Ben has a phone." in said
    actions = [json.loads(line) for line in log_path.read_text(encoding="utf-8").splitlines()
               if '"action"' in line]
    assert any(a["action"].get("word") == guessed[0] for a in actions), actions[-3:]


def test_a_typed_move_code_shows_on_the_terminal_only_and_is_wiped() -> None:
    from types import SimpleNamespace

    from voice_host.host.companion.news import ALT_SCREEN_OFF, ALT_SCREEN_ON
    from voice_host.host.core.narration import Narrator

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
    channel.seats.claim(channel.room_code, "Ada", client="127.0.0.1")
    code = str(channel.move_code("Ada"))
    said: list[str] = []
    session = SimpleNamespace(
        companion=channel, screen=Terminal(), keyboard=io.StringIO("\n"),
        narrator=Narrator("resistance", "en"), state=SimpleNamespace(players=PLAYERS),
        last_heard=Heard(HeardKind.SPEECH, text="move code for ada", source="keyboard"),
        say_key=lambda key, **fields: said.append(key))
    channel.show_move_code(session, "ada")
    shown = session.screen.getvalue()
    spaced = f"{code[:3]} {code[3:]}"
    # on the alternate screen (no scrollback), wiped when Enter was pressed
    assert shown.index(ALT_SCREEN_ON) < shown.index(spaced) < shown.rindex(ALT_SCREEN_OFF)
    assert said == ["companion.move_code_shown"]
    # said aloud: anyone at the table could say it, so nothing is shown
    for heard, screen in ((Heard(HeardKind.SPEECH, text="move code for ada", spoken=True),
                           Terminal()),
                          (Heard(HeardKind.SPEECH, text="move code for ada"), io.StringIO())):
        said.clear()
        session.last_heard, session.screen = heard, screen
        channel.show_move_code(session, "ada")
        assert code[:3] not in screen.getvalue()
        assert said[0] in ("companion.move_code_typed_only", "companion.move_code_no_screen")


class SeatMoves:
    """A table where a new phone asks for Cleo's seat before the deal: the host asks aloud,
    the table answers ``answer``; then everyone confirms (again) and the host deals."""

    listens_in_slices = True

    def __init__(self, channel: CompanionChannel, answer: str) -> None:
        self.channel = channel
        self.answer = answer
        self.client = httpx.Client(base_url=channel.url, headers=page_origin(channel.url),
                                   timeout=10)
        self.step = 0
        self.tokens: dict[str, str] = {}
        self.ticket = ""
        self.questions = 0
        self.session: Session | None = None
        self.waiting: list[str | None] = []  # the question waiting in the loop, per answer

    def listen(self, request: ListenRequest) -> Heard:
        if request.purpose == "confirm":
            self.questions += 1
            question = self.session.question if self.session is not None else None
            self.waiting.append(question.prompt.key if question is not None else None)
            return Heard(HeardKind.SPEECH, text=self.answer)
        self.step += 1
        room = self.channel.room_code
        if self.step == 1:  # four confirm, Cleo has claimed but not confirmed
            for p in PLAYERS:
                self.tokens[p] = self.client.post("/api/claim", json={
                    "room": room, "seat": p}).json()["token"]
                if p != "Cleo":
                    self.client.post(f"/api/seat/{p}/confirm", json={},
                                     headers={"X-Seat-Token": self.tokens[p]})
        elif self.step == 2:  # a new phone asks for Cleo's seat
            with httpx.Client(base_url=self.channel.url, headers=page_origin(self.channel.url),
                              timeout=10, transport=httpx.HTTPTransport(
                                  local_address="127.0.0.66")) as other:
                asked = other.post("/api/claim", json={"room": room, "seat": "Cleo"})
            assert asked.status_code == 202
            self.ticket = asked.json()["ticket"]
        elif self.step == 3:  # it takes the seat, or is told no
            got = self.client.post("/api/claim", json={"room": room, "seat": "Cleo",
                                                       "ticket": self.ticket})
            if got.status_code == 200:
                self.tokens["Cleo"] = got.json()["token"]
        elif self.step == 4:  # everyone (again) taps That's me
            for p, token in self.tokens.items():
                self.client.post(f"/api/seat/{p}/confirm", json={},
                                 headers={"X-Seat-Token": token})
        elif self.step > 6:
            return Heard(HeardKind.SPEECH, text="stop the game")
        return Heard(HeardKind.SILENCE)

    def close(self) -> None:
        self.client.close()


@pytest.mark.parametrize("answer", ["yes", "no"])
def test_a_new_phone_asking_for_a_seat_is_put_to_the_table(answer: str) -> None:
    opts: dict[str, Any] = {"deal": "host", "lang": "en", "players": list(PLAYERS),
                            "double_agent": True, "first": "Ada", "votes": "together",
                            "seed": 3}
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
    channel.start()
    table = SeatMoves(channel, answer)
    out = io.StringIO()
    session = resistance_session(channel, table, out, opts, silence_timeout=60)
    table.session = session
    try:
        session.run(fresh=True)
    finally:
        table.close()
        channel.stop()
    said = out.getvalue()
    before_deal = said.split("Everyone confirmed their seat")[0]
    assert table.questions == 1
    assert table.waiting == ["companion.asked"]  # answered as a question of the loop
    assert "A new phone asks for Cleo's seat. Cleo, is that new phone yours?" in before_deal
    if answer == "yes":
        assert "Cleo's seat moved to another phone." in before_deal
        assert "everyone checks their phone again: Ada, Ben, Cleo, Dan and Eve" in before_deal
    else:
        assert "Cleo's seat stays where it was." in before_deal
        assert "moved to another phone" not in said
    assert "Everyone confirmed their seat" in said and channel.seats.locked
