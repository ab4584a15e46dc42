"""The phone page in headless Chromium at a phone's size (390x844), in English and French:
a tap the host did not ask for is refused on the page with a sentence and never applied; a
stale button goes when the phase changes; hero and spy see the same buttons; a new move is
scrolled into view, focused, announced once by a polite live region and vibrates; the log
of what the host says aloud is not read aloud again; the spymaster's key is a 5x5 grid that
fits the screen; and axe-core finds no violation on the phone page at each phase of each
game.

Needs: ``scripts/setup_companion.sh`` (chromium, chromium-driver, axe-core from npm)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the companion extra (starlette) is not installed")
pytest.importorskip("httpx", reason="httpx (test client) is not installed")
pytest.importorskip("selenium.webdriver", reason="selenium is not installed (companion test extra)")

from selenium.webdriver.common.by import By  # noqa: E402
from test_companion_browser import (  # noqa: E402
    AXE,
    axe_violations,
    browsers,
    claim_in_browser,
    pytestmark,
    seat_table,
    shot,
    text_of,
    wait_for,
    wait_text,
)

from voice_host.games import Deal  # noqa: E402
from voice_host.games.codenames import CodenamesState, GiveClue, Guess  # noqa: E402
from voice_host.games.ici_londres import IciLondresState, Pick  # noqa: E402
from voice_host.games.resistance import CastVote, ProposeTeam, ResistanceState  # noqa: E402
from voice_host.host.companion import CompanionChannel  # noqa: E402
from voice_host.host.companion.strings import page_text  # noqa: E402

__all__ = ["browsers", "pytestmark"]  # the fixture and the marks, shared with that module

PHONE = (390, 844)
PLAYERS = ["Ada", "Ben", "Cy", "Di", "Eve"]


class Seat:
    """One phone: a browser at a phone's size showing one seat of a running channel."""

    def __init__(self, driver: Any, channel: CompanionChannel, seat: str) -> None:
        self.driver = driver
        self.seat = seat
        driver.set_window_size(*PHONE)
        claim_in_browser(driver, channel, seat)
        # count the page's vibrations (headless Chromium has no motor)
        driver.execute_script(
            "window.buzzes = 0; Object.defineProperty(navigator, 'vibrate', {configurable: "
            "true, value: () => { window.buzzes += 1; return true; }});")

    def buttons(self) -> list[str]:
        return [b.text for b in self.driver.find_elements(By.CSS_SELECTOR, "#choices button")]

    def settle(self) -> None:
        """Two animation frames: what the last message changed is laid out and drawn."""
        self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "requestAnimationFrame(() => requestAnimationFrame(() => done(true)));")


@pytest.fixture()
def channels() -> Iterator[list[CompanionChannel]]:
    made: list[CompanionChannel] = []
    yield made
    for channel in made:
        channel.stop()


def start(channels: list[CompanionChannel], game: str, players: list[str],
          lang: str) -> CompanionChannel:
    channel = CompanionChannel(game, players, host="127.0.0.1", port=0, lang=lang)
    channels.append(channel)
    channel.start()
    channel.open_turn(())  # as the session's desk does: the host asks each turn
    return channel


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_tap_out_of_turn_is_refused_on_the_page_and_never_applied(
        browsers: Any, channels: list[CompanionChannel], lang: str) -> None:
    state = IciLondresState.new(["Ada", "Ben", "Cy"], deal=Deal.HOST)
    state.apply(state.chance_action(random.Random(3)))
    picker = state.current_players()[0]
    channel = start(channels, "ici-londres", list(state.players), lang)
    phone = Seat(browsers(), channel, picker)
    seat_table(channel, state)
    # the icons are drawn, the coded sentence not said: nothing to tap yet
    wait_text(phone.driver, "choices", page_text(lang, "page.nothing_to_do"))
    assert phone.buttons() == []
    # guessing opens for this player: the icons appear
    channel.open_turn((picker,))
    wait_for(phone.driver, lambda d: len(phone.buttons()) >= 30, "the icon buttons")
    icon = next(a for a in state.legal_actions(picker) if isinstance(a, Pick)).icons[0]
    phone.driver.find_element(By.CSS_SELECTOR, f"[data-choice='pick:{icon}']").click()
    wait_for(phone.driver, lambda d: d.find_elements(By.ID, "confirm-yes"), "the question")
    # the turn passes while the question is open: the stale question and buttons go
    channel.open_turn(())
    wait_text(phone.driver, "act-error", page_text(lang, "page.choice_gone"))
    wait_text(phone.driver, "choices", page_text(lang, "page.nothing_to_do"))
    assert phone.buttons() == []
    # a late tap that reaches the host anyway (its page missed the change) is refused with a
    # sentence on the page, and nothing is kept for later
    channel.open_turn((picker,))
    wait_for(phone.driver, lambda d: len(phone.buttons()) >= 30, "the icon buttons again")
    phone.driver.find_element(By.CSS_SELECTOR, f"[data-choice='pick:{icon}']").click()
    wait_for(phone.driver, lambda d: d.find_elements(By.ID, "confirm-yes"), "the question")
    phone.driver.execute_script("const s = window.companion.state; s.stopped = true; "
                                "s.ws.close();")  # this page hears nothing more
    channel.open_turn(())
    phone.driver.find_element(By.ID, "confirm-yes").click()
    wait_text(phone.driver, "act-error", page_text(lang, "refusal.not_now"))
    shot(phone.driver, f"phone {lang} late tap refused")
    assert channel.pending() == 0
    channel.open_turn((picker,))
    assert channel.take_actions(state) == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_hero_and_spy_see_the_same_buttons_and_the_same_page(
        browsers: Any, channels: list[CompanionChannel], lang: str) -> None:
    state = ResistanceState.new(PLAYERS, deal=Deal.HOST)
    state.apply(state.setup_action(random.Random(8), first_leader="Ada"))
    spies = set(state.spies() or ())
    spy = next(p for p in PLAYERS if p in spies)
    hero = next(p for p in PLAYERS if p not in spies)
    channel = start(channels, "resistance", PLAYERS, lang)
    phones = {p: Seat(browsers(), channel, p) for p in (spy, hero)}
    seat_table(channel, state)
    state.apply(ProposeTeam("Ada", (spy, hero)))
    channel.publish(state)
    channel.open_turn(PLAYERS)
    layouts = {}
    for phone in phones.values():
        wait_for(phone.driver, lambda d, phone=phone: len(phone.buttons()) == 2, "the vote")
    for p in PLAYERS:
        state.apply(CastVote(p, True))
    channel.publish(state)
    channel.open_turn((spy, hero))
    for p, phone in phones.items():
        wait_for(phone.driver, lambda d, phone=phone: "sabotage" in " ".join(
            b.lower() for b in phone.buttons()), "the mission cards")
        phone.settle()
        layouts[p] = phone.driver.execute_script("""
            const act = document.getElementById('act');
            return {height: Math.round(act.getBoundingClientRect().height),
                    buttons: [...act.querySelectorAll('button')].map((b) => [b.textContent,
                      Math.round(b.getBoundingClientRect().width),
                      Math.round(b.getBoundingClientRect().height)])};""")
    assert layouts[spy] == layouts[hero]
    assert len(layouts[hero]["buttons"]) == 2
    shot(phones[hero].driver, f"phone {lang} hero mission cards")
    # the hero taps sabotage: told privately what the rules say, then plays success
    driver = phones[hero].driver
    driver.find_element(By.CSS_SELECTOR, "[data-choice=sabotage]").click()
    driver.find_element(By.ID, "confirm-yes").click()
    refusal = {"en": "Heroes can only play success.",
               "fr": "Les héros ne peuvent jouer que succès."}[lang]
    wait_text(driver, "act-error", refusal)
    assert refusal not in phones[spy].driver.find_element(By.TAG_NAME, "body").text
    driver.find_element(By.CSS_SELECTOR, "[data-choice=success]").click()
    driver.find_element(By.ID, "confirm-yes").click()
    wait_text(driver, "private-log", page_text(lang, "choice.sent_card"))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_new_move_is_brought_to_the_player_once(
        browsers: Any, channels: list[CompanionChannel], lang: str) -> None:
    state = ResistanceState.new(PLAYERS, deal=Deal.HOST)
    state.apply(state.setup_action(random.Random(8), first_leader="Ada"))
    channel = start(channels, "resistance", PLAYERS, lang)
    phone = Seat(browsers(), channel, "Cy")
    seat_table(channel, state)
    for n in range(40):  # a long game: the move would be far down the page
        channel.caption(f"Line {n} of what the host said.")
    wait_text(phone.driver, "log", "Line 39")
    phone.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    # the log of what the host says aloud is not read aloud again
    log_box = phone.driver.find_element(By.ID, "log-box")
    assert log_box.get_attribute("aria-live") in (None, "off")
    assert log_box.get_attribute("role") != "log"
    state.apply(ProposeTeam("Ada", ("Ada", "Ben")))
    channel.publish(state)
    channel.open_turn(PLAYERS)
    wait_for(phone.driver, lambda d: len(phone.buttons()) == 2, "the vote")
    phone.settle()
    note = phone.driver.find_element(By.ID, "turn-note").get_attribute("textContent")
    expected = page_text(lang, "page.your_turn", what=page_text(lang, "page.choose_vote"))
    assert note == expected
    turn = phone.driver.find_element(By.ID, "turn-note")
    assert turn.get_attribute("aria-live") == "polite"
    assert phone.driver.switch_to.active_element.get_attribute("id") == "act-heading"
    top, bottom, height = phone.driver.execute_script("""
        const r = document.querySelector('#choices button').getBoundingClientRect();
        return [r.top, r.bottom, window.innerHeight];""")
    assert 0 <= top and bottom <= height, "the vote buttons are not in view"
    assert phone.driver.execute_script("return window.buzzes") == 1
    shot(phone.driver, f"phone {lang} your turn")
    # another player votes: the same move goes on, nothing is announced again
    views = phone.driver.execute_script("return window.companion.state.views")
    state.apply(CastVote("Ada", True))
    channel.publish(state)
    wait_for(phone.driver, lambda d: d.execute_script("return window.companion.state.views")
             > views, "the next view")
    phone.settle()
    assert phone.driver.find_element(By.ID, "turn-note").get_attribute("textContent") \
        == expected
    assert phone.driver.execute_script("return window.buzzes") == 1
    assert phone.driver.execute_script("return window.companion.state.turns") == 1
    # the private log keeps the turn news, once (read aloud only when the player asks)
    kept = phone.driver.find_element(By.ID, "private-log").get_attribute("textContent")
    assert kept.count(expected) == 1


def test_the_spymasters_key_is_a_5x5_grid_on_a_phone(
        browsers: Any, channels: list[CompanionChannel]) -> None:
    for lang in ("fr", "en"):
        state = CodenamesState.new(["Ada", "Ben", "Cy", "Di"], deal=Deal.HOST, first="red",
                                   words=lang)
        state.apply(state.chance_action(random.Random(2)))
        channel = start(channels, "codenames", list(state.players), lang)
        phone = Seat(browsers(), channel, state.spymaster(state.current_team))
        seat_table(channel, state)
        wait_for(phone.driver, lambda d: len(d.find_elements(By.CSS_SELECTOR,
                                                             ".key td")) == 25, "the key")
        phone.settle()
        rows = phone.driver.execute_script("""
            return [...document.querySelectorAll('.key tr')].map((tr) =>
              [...tr.querySelectorAll('td')].map((td) => {
                const r = td.getBoundingClientRect();
                const w = td.querySelector('.word');
                return [Math.round(r.top), r.left, r.right,
                        w.scrollWidth <= w.clientWidth + 1];
              }));""")
        assert len(rows) == 5 and all(len(r) == 5 for r in rows)
        for row in rows:
            assert len({cell[0] for cell in row}) == 1, "a row of the key wrapped"
            assert all(0 <= cell[1] and cell[2] <= PHONE[0] for cell in row)
            assert all(cell[3] for cell in row), "a word of the key is cut"
        overflow = phone.driver.execute_script(
            "return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        phone.driver.execute_script("document.querySelector('.key').scrollIntoView()")
        shot(phone.driver, f"phone {lang} spymaster key")


@pytest.mark.skipif(not AXE.is_file(), reason="axe-core is not installed: run "
                    "scripts/setup_companion.sh (npm install in scripts/companion_e2e)")
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_phone_pages_pass_axe_at_each_phase(browsers: Any, channels: list[CompanionChannel],
                                            lang: str) -> None:
    report: dict[str, list[dict[str, Any]]] = {}

    def audit(phone: Seat, name: str) -> None:
        phone.settle()
        report[name] = axe_violations(phone.driver)
        shot(phone.driver, f"phone {lang} axe {name}")

    # Resistance: before the deal is shown, the vote, the mission, a refused card, the end
    res = ResistanceState.new(PLAYERS, deal=Deal.HOST)
    res.apply(res.setup_action(random.Random(8), first_leader="Ada"))
    channel = start(channels, "resistance", PLAYERS, lang)
    phone = Seat(browsers(), channel, "Ada")
    audit(phone, "resistance waiting")
    seat_table(channel, res)
    res.apply(ProposeTeam("Ada", ("Ada", "Ben")))
    channel.publish(res)
    channel.open_turn(PLAYERS)
    wait_for(phone.driver, lambda d: len(phone.buttons()) == 2, "the vote")
    audit(phone, "resistance vote")
    for p in PLAYERS:
        res.apply(CastVote(p, True))
    channel.publish(res)
    channel.open_turn(("Ada", "Ben"))
    wait_for(phone.driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-choice=sabotage]"),
             "the cards")
    audit(phone, "resistance mission")
    phone.driver.find_element(By.CSS_SELECTOR, "[data-choice=success]").click()
    audit(phone, "resistance card question")

    # Ici Londres: the Speaker's message, a receiver's icons
    ici = IciLondresState.new(["Ada", "Ben", "Cy"], deal=Deal.HOST)
    ici.apply(ici.chance_action(random.Random(3)))
    channel = start(channels, "ici-londres", list(ici.players), lang)
    speaker = Seat(browsers(), channel, ici.speaker)
    picker = Seat(browsers(), channel, ici.current_players()[0])
    seat_table(channel, ici)
    wait_for(speaker.driver, lambda d: text_of(d, "secret"), "the message")
    audit(speaker, "ici-londres speaker")
    audit(picker, "ici-londres before the coded sentence")
    channel.open_turn(ici.current_players())
    wait_for(picker.driver, lambda d: len(picker.buttons()) >= 30, "the icons")
    audit(picker, "ici-londres icons")

    # Codenames: an operative's words and Pass, the spymaster's key
    cn = CodenamesState.new(["Ada", "Ben", "Cy", "Di"], deal=Deal.HOST, first="red",
                            words=lang)
    cn.apply(cn.chance_action(random.Random(2)))
    channel = start(channels, "codenames", list(cn.players), lang)
    team = cn.current_team
    operative = Seat(browsers(), channel, cn.operatives(team)[0])
    spymaster = Seat(browsers(), channel, cn.spymaster(team))
    seat_table(channel, cn)
    audit(operative, "codenames clue")
    cn.apply(next(a for a in cn.legal_actions() if isinstance(a, GiveClue)))
    key = cn.player_view(cn.spymaster(team))["key"]
    word = next(w for w, c in zip(cn.words, key, strict=True) if c == team.value)
    cn.apply(Guess(cn.operatives(team)[0], word))
    channel.publish(cn)
    channel.open_turn(cn.current_players())
    wait_for(operative.driver, lambda d: d.find_elements(By.CSS_SELECTOR,
                                                         "[data-choice=end_turn]"), "Pass")
    assert operative.driver.find_element(By.CSS_SELECTOR, "[data-choice=end_turn]").text \
        == page_text(lang, "choice.end_turn")
    audit(operative, "codenames guess and pass")
    audit(spymaster, "codenames key")

    bad = {name: found for name, found in report.items() if found}
    assert bad == {}, f"axe-core violations: {bad}"
