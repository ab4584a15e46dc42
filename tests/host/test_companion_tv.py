"""The television's table view in headless Chromium (Debian's chromium and chromedriver,
driven by selenium) at 1920x1080 and 1280x720, in English and French games: every board
fits the screen with no scrolling (every Codenames word inside the viewport at 28 px or more,
none cut), covered cards and mission results in distinct colours and symbols, the 36 icons
as pictures named in the game's language, the end screens, the largest tables with long
names, the join panel with its room code and QR code only on the host's own table view, and
an axe-core audit with no violation.

Needs: ``scripts/setup_companion.sh`` (chromium, chromium-driver, axe-core from npm)."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import tv_scenes
from tests.support.companion_phone import AXE, axe_violations

pytest.importorskip("starlette", reason="the companion extra (starlette) is not installed")
pytest.importorskip("httpx", reason="httpx (test client) is not installed")
pytest.importorskip("selenium.webdriver", reason="selenium is not installed (companion test extra)")

from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from tests.support.tv_browser import CHROMEDRIVER, CHROMIUM, chromium, claim  # noqa: E402
from tests.support.tv_browser import set_viewport as viewport  # noqa: E402
from voice_host.games.icons import ICONS  # noqa: E402
from voice_host.host.companion import CompanionChannel  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.network, pytest.mark.skipif(
    not (Path(CHROMIUM).is_file() and Path(CHROMEDRIVER).is_file()),
    reason="Chromium and chromedriver are not installed: run scripts/setup_companion.sh")]

SIZES = [(1920, 1080), (1280, 720)]
WAIT = 20.0
MIN_WORD_PX = 28.0


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    folder = tempfile.mkdtemp(prefix="vh-chromium-tv-")
    chrome = chromium(folder)
    yield chrome
    chrome.quit()
    shutil.rmtree(folder, ignore_errors=True)


def set_viewport(driver: Any, width: int, height: int) -> None:
    """Exactly width x height CSS pixels of page, as on a television at that resolution."""
    viewport(driver, width, height)
    assert driver.execute_script("return [innerWidth, innerHeight]") == [width, height]


@pytest.fixture
def table() -> Iterator[Callable[..., CompanionChannel]]:
    """Starts a companion server showing a game: every seat taken and locked (the board),
    or only two phones joined (``seated=False``: the join panel)."""
    channels: list[CompanionChannel] = []

    def start(game: str, state: Any, lang: str = "en", *, seated: bool = True
              ) -> CompanionChannel:
        channel = CompanionChannel(game, state.players, host="127.0.0.1", port=0, lang=lang)
        channels.append(channel)
        channel.start()
        if seated:
            for p in state.players:
                claim(channel, p)
            channel.lock_seats()
        else:
            claim(channel, state.players[0])
            claim(channel, state.players[1], confirm=False)
        channel.publish(state)
        return channel

    yield start
    for channel in channels:
        channel.stop()


def open_tv(driver: Any, url: str, screen: str) -> None:
    driver.get("about:blank")
    driver.get(url)
    try:
        WebDriverWait(driver, WAIT).until(
            lambda d: d.execute_script("return document.body.dataset.screen") == screen)
    except TimeoutException:
        raise AssertionError(f"the television never showed its {screen}; it says: "
                             f"{driver.find_element(By.TAG_NAME, 'body').text[:600]}") from None


BOXES = """
    const out = [];
    for (const node of document.querySelectorAll(arguments[0])) {
      const r = node.getBoundingClientRect();
      const style = getComputedStyle(node);
      out.push({text: node.textContent, left: r.left, right: r.right, top: r.top,
                bottom: r.bottom, font: parseFloat(style.fontSize),
                cut: node.scrollWidth > node.clientWidth + 1,
                visible: style.visibility !== 'hidden' && r.width > 0 && r.height > 0});
    }
    return out;
"""


def boxes(driver: Any, selector: str) -> list[dict[str, Any]]:
    return list(driver.execute_script(BOXES, selector))


def assert_no_scrolling(driver: Any, width: int, height: int) -> None:
    size = driver.execute_script(
        "const e = document.documentElement; return [e.scrollWidth, e.scrollHeight, "
        "document.body.scrollWidth, document.body.scrollHeight]")
    assert size[0] <= width and size[2] <= width, size
    assert size[1] <= height and size[3] <= height, size


def assert_inside(found: list[dict[str, Any]], width: int, height: int) -> None:
    for box in found:
        assert box["visible"], box
        assert box["left"] >= 0 and box["top"] >= 0, box
        assert box["right"] <= width and box["bottom"] <= height, box


def colour(driver: Any, selector: str, prop: str = "background-color") -> str:
    return str(driver.execute_script(
        "return getComputedStyle(document.querySelector(arguments[0]))"
        ".getPropertyValue(arguments[1])", selector, prop))


def received(driver: Any) -> str:
    return json.dumps(driver.execute_script("return window.companion.received"))


# --------------------------------------------------------------------------- Codenames


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_codenames_fills_the_screen_with_every_word_readable(
        driver: Any, table: Any, lang: str) -> None:
    state = tv_scenes.codenames_midgame(lang)
    channel = table("codenames", state, lang)
    key = state.player_view(state.spymaster(state.current_team))["key"]
    for width, height in SIZES:
        set_viewport(driver, width, height)
        open_tv(driver, channel.table_url(), "board")
        words = boxes(driver, ".cn-grid .cn-word")
        assert [w["text"] for w in words] == list(state.words)
        assert_inside(words, width, height)
        assert min(w["font"] for w in words) >= MIN_WORD_PX
        assert not [w["text"] for w in words if w["cut"]]
        assert_no_scrolling(driver, width, height)
        # covered cards in their team's colours, each with its words; the rest plain
        covered = {c: colour(driver, f".cn-card.covered.{c}") for c in ("red", "blue", "neutral")}
        assert len(set(covered.values())) == 3
        assert colour(driver, ".cn-card:not(.covered)") not in covered.values()
        tags = driver.execute_script("return [...document.querySelectorAll('.cn-tag')]"
                                     ".map((n) => n.textContent)")
        assert len(tags) == 25 - len(state.uncovered_words())
        # the teams' agents left, the clue and the guesses left
        view = state.public_view()
        text = driver.find_element(By.ID, "main").text
        clue = "MUSIQUE" if lang == "fr" else "MUSIC"
        assert clue in text and ("3 essais restants" if lang == "fr" else "3 guesses left") in text
        for team in ("red", "blue"):
            assert str(view["remaining"][team]) in driver.find_element(
                By.CSS_SELECTOR, f".cn-team.{team} .cn-count").text
        assert driver.find_element(By.CSS_SELECTOR, ".cn-team.red.active")
        assert driver.execute_script("return document.documentElement.lang") == lang
        # the key card never reaches the television: no colour of an uncovered word
        assert '"key"' not in received(driver)
        for word, tile in zip(state.words, key, strict=True):
            if word in state.uncovered_words():
                card = driver.find_element(By.XPATH, f"//li[span[text()='{word}']]")
                assert "covered" not in str(card.get_attribute("class")), (word, tile)


def test_codenames_end_screen_shows_the_winner_the_roles_and_the_story(
        driver: Any, table: Any) -> None:
    state = tv_scenes.codenames_assassin()
    channel = table("codenames", state)
    for width, height in SIZES:
        set_viewport(driver, width, height)
        open_tv(driver, channel.table_url(), "end")
        assert driver.find_element(By.ID, "end-heading").text == "The Blue team wins"
        text = driver.find_element(By.ID, "end").text
        assert "The Red team touched the assassin." in text
        for player in state.players:
            assert player in text
        assert "Red: night 2 → " in text and "(Assassin)" in text
        covered = {c: colour(driver, f"#end .cn-card.covered.{c}")
                   for c in ("red", "blue", "assassin")}
        assert len(set(covered.values())) == 3
        assert_inside(boxes(driver, "#end h2, #end li"), width, height)
        assert_no_scrolling(driver, width, height)


# --------------------------------------------------------------------------- Resistance


def test_resistance_track_votes_and_rejections(driver: Any, table: Any) -> None:
    state = tv_scenes.resistance_midgame()
    channel = table("resistance", state)
    view = state.public_view()
    for width, height in SIZES:
        set_viewport(driver, width, height)
        open_tv(driver, channel.table_url(), "board")
        missions = driver.find_elements(By.CSS_SELECTOR, ".rs-track .rs-mission")
        assert len(missions) == 5
        assert [m.find_element(By.CSS_SELECTOR, ".rs-size").text for m in missions] == [
            f"{n} agents" for n in view["team_sizes"]]
        success, failure = missions[0], missions[1]
        assert "success" in str(success.get_attribute("class"))
        assert "failure" in str(failure.get_attribute("class"))
        assert colour(driver, ".rs-mission.success .rs-disc") != colour(
            driver, ".rs-mission.failure .rs-disc")
        assert success.find_element(By.CSS_SELECTOR, ".rs-disc").text == "✓"
        assert failure.find_element(By.CSS_SELECTOR, ".rs-disc").text == "✗"
        assert "1 sabotage" in failure.text and "NOW" in missions[2].text.upper()
        text = driver.find_element(By.ID, "main").text
        assert "Rejected teams: 1 of 5" in text
        assert len(driver.find_elements(By.CSS_SELECTOR, ".rs-rejections li.on")) == 1
        leader = driver.find_element(By.CSS_SELECTOR, ".rs-player.is-leader").text
        assert leader.startswith(view["leader"])
        on_team = [e.text.split("\n")[0] for e in
                   driver.find_elements(By.CSS_SELECTOR, ".rs-player.on-team")]
        assert on_team == list(view["proposed_team"])
        last = view["votes"][-1]
        vote = driver.find_element(By.CSS_SELECTOR, ".rs-vote").text
        assert "Rejected" in vote
        assert f"Yes: {' and '.join(last['yes'])}" in vote.replace("✓ ", "")
        assert_inside(boxes(driver, "#public li, #public p, #public h3, #status"), width, height)
        assert_no_scrolling(driver, width, height)
        assert float(colour(driver, "#status", "font-size").rstrip("px")) >= MIN_WORD_PX


def test_resistance_end_screen_turns_every_role_over(driver: Any, table: Any) -> None:
    state = tv_scenes.resistance_over()
    channel = table("resistance", state, "fr")
    for width, height in SIZES:
        set_viewport(driver, width, height)
        open_tv(driver, channel.table_url(), "end")
        assert driver.find_element(By.ID, "end-heading").text == "Les espions gagnent !"
        roles = {e.find_element(By.CLASS_NAME, "role-name").text:
                 e.find_element(By.CLASS_NAME, "role-what").text
                 for e in driver.find_elements(By.CSS_SELECTOR, ".roles .role")}
        words = {"spy": "Espion", "hero": "Héros", "double_agent": "Agent double"}
        assert roles == {p: words[state.role_of(p).value] for p in state.players}
        assert "Mission 2 échouée" in driver.find_element(By.ID, "end").text
        assert_inside(boxes(driver, "#end h2, #end li"), width, height)
        assert_no_scrolling(driver, width, height)


# --------------------------------------------------------------------------- Ici Londres


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_ici_londres_draws_the_36_icons_named_in_the_game_language(
        driver: Any, table: Any, lang: str) -> None:
    state = tv_scenes.ici_midgame()
    channel = table("ici-londres", state, lang)
    channel.countdown(42)
    for width, height in SIZES:
        set_viewport(driver, width, height)
        open_tv(driver, channel.table_url(), "board")
        WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(
            "return [...document.images].every((i) => i.complete)"))
        icons = driver.execute_script("""
            return [...document.querySelectorAll('.il-grid img')].map((i) => ({
              alt: i.alt, loaded: i.naturalWidth > 0, src: i.getAttribute('src')}));""")
        names = [i.french if lang == "fr" else i.name for i in ICONS]
        assert [i["alt"] for i in icons] == names
        assert all(i["loaded"] for i in icons)
        assert len({i["src"] for i in icons}) == 36
        view = state.public_view()
        found = [n for n in view["named"] if n["hit"]]
        missed = [n for n in view["named"] if n["hit"] is False]
        assert len(driver.find_elements(By.CSS_SELECTOR, ".il-icon.found")) == len(found) == 1
        assert len(driver.find_elements(By.CSS_SELECTOR, ".il-icon.missed")) == len(missed) == 1
        assert colour(driver, ".il-icon.found") != colour(driver, ".il-icon.missed")
        side = driver.find_element(By.CLASS_NAME, "il-side").text
        assert view["speaker"] in side and view["wehrmacht"] in side
        assert ("Manche 2 sur 12" if lang == "fr" else "Round 2 of 12") in side
        countdown = driver.find_element(By.ID, "countdown").text
        assert countdown == ("42 secondes restantes" if lang == "fr" else "42 seconds left")
        assert_inside(boxes(driver, ".il-grid li, .il-side *"), width, height)
        assert_no_scrolling(driver, width, height)


def test_ici_londres_end_screen(driver: Any, table: Any) -> None:
    state = tv_scenes.ici_over()
    channel = table("ici-londres", state)
    for width, height in SIZES:
        set_viewport(driver, width, height)
        open_tv(driver, channel.table_url(), "end")
        winners = state.public_view()["winners"]
        assert driver.find_element(By.ID, "end-heading").text.startswith(winners[0])
        assert "Round 1 (Ada speaking)" in driver.find_element(By.ID, "end").text
        assert_inside(boxes(driver, "#end h2, #end li"), width, height)
        assert_no_scrolling(driver, width, height)


# --------------------------------------------------------------------------- joining


def test_only_the_host_table_view_shows_the_room_code(driver: Any, table: Any) -> None:
    state = tv_scenes.fresh("codenames")
    channel = table("codenames", state, seated=False)
    code = channel.room_code
    for width, height in SIZES:
        set_viewport(driver, width, height)
        open_tv(driver, channel.table_url(), "lobby")
        assert driver.find_element(By.ID, "room-code").text.replace(" ", "") == code
        assert driver.find_element(By.ID, "address").text == channel.url
        qr = driver.find_element(By.CSS_SELECTOR, "img.qr")
        assert str(qr.get_attribute("src")).startswith("data:image/svg+xml;base64,")
        WebDriverWait(driver, WAIT).until(  # a data: image is decoded a moment later
            lambda d: d.execute_script("return document.querySelector('img.qr')"
                                       ".naturalWidth > 0"))
        seats = driver.find_element(By.ID, "seats-box").text
        assert "Ada" in seats and "confirmed" in seats and "Players with a phone: 2 of 6" \
            in driver.find_element(By.ID, "lobby").text
        assert_inside(boxes(driver, "#lobby img, #lobby p, #lobby li"), width, height)
        assert_no_scrolling(driver, width, height)
        rect = driver.execute_script("return document.querySelector('img.qr')"
                                     ".getBoundingClientRect().width")
        assert rect >= 0.3 * height  # scannable from the sofa

    # any other device on the network that opens /table sees no code, and a guessed token
    # is refused
    for url in (f"{channel.url}table", f"{channel.url}table#tv=not-the-token"):
        driver.get("about:blank")
        driver.get(url)
        WebDriverWait(driver, WAIT).until(
            lambda d: d.find_element(By.ID, "room").is_displayed())
        if "tv=" in url:
            WebDriverWait(driver, WAIT).until(
                lambda d: d.find_element(By.ID, "join-error").text)
        assert code not in driver.find_element(By.TAG_NAME, "body").text
        assert code not in driver.page_source and code not in received(driver)


def test_a_table_view_opened_with_the_room_code_shows_the_board_without_the_panel(
        driver: Any, table: Any) -> None:
    channel = table("codenames", tv_scenes.fresh("codenames"), seated=False)
    set_viewport(driver, 1280, 720)
    open_tv(driver, f"{channel.url}table#{channel.room_code}", "lobby")
    assert not driver.find_elements(By.ID, "room-code")
    assert not driver.find_elements(By.CSS_SELECTOR, "img.qr")
    assert "Ada" in driver.find_element(By.ID, "seats-box").text


# --------------------------------------------------------------------------- accessibility


@pytest.mark.skipif(not AXE.is_file(), reason="axe-core is not installed: run "
                    "scripts/setup_companion.sh")
def test_every_television_screen_passes_axe_with_no_violation(driver: Any, table: Any) -> None:
    report: dict[str, list[dict[str, Any]]] = {}
    set_viewport(driver, 1280, 720)
    lobby = table("resistance", tv_scenes.fresh("resistance"), seated=False)
    open_tv(driver, lobby.table_url(), "lobby")
    report["join panel"] = axe_violations(driver)
    for game in tv_scenes.SCENES:
        for lang in ("en", "fr"):
            for moment, screen in (("board", "board"), ("end", "end")):
                channel = table(game, tv_scenes.scene(game, moment, lang), lang)
                channel.caption("Something the host said.")
                open_tv(driver, channel.table_url(), screen)
                if game == "ici-londres":
                    channel.countdown(9)
                    WebDriverWait(driver, WAIT).until(
                        lambda d: d.find_element(By.ID, "countdown").is_displayed())
                report[f"{game} {moment} ({lang})"] = axe_violations(driver)
    crowded = table("resistance", tv_scenes.crowd("resistance", "fr"), "fr")
    open_tv(driver, crowded.table_url(), "board")
    report["resistance at ten players (fr)"] = axe_violations(driver)
    driver.get(f"{lobby.url}table")
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "room").is_displayed())
    report["room code form"] = axe_violations(driver)
    assert len(report) == 15
    assert report == {name: [] for name in report}, json.dumps(
        {k: v for k, v in report.items() if v}, indent=1)


def test_with_physical_cards_a_late_player_still_finds_the_code_on_the_host_screen(
        driver: Any) -> None:
    state = tv_scenes.resistance_midgame()
    channel = CompanionChannel("resistance", state.players, host="127.0.0.1", port=0,
                               wait_for_everyone=False)
    channel.start()
    try:
        claim(channel, state.players[0])
        channel.game_started()  # the seats lock with some still free
        channel.publish(state)
        for width, height in SIZES:
            set_viewport(driver, width, height)
            open_tv(driver, channel.table_url(), "board")
            badge = driver.find_element(By.ID, "join-badge")
            assert badge.is_displayed() and channel.room_code in badge.text
            assert_inside(boxes(driver, "#join-badge img, #join-badge p, #status"), width,
                          height)
            assert_no_scrolling(driver, width, height)
        if AXE.is_file():
            assert axe_violations(driver) == []
        open_tv(driver, f"{channel.url}table#{channel.room_code}", "board")
        assert not driver.find_element(By.ID, "join-badge").is_displayed()
    finally:
        channel.stop()


def test_the_hosts_recap_becomes_the_end_screens_key_moments(driver: Any, table: Any) -> None:
    from voice_host.host.companion.hub import TABLE

    state = tv_scenes.resistance_over()
    channel = table("resistance", state)
    lines = ["Ada was a spy and sabotaged missions 2, 3 and 4.", "Dan played every mission."]
    channel.hub.post(TABLE, {"type": "recap", "lines": lines}, keep="latest")
    set_viewport(driver, 1280, 720)
    open_tv(driver, channel.table_url(), "end")
    shown = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".moments li")]
    assert shown == lines
    assert_inside(boxes(driver, "#end h2, #end li"), 1280, 720)


@pytest.mark.parametrize("game", sorted(tv_scenes.SCENES))
def test_the_largest_table_with_long_names_still_fits(driver: Any, table: Any,
                                                     game: str) -> None:
    state = tv_scenes.crowd(game, "fr")
    channel = table(game, state, "fr")
    for width, height in SIZES:
        set_viewport(driver, width, height)
        open_tv(driver, channel.table_url(), "board")
        assert_inside(boxes(driver, "#public li, #public p, #public h3"), width, height)
        assert_no_scrolling(driver, width, height)
        if game == "codenames":
            words = boxes(driver, ".cn-grid .cn-word")
            assert min(w["font"] for w in words) >= MIN_WORD_PX
            assert not [w["text"] for w in words if w["cut"]]


def test_with_the_key_card_on_the_table_the_touched_word_waits_for_its_colour(
        driver: Any, table: Any) -> None:
    import random

    from voice_host.games import Deal
    from voice_host.games.codenames import CodenamesState, GiveClue, Guess

    state = CodenamesState.new(tv_scenes.CODENAMES_PLAYERS, deal=Deal.TABLE, first="red")
    state.apply(state.chance_action(random.Random(4)))
    state.apply(GiveClue(state.spymaster(state.current_team), "ocean", 2))
    word = state.words[7]
    state.apply(Guess(state.operatives(state.current_team)[0], word))
    assert state.public_view()["phase"] == "colour"
    channel = table("codenames", state)
    set_viewport(driver, 1280, 720)
    open_tv(driver, channel.table_url(), "board")
    pending = driver.find_elements(By.CSS_SELECTOR, ".cn-card.pending")
    assert [p.text for p in pending] == [word.upper()]
    assert word in driver.find_element(By.ID, "status").text


def test_a_long_recap_keeps_the_end_screen_on_the_screen(driver: Any, table: Any) -> None:
    from voice_host.host.companion.hub import TABLE

    state = tv_scenes.resistance_over()
    channel = table("resistance", state, "fr")
    lines = [f"Ligne {i} du récit de l'hôte, assez longue pour passer à la ligne sur un "
             "écran de télévision." for i in range(14)]
    channel.hub.post(TABLE, {"type": "recap", "lines": lines}, keep="latest")
    for width, height in SIZES:
        set_viewport(driver, width, height)
        open_tv(driver, channel.table_url(), "end")
        shown = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".moments li")]
        assert shown and shown == lines[-len(shown):]  # the last lines, the conclusion, stay
        assert_inside(boxes(driver, "#end h2, #end li"), width, height)
        assert_no_scrolling(driver, width, height)
