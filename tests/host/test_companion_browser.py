"""The companion page end to end in headless Chromium (Debian's chromium and chromedriver,
driven by selenium) against 127.0.0.1: players join (one of them by keyboard only), each
sees only their own secret, mission cards are played and counted, a second browser cannot
read or act for another seat, a reload restores the seat, and every view passes an axe-core
audit with no serious or critical violation.

Needs: ``scripts/setup_companion.sh`` (chromium, chromium-driver, axe-core from npm)."""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the companion extra (starlette) is not installed")
httpx = pytest.importorskip("httpx", reason="httpx (test client) is not installed")
webdriver = pytest.importorskip("selenium.webdriver",
                                reason="selenium is not installed (companion test extra)")

from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from voice_host.games import Deal  # noqa: E402
from voice_host.games.codenames import CodenamesState, Guess  # noqa: E402
from voice_host.games.ici_londres import IciLondresState, Pick  # noqa: E402
from voice_host.games.resistance import (  # noqa: E402
    CastVote,
    MissionResult,
    ProposeTeam,
    ResistanceState,
    Role,
)
from voice_host.host.companion import CompanionChannel  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
AXE = (Path(__file__).resolve().parents[2] / "scripts" / "companion_e2e" / "node_modules"
       / "axe-core" / "axe.min.js")

pytestmark = pytest.mark.skipif(
    not (Path(CHROMIUM).is_file() and Path(CHROMEDRIVER).is_file()),
    reason="Chromium and chromedriver are not installed: run scripts/setup_companion.sh")

PLAYERS = ["Ada", "Ben", "Cy", "Di", "Eve"]
WAIT = 20.0


@pytest.fixture(scope="module")
def browsers() -> Iterator[Callable[[], Any]]:
    """Starts headless Chromium instances on demand (each with its own profile)."""
    started: list[Any] = []
    folders: list[str] = []

    def start() -> Any:
        folder = tempfile.mkdtemp(prefix="vh-chromium-")
        folders.append(folder)
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1000,1200",
                    f"--user-data-dir={folder}"):
            options.add_argument(arg)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        driver.set_script_timeout(30)
        started.append(driver)
        return driver

    yield start
    for driver in started:
        driver.quit()
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


def wait_for(driver: Any, condition: Callable[[Any], Any], what: str) -> Any:
    try:
        return WebDriverWait(driver, WAIT).until(condition)
    except TimeoutException:
        raise AssertionError(f"timed out waiting for {what}; page says: "
                             f"{driver.find_element(By.TAG_NAME, 'body').text[:800]}") from None


def text_of(driver: Any, element_id: str) -> str:
    return str(driver.find_element(By.ID, element_id).text)


def wait_text(driver: Any, element_id: str, needle: str) -> str:
    return str(wait_for(driver, lambda d: needle in text_of(d, element_id)
                        and text_of(d, element_id), f"{needle!r} in #{element_id}"))


def claim_in_browser(driver: Any, channel: CompanionChannel, seat: str) -> None:
    """Claim ``seat`` over HTTP and hand its token to the browser (as the page would keep
    it), then open the seat page."""
    with httpx.Client(base_url=channel.url, timeout=10) as client:
        body = client.post("/api/claim", json={"room": channel.room_code, "seat": seat}).json()
    driver.get(channel.url + "static/companion.css")  # same origin, to write its storage
    driver.execute_script("localStorage.setItem('voice-host-companion', arguments[0]);",
                          json.dumps({"room": channel.room_code, "seat": seat,
                                      "token": body["token"]}))
    driver.get(channel.url)
    wait_text(driver, "title", f"{seat}'s seat")


def axe_violations(driver: Any) -> list[dict[str, Any]]:
    driver.execute_script(AXE.read_text(encoding="utf-8"))
    result: list[dict[str, Any]] = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document).then((r) => done(r.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}))))
          .catch((e) => done([{id: 'axe-error', impact: 'critical', help: String(e)}]));
    """)
    return result


# --------------------------------------------------------------------------- the game


def test_players_join_see_only_their_secret_and_play_mission_cards(browsers: Any) -> None:
    state = ResistanceState.new(PLAYERS, deal=Deal.HOST)
    state.apply(state.setup_action(random.Random(8), first_leader="Ada"))
    spy = next(p for p in PLAYERS if state.role_of(p) is Role.SPY)
    hero = next(p for p in PLAYERS if state.role_of(p) is Role.HERO)
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
    url, room = channel.start()
    try:
        channel.publish(state)
        first, second = browsers(), browsers()

        # the spy scans the QR code (room code in the link) and picks their name
        first.get(channel.join_url())
        wait_for(first, lambda d: d.find_elements(By.CSS_SELECTOR, f"input[value={spy}]"),
                 "the list of seats")
        first.find_element(By.CSS_SELECTOR, f"input[value={spy}]").click()
        first.find_element(By.CSS_SELECTOR, "#seat-form button[type=submit]").click()
        wait_text(first, "secret", "You are a spy")

        # the hero types the room code and chooses their seat with the keyboard only
        second.get(url)
        second.find_element(By.ID, "room").send_keys(room.lower() + Keys.ENTER)
        wait_for(second, lambda d: d.switch_to.active_element.get_attribute("name") == "seat",
                 "focus on the first seat")
        for _ in range(PLAYERS.index(hero)):
            second.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        second.switch_to.active_element.send_keys(Keys.SPACE)
        assert second.switch_to.active_element.get_attribute("value") == hero
        second.switch_to.active_element.send_keys(Keys.TAB)  # the move code field
        second.switch_to.active_element.send_keys(Keys.TAB)  # the button
        second.switch_to.active_element.send_keys(Keys.ENTER)
        wait_text(second, "secret", "You are a hero")

        # each sees only their own secret
        others = [p for p in state.spies() or () if p != spy]
        assert all(p in text_of(first, "secret") for p in others)
        assert "spy" not in text_of(second, "secret").replace("spies", "")
        assert "You are a spy" not in second.page_source
        assert "You are a hero" not in first.page_source

        # a table view in another tab shows public facts only
        first.switch_to.new_window("tab")
        first.get(f"{url}table#{room}")
        wait_text(first, "status", "Mission 1")
        assert "You are" not in text_of(first, "main")
        table_tab = first.current_window_handle
        first.switch_to.window(first.window_handles[0])

        # the leader's team goes on the mission: the pages offer the legal cards only
        state.apply(ProposeTeam("Ada", tuple(p for p in PLAYERS if p in (spy, hero))))
        for p in PLAYERS:
            state.apply(CastVote(p, True))
        channel.publish(state)
        channel.caption("Play your mission cards on your phones.")  # what the host says
        wait_text(second, "log", "Host: Play your mission cards on your phones.")
        wait_for(first, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#choices button")) == 2,
                 "two cards for the spy")
        wait_for(second, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#choices button")) == 1,
                 "one card for the hero")
        assert text_of(second, "choices").strip().endswith("Play success")

        first.find_element(By.CSS_SELECTOR, "[data-choice=sabotage]").click()
        wait_text(first, "choices", "Play sabotage?")
        first.find_element(By.ID, "confirm-yes").click()
        wait_text(first, "choices", "Your choice is sent")
        second.find_element(By.CSS_SELECTOR, "[data-choice=success]").send_keys(Keys.ENTER)
        wait_for(second, lambda d: d.switch_to.active_element.get_attribute("id")
                 == "confirm-question", "focus on the confirmation question")
        second.find_element(By.ID, "confirm-yes").send_keys(Keys.ENTER)
        wait_text(second, "log", "Your card is played face down")

        played = [channel.wait_for_action(WAIT, state) for _ in range(2)]
        events = [e for action in played if action for e in state.apply(action)]
        channel.publish(state)
        result = next(e for e in events if isinstance(e, MissionResult))
        assert result.sabotages == 1 and not result.succeeded

        first.switch_to.window(table_tab)
        wait_text(first, "public", "Mission 1: team of 2, failed (1 sabotage)")
        wait_text(first, "log", "Mission 2")
        first.switch_to.window(first.window_handles[0])

        # the hero's browser cannot read or act for the spy's seat
        attack = second.execute_async_script("""
            const seat = arguments[0];
            const done = arguments[arguments.length - 1];
            (async () => {
              const token = JSON.parse(localStorage.getItem('voice-host-companion')).token;
              const headers = {'X-Seat-Token': token, 'Content-Type': 'application/json'};
              const read = await fetch('/api/seat/' + seat, {headers});
              const act = await fetch('/api/seat/' + seat + '/act',
                  {method: 'POST', headers, body: JSON.stringify({choice: 'sabotage'})});
              const ws = new WebSocket('ws://' + location.host + '/ws');
              ws.onopen = () => ws.send(JSON.stringify({seat: seat, token: token, since: 0}));
              ws.onmessage = (e) => done({read: read.status, act: act.status,
                                          ws: JSON.parse(e.data)});
            })();
        """, spy)
        assert attack["read"] == 403 and attack["act"] == 403
        assert attack["ws"]["type"] == "refused"
        refused = [(r.seat, r.what) for r in channel.seats.refusals]
        assert (spy, "read view") in refused and (spy, "act") in refused
        assert (spy, "open seat") in refused
        assert channel.pending() == 0

        # reloading restores the seat without joining again
        first.refresh()
        wait_text(first, "secret", "You are a spy")
        wait_text(first, "status", "Mission 2")
        for driver in (first, second):  # no script error on any page (refused requests
            errors = [e for e in driver.get_log("browser")  # are expected network errors)
                      if e["level"] == "SEVERE" and e.get("source") != "network"]
            assert errors == []
    finally:
        channel.stop()


# --------------------------------------------------------------------------- accessibility


@pytest.mark.skipif(not AXE.is_file(), reason="axe-core is not installed: run "
                    "scripts/setup_companion.sh (npm install in scripts/companion_e2e)")
def test_every_view_passes_an_axe_audit(browsers: Any) -> None:
    driver = browsers()
    rng = random.Random(4)
    report: dict[str, list[dict[str, Any]]] = {}

    shots = os.environ.get("VOICE_HOST_SCREENSHOTS")

    def audit(name: str) -> None:
        time.sleep(0.2)  # let the last message render
        report[name] = axe_violations(driver)
        if shots:  # to look at the pages: VOICE_HOST_SCREENSHOTS=/some/folder
            driver.save_screenshot(str(Path(shots) / (name.replace(" ", "_").replace(":", "")
                                                      + ".png")))

    channels: list[CompanionChannel] = []
    try:
        # Resistance: the join page, a seat with a card to play and its confirmation, the table
        res = ResistanceState.new(PLAYERS, deal=Deal.HOST)
        res.apply(res.setup_action(rng, first_leader="Ada"))
        res.apply(ProposeTeam("Ada", ("Ada", "Ben")))
        for p in PLAYERS:
            res.apply(CastVote(p, True))
        channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
        channels.append(channel)
        channel.start()
        channel.publish(res)
        channel.caption("Ada and Ben, play your mission cards on your phones.")
        driver.get(channel.url)
        audit("join: room code")
        driver.find_element(By.ID, "room").send_keys(channel.room_code + Keys.ENTER)
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "input[name=seat]"),
                 "the seats")
        audit("join: choose a seat")
        claim_in_browser(driver, channel, "Ada")
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#choices button"),
                 "a card to play")
        audit("resistance seat")
        driver.find_element(By.CSS_SELECTOR, "#choices button").click()
        wait_for(driver, lambda d: d.find_elements(By.ID, "confirm-yes"), "the confirmation")
        audit("resistance seat: confirmation")
        driver.get(f"{channel.url}table#{channel.room_code}")
        wait_text(driver, "status", "Mission 1")
        audit("resistance table")

        # Codenames: the spymaster's key and the table with covered tiles
        cn = CodenamesState.new(["Ada", "Ben", "Cy", "Di"], deal=Deal.HOST, first="red")
        cn.apply(cn.chance_action(rng))
        clue = next(a for a in cn.legal_actions() if type(a).__name__ == "GiveClue")
        cn.apply(clue)
        cn.apply(Guess(cn.current_team, cn.words[0]))
        channel = CompanionChannel("codenames", cn.players, host="127.0.0.1", port=0)
        channels.append(channel)
        channel.start()
        channel.publish(cn)
        claim_in_browser(driver, channel, "Ada")
        wait_text(driver, "secret", "spymaster")
        assert "Assassin:" in text_of(driver, "secret")
        audit("codenames spymaster seat")
        driver.get(f"{channel.url}table#{channel.room_code}")
        wait_text(driver, "public", "covered:")
        audit("codenames table")

        # Ici Londres: the Speaker's icons and the table's icon grid with tried icons
        ici = IciLondresState.new(["Ada", "Ben", "Cy"], deal=Deal.HOST)
        ici.apply(ici.chance_action(rng))
        drawn = ici.player_view(ici.speaker)["message"]
        guesser = ici.current_players()[0]
        ici.apply(Pick(guesser, (drawn[0],)))
        channel = CompanionChannel("ici-londres", ici.players, host="127.0.0.1", port=0)
        channels.append(channel)
        channel.start()
        channel.publish(ici)
        channel.countdown(8)
        claim_in_browser(driver, channel, ici.speaker)
        wait_text(driver, "secret", "Your message")
        assert drawn[1] in text_of(driver, "secret")
        audit("ici londres speaker seat")
        driver.get(f"{channel.url}table#{channel.room_code}")
        wait_text(driver, "public", f"found by {guesser}")
        assert "8 seconds left" in text_of(driver, "countdown")
        assert drawn[1] not in text_of(driver, "status")
        audit("ici londres table")
    finally:
        for channel in channels:
            channel.stop()

    assert len(report) == 9
    serious = {name: [v for v in found if v["impact"] in ("serious", "critical")]
               for name, found in report.items()}
    assert serious == {name: [] for name in report}, json.dumps(serious, indent=1)
    others = {name: [v["id"] for v in found] for name, found in report.items() if found}
    print("axe: minor or moderate findings:", others or "none")
