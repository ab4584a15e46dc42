"""The companion channel without a browser: seats and tokens, refusals (403, logged), secret
input checked by the engine, private views and lines reaching only their seat, reconnection,
and 10 seats + 2 table views receiving 1000 broadcast events in order."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.companion_phone import page_origin

pytest.importorskip("starlette", reason="the companion extra (starlette) is not installed")
httpx = pytest.importorskip("httpx", reason="httpx (test client) is not installed")
websockets = pytest.importorskip("websockets", reason="websockets is not installed")

pytestmark = pytest.mark.network  # a local server on 127.0.0.x

from voice_host.games import Deal  # noqa: E402
from voice_host.games.codenames import CodenamesState  # noqa: E402
from voice_host.games.ici_londres import IciLondresState  # noqa: E402
from voice_host.games.resistance import (  # noqa: E402
    CastVote,
    MissionResult,
    PlayMissionCard,
    ProposeTeam,
    ResistanceState,
    Role,
)
from voice_host.host.companion import CompanionChannel, CompanionOutput  # noqa: E402
from voice_host.host.core.values import Line, Style  # noqa: E402
from voice_host.host.io.terminal import TextOutput  # noqa: E402

PLAYERS = ["Ada", "Ben", "Cy", "Di", "Eve"]


@pytest.fixture()
def resistance() -> Iterator[tuple[CompanionChannel, ResistanceState, httpx.Client]]:
    state = ResistanceState.new(PLAYERS, deal=Deal.HOST)
    state.apply(state.setup_action(random.Random(5), first_leader="Ada"))
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
    url, _ = channel.start()
    channel.publish(state)
    client = httpx.Client(base_url=url, headers=page_origin(url), timeout=10)
    try:
        yield channel, state, client
    finally:
        client.close()
        channel.stop()
        _SEATED.pop(id(channel), None)


def claim(client: httpx.Client, channel: CompanionChannel, seat: str,
          move_code: str = "") -> httpx.Response:
    return client.post("/api/claim", json={"room": channel.room_code, "seat": seat,
                                           "move_code": move_code})


_SEATED: dict[int, tuple[CompanionChannel, dict[str, str]]] = {}
"""Each seated channel's tokens, by id; the channel is kept beside them, so that a channel
made later never finds the tokens of a collected one that had the same id."""


def seated(client: httpx.Client, channel: CompanionChannel) -> dict[str, str]:
    """Every player claims their seat and taps "That's me"; the host locks the seats (as the
    session does before dealing). Returns each seat's token."""
    if id(channel) not in _SEATED or _SEATED[id(channel)][0] is not channel:
        tokens = {}
        for seat in channel.players:
            response = claim(client, channel, seat)
            assert response.status_code == 200, response.text
            tokens[seat] = str(response.json()["token"])
        for seat, token in tokens.items():
            assert client.post(f"/api/seat/{seat}/confirm", json={},
                               headers={"X-Seat-Token": token}).status_code == 200
        assert channel.seats.all_confirmed()
        channel.lock_seats()
        _SEATED[id(channel)] = (channel, tokens)
    return _SEATED[id(channel)][1]


def token_of(client: httpx.Client, channel: CompanionChannel, seat: str) -> str:
    return seated(client, channel)[seat]


def items_of(items: list[dict[str, Any]]) -> list[str]:
    """The kinds of a snapshot's items, without the seat list every page gets."""
    return [i["type"] for i in items if i["type"] != "seats"]


def to_mission(state: ResistanceState, channel: CompanionChannel,
               team: tuple[str, ...]) -> None:
    state.apply(ProposeTeam(state.leader or "", team))
    for p in PLAYERS:
        state.apply(CastVote(p, True))
    assert state.phase() == "mission"
    channel.publish(state)


def ws_url(channel: CompanionChannel) -> str:
    return channel.url.replace("http://", "ws://") + "ws"


# --------------------------------------------------------------------------- seats


def test_wrong_room_code_is_refused_and_logged(resistance: Any) -> None:
    channel, _, client = resistance
    wrong = "ZZZZZZ" if channel.room_code != "ZZZZZZ" else "YYYYYY"
    response = client.post("/api/room", json={"room": wrong})
    assert response.status_code == 403
    assert "room code" in response.json()["reason"]
    assert channel.seats.refusals[-1].what == "room code"
    ok = client.post("/api/room", json={"room": channel.room_code.lower()})
    assert ok.status_code == 200
    assert [s["name"] for s in ok.json()["seats"]] == PLAYERS


def test_a_token_reads_and_acts_only_for_its_own_seat(resistance: Any) -> None:
    channel, state, client = resistance
    ada = token_of(client, channel, "Ada")
    ben = token_of(client, channel, "Ben")
    to_mission(state, channel, ("Ada", "Ben"))
    mine = client.get("/api/seat/Ada", headers={"X-Seat-Token": ada})
    assert mine.status_code == 200
    view = next(i for i in mine.json()["items"] if i["type"] == "view")["view"]
    assert view["you"] == "Ada" and view["role"] == state.role_of("Ada").value

    before = len(channel.seats.refusals)
    for headers in ({"X-Seat-Token": ben}, {}, {"X-Seat-Token": "forged"}):
        read = client.get("/api/seat/Ada", headers=headers)
        assert read.status_code == 403, headers
        assert "role" not in read.text
        act = client.post("/api/seat/Ada/act", json={"choice": "success"}, headers=headers)
        assert act.status_code == 403
        leave = client.post("/api/seat/Ada/leave", json={}, headers=headers)
        assert leave.status_code == 403
    refusals = channel.seats.refusals[before:]
    assert len(refusals) == 9
    assert {r.seat for r in refusals} == {"Ada"}
    assert {r.what for r in refusals} == {"read view", "act", "leave seat"}
    assert channel.pending() == 0


def test_websocket_without_the_seat_token_is_refused(resistance: Any) -> None:
    channel, _, client = resistance
    ben = token_of(client, channel, "Ben")
    token_of(client, channel, "Ada")

    async def attempt() -> dict[str, Any]:
        async with websockets.connect(
                ws_url(channel), origin=page_origin(channel.url)["Origin"]) as ws:
            await ws.send(json.dumps({"seat": "Ada", "token": ben, "since": 0}))
            message = json.loads(await ws.recv())
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
            return message

    message = asyncio.run(attempt())
    assert message["type"] == "refused"
    assert channel.seats.refusals[-1].what == "open seat"


def test_after_the_lock_a_seat_moves_only_when_the_table_says_yes(
        resistance: Any, caplog: pytest.LogCaptureFixture) -> None:
    channel, _, client = resistance
    first = {"token": token_of(client, channel, "Ada"), "move_code": channel.move_code("Ada")}
    assert first["move_code"] and len(first["move_code"]) == 6
    with caplog.at_level("INFO", logger="voice_host.companion"):
        asked = claim(client, channel, "Ada")
    # a new phone asks: the host will ask the table; nothing of the seat is given yet
    assert asked.status_code == 202 and asked.json()["pending"] is True
    assert first["move_code"] not in asked.text and "token" not in asked.json()
    assert not any(first["move_code"] in r.getMessage() for r in caplog.records)
    request = channel.seats.pending_request()
    assert request is not None and request.seat == "Ada"
    ticket = asked.json()["ticket"]
    wait = client.post("/api/claim", json={"room": channel.room_code, "seat": "Ada",
                                           "ticket": ticket})
    assert wait.status_code == 202  # not answered yet
    assert client.get("/api/seat/Ada", headers={"X-Seat-Token": first["token"]}
                      ).status_code == 200  # the owner still holds it

    async def old_device_is_told() -> tuple[dict[str, Any], dict[str, Any]]:
        async with websockets.connect(ws_url(channel),
                                      origin=page_origin(channel.url)["Origin"]) as ws:
            await ws.send(json.dumps({"seat": "Ada", "token": first["token"], "since": 0}))
            hello = json.loads(await ws.recv())
            assert hello["type"] == "hello"
            json.loads(await ws.recv())  # the reset with the current view
            await asyncio.to_thread(channel.seats.answer, "Ada", True)  # the table said yes
            moved = await asyncio.to_thread(
                client.post, "/api/claim",
                json={"room": channel.room_code, "seat": "Ada", "ticket": ticket})
            assert moved.status_code == 200, moved.text
            farewell = json.loads(await ws.recv())
            while farewell["type"] == "seats":  # the seat list changed first
                farewell = json.loads(await ws.recv())
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
            return moved.json(), farewell

    second, farewell = asyncio.run(old_device_is_told())
    assert farewell["type"] == "moved"
    assert second["replaced"] is True and second["token"] != first["token"]
    assert second["move_code"] == channel.move_code("Ada")
    old = client.get("/api/seat/Ada", headers={"X-Seat-Token": first["token"]})
    assert old.status_code == 403
    new = client.get("/api/seat/Ada", headers={"X-Seat-Token": second["token"]})
    assert new.status_code == 200
    # after the lock even the right move code only asks the table
    code = channel.move_code("Ada")
    again = claim(client, channel, "Ada", str(code))
    assert again.status_code == 202
    channel.seats.answer("Ada", False)
    said_no = client.post("/api/claim", json={"room": channel.room_code, "seat": "Ada",
                                              "ticket": again.json()["ticket"]})
    assert said_no.status_code == 403 and said_no.json()["key"] == "table_said_no"
    assert client.get("/api/seat/Ada", headers={"X-Seat-Token": second["token"]}
                      ).status_code == 200
    wrong = "000000" if code != "000000" else "111111"
    assert claim(client, channel, "Ada", wrong).status_code == 403


def test_before_the_lock_a_move_code_moves_a_seat_and_everyone_confirms_again() -> None:
    state = ResistanceState.new(PLAYERS, deal=Deal.HOST)
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
    url, _ = channel.start()
    try:
        with httpx.Client(base_url=url, headers=page_origin(url), timeout=10) as client:
            tokens = {p: claim(client, channel, p).json()["token"] for p in PLAYERS}
            for p in PLAYERS[:3]:
                client.post(f"/api/seat/{p}/confirm", json={},
                            headers={"X-Seat-Token": tokens[p]})
            moved = claim(client, channel, "Di", str(channel.move_code("Di")))
            assert moved.status_code == 200 and moved.json()["replaced"] is True
            assert not any(s.confirmed for s in channel.seats.seats())
            assert not channel.try_lock_seats()
    finally:
        channel.stop()
    del state


def test_leaving_frees_the_seat_before_the_deal_only(resistance: Any) -> None:
    channel, _, client = resistance
    token = claim(client, channel, "Cy").json()["token"]
    assert client.post("/api/seat/Cy/leave", json={},
                       headers={"X-Seat-Token": token}).status_code == 200
    assert client.get("/api/seat/Cy", headers={"X-Seat-Token": token}).status_code == 403
    again = claim(client, channel, "Cy")
    assert again.status_code == 200
    client.post("/api/seat/Cy/leave", json={}, headers={"X-Seat-Token": again.json()["token"]})
    # once the seats are locked, a seat left behind is given only on the table's yes
    token = token_of(client, channel, "Di")
    assert client.post("/api/seat/Di/leave", json={},
                       headers={"X-Seat-Token": token}).status_code == 200
    asked = claim(client, channel, "Di")
    assert asked.status_code == 202
    channel.seats.answer("Di", True)
    got = client.post("/api/claim", json={"room": channel.room_code, "seat": "Di",
                                          "ticket": asked.json()["ticket"]})
    assert got.status_code == 200 and got.json()["token"]


def test_guessing_codes_is_slowed_down(resistance: Any) -> None:
    channel, _, client = resistance
    wrong = "ZZZZZZ" if channel.room_code != "ZZZZZZ" else "YYYYYY"
    statuses = [client.post("/api/room", json={"room": wrong}).status_code for _ in range(7)]
    assert statuses[:6] == [403] * 6 and statuses[6] == 429
    # this address waits now, even with the right code
    assert client.post("/api/room", json={"room": channel.room_code}).status_code == 429


def test_unknown_seat_and_bad_requests_get_a_sentence(resistance: Any) -> None:
    channel, _, client = resistance
    nobody = claim(client, channel, "Zed")
    assert nobody.status_code == 404 and "Nobody" in nobody.json()["reason"]
    json_type = {"Content-Type": "application/json"}
    huge = client.post("/api/claim", content=b"{" + b" " * 5000 + b"}", headers=json_type)
    assert huge.status_code == 413
    garbage = client.post("/api/claim", content=b"not json", headers=json_type)
    assert garbage.status_code == 400
    assert "understood" in garbage.json()["reason"]


def test_security_headers_and_pages_are_served(resistance: Any) -> None:
    _, _, client = resistance
    for path in ("/", "/table", "/static/companion.js", "/static/companion.css"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["x-frame-options"] == "DENY"
    assert "<main" in client.get("/").text and "role=\"log\"" in client.get("/table").text


def test_the_server_listens_only_on_the_chosen_address(resistance: Any) -> None:
    channel, _, _ = resistance
    with socket.create_connection(("127.0.0.1", channel.port), timeout=5):
        pass
    # 127.0.0.2 is this machine too, but not the address the server was bound to
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.2", channel.port), timeout=5).close()


def test_the_port_in_use_is_a_plain_sentence() -> None:
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    try:
        channel = CompanionChannel("resistance", PLAYERS, port=busy.getsockname()[1])
        with pytest.raises(OSError, match="--port"):
            channel.start()
    finally:
        busy.close()


# --------------------------------------------------------------------------- secret input


def test_secret_cards_are_checked_by_the_engine_and_counted(resistance: Any) -> None:
    channel, state, client = resistance
    spies = state.spies() or ()
    spy = spies[0]
    hero = next(p for p in PLAYERS if state.role_of(p) is not Role.SPY)
    outsider = next(p for p in PLAYERS if p not in (spy, hero))
    tokens = {p: token_of(client, channel, p) for p in (spy, hero, outsider)}
    to_mission(state, channel, tuple(p for p in PLAYERS if p in (spy, hero)))

    def act(seat: str, choice: str) -> httpx.Response:
        return client.post(f"/api/seat/{seat}/act", json={"choice": choice},
                           headers={"X-Seat-Token": tokens[seat]})

    # every team member is offered the same two cards, whatever their role: the page's
    # buttons (ids, words, questions) and the view's padded size tell no hero from a spy
    views, sizes = {}, {}
    for seat in (hero, spy):
        got = client.get(f"/api/seat/{seat}", headers={"X-Seat-Token": tokens[seat]})
        views[seat] = next(i for i in got.json()["items"] if i["type"] == "view")
        sizes[seat] = len(got.content)
    assert [c["id"] for c in views[hero]["choices"]] == ["success", "sabotage"]
    assert views[hero]["choices"] == views[spy]["choices"]
    assert sizes[hero] == sizes[spy]

    refused = act(hero, "sabotage")
    assert refused.status_code == 422
    assert refused.json()["reason"] == "Heroes can only play success."
    off_team = act(outsider, "success")
    assert off_team.status_code == 422 and "not on the team" in off_team.json()["reason"]
    assert act(spy, "launch missiles").status_code == 422
    assert channel.private_turn(state) == tuple(p for p in PLAYERS if p in (spy, hero))

    assert act(spy, "sabotage").status_code == 200
    twice = act(spy, "success")
    assert twice.status_code == 422 and "already played" in twice.json()["reason"]
    assert act(hero, "success").status_code == 200

    actions = channel.take_actions(state)
    assert actions == [PlayMissionCard(spy, True), PlayMissionCard(hero, False)]
    events = [e for a in actions for e in state.apply(a)]
    channel.publish(state)
    result = next(e for e in events if isinstance(e, MissionResult))
    assert result.sabotages == 1 and not result.succeeded
    table = client.post("/api/table", json={"room": channel.room_code}).json()
    view = next(i for i in table["items"] if i["type"] == "view")["view"]
    assert view["missions"][0]["sabotages"] == 1
    assert "role" not in view and "roles" not in json.dumps(view)
    assert channel.take_actions(state) == []


def test_a_queued_card_that_no_longer_fits_is_dropped_privately(resistance: Any) -> None:
    channel, state, client = resistance
    token = token_of(client, channel, "Ada")
    saved = state.to_json()
    to_mission(state, channel, ("Ada", "Ben"))
    assert client.post("/api/seat/Ada/act", json={"choice": "success"},
                       headers={"X-Seat-Token": token}).status_code == 200
    # the host undoes the vote before taking the card
    state = ResistanceState.from_json(saved)
    channel.publish(state)
    assert channel.take_actions(state) == []


def test_wait_for_action_wakes_when_a_card_arrives(resistance: Any) -> None:
    channel, state, client = resistance
    token = token_of(client, channel, "Ada")
    to_mission(state, channel, ("Ada", "Ben"))
    assert channel.wait_for_action(0.05, state) is None
    timer = threading.Timer(0.2, lambda: client.post(
        "/api/seat/Ada/act", json={"choice": "success"}, headers={"X-Seat-Token": token}))
    timer.start()
    action = channel.wait_for_action(10, state)
    timer.join()
    assert action == PlayMissionCard("Ada", False)


# --------------------------------------------------------------------------- streams


async def _read_until(ws: Any, predicate: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=20))
        out.append(message)
        if predicate(message):
            return out


def test_private_lines_reach_only_their_player_and_survive_reconnection(resistance: Any) -> None:
    channel, state, client = resistance
    tokens = {p: token_of(client, channel, p) for p in ("Ada", "Ben")}
    channel.deliver(Line("Ada, you are the one.", style=Style.PRIVATE, to="Ada"))
    channel.caption("Everyone hears this.")

    async def run() -> dict[str, list[dict[str, Any]]]:
        got: dict[str, list[dict[str, Any]]] = {}
        for seat in ("Ada", "Ben"):
            async with websockets.connect(
                    ws_url(channel), origin=page_origin(channel.url)["Origin"]) as ws:
                await ws.send(json.dumps({"seat": seat, "token": tokens[seat], "since": 0}))
                got[seat] = await _read_until(ws, lambda m: m["type"] == "reset")
        async with websockets.connect(
                ws_url(channel), origin=page_origin(channel.url)["Origin"]) as ws:
            await ws.send(json.dumps({"table": True, "room": channel.room_code, "since": 0}))
            got["table"] = await _read_until(ws, lambda m: m["type"] == "reset")
        return got

    got = asyncio.run(run())

    def kept(audience: str) -> list[dict[str, Any]]:
        return [i for i in got[audience][-1]["items"] if i["type"] != "seats"]

    ada_reset = kept("Ada")
    assert [i["type"] for i in ada_reset] == ["view", "private"]
    assert ada_reset[1]["text"] == "Ada, you are the one."
    assert ada_reset[0]["view"] == state.player_view("Ada")
    assert "Ada, you are" not in json.dumps(got["Ben"]) + json.dumps(got["table"])
    assert kept("Ben")[0]["view"] == state.player_view("Ben")
    assert kept("table")[0]["view"] == state.public_view()


def test_a_reconnecting_page_gets_exactly_what_it_missed(resistance: Any) -> None:
    channel, state, client = resistance
    token = token_of(client, channel, "Ada")

    async def run() -> tuple[int, list[dict[str, Any]]]:
        async with websockets.connect(
                ws_url(channel), origin=page_origin(channel.url)["Origin"]) as ws:
            await ws.send(json.dumps({"seat": "Ada", "token": token, "since": 0}))
            reset = (await _read_until(ws, lambda m: m["type"] == "reset"))[-1]
        for i in range(3):
            channel.caption(f"missed {i}")
        async with websockets.connect(
                ws_url(channel), origin=page_origin(channel.url)["Origin"]) as ws:
            await ws.send(json.dumps({"seat": "Ada", "token": token, "since": reset["seq"]}))
            again = await _read_until(ws, lambda m: m.get("text") == "missed 2")
        return reset["seq"], again

    seq, again = asyncio.run(run())
    assert again[0]["type"] == "hello"
    assert [m["text"] for m in again[1:]] == ["missed 0", "missed 1", "missed 2"]
    assert [m["seq"] for m in again[1:]] == [seq + 1, seq + 2, seq + 3]


def test_views_hold_only_each_players_own_secrets_in_every_game() -> None:
    rng = random.Random(11)
    games: list[tuple[str, Any]] = [
        ("resistance", ResistanceState.new(PLAYERS, deal=Deal.HOST)),
        ("ici-londres", IciLondresState.new(["Ada", "Ben", "Cy"], deal=Deal.HOST)),
        ("codenames", CodenamesState.new(["Ada", "Ben", "Cy", "Di"], deal=Deal.HOST)),
    ]
    for game, state in games:
        state.apply(state.chance_action(rng))
        channel = CompanionChannel(game, state.players, host="127.0.0.1", port=0)
        channel.start()
        try:
            channel.publish(state)
            with httpx.Client(
                    base_url=channel.url, headers=page_origin(channel.url), timeout=10) as client:
                public = client.post("/api/table", json={"room": channel.room_code}).json()
                table_view = next(i for i in public["items"] if i["type"] == "view")["view"]
                assert table_view == state.public_view()
                for seat in state.players:
                    token = token_of(client, channel, seat)
                    channel.publish(state)
                    body = client.get(f"/api/seat/{seat}", headers={"X-Seat-Token": token})
                    view = next(i for i in body.json()["items"] if i["type"] == "view")["view"]
                    assert view == state.player_view(seat), (game, seat)
        finally:
            channel.stop()
    # and the secrets are where the engines put them
    _, res = games[0]
    spy = (res.spies() or ())[0]
    assert res.player_view(spy)["known_spies"] == list(res.spies() or ())
    _, ici = games[1]
    assert "message" in ici.player_view(ici.speaker)
    assert all("message" not in ici.player_view(p) for p in ici.receivers)
    _, cn = games[2]
    assert "key" in cn.player_view("Ada") and "key" not in cn.player_view("Ben")


def test_ten_seats_and_two_tables_get_1000_events_in_order() -> None:
    names = [f"P{i}" for i in range(10)]
    rng = random.Random(3)

    def fresh() -> CodenamesState:
        state = CodenamesState.new(names, deal=Deal.HOST)
        state.apply(state.chance_action(rng))
        return state

    state = fresh()
    channel = CompanionChannel("codenames", names, host="127.0.0.1", port=0)
    channel.start()
    with httpx.Client(base_url=channel.url, headers=page_origin(channel.url), timeout=10) as client:
        tokens = {n: token_of(client, channel, n) for n in names}
    expected: dict[str, list[dict[str, Any]]] = {a: [] for a in [*names, "table1", "table2"]}
    done = "end of broadcast"

    def broadcast() -> None:
        nonlocal state
        for i in range(1000):
            if i % 10 == 0:
                state = fresh() if state.is_terminal() else state
                state.apply(state.random_action(rng))
                channel.publish(state)
                public = {"type": "view", "view": state.public_view()}
                expected["table1"].append(public)
                expected["table2"].append(public)
                for n in names:
                    expected[n].append({"type": "view", "view": state.player_view(n)})
            else:
                channel.caption(f"event {i}")
                for audience in expected.values():
                    audience.append({"type": "caption", "text": f"event {i}"})
        channel.caption(done)

    async def client_of(first: dict[str, Any], ready: asyncio.Event,
                        count: list[int]) -> list[dict[str, Any]]:
        async with websockets.connect(
                ws_url(channel), origin=page_origin(channel.url)["Origin"], max_queue=None) as ws:
            await ws.send(json.dumps({**first, "since": 0}))
            got = await _read_until(ws, lambda m: m["type"] == "reset")
            count[0] += 1
            if count[0] == 12:
                ready.set()
            got = await _read_until(ws, lambda m: m.get("text") == done)
            return got

    async def run() -> list[list[dict[str, Any]]]:
        ready = asyncio.Event()
        count = [0]
        firsts = [{"seat": n, "token": tokens[n]} for n in names]
        firsts += [{"table": True, "room": channel.room_code}] * 2
        tasks = [asyncio.create_task(client_of(f, ready, count)) for f in firsts]
        await asyncio.wait_for(ready.wait(), timeout=30)
        sender = asyncio.create_task(asyncio.to_thread(broadcast))
        results = await asyncio.gather(*tasks)
        await sender
        return list(results)

    try:
        results = asyncio.run(run())
    finally:
        channel.stop()
    for audience, got in zip([*names, "table1", "table2"], results, strict=True):
        seqs = [m["seq"] for m in got]
        assert seqs == list(range(seqs[0], seqs[0] + len(got))), audience  # none lost
        assert len(got) == 1001
        simplified = [{"type": m["type"], "view": m["view"]} if m["type"] == "view"
                      else {"type": m["type"], "text": m["text"]} for m in got[:-1]]
        assert simplified == expected[audience], audience  # in order, right content
        if audience.startswith("P") and audience not in ("P0", "P5"):
            assert not any("key" in m.get("view", {}) for m in got), audience


# --------------------------------------------------------------------------- host output


def test_companion_output_sends_secrets_to_pages_and_captions_everything(
        resistance: Any) -> None:
    channel, _, _ = resistance
    import io

    printed = io.StringIO()
    files: list[Line] = []
    seated(httpx.Client(
            base_url=channel.url, headers=page_origin(channel.url), timeout=10), channel)
    output = CompanionOutput(TextOutput(printed, private_sink=files.append), channel)
    output.emit([Line("Mission one begins."),
                 Line("Ada, you are a spy.", style=Style.PRIVATE, to="Ada")])
    output.tick(7)
    assert "Mission one begins." in printed.getvalue()
    assert "spy" not in printed.getvalue() and files == []
    ada = channel.seat_snapshot("Ada")
    assert items_of(ada) == ["view", "private", "countdown"]
    assert channel.seat_snapshot("Ben")[-1] == {"type": "countdown", "remaining": 7,
                                                "seq": channel.hub.last_seq("seat:Ben")}
    assert all(i["type"] != "private" for i in channel.seat_snapshot("Ben"))


def test_the_qr_code_is_drawn(resistance: Any) -> None:
    channel, _, _ = resistance
    assert channel.join_url().endswith("#" + channel.room_code)
    qr = channel.qr_text().splitlines()
    assert len(qr) > 10 and len({len(line) for line in qr if line}) == 1


def test_a_move_clears_the_countdown_on_every_page(resistance: Any) -> None:
    channel, state, _ = resistance
    channel.countdown(3)
    clock = [i for i in channel.table_snapshot() if i["type"] == "countdown"]
    assert clock[0]["remaining"] == 3
    channel.publish(state)
    for items in (channel.table_snapshot(), channel.seat_snapshot("Eve")):
        clock = [i for i in items if i["type"] == "countdown"]
        assert clock[0]["remaining"] is None


def test_phones_send_votes_picks_answers_and_guesses_checked_by_the_engine() -> None:
    from voice_host.games.codenames import EndTurn, Guess
    from voice_host.games.ici_londres import JudgePick, Pick

    rng = random.Random(6)
    # Resistance: a vote, once per player
    res = ResistanceState.new(PLAYERS, deal=Deal.HOST)
    res.apply(res.setup_action(rng, first_leader="Ada"))
    res.apply(ProposeTeam("Ada", ("Ada", "Ben")))
    # Ici Londres with physical cards: a receiver names an icon, the Speaker answers
    ici = IciLondresState.new(["Ada", "Ben", "Cy"], deal=Deal.TABLE)
    ici.apply(ici.chance_action(rng))
    picker = ici.current_players()[0]
    # Codenames: an operative of the team whose turn it is touches a word
    cn = CodenamesState.new(["Ada", "Ben", "Cy", "Di"], deal=Deal.HOST, first="red")
    cn.apply(cn.chance_action(rng))
    cn.apply(next(a for a in cn.legal_actions() if type(a).__name__ == "GiveClue"))
    for game, state, lang in (("resistance", res, "en"), ("ici-londres", ici, "fr"),
                              ("codenames", cn, "en")):
        channel = CompanionChannel(game, state.players, host="127.0.0.1", port=0, lang=lang)
        channel.start()
        try:
            channel.publish(state)
            with httpx.Client(
                    base_url=channel.url, headers=page_origin(channel.url), timeout=10) as client:
                tokens = seated(client, channel)

                def act(seat: str, choice: str, tokens: dict[str, str] = tokens
                        ) -> httpx.Response:
                    return client.post(f"/api/seat/{seat}/act", json={"choice": choice},
                                       headers={"X-Seat-Token": tokens[seat]})

                def offered(seat: str, tokens: dict[str, str] = tokens) -> list[str]:
                    items = client.get(f"/api/seat/{seat}",
                                       headers={"X-Seat-Token": tokens[seat]}).json()["items"]
                    return [c["id"] for c in next(i for i in items if i["type"] == "view")
                            ["choices"]]

                if game == "resistance":
                    assert offered("Cy") == ["vote:yes", "vote:no"]
                    assert act("Cy", "vote:no").status_code == 200
                    assert act("Cy", "vote:yes").status_code == 422  # once only
                    assert channel.take_actions(state) == [CastVote("Cy", False)]
                elif game == "ici-londres":
                    assert len([c for c in offered(picker) if c.startswith("pick:")]) == 36
                    assert act(picker, "pick:heart+heart").status_code == 422
                    assert act(picker, "pick:nonsense").status_code == 422
                    assert act(picker, "pick:heart").status_code == 200
                    pick = channel.take_actions(state)
                    assert pick == [Pick(picker, ("heart",))]
                    state.apply(pick[0])
                    channel.publish(state)
                    speaker = state.speaker
                    assert offered(speaker) == ["answer:hit", "answer:miss"]
                    view = client.get(f"/api/seat/{speaker}", headers={
                        "X-Seat-Token": tokens[speaker]}).json()
                    confirm = [c["confirm"] for i in view["items"] if i["type"] == "view"
                               for c in i["choices"]]
                    assert "cœur" in confirm[0]  # in French, with the French icon name
                    wrong = act(picker, "answer:hit")  # not the Speaker: the engine says so
                    assert wrong.status_code == 422
                    assert f"Seul {speaker}, le Speaker" in wrong.json()["reason"]
                    assert act(speaker, "answer:miss").status_code == 200
                    assert channel.take_actions(state) == [JudgePick(speaker, "heart", False)]
                else:
                    team = state.current_team
                    operative = state.operatives(team)[0]
                    spymaster = state.spymaster(team)
                    word = state.uncovered_words()[0]
                    assert f"guess:{word}" in offered(operative)
                    assert offered(spymaster) == []
                    assert act(spymaster, f"guess:{word}").status_code == 422
                    assert act(operative, "guess:notaword").status_code == 422
                    assert act(operative, "end_turn").status_code == 422  # guess first
                    assert act(operative, f"guess:{word.upper()}").status_code == 200
                    assert channel.take_actions(state) == [Guess(operative, word.upper())]
                    assert EndTurn(operative) not in state.legal_actions()
        finally:
            channel.stop()


def test_a_phone_input_the_rules_refuse_gets_the_sessions_sentence_in_french() -> None:
    """The page says a refusal with the host's own function: in a French game, the second
    vote of a player is refused in French, as the host would say it aloud."""
    from voice_host.host.core.narration import Narrator

    rng = random.Random(6)
    state = ResistanceState.new(PLAYERS, deal=Deal.HOST)
    state.apply(state.setup_action(rng, first_leader="Ada"))
    state.apply(ProposeTeam("Ada", ("Ada", "Ben")))
    channel = CompanionChannel("resistance", state.players, host="127.0.0.1", port=0,
                               lang="fr")
    channel.start()
    try:
        channel.publish(state)
        with httpx.Client(
                base_url=channel.url, headers=page_origin(channel.url), timeout=10) as client:
            tokens = seated(client, channel)

            def act(choice: str) -> httpx.Response:
                return client.post("/api/seat/Cy/act", json={"choice": choice},
                                   headers={"X-Seat-Token": tokens["Cy"]})

            assert act("vote:no").status_code == 200
            refused = act("vote:yes")
            assert refused.status_code == 422
            french = Narrator("resistance", "fr").text("resistance.refusal.already_voted",
                                                       player="Cy")
            assert refused.json()["reason"] == french == "Cy, vous avez déjà voté."
    finally:
        channel.stop()
