"""Attacks on the companion page that hold its connections open, replayed against 127.0.0.x
only and refused, with a real phone still served. Every loop is bounded in count and time
and stops by itself; each test prints its figure (run with -s to see them); nothing asserts
a duration."""

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

from voice_host.games import Deal  # noqa: E402
from voice_host.games.resistance import ResistanceState  # noqa: E402
from voice_host.host.companion import CompanionChannel, server, transport  # noqa: E402
from voice_host.host.companion.news import SeatNews  # noqa: E402
from voice_host.host.companion.seats import ROOM_CODE_LENGTH  # noqa: E402

pytestmark = pytest.mark.network

PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve"]
PHONE = "127.0.0.50"
"""The real phone of each attack (another address of the same /24 as the attackers)."""


@pytest.fixture()
def channel() -> Iterator[CompanionChannel]:
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
    channel.start()
    try:
        yield channel
    finally:
        channel.stop()


def device(channel: CompanionChannel, source: str) -> httpx.Client:
    return httpx.Client(base_url=channel.url, headers=page_origin(channel.url), timeout=10,
                        transport=httpx.HTTPTransport(local_address=source))


def claim(client: httpx.Client, channel: CompanionChannel, seat: str, **extra: str
          ) -> httpx.Response:
    return client.post("/api/claim", json={"room": channel.room_code, "seat": seat, **extra})


def confirm(client: httpx.Client, seat: str, token: str) -> httpx.Response:
    return client.post(f"/api/seat/{seat}/confirm", json={}, headers={"X-Seat-Token": token})


def dealt(channel: CompanionChannel) -> ResistanceState:
    state = ResistanceState.new(PLAYERS, deal=Deal.HOST, double_agent=True)
    state.apply(state.setup_action(random.Random(5), first_leader="Ada"))
    channel.publish(state)
    return state


def four_confirmed_and_cleo_claimed(channel: CompanionChannel) -> dict[str, str]:
    tokens = {}
    for i, seat in enumerate(PLAYERS):
        with device(channel, f"127.0.0.{20 + i}") as phone:
            tokens[seat] = claim(phone, channel, seat).json()["token"]
            if seat != "Cleo":
                assert confirm(phone, seat, tokens[seat]).status_code == 200
    return tokens


# --------------------------------------------------------------------------- seat theft


def test_the_seat_theft_race_is_refused_and_the_deal_waits(channel: CompanionChannel) -> None:
    tokens = four_confirmed_and_cleo_claimed(channel)
    with device(channel, "127.0.0.66") as thief:
        taken = claim(thief, channel, "Cleo")
        stolen_confirm = confirm(thief, "Cleo", taken.json().get("token", "x"))
    print(f"theft: claim -> {taken.status_code} (before: 200 replaced), confirm -> "
          f"{stolen_confirm.status_code} (before: 200)")
    assert taken.status_code == 202 and "token" not in taken.json()
    assert stolen_confirm.status_code == 403
    assert not channel.try_lock_seats()  # the host does not deal: Cleo has not confirmed
    assert channel.seats.pending_request() is not None  # the host asks the table
    channel.seats.answer("Cleo", False)  # "no"
    with device(channel, "127.0.0.66") as thief:
        answer = claim(thief, channel, "Cleo", ticket=taken.json()["ticket"])
        assert answer.status_code == 403 and answer.json()["key"] == "table_said_no"
        assert claim(thief, channel, "Cleo").status_code == 403  # not asked again soon
    with device(channel, "127.0.0.22") as cleo:
        assert confirm(cleo, "Cleo", tokens["Cleo"]).status_code == 200
    assert channel.try_lock_seats()


def test_a_thief_polling_every_100_ms_never_gets_the_seat_back(
        channel: CompanionChannel) -> None:
    four_confirmed_and_cleo_claimed(channel)
    stop = threading.Event()
    started = threading.Event()
    statuses: list[int] = []

    def thief() -> None:
        with device(channel, "127.0.0.66") as phone:
            for i in range(30):  # 30 tries, 100 ms apart: about 3 s
                if stop.wait(0.1):
                    return
                phone.post("/api/room", json={"room": channel.room_code})
                statuses.append(claim(phone, channel, "Cleo").status_code)
                if i == 4:
                    started.set()
        started.set()

    polling = threading.Thread(target=thief)
    polling.start()
    started.wait(10)
    try:
        # Cleo's recovery: her new phone takes the seat with the code her old one shows
        with device(channel, "127.0.0.80") as new_phone:
            for _ in range(2):
                code = str(channel.move_code("Cleo"))
                moved = claim(new_phone, channel, "Cleo", move_code=code)
                assert moved.status_code == 200, moved.text
                token = moved.json()["token"]
                assert confirm(new_phone, "Cleo", token).status_code == 200
    finally:
        polling.join(10)
        stop.set()
    print(f"thief polling every 100 ms: {len(statuses)} tries, "
          f"{statuses.count(200)} seats taken (before: 2 in 2 tries)")
    assert statuses and 200 not in statuses
    assert channel.seats.holder(token) == "Cleo"
    # the move cleared everyone's confirmation: the deal waits until all confirm again
    assert [s.name for s in channel.seats.seats() if s.confirmed] == ["Cleo"]


def test_a_claim_with_a_stale_or_another_seats_token_is_refused(
        channel: CompanionChannel) -> None:
    with device(channel, PHONE) as phone:
        ada = claim(phone, channel, "Ada").json()["token"]
        other = phone.post("/api/claim", json={"room": channel.room_code, "seat": "Ben"},
                           headers={"X-Seat-Token": ada})
        assert other.status_code == 409 and other.json()["key"] == "other_seat"
        same = phone.post("/api/claim", json={"room": channel.room_code, "seat": "Ada"},
                          headers={"X-Seat-Token": ada})
        assert same.status_code == 200 and same.json()["token"] == ada  # already its own
        phone.post("/api/seat/Ada/leave", json={}, headers={"X-Seat-Token": ada})
        stale = phone.post("/api/claim", json={"room": channel.room_code, "seat": "Ben"},
                           headers={"X-Seat-Token": ada})
        assert stale.status_code == 409 and stale.json()["key"] == "stale_token"
        assert not any(s.claimed for s in channel.seats.seats())


def test_with_physical_cards_the_seats_lock_once_the_game_starts() -> None:
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0,
                               wait_for_everyone=False)
    channel.start()
    try:
        state = ResistanceState.new(PLAYERS, deal=Deal.TABLE)
        channel.publish(state)
        channel.game_started()
        with device(channel, "127.0.0.66") as thief:
            asked = claim(thief, channel, "Dan")
            print(f"--deal table, mid-game claim of Dan: {asked.status_code} "
                  "(before: 200, and the vote counted)")
            assert asked.status_code == 202
            acted = thief.post("/api/seat/Dan/act", json={"choice": "vote:no"},
                               headers={"X-Seat-Token": asked.json().get("token", "x")})
            assert acted.status_code == 403
    finally:
        channel.stop()


# --------------------------------------------------------------------------- availability


def test_silent_websockets_from_two_addresses_leave_a_phone_served(
        channel: CompanionChannel) -> None:
    tokens = four_confirmed_and_cleo_claimed(channel)
    url = channel.url.replace("http://", "ws://") + "ws"
    origin = page_origin(channel.url)["Origin"]

    async def attack() -> tuple[int, str, int]:
        silent = []
        for source in ("127.0.0.2", "127.0.0.3"):
            for _ in range(32):
                try:
                    silent.append(await websockets.connect(
                        url, origin=origin, open_timeout=5,
                        local_addr=(source, 0)))  # type: ignore[arg-type]
                except (OSError, websockets.InvalidStatus, websockets.InvalidHandshake):
                    pass
        async with websockets.connect(url, origin=origin, local_addr=(PHONE, 0)) as ws:
            await ws.send(json.dumps({"seat": "Ada", "token": tokens["Ada"], "since": 0}))
            hello = json.loads(await asyncio.wait_for(ws.recv(), 10))["type"]
        closed = 0
        for ws in silent:  # each is told and closed after a few seconds of saying nothing
            try:
                for _ in range(3):
                    await asyncio.wait_for(ws.recv(), 20)
            except websockets.ConnectionClosed:
                closed += 1
            except TimeoutError:
                pass
            await ws.close()
        return len(silent), hello, closed

    opened, hello, closed = asyncio.run(attack())
    print(f"64 silent websockets tried from 2 addresses: {opened} held at once, {closed} "
          f"closed by the server ({server.FIRST_MESSAGE_TIMEOUT:.0f} s of silence); the phone "
          f"got {hello!r} (before: 403)")
    assert hello == "hello" and closed == opened


def test_slow_headers_after_a_first_request_are_cut_and_a_phone_is_served(
        channel: CompanionChannel, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transport, "HEAD_TIMEOUT", 1.0)
    tokens = four_confirmed_and_cleo_claimed(channel)
    channel.lock_seats()
    dealt(channel)
    first = (f"GET /api/strings HTTP/1.1\r\nHost: 127.0.0.1:{channel.port}\r\n\r\n").encode()
    drips = []
    for i in range(210):  # 30 connections from each of 7 addresses
        sock = socket.socket()
        sock.settimeout(5)
        try:
            sock.bind((f"127.0.0.{2 + i % 7}", 0))
            sock.connect(("127.0.0.1", channel.port))
            sock.sendall(first)
            # the first answer (or the server closing it): the server has taken this
            # connection in before the next one, so the phone below comes after all of them
            if not sock.recv(65536):
                raise ConnectionResetError
            sock.sendall(b"GET /api/strings HTTP/1.1\r\nX-Slow: 1\r\n")  # then nothing
            drips.append(sock)
        except OSError:
            sock.close()
    with device(channel, PHONE) as ada:
        status = ada.get("/api/seat/Ada", headers={"X-Seat-Token": tokens["Ada"]}).status_code
    cut = 0
    for sock in drips[:20]:  # one more header line every 0.5 s: cut all the same
        for _ in range(12):  # at most 6 s
            try:
                sock.sendall(b"X-More: 1\r\n")
                if sock.recv(65536) == b"" or threading.Event().wait(0.5):
                    break
            except OSError:
                break
        else:
            continue
        cut += 1
    for sock in drips:
        sock.close()
    print(f"210 slow connections from 7 addresses: {len(drips)} connected, Ada's view "
          f"{status} (before: 503); {cut}/20 dripping connections cut")
    assert status == 200 and cut == 20


def test_table_views_held_by_others_leave_the_hosts_own_table_view(
        channel: CompanionChannel) -> None:
    url = channel.url.replace("http://", "ws://") + "ws"
    origin = page_origin(channel.url)["Origin"]
    first = json.dumps({"table": True, "room": channel.room_code, "since": 0})

    async def attack() -> tuple[int, str]:
        held = []
        for i in range(12):
            ws = await websockets.connect(url, origin=origin,
                                          local_addr=(f"127.0.0.{2 + i // 2}", 0))
            await ws.send(first)
            if json.loads(await ws.recv())["type"] == "hello":
                held.append(ws)
            else:
                await ws.close()
        async with websockets.connect(url, origin=origin) as tv:  # the host's own machine
            await tv.send(first)
            kind = json.loads(await asyncio.wait_for(tv.recv(), 10))["type"]
        for ws in held:
            await ws.close()
        return len(held), kind

    held, kind = asyncio.run(attack())
    print(f"table views: others hold {held}, the host's own table view gets {kind!r} "
          "(before: locked out by 8)")
    assert kind == "hello" and held <= 8


# --------------------------------------------------------------------------- voice flooding


def test_claim_and_leave_pairs_are_rate_limited_and_said_in_few_sentences(
        channel: CompanionChannel, tmp_path: Any) -> None:
    from voice_host.host.companion.wiring import SeatsFile, keep_seats_in

    seats_file = SeatsFile(tmp_path / "game.seats")
    keep_seats_in(channel, seats_file)
    with device(channel, PHONE) as ada:  # a confirmation sent twice changes nothing
        token = claim(ada, channel, "Ada").json()["token"]
        confirm(ada, "Ada", token)
        before = seats_file.writes
        confirm(ada, "Ada", token)
        assert seats_file.writes == before
    channel.take_seat_events()
    writes = seats_file.writes
    granted = 0
    with device(channel, "127.0.0.66") as flooder:
        for _ in range(100):
            got = claim(flooder, channel, "Eve")
            if got.status_code != 200:
                continue
            granted += 1
            flooder.post("/api/seat/Eve/leave", json={},
                         headers={"X-Seat-Token": got.json()["token"]})
    events = channel.take_seat_events()
    now = [0.0]
    news = SeatNews(clock=lambda: now[0])
    sentences = 0
    for event in events:  # the events as they came, 6 ms apart (0.59 s for 100 pairs)
        news.add([event])
        sentences += len(news.due()[0])
        now[0] += 0.006
    now[0] += 10
    sentences += len(news.due()[0])
    writes = seats_file.writes - writes
    print(f"100 claim-and-leave pairs: {granted} claims granted, {len(events)} seat events, "
          f"{sentences} sentences, {writes} writes of the seats file "
          "(before: 200 sentences, 200 writes)")
    assert granted <= 6 and sentences <= 2 and writes <= 2 * granted


def test_wrong_move_codes_from_40_addresses_make_few_warnings(
        channel: CompanionChannel) -> None:
    four_confirmed_and_cleo_claimed(channel)
    channel.take_seat_events()  # the claims, said before the attack
    clients = [device(channel, f"127.0.1.{i + 1}") for i in range(40)]
    try:
        for i in range(200):
            claim(clients[i % 40], channel, "Ada", move_code=f"{i:06d}")
    finally:
        for client in clients:
            client.close()
    events = channel.take_seat_events()
    news = SeatNews(clock=lambda: 0.0)
    news.add(events)
    said = news.due()[0]
    rotated = [e for e in events if e.kind == "rotated"]
    print(f"200 wrong move codes from 40 addresses: code replaced {len(rotated)} times, "
          f"{len(said)} sentence(s) (before: 14 warnings)")
    assert len(said) <= 2


# --------------------------------------------------------------------------- sizes


def test_every_roles_view_has_the_same_size_at_each_step(channel: CompanionChannel) -> None:
    tokens = four_confirmed_and_cleo_claimed(channel)
    with device(channel, "127.0.0.22") as cleo:
        assert confirm(cleo, "Cleo", tokens["Cleo"]).status_code == 200
    assert channel.try_lock_seats()
    state = dealt(channel)
    roles = {p: state.player_view(p).get("role") for p in PLAYERS}
    steps = []
    for _ in range(6):
        sizes = {}
        for seat in PLAYERS:
            stream = channel.hub._streams[f"seat:{seat}"]
            views = [t for _, t in stream.backlog if '"type": "view"' in t]
            sizes[seat] = len(views[-1].encode())
        steps.append(sizes)
        if state.is_terminal() or state.is_chance_node():
            break
        state.apply(state.random_action(random.Random(len(steps))))
        channel.publish(state)
    http = set()
    for seat in PLAYERS:  # a page that reloads reads its view over HTTP: one size too
        with device(channel, PHONE) as phone:
            http.add(len(phone.get(f"/api/seat/{seat}",
                                   headers={"X-Seat-Token": tokens[seat]}).content))
    print(f"roles {sorted(set(map(str, roles.values())))}: view sizes per step "
          f"{[sorted(set(s.values())) for s in steps]}, over HTTP {sorted(http)} "
          "(before: 677 / 753 / 758-759)")
    assert len(set(roles.values())) >= 2
    assert all(len(set(sizes.values())) == 1 for sizes in steps) and len(http) == 1


def test_private_lines_and_card_answers_have_one_size(channel: CompanionChannel) -> None:
    sizes = set()
    for seat, text in (("Ada", "Ada, you are a hero."),
                       ("Ben", "Ben, you are a spy. The spies are Ben and Cleo.")):
        from voice_host.host.core.values import Line, Style

        channel.deliver(Line(text=text, style=Style.PRIVATE, to=seat))
        stream = channel.hub._streams[f"seat:{seat}"]
        sizes.add(len(stream.backlog[-1][1].encode()))
    print(f"private lines of a hero and a spy: sizes {sorted(sizes)}")
    assert len(sizes) == 1


# --------------------------------------------------------------------------- cross-site


def test_foreign_pages_cannot_lock_a_phone_out(channel: CompanionChannel) -> None:
    wrong = "Z" * ROOM_CODE_LENGTH if channel.room_code != "Z" * ROOM_CODE_LENGTH else "Y" * 6
    with httpx.Client(base_url=channel.url, timeout=10,
                      transport=httpx.HTTPTransport(local_address=PHONE)) as browser:
        image = browser.get(f"/api/table?room={wrong}")  # the old <img> attack
        statuses = [browser.post("/api/room", json={"room": wrong}).status_code
                    for _ in range(10)]  # no Origin
        foreign = [browser.post("/api/room", json={"room": wrong}, headers={
            "Origin": page_origin(channel.url)["Origin"], "Sec-Fetch-Site": "cross-site"}
        ).status_code for _ in range(10)]
    with device(channel, PHONE) as phone:
        mine = phone.post("/api/room", json={"room": channel.room_code}).status_code
    print(f"20 foreign wrong codes from the phone's address: {sorted(set(statuses + foreign))}"
          f", then the phone's right code -> {mine} (before: 429 for up to 900 s)")
    assert image.status_code == 405 and set(statuses + foreign) == {403}
    assert channel.seats.brakes.failures(PHONE) == 0 and mine == 200


def test_guesses_from_many_networks_brake_the_guessers_only(
        channel: CompanionChannel) -> None:
    now = [1000.0]
    channel.seats.clock = lambda: now[0]
    wrong = "Z" * ROOM_CODE_LENGTH if channel.room_code != "Z" * ROOM_CODE_LENGTH else "Y" * 6
    keys: list[str] = []
    for _round in range(3):  # three guesses from each of 250 addresses of 250 networks
        for i in range(250):
            try:
                channel.seats.check_room(wrong, client=f"10.{i}.0.1")
            except Exception as exc:  # noqa: BLE001 - counted below
                keys.append(getattr(exc, "key", ""))
            now[0] += 0.001
    compared = keys.count("wrong_room")
    print(f"250 networks, 3 guesses each in {now[0] - 1000:.0f} s: {compared} compared, "
          f"{keys.count('address_braked')} braked; a new phone's right code then works")
    assert channel.seats.brakes.flooding() and keys.count("address_braked") >= 250
    channel.seats.check_room(channel.room_code, client="10.250.0.1")  # a new phone: no wait
    channel.seats.check_room(channel.room_code, client="127.0.0.1")  # the host's own machine


# --------------------------------------------------------------------------- small items


def test_small_items_names_keys_and_the_log(tmp_path: Any, capsys: Any) -> None:
    from voice_host.games.base import GameDescription, SetupError, check_player_names
    from voice_host.host.companion.refusal_log import safe
    from voice_host.host.companion.wiring import check_key_file
    from voice_host.host.io.wiring import WiringError

    spec = GameDescription(name="t", title="T", min_players=2, max_players=5)
    for names in (["Ada", "Ada\u3164"], ["Ada", "\u0301\u0301"], ["Ada", "ADÁ"]):
        with pytest.raises(SetupError) as refused:
            check_player_names(names, spec)
        assert "\u3164" not in refused.value.reason
    with pytest.raises(SetupError) as escaped:
        check_player_names(["Ada", "Ben\x1b]0;PWNED\x07\x1b[2J"], spec)
    assert "\x1b" not in escaped.value.reason and "\x07" not in escaped.value.reason
    assert "\x1b" not in SetupError("setup.first_speaker", speaker="Ada\x1b[2J").reason
    key = tmp_path / "key.pem"
    key.write_text("x", encoding="utf-8")
    key.chmod(0o644)
    check_key_file(key)
    assert "can read the private key" in capsys.readouterr().err
    key.chmod(0o666)
    with pytest.raises(WiringError):
        check_key_file(key)
    assert safe("C:\\games\\x") == "C:\\games\\x"  # backslashes stay as they are
