"""Regenerate the README's screenshots of the television and the phones, for each game:
the board mid-game and the end screen on a 1280x720 television (and the join panel), and
one player's phone (390x844) mid-game, showing their move. Real pages: a companion server
on 127.0.0.1, games played by the engine's own moves (tests/support/tv_scenes.py), headless
Chromium (Debian's chromium and chromedriver: scripts/setup_companion.sh).

    python scripts/tv_screenshots.py [--out docs/screens] [--lang en] [--size 1280x720]
                                     [--scale 0.6] [--every-join]

Writes PNG files named <game>-<screen>.png (a few tens of kilobytes each): the join panel
(once), each game's board, phone and end screen."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from tests.support import tv_scenes  # noqa: E402
from tests.support.tv_browser import chromium, claim, set_viewport  # noqa: E402
from voice_host.host.companion import CompanionChannel  # noqa: E402


@contextmanager
def table(game: str, state: Any, lang: str, *, seated: bool = True
          ) -> Iterator[tuple[CompanionChannel, dict[str, str]]]:
    """A companion server for ``state``: every seat on a phone and locked (``seated``), or
    two phones joined of the whole table (the join panel)."""
    channel = CompanionChannel(game, state.players, host="127.0.0.1", port=0, lang=lang)
    channel.start()
    tokens: dict[str, str] = {}
    try:
        if seated:
            tokens = {p: claim(channel, p) for p in state.players}
            channel.lock_seats()
        else:
            tokens = {state.players[0]: claim(channel, state.players[0]),
                      state.players[1]: claim(channel, state.players[1], confirm=False)}
        channel.publish(state)
        yield channel, tokens
    finally:
        channel.stop()


def _caption(game: str, lang: str) -> str:
    said = {"en": {"codenames": "Red team, your clue is music, 2.",
                   "resistance": "Vote now on the team: yes or no.",
                   "ici-londres": "Ben, name an icon."},
            "fr": {"codenames": "Équipe rouge, votre indice est musique, 2.",
                   "resistance": "Votez maintenant sur l'équipe : oui ou non.",
                   "ici-londres": "Ben, nommez une icône."}}
    return said[lang][game]


def wait_screen(driver: Any, screen: str) -> None:
    WebDriverWait(driver, 20).until(
        lambda d: d.execute_script("return document.body.dataset.screen") == screen)
    time.sleep(0.4)  # fonts and the QR image


def shoot_tv(driver: Any, channel: CompanionChannel, screen: str, path: Path) -> None:
    driver.get(channel.table_url())
    wait_screen(driver, screen)
    channel.caption(_caption(channel.game, channel.lang))
    time.sleep(0.3)
    driver.save_screenshot(str(path))


def shoot_phone(driver: Any, channel: CompanionChannel, seat: str, token: str,
                path: Path) -> None:
    driver.get(channel.url + "static/companion.css")  # same origin, to write its storage
    driver.execute_script("localStorage.setItem('voice-host-companion', arguments[0]);",
                          json.dumps({"room": channel.room_code, "seat": seat, "token": token}))
    driver.get(channel.url)
    WebDriverWait(driver, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#choices button"))
    # the player's move, as the phone shows it when it is their turn
    driver.execute_script("document.querySelector('#choices button')"
                          ".scrollIntoView({block: 'center'})")
    time.sleep(0.3)
    driver.save_screenshot(str(path))


def phone_seat(game: str, state: Any) -> str:
    """Whose phone the screenshot shows: someone with something to do."""
    return str(state.current_players()[-1]) if state.current_players() else state.players[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screens")
    parser.add_argument("--lang", choices=("en", "fr"), default="en")
    parser.add_argument("--size", default="1280x720", help="the television's size, WxH")
    parser.add_argument("--scale", type=float, default=0.6,
                        help="image pixels per page pixel (default 0.6: 768x432 images of a "
                             "1280x720 television)")
    parser.add_argument("--every-join", action="store_true",
                        help="the join panel of every game (default: the first game's only)")
    args = parser.parse_args(argv)
    width, height = (int(n) for n in args.size.lower().split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="vh-shots-")
    driver = chromium(folder)
    written: list[Path] = []
    try:
        for number, game in enumerate(tv_scenes.SCENES):
            suffix = "" if args.lang == "en" else f"-{args.lang}"
            set_viewport(driver, width, height, args.scale)
            if number == 0 or args.every_join:  # the join panel looks the same for each game
                with table(game, tv_scenes.fresh(game, args.lang), args.lang,
                           seated=False) as (ch, _):
                    path = args.out / f"{game}-tv-join{suffix}.png"
                    shoot_tv(driver, ch, "lobby", path)
                    written.append(path)
            state = tv_scenes.scene(game, "board", args.lang)
            with table(game, state, args.lang) as (ch, tokens):
                path = args.out / f"{game}-tv-board{suffix}.png"
                shoot_tv(driver, ch, "board", path)
                written.append(path)
                set_viewport(driver, 390, 844, min(1.0, args.scale * 4 / 3))
                seat = phone_seat(game, state)
                path = args.out / f"{game}-phone{suffix}.png"
                shoot_phone(driver, ch, seat, tokens[seat], path)
                written.append(path)
            set_viewport(driver, width, height, args.scale)
            with table(game, tv_scenes.scene(game, "end", args.lang), args.lang) as (ch, _):
                path = args.out / f"{game}-tv-end{suffix}.png"
                shoot_tv(driver, ch, "end", path)
                written.append(path)
    finally:
        driver.quit()
        shutil.rmtree(folder, ignore_errors=True)
    for path in written:
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: "
              f"{path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
