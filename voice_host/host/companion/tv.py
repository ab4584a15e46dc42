"""The television's table view: the token that lets the host's own screen show the room code
and the join QR code, the QR code as SVG, the game's board facts, and starting the machine's
browser in kiosk mode (``--tv``).

Any device on the network may open ``/table`` and, with the room code, see the public board.
Only the table view opened with the channel's table token (``/table#tv=TOKEN``: the host
prints that address as ``Table view: URL`` and ``--tv`` opens it) is told the room code, the
join address and its QR code. The token travels in the URL's fragment, so it is never in a
request line, a server log or a ``Referer``; the page sends it in its websocket's first
message."""

from __future__ import annotations

import base64
import hmac
import io
import os
import secrets
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from voice_host.games import GameState
from voice_host.host.companion.seat_types import SeatError
from voice_host.host.companion.seats import SeatBook
from voice_host.host.core.messages import HostOSError

TOKEN_BYTES = 18
"""The table token's randomness (144 bits, 24 URL-safe characters)."""
BROWSER_ENV = "VOICE_HOST_TV_BROWSER"
"""A command that opens a URL full screen, instead of the browsers :data:`KIOSK` knows
(``{url}`` in it is replaced by the table view's address; appended when absent)."""
KIOSK: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("chromium", ("--kiosk", "--no-first-run", "--noerrdialogs", "--disable-infobars",
                  "--user-data-dir={profile}", "{url}")),
    ("chromium-browser", ("--kiosk", "--no-first-run", "--noerrdialogs",
                          "--user-data-dir={profile}", "{url}")),
    ("google-chrome", ("--kiosk", "--no-first-run", "--noerrdialogs",
                       "--user-data-dir={profile}", "{url}")),
    ("firefox", ("--kiosk", "--new-instance", "--profile", "{profile}", "{url}")),
)
"""Browsers ``--tv`` looks for, in order, with their kiosk-mode arguments (their own
profile folder: a browser already open elsewhere does not swallow the window)."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def check_token(seats: SeatBook, given: str, expected: str, *, client: str) -> None:
    """Raise a :class:`SeatError` (recorded with the seats' refusals) unless ``given`` is
    the table token. No back-off: 144 random bits cannot be guessed, and wrong tokens must
    neither lock the host's own screen out nor brake the phones' room codes."""
    if not hmac.compare_digest(given.encode()[:100], expected.encode()):
        error = SeatError("wrong_table_token", 403)
        seats.refuse(client=client, seat=None, what="table token", reason=error.reason)
        raise error


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as an SVG document (qrcode's path image: one ``<path>``, no
    Pillow needed), dark modules on a transparent ground."""
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=0,
                        error_correction=qrcode.constants.ERROR_CORRECT_M)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue().decode("utf-8")


def qr_data_url(url: str) -> str | None:
    """:func:`qr_svg` as a ``data:`` URL for an ``<img>`` (the page's policy allows images
    from ``data:``; an image's SVG runs no script). None without the qrcode package."""
    try:
        svg = qr_svg(url)
    except ImportError:
        return None
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def join_panel(url: str, join_url: str, room: str) -> dict[str, Any]:
    """What the host's own table view shows while seats are open."""
    return {"room": room, "address": url, "join_url": join_url, "qr": qr_data_url(join_url)}


def board_facts(game: str, state: GameState) -> dict[str, Any]:
    """The game's extra public facts for the board (its registration's ``table_facts``:
    roles revealed and key moments at the end), or nothing."""
    from voice_host.host.core.registry import registration

    facts = registration(game).table_facts
    return facts(state) if facts is not None else {}


# --------------------------------------------------------------------------- --tv


def kiosk_command(url: str, profile: Path, *,
                  which: Callable[[str], str | None] | None = None) -> list[str] | None:
    """The command that shows ``url`` full screen on this machine, or None when no known
    browser is installed (see :data:`BROWSER_ENV` and :data:`KIOSK`; ``which`` finds a
    program, :func:`shutil.which` by default)."""
    which = which or shutil.which
    custom = os.environ.get(BROWSER_ENV, "").strip()
    if custom:
        words = shlex.split(custom)
        filled = [w.replace("{url}", url) for w in words]
        return filled if filled != words else [*words, url]
    for name, args in KIOSK:
        path = which(name)
        if path:
            return [path, *(a.format(url=url, profile=profile) for a in args)]
    return None


class KioskBrowser:
    """The browser ``--tv`` started (stopped with the host)."""

    def __init__(self, process: subprocess.Popen[bytes], profile: tempfile.TemporaryDirectory[str]
                 ) -> None:
        self.process = process
        self._profile = profile

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self._profile.cleanup()


def open_kiosk(url: str) -> KioskBrowser:
    """Start the machine's browser full screen on ``url``. Raises ``OSError`` with a sentence
    when no browser can be started."""
    profile = tempfile.TemporaryDirectory(prefix="voice-host-tv-")
    command = kiosk_command(url, Path(profile.name))
    if command is None:
        profile.cleanup()
        raise HostOSError("companion_page.no_browser", variable=BROWSER_ENV)
    try:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
    except OSError as exc:
        profile.cleanup()
        raise HostOSError("companion_page.browser_failed",
                          reason=str(exc.strerror or exc)) from None
    return KioskBrowser(process, profile)
