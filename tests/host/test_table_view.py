"""The television's table view, server side: only the table view opened with the host's
table token is told the room code and the join QR code; a wrong token is refused;
the QR code is an SVG of the join URL; the board's facts at the end of each game; ``--tv``
opens a browser in kiosk mode and prints the ``Table view:`` line."""

from __future__ import annotations

import asyncio
import base64
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support import tv_scenes
from tests.support.companion_phone import page_origin

pytest.importorskip("starlette", reason="the companion extra (starlette) is not installed")
websockets = pytest.importorskip("websockets", reason="websockets is not installed")

from voice_host.host.companion import CompanionChannel, tv  # noqa: E402


def ws_url(channel: CompanionChannel) -> str:
    return channel.url.replace("http://", "ws://") + "ws"


def first_message(channel: CompanionChannel, hello: dict[str, Any]) -> dict[str, Any]:
    async def run() -> dict[str, Any]:
        async with websockets.connect(ws_url(channel),
                                      origin=page_origin(channel.url)["Origin"]) as ws:
            await ws.send(json.dumps({**hello, "since": 0}))
            return dict(json.loads(await asyncio.wait_for(ws.recv(), timeout=20)))

    return asyncio.run(run())


@pytest.fixture
def channel() -> Any:
    state = tv_scenes.fresh("resistance")
    channel = CompanionChannel("resistance", state.players, host="127.0.0.1", port=0)
    channel.start()
    channel.publish(state)
    yield channel
    channel.stop()


@pytest.mark.network
def test_only_the_table_token_gets_the_room_code_and_the_qr_code(channel: Any) -> None:
    assert channel.table_url() == f"{channel.url}table#tv={channel.tv_token}"
    assert len(channel.tv_token) >= 24
    host_screen = first_message(channel, {"table": True, "tv": channel.tv_token})
    assert host_screen["type"] == "hello"
    join = host_screen["join"]
    assert join["room"] == channel.room_code
    assert join["address"] == channel.url
    assert join["join_url"] == f"{channel.url}#{channel.room_code}"  # no typing on the phone
    svg = base64.b64decode(join["qr"].split(",", 1)[1]).decode()
    assert join["qr"].startswith("data:image/svg+xml;base64,") and svg.startswith("<?xml")
    assert svg == tv.qr_svg(join["join_url"])  # the code of the join URL, nothing else
    assert "<script" not in svg

    # a table view opened with the room code sees the board but no join panel
    typed = first_message(channel, {"table": True, "room": channel.room_code})
    assert typed["type"] == "hello" and "join" not in typed

    # a wrong token is refused and recorded; a flood of them neither locks the host's own
    # screen out nor brakes the phones' room codes
    for _ in range(12):
        wrong = first_message(channel, {"table": True, "tv": "x" * 24})
        assert wrong["type"] == "refused" and channel.room_code not in json.dumps(wrong)
    assert ("table token" in {r.what for r in channel.seats.refusals})
    assert channel.seats.brakes.wait("127.0.0.1") == 0
    assert "join" in first_message(channel, {"table": True, "tv": channel.tv_token})


def test_the_qr_code_is_a_single_path_svg_without_pillow() -> None:
    svg = tv.qr_svg("http://192.168.1.20:8765/#ABCDEF")
    assert svg.count("<path") == 1 and 'viewBox="0 0 ' in svg
    assert tv.qr_svg("http://192.168.1.20:8765/#ABCDEG") != svg


@pytest.mark.parametrize("game", sorted(tv_scenes.SCENES))
def test_the_board_facts_are_public_and_given_only_at_the_end(game: str) -> None:
    assert tv.board_facts(game, tv_scenes.scene(game, "board")) == {}
    facts = tv.board_facts(game, tv_scenes.scene(game, "end"))
    text = json.dumps(facts)
    assert '"key"' not in text and '"message"' not in text
    if game == "codenames":  # each clue and the words it uncovered, the assassin last
        assert [t["clue"] for t in facts["turns"]] == ["ocean", "metal", "night"]
        assert facts["turns"][-1]["covered"][-1]["colour"] == "assassin"
    elif game == "resistance":  # every role card turned over
        state = tv_scenes.scene(game, "end")
        assert {r["player"]: r["role"] for r in facts["roles"]} == {
            p: state.role_of(p).value for p in state.players}
    else:  # each round, and only the icons found in it
        assert [r["round"] for r in facts["rounds"]] == [1, 2, 3, 4]
        assert [len(r["found"]) for r in facts["rounds"]] == [2, 0, 1, 1]


def test_tv_opens_a_kiosk_browser_and_stops_it(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "args.json"
    fake = tmp_path / "browser.py"
    fake.write_text("import json, sys, time\n"
                    f"open({str(record)!r}, 'w').write(json.dumps(sys.argv[1:]))\n"
                    "time.sleep(60)\n", encoding="utf-8")
    monkeypatch.setenv(tv.BROWSER_ENV, f"{sys.executable} {fake} --kiosk {{url}}")
    browser = tv.open_kiosk("http://127.0.0.1:8765/table#tv=abc")
    try:
        for _ in range(100):
            if record.is_file() and record.read_text():
                break
            asyncio.run(asyncio.sleep(0.05))
        assert json.loads(record.read_text()) == ["--kiosk", "http://127.0.0.1:8765/table#tv=abc"]
    finally:
        browser.stop()
    assert browser.process.poll() is not None


def test_without_a_browser_tv_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(tv.BROWSER_ENV, raising=False)
    assert tv.kiosk_command("http://x/table", Path("/tmp/p"), which=lambda name: None) is None
    command = tv.kiosk_command("http://x/table", Path("/tmp/p"),
                               which=lambda name: f"/usr/bin/{name}" if name == "firefox"
                               else None)
    assert command == ["/usr/bin/firefox", "--kiosk", "--new-instance", "--profile", "/tmp/p",
                       "http://x/table"]
    monkeypatch.setattr(tv.shutil, "which", lambda name: None)
    with pytest.raises(OSError, match="No browser to show the table view"):
        tv.open_kiosk("http://x/table")


@pytest.mark.network
@pytest.mark.parametrize("lang,line", [("en", "Table view: "), ("fr", "Vue de la table : ")])
def test_play_with_tv_prints_the_table_view_and_opens_it(
        lang: str, line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from voice_host.host.companion.wiring import start_companion
    from voice_host.host.core.config import CompanionConfig, SessionConfig
    from voice_host.host.io.terminal import TextOutput
    from voice_host.host.io.wiring import HostIO

    record = tmp_path / "url.txt"
    fake = tmp_path / "browser.py"
    fake.write_text(f"import sys\nopen({str(record)!r}, 'w').write(sys.argv[-1])\n",
                    encoding="utf-8")
    monkeypatch.setenv(tv.BROWSER_ENV, f"{sys.executable} {fake}")
    state = tv_scenes.fresh("resistance")
    config = SessionConfig(game="resistance", options={"lang": lang, "deal": "host"},
                           companion=CompanionConfig(enabled=True, port=0, bind="127.0.0.1",
                                                     tv=True))
    io = HostIO(output=TextOutput(), listener=None, secret_sink=None)  # type: ignore[arg-type]
    channel = start_companion(config, state, io)
    try:
        shown = capsys.readouterr().err
        assert f"{line}{channel.table_url()}" in shown.splitlines()
        for _ in range(100):
            if record.is_file() and record.read_text():
                break
            asyncio.run(asyncio.sleep(0.05))
        assert record.read_text() == channel.table_url()
    finally:
        io.close()


def test_the_36_icon_files_are_what_scripts_make_icons_draws() -> None:
    import subprocess

    script = Path(__file__).resolve().parents[2] / "scripts" / "make_icons.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    icons = script.parents[1] / "voice_host" / "host" / "companion" / "static" / "icons"
    from voice_host.games.icons import ICON_NAMES

    assert sorted(p.stem for p in icons.glob("*.svg")) == sorted(ICON_NAMES)
    for path in icons.glob("*.svg"):
        text = path.read_text(encoding="utf-8")
        assert 'viewBox="0 0 64 64"' in text and "<script" not in text and "href" not in text


def test_every_word_the_television_uses_exists_in_english_and_french() -> None:
    import re
    import tomllib

    from voice_host.host.companion.strings import _flat

    root = Path(__file__).resolve().parents[2] / "voice_host" / "host"
    tables = {lang: _flat(tomllib.loads((root / "lang" / lang / "tv.toml").read_text(
        encoding="utf-8"))) for lang in ("en", "fr")}
    assert set(tables["en"]) == set(tables["fr"])
    scripts = [root / "companion" / "static" / "table.js",
               *sorted((root / "adapters").glob("*/table.js"))]
    used: set[str] = set()
    for script in scripts:
        text = script.read_text(encoding="utf-8")
        prefix = re.search(r'const w = \(key, params\) => t\("tv\.([\w-]+)\." \+ key', text)
        used |= {k[3:] for k in re.findall(r'\bt\("(tv\.[\w.-]+)"[,)]', text)}
        used |= {f"{k[3:]}_{n}" for k in re.findall(r'\btn\("(tv\.[\w.-]+)"[,)]', text)
                 for n in ("one", "many")}
        if prefix:
            used |= {f"{prefix[1]}.{k}" for k in re.findall(r'\bw\("(\w+)"[,)]', text)}
    # the keys made of a value: teams, colours, roles, reasons, games
    used |= {f"codenames.{k}_{v}" for k, values in (
        ("team", ("red", "blue")), ("covered", ("red", "blue", "neutral", "assassin")))
        for v in values}
    used |= {f"resistance.role_{r}" for r in ("hero", "spy", "double_agent")}
    used |= {f"resistance.reason_{r}" for r in ("three_successes", "three_failures",
                                                "five_rejections", "double_agent_found",
                                                "double_agent_missed")}
    used |= {f"game_{g}" for g in tv_scenes.SCENES}
    assert sorted(used - set(tables["en"])) == []
