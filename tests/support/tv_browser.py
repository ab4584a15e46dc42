"""Headless Chromium showing the television, and phones that take their seats over HTTP:
shared by the television's browser tests and scripts/tv_screenshots.py. Needs selenium,
httpx and Debian's chromium and chromedriver (scripts/setup_companion.sh)."""

from __future__ import annotations

import shutil
from typing import Any

import httpx
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from tests.support.companion_phone import page_origin
from voice_host.host.companion import CompanionChannel

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def chromium(profile: str) -> Any:
    """A headless Chromium with its own profile folder."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--hide-scrollbars", f"--user-data-dir={profile}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(30)
    return driver


def set_viewport(driver: Any, width: int, height: int, scale: float = 1.0) -> None:
    """Exactly width x height CSS pixels of page, as on a television at that resolution (a
    window's size includes its frame), drawn at ``scale`` image pixels per CSS pixel."""
    driver.set_window_size(width, height + 200)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": scale, "mobile": False})


def claim(channel: CompanionChannel, seat: str, *, confirm: bool = True) -> str:
    """A phone takes ``seat`` (and taps "That's me"); returns its token."""
    with httpx.Client(base_url=channel.url, headers=page_origin(channel.url),
                      timeout=10) as client:
        body = client.post("/api/claim", json={"room": channel.room_code, "seat": seat}).json()
        if confirm:
            answer = client.post(f"/api/seat/{seat}/confirm", json={},
                                 headers={"X-Seat-Token": body["token"]})
            if answer.status_code != 200:
                raise RuntimeError(f"{seat}'s phone could not confirm: {answer.text}")
    return str(body["token"])
