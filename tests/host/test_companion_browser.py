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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.companion_phone import AXE, axe_violations, page_origin

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
from voice_host.games.icons import ICON_NAMES  # noqa: E402
from voice_host.games.resistance import (  # noqa: E402
    CastVote,
    MissionResult,
    ProposeTeam,
    ResistanceState,
    Role,
)
from voice_host.host.companion import CompanionChannel, server  # noqa: E402
from voice_host.host.core.values import Line, Style  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

pytestmark = [pytest.mark.browser, pytest.mark.network, pytest.mark.skipif(
    not (Path(CHROMIUM).is_file() and Path(CHROMEDRIVER).is_file()),
    reason="Chromium and chromedriver are not installed: run scripts/setup_companion.sh")]

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


def claim_over_http(channel: CompanionChannel, seat: str, *, confirm: bool = True) -> str:
    """A player who joins from another phone (claims ``seat``, taps "That's me")."""
    with httpx.Client(base_url=channel.url, headers=page_origin(channel.url),
                      timeout=10) as client:
        body = client.post("/api/claim", json={"room": channel.room_code, "seat": seat}).json()
        if confirm:
            assert client.post(f"/api/seat/{seat}/confirm", json={},
                               headers={"X-Seat-Token": body["token"]}).status_code == 200
    return str(body["token"])


def seat_table(channel: CompanionChannel, state: Any) -> dict[str, str]:
    """Everyone else takes a seat and confirms; the host locks the seats (as the session
    does before it deals) and publishes the game. Returns the new seats' tokens."""
    tokens = {}
    for seat in channel.players:
        if not any(s.name == seat and s.claimed for s in channel.seats.seats()):
            tokens[seat] = claim_over_http(channel, seat)
    assert channel.seats.all_confirmed()
    channel.lock_seats()
    channel.publish(state)
    return tokens


def claim_in_browser(driver: Any, channel: CompanionChannel, seat: str,
                     token: str | None = None) -> None:
    """Hand ``seat``'s token to the browser (as the page would keep it), then open the seat
    page."""
    token = token or claim_over_http(channel, seat)
    driver.get(channel.url + "static/companion.css")  # same origin, to write its storage
    driver.execute_script("localStorage.setItem('voice-host-companion', arguments[0]);",
                          json.dumps({"room": channel.room_code, "seat": seat,
                                      "token": token}))
    driver.get(channel.url)
    wait_for(driver, lambda d: seat in text_of(d, "title"), f"{seat}'s seat")


def visible_text(driver: Any) -> str:
    return str(driver.find_element(By.TAG_NAME, "body").text)


# --------------------------------------------------------------------------- the game


SHOTS = os.environ.get("VOICE_HOST_SCREENSHOTS")


def shot(driver: Any, name: str) -> None:
    """To look at the pages as a person would: VOICE_HOST_SCREENSHOTS=/some/folder."""
    if SHOTS:
        driver.save_screenshot(str(Path(SHOTS) / (name.replace(" ", "_").replace(":", "")
                                                  + ".png")))


def test_players_claim_confirm_and_then_see_only_their_secret(
        browsers: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    state = ResistanceState.new(PLAYERS, deal=Deal.HOST)
    state.apply(state.setup_action(random.Random(8), first_leader="Ada"))
    spy = next(p for p in PLAYERS if state.role_of(p) is Role.SPY)
    hero = next(p for p in PLAYERS if state.role_of(p) is Role.HERO)
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
    url, room = channel.start()
    try:
        channel.publish(state)  # a resumed game: the roles exist, but no page shows them yet
        first, second = browsers(), browsers()

        # the spy scans the QR code (room code in the link) and picks their name
        first.get(channel.join_url())
        wait_for(first, lambda d: d.find_elements(By.CSS_SELECTOR, f"input[value={spy}]"),
                 "the list of seats")
        assert not first.find_element(By.ID, "move-code").is_displayed()  # no code needed
        first.find_element(By.CSS_SELECTOR, f"input[value={spy}]").click()
        first.find_element(By.CSS_SELECTOR, "#seat-form button[type=submit]").click()
        wait_text(first, "waiting", f"This phone shows {spy}'s seat")
        wait_text(first, "waiting", "Nothing secret is shown")
        shot(first, "seat waiting for phones")

        # the hero types the room code and chooses their seat with the keyboard only
        second.get(url)
        second.find_element(By.ID, "room").send_keys(room.lower() + Keys.ENTER)
        wait_for(second, lambda d: d.switch_to.active_element.get_attribute("name") == "seat",
                 "focus on the first seat")
        for _ in range(PLAYERS.index(hero)):
            second.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        second.switch_to.active_element.send_keys(Keys.SPACE)
        assert second.switch_to.active_element.get_attribute("value") == hero
        second.switch_to.active_element.send_keys(Keys.TAB)  # the button
        second.switch_to.active_element.send_keys(Keys.ENTER)
        wait_text(second, "waiting", f"This phone shows {hero}'s seat")
        # the claims show on the other pages
        wait_text(first, "seats-box", hero)

        # the rest of the table joins; each phone asks "is this your name?"
        for p in PLAYERS:
            if p not in (spy, hero):
                claim_over_http(channel, p)
        for driver in (first, second):
            wait_for(driver, lambda d: d.find_elements(By.ID, "thats-me"), "That's me")
        shot(second, "seat is this your name")
        for driver in (first, second):  # still nothing secret anywhere
            assert "You are a" not in driver.page_source
            assert "spy" not in visible_text(driver).replace("spies", "")
        first.find_element(By.ID, "thats-me").click()
        wait_text(first, "waiting", "You confirmed")
        assert not channel.seats.all_confirmed()
        second.find_element(By.ID, "thats-me").send_keys(Keys.ENTER)
        wait_for(second, lambda d: channel.seats.all_confirmed(), "every seat confirmed")
        channel.lock_seats()  # what the session does once every seat is confirmed
        wait_text(first, "secret", "You are a spy")
        wait_text(second, "secret", "You are a hero")
        shot(first, "seat secret")

        # each sees only their own secret
        others = [p for p in state.spies() or () if p != spy]
        assert all(p in text_of(first, "secret") for p in others)
        assert "spy" not in text_of(second, "secret").replace("spies", "")
        assert "You are a spy" not in second.page_source
        assert "You are a hero" not in first.page_source
        # private lines are not in a live region: a screen reader does not say them aloud
        channel.deliver(Line(f"{spy}, you are a spy.", style=Style.PRIVATE, to=spy))
        wait_text(first, "private-log", f"{spy}, you are a spy.")
        live = first.execute_script(
            "return [...document.querySelectorAll('[aria-live=polite],[aria-live=assertive],"
            "[role=log],[role=status],[role=alert]')].map(e => e.textContent).join(' ');")
        assert "you are a spy" not in live and "You are a spy" not in live
        assert first.find_element(By.ID, "act-error").get_attribute("role") is None
        first.find_element(By.ID, "speak-secrets").click()  # with headphones on
        assert first.find_element(By.ID, "private-log").get_attribute("aria-live") == "polite"
        assert first.find_element(By.ID, "act-error").get_attribute("role") == "alert"
        first.find_element(By.ID, "speak-secrets").click()

        # a table view in another tab shows public facts only
        first.switch_to.new_window("tab")
        first.get(f"{url}table#{room}")
        wait_text(first, "status", "Mission 1")
        assert "You are" not in text_of(first, "main")
        wait_text(first, "public", "Leader")  # the television's board
        table_tab = first.current_window_handle
        first.switch_to.window(first.window_handles[0])

        # the vote: taken on the phones (or aloud)
        state.apply(ProposeTeam("Ada", tuple(p for p in PLAYERS if p in (spy, hero))))
        channel.publish(state)
        wait_for(second, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-choice='vote:yes']"),
                 "the vote buttons")
        second.find_element(By.CSS_SELECTOR, "[data-choice='vote:no']").click()
        wait_text(second, "choices", "Vote no on this team?")
        second.find_element(By.ID, "confirm-yes").click()
        vote = channel.wait_for_action(WAIT, state)
        assert vote == CastVote(hero, False)
        state.apply(vote)
        for p in PLAYERS:
            if p != hero:
                state.apply(CastVote(p, True))
        channel.publish(state)
        channel.caption("Play your mission cards on your phones.")  # what the host says
        wait_text(second, "log", "Host: Play your mission cards on your phones.")
        # the same two cards, in the same words, on the spy's and the hero's phones
        for driver, who in ((first, "spy"), (second, "hero")):
            wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR,
                                                           "#choices button")) == 2,
                     f"two cards for the {who}")
        assert text_of(first, "act") == text_of(second, "act")

        # the card requests: one size for every choice (the spy's sabotage, the hero's success)
        card_sizes: list[int] = []
        original_body = server.read_body

        async def recording(request: Any) -> Any:
            if request.url.path.endswith("/act"):
                card_sizes.append(int(request.headers.get("content-length", "0")))
            return await original_body(request)

        monkeypatch.setattr(server, "read_body", recording)
        # "Hide my secret" hides the role, the cards (how many), the question, the code
        first.find_element(By.CSS_SELECTOR, "[data-choice=sabotage]").click()
        wait_text(first, "choices", "Play sabotage?")
        first.find_element(By.ID, "hide-secret").click()
        shown = visible_text(first)
        code = str(channel.move_code(spy))
        for secret in ("spy", "sabotage", "Play success", code[:3] + " " + code[3:]):
            assert secret not in shown.replace("spies", ""), secret
        assert first.find_element(By.ID, "hide-secret").get_attribute("aria-expanded") \
            == "false"
        shot(first, "seat secret hidden")
        first.find_element(By.ID, "hide-secret").click()
        wait_text(first, "choices", "Play sabotage?")
        first.find_element(By.ID, "confirm-yes").click()
        wait_text(first, "choices", "Sent")
        # a hero who taps sabotage is told, on their own page only, what the rules say
        second.find_element(By.CSS_SELECTOR, "[data-choice=sabotage]").click()
        second.find_element(By.ID, "confirm-yes").click()
        wait_text(second, "act-error", "Heroes can only play success.")
        assert "Heroes can only" not in visible_text(first)
        second.find_element(By.CSS_SELECTOR, "[data-choice=success]").send_keys(Keys.ENTER)
        wait_for(second, lambda d: d.switch_to.active_element.get_attribute("id")
                 == "confirm-question", "focus on the confirmation question")
        second.find_element(By.ID, "confirm-yes").send_keys(Keys.ENTER)
        wait_text(second, "private-log", "Your card is played face down")

        played = [channel.wait_for_action(WAIT, state) for _ in range(2)]
        print(f"card requests (sabotage, refused sabotage, success): {card_sizes} bytes")
        assert len(card_sizes) == 3 and len(set(card_sizes)) == 1
        events = [e for action in played if action for e in state.apply(action)]
        channel.publish(state)
        result = next(e for e in events if isinstance(e, MissionResult))
        assert result.sabotages == 1 and not result.succeeded

        first.switch_to.window(table_tab)
        wait_text(first, "public", "1 sabotage")
        assert first.find_element(By.CSS_SELECTOR, ".rs-mission.failure .rs-disc").text == "✗"
        wait_text(first, "status", "Mission 2")
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


def test_a_french_game_has_french_pages(browsers: Any) -> None:
    driver = browsers()
    cn = CodenamesState.new(["Ada", "Ben", "Cy", "Di"], deal=Deal.HOST, first="red",
                            words="fr")
    cn.apply(cn.chance_action(random.Random(2)))
    channel = CompanionChannel("codenames", cn.players, host="127.0.0.1", port=0, lang="fr")
    channel.start()
    try:
        channel.publish(cn)
        driver.get(channel.url)
        wait_text(driver, "join", "Rejoindre la partie")
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "fr"
        assert "Room code" not in visible_text(driver)
        driver.find_element(By.ID, "room").send_keys(
            "ZZZZZZ" if channel.room_code != "ZZZZZZ" else "YYYYYY", Keys.ENTER)
        wait_text(driver, "join-error", "Ce n'est pas le code de salle")
        claim_in_browser(driver, channel, "Ada", claim_over_http(channel, "Ada", confirm=False))
        wait_text(driver, "title", "Place d'Ada")
        for p in ("Ben", "Cy", "Di"):
            claim_over_http(channel, p)
        wait_for(driver, lambda d: d.find_elements(By.ID, "thats-me"), "C'est moi")
        assert driver.find_element(By.ID, "thats-me").text == "C'est moi"
        driver.find_element(By.ID, "thats-me").click()
        wait_for(driver, lambda d: channel.seats.all_confirmed(), "every seat confirmed")
        channel.lock_seats()
        wait_text(driver, "secret", "maître-espion de l'équipe rouge")
        wait_text(driver, "public", "La grille, ligne par ligne")
        assert "The key" not in visible_text(driver) and "Hide my" not in visible_text(driver)
        shot(driver, "french spymaster seat")
    finally:
        channel.stop()


def test_the_key_fits_a_320_pixel_phone_without_breaking_words(browsers: Any) -> None:
    driver = browsers()
    driver.set_window_size(320, 900)
    cn = CodenamesState.new(["Ada", "Ben", "Cy", "Di"], deal=Deal.HOST, first="red",
                            words="fr")
    # the longest words of the French list on the grid
    cn.apply(cn.chance_action(random.Random(2)))
    longest = sorted(cn.words, key=len)[-1]
    channel = CompanionChannel("codenames", cn.players, host="127.0.0.1", port=0, lang="fr")
    channel.start()
    try:
        claim_in_browser(driver, channel, "Ada")
        seat_table(channel, cn)
        wait_text(driver, "secret", "La clé")
        width = driver.execute_script("return window.innerWidth")
        assert width <= 330
        overflow = driver.execute_script(
            "return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page is {overflow} px wider than the screen"
        broken = driver.execute_script("""
            const out = [];
            for (const w of document.querySelectorAll('.key .word')) {
              const lines = Math.round(w.getBoundingClientRect().height /
                  parseFloat(getComputedStyle(w).lineHeight));
              if (w.scrollWidth > w.clientWidth + 1 || lines > 1) out.push(w.textContent);
            }
            return out;""")
        assert broken == [], f"words broken or cut: {broken} (longest: {longest})"
        driver.execute_script("document.querySelector('.key').scrollIntoView()")
        shot(driver, "320px french key")
    finally:
        channel.stop()


def test_with_physical_cards_a_confirmed_seat_plays_at_once(browsers: Any) -> None:
    driver = browsers()
    cn = CodenamesState.new(["Ada", "Ben", "Cy", "Di"], deal=Deal.TABLE, first="red")
    cn.apply(cn.chance_action(random.Random(5)))
    cn.apply(next(a for a in cn.legal_actions() if type(a).__name__ == "GiveClue"))
    channel = CompanionChannel("codenames", cn.players, host="127.0.0.1", port=0,
                               wait_for_everyone=False)
    channel.start()
    try:
        channel.publish(cn)
        token = claim_over_http(channel, "Ben", confirm=False)
        claim_in_browser(driver, channel, "Ben", token)
        wait_for(driver, lambda d: d.find_elements(By.ID, "thats-me"), "That's me")
        assert "Waiting for a phone" not in text_of(driver, "waiting")  # nobody else needed
        driver.find_element(By.ID, "thats-me").click()
        wait_text(driver, "secret", "You are on the red team")
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-choice^='guess:']"),
                 "the words to touch")
        assert not channel.seats.locked
    finally:
        channel.stop()


def test_a_registered_game_brings_its_own_phone_view(browsers: Any,
                                                    toy_registered: None) -> None:
    """The toy game (tests/host/toy) is drawn by its own page.js with its own words, and
    its moves are buttons: no edit of the page for a new game."""
    from tests.host.toy.engine import Add, TenState

    driver = browsers()
    state = TenState(["Ada", "Ben"])
    channel = CompanionChannel("ten", state.players, host="127.0.0.1", port=0)
    channel.start()
    try:
        token = claim_over_http(channel, "Ada")
        seat_table(channel, state)
        claim_in_browser(driver, channel, "Ada", token)
        wait_text(driver, "status", "Ada adds one, two or three to 0.")
        wait_text(driver, "public", "Players: Ada and Ben")
        wait_text(driver, "secret", "Nothing is secret in Ten.")
        button = wait_for(driver, lambda d: d.find_elements(
            By.CSS_SELECTOR, "[data-choice='add:3']"), "the Add 3 button")[0]
        assert button.text == "Add 3"
        button.click()
        wait_text(driver, "choices", "Add 3 to the total?")
        driver.find_element(By.ID, "confirm-yes").click()
        wait_for(driver, lambda d: channel.take_actions(state) == [Add("Ada", 3)] or None,
                 "Ada's move at the host")
    finally:
        channel.stop()


def test_a_resumed_game_keeps_every_phone_connected(browsers: Any) -> None:
    driver = browsers()
    state = ResistanceState.new(PLAYERS, deal=Deal.HOST)
    state.apply(state.setup_action(random.Random(3), first_leader="Ada"))
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
    channel.start()
    try:
        claim_in_browser(driver, channel, "Ben")
        seat_table(channel, state)
        wait_text(driver, "secret", "You are")
        role = text_of(driver, "secret")
    finally:
        channel.stop()  # the evening ends: the host stops
    wait_text(driver, "connection", "If it is resumed")
    saved = channel.to_json()
    # the next evening: the same game resumed, its room and seats kept (as the CLI does)
    again = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=saved["port"])
    again.restore(saved)
    again.start()
    try:
        assert again.url == channel.url
        again.publish(state)
        wait_text(driver, "connection", "Connected to the host")
        wait_text(driver, "log", "The game is back")
        assert text_of(driver, "secret") == role  # no new claim, no new confirmation
        assert "Ben" in text_of(driver, "title")
    finally:
        again.stop()


# --------------------------------------------------------------------------- accessibility


@pytest.mark.skipif(not AXE.is_file(), reason="axe-core is not installed: run "
                    "scripts/setup_companion.sh (npm install in scripts/companion_e2e)")
def test_every_view_passes_an_axe_audit(browsers: Any) -> None:
    driver = browsers()
    rng = random.Random(4)
    report: dict[str, list[dict[str, Any]]] = {}

    def audit(name: str) -> None:
        # wait for the page to paint what the last message changed: two animation frames
        # (the second runs after the first's changes were laid out and drawn)
        driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "requestAnimationFrame(() => requestAnimationFrame(() => done(true)));")
        report[name] = axe_violations(driver)
        shot(driver, "axe " + name)

    channels: list[CompanionChannel] = []
    try:
        # Resistance: joining, the waiting room, "That's me", the vote, a card and its
        # confirmation, the hidden secret, a long log, the table
        res = ResistanceState.new(PLAYERS, deal=Deal.HOST)
        res.apply(res.setup_action(rng, first_leader="Ada"))
        res.apply(ProposeTeam("Ada", ("Ada", "Ben")))
        channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
        channels.append(channel)
        channel.start()
        channel.publish(res)
        driver.get(channel.url)
        audit("join: room code")
        driver.find_element(By.ID, "room").send_keys(channel.room_code + Keys.ENTER)
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "input[name=seat]"),
                 "the seats")
        audit("join: choose a seat")
        claim_in_browser(driver, channel, "Ada", claim_over_http(channel, "Ada", confirm=False))
        wait_text(driver, "waiting", "Waiting for a phone")
        audit("seat: waiting for phones")
        for p in PLAYERS[1:]:
            claim_over_http(channel, p)
        wait_for(driver, lambda d: d.find_elements(By.ID, "thats-me"), "That's me")
        audit("seat: is this your name")
        driver.find_element(By.ID, "thats-me").click()
        wait_for(driver, lambda d: channel.seats.all_confirmed(), "every seat confirmed")
        channel.lock_seats()
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-choice='vote:yes']"),
                 "the vote")
        audit("resistance seat: vote")
        for p in PLAYERS:
            res.apply(CastVote(p, True))
        channel.publish(res)
        channel.caption("Ada and Ben, play your mission cards on your phones.")
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-choice=success]"),
                 "a card to play")
        audit("resistance seat: cards")
        driver.find_element(By.CSS_SELECTOR, "#choices button").click()
        wait_for(driver, lambda d: d.find_elements(By.ID, "confirm-yes"), "the confirmation")
        audit("resistance seat: confirmation")
        driver.find_element(By.ID, "hide-secret").click()
        audit("resistance seat: secret hidden")
        driver.find_element(By.ID, "hide-secret").click()
        for i in range(150):  # a long evening: the log scrolls
            channel.caption(f"Line {i} of a long game, said by the host to everyone.")
        wait_text(driver, "log", "Line 149 of a long game")
        scrolls = driver.execute_script(
            "const b = document.getElementById('log-box'); return b.scrollHeight > b.clientHeight;")
        assert scrolls
        audit("resistance seat: long log")
        driver.get(f"{channel.url}table#{channel.room_code}")
        wait_text(driver, "status", "Mission 1")
        for i in range(150):
            channel.caption(f"Table line {i} of a long game, said by the host.")
        wait_text(driver, "log", "Table line 149 of a long game")
        audit("resistance table: long log")

        # Codenames: an operative's word buttons, the spymaster's key, the table
        cn = CodenamesState.new(["Ada", "Ben", "Cy", "Di"], deal=Deal.HOST, first="red")
        cn.apply(cn.chance_action(rng))
        clue = next(a for a in cn.legal_actions() if type(a).__name__ == "GiveClue")
        cn.apply(clue)
        team = cn.current_team
        key = cn.player_view(cn.spymaster(team))["key"]
        cn.apply(Guess(cn.operatives(team)[0], next(
            w for w, c in zip(cn.words, key, strict=True)
            if c == team.value)))  # a right guess: the turn goes on
        channel = CompanionChannel("codenames", cn.players, host="127.0.0.1", port=0)
        channels.append(channel)
        channel.start()
        operative = cn.operatives(cn.current_team)[0]
        claim_in_browser(driver, channel, operative)
        tokens = seat_table(channel, cn)
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-choice^='guess:']"),
                 "the words to touch")
        audit("codenames operative seat: guesses")
        word = cn.uncovered_words()[0]
        driver.find_element(By.CSS_SELECTOR, f"[data-choice='guess:{word}']").click()
        driver.find_element(By.ID, "confirm-yes").click()
        assert channel.wait_for_action(WAIT, cn) == Guess(operative, word)
        claim_in_browser(driver, channel, "Ada", tokens["Ada"])
        wait_text(driver, "secret", "spymaster")
        assert "Assassin:" in text_of(driver, "secret")
        audit("codenames spymaster seat")
        driver.set_window_size(320, 900)
        audit("codenames spymaster seat at 320 px")
        driver.set_window_size(1000, 1200)
        driver.get(f"{channel.url}table#{channel.room_code}")
        wait_text(driver, "public", "AGENT")  # a covered card
        audit("codenames table")

        # Ici Londres in French: the Speaker's icons, a receiver's icon buttons, the table
        ici = IciLondresState.new(["Ada", "Ben", "Cy"], deal=Deal.HOST)
        ici.apply(ici.chance_action(rng))
        drawn = ici.player_view(ici.speaker)["message"]
        guesser = ici.current_players()[0]
        ici.apply(Pick(guesser, (drawn[0],)))
        channel = CompanionChannel("ici-londres", ici.players, host="127.0.0.1", port=0,
                                   lang="fr")
        channels.append(channel)
        channel.start()
        claim_in_browser(driver, channel, ici.speaker)
        tokens = seat_table(channel, ici)
        channel.countdown(8)
        wait_text(driver, "secret", "Votre message")
        audit("ici londres speaker seat (French)")
        picker = ici.current_players()[0]
        claim_in_browser(driver, channel, picker, tokens[picker])
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-choice^='pick:']"),
                 "the icons to name")
        audit("ici londres receiver seat: icons (French)")
        free = next(i for i in ICON_NAMES if i not in ici.named_icons)
        driver.find_element(By.CSS_SELECTOR, f"[data-choice='pick:{free}']").click()
        driver.find_element(By.ID, "confirm-yes").click()
        assert channel.wait_for_action(WAIT, ici) == Pick(picker, (free,))
        driver.get(f"{channel.url}table#{channel.room_code}")
        wait_for(driver, lambda d: guesser in d.find_element(By.CSS_SELECTOR,
                                                             ".il-icon.found").text,
                 "the icon found on the television")
        assert "8 secondes restantes" in text_of(driver, "countdown")
        audit("ici londres table (French)")
    finally:
        for channel in channels:
            channel.stop()

    assert len(report) == 17
    serious = {name: [v for v in found if v["impact"] in ("serious", "critical")]
               for name, found in report.items()}
    assert serious == {name: [] for name in report}, json.dumps(serious, indent=1)
    others = {name: [v["id"] for v in found] for name, found in report.items() if found}
    print("axe: minor or moderate findings:", others or "none")


def test_a_new_phone_asks_for_a_held_seat_and_waits_for_the_tables_yes(browsers: Any) -> None:
    channel = CompanionChannel("resistance", PLAYERS, host="127.0.0.1", port=0)
    url, room = channel.start()
    try:
        old = claim_over_http(channel, "Ada", confirm=False)  # Ada's old phone holds it
        driver = browsers()
        driver.get(url)
        driver.find_element(By.ID, "room").send_keys(room + Keys.ENTER)
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "input[value=Ada]"),
                 "the list of seats")
        driver.find_element(By.CSS_SELECTOR, "input[value=Ada]").click()
        driver.find_element(By.CSS_SELECTOR, "#seat-form button[type=submit]").click()
        wait_text(driver, "join-error", "The host is asking the table")
        shot(driver, "seat asking the table")
        wait_for(driver, lambda d: channel.seats.pending_request() is not None, "the request")
        channel.seats.answer("Ada", True)  # the host heard yes
        wait_text(driver, "title", "Ada's seat")
        assert channel.seats.holder(old) is None  # the old phone lost it
        shot(driver, "seat moved after the table said yes")
    finally:
        channel.stop()
