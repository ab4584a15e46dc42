"""Starting the companion page for ``voice-host play ... --companion``."""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voice_host.host.companion.refusal_log import safe
from voice_host.host.core.config import DEFAULT_PORT, SessionConfig
from voice_host.host.core.messages import help_text, said, say
from voice_host.host.core.narration import Narrator
from voice_host.host.core.store import atomic_write_text
from voice_host.host.io.wiring import HostIO, WiringError
from voice_host.speech.install import extra_install

if TYPE_CHECKING:
    from voice_host.host.companion.channel import CompanionChannel

INSTALL_HINT = "companion_page.needs_extra"
"""The code of the sentence that says how to install the companion page's libraries."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--companion``, ``--tv``, ``--port``, ``--companion-host`` and ``--tls``."""
    parser.add_argument("--companion", action="store_true",
                        help="serve the companion page on the local network: each player's "
                             "secrets, votes, picks and guesses on their phone, and a table "
                             "view")
    parser.add_argument("--tv", action="store_true",
                        help="also open the table view full screen in this machine's browser "
                             "(for the television on its HDMI port): the board, and the room "
                             "code with a QR code to join while seats are open; implies "
                             "--companion")
    parser.add_argument("--port", type=int, default=None,
                        help=help_text("port of the companion page (default {port}; a resumed "
                                       "game keeps its port, so the phones find it again)",
                                       getattr(parser, "lang", "en"), port=DEFAULT_PORT))
    parser.add_argument("--companion-host", default=None, metavar="ADDRESS",
                        help="address the companion page listens on (default: this "
                             "machine's local-network address only; 127.0.0.1: this computer "
                             "only; 0.0.0.0: every interface)")
    parser.add_argument("--tls", nargs=2, default=None, metavar=("CERT", "KEY"), type=Path,
                        help="serve the companion page over HTTPS with this certificate and "
                             "private key (PEM files)")


class SeatsFile:
    """The seats file of a game, written only when what it keeps really changed (a flood of
    claims and leaves, or a confirmation sent twice, does not rewrite it each time)."""

    def __init__(self, path: Path, lang: str = "en") -> None:
        self.path = path
        self.lang = lang
        self.writes = 0
        self.failing = False
        self._text = ""
        self._lock = threading.Lock()  # the server's and the host's threads both change seats

    def keep(self, data: dict[str, Any]) -> bool:
        """Write ``data`` if it differs from what was written last; True when written. A
        write the disk refuses (full, read-only) is said once on the screen and tried again
        at the next change: the seats stay in memory, the game goes on."""
        with self._lock:  # read and write together, so the newest seats are written last
            text = json.dumps(data, sort_keys=True)
            if text == self._text:
                return False
            try:
                atomic_write_text(self.path, text)
            except OSError as exc:
                if not self.failing:
                    print(say("companion_page.seats_not_kept", self.lang,
                              path=safe(str(self.path), 200),
                              why=(exc.strerror or str(exc)).lower()), file=sys.stderr)
                self.failing = True
                return False
            self.failing = False
            self._text = text
            self.writes += 1
            return True


def keep_seats_in(channel: CompanionChannel, seats_file: SeatsFile) -> None:
    """After every seat change, ``channel``'s seats go to ``seats_file`` (if they changed)."""
    inner = channel.seats.on_change

    def keep_seats() -> None:
        inner()
        seats_file.keep(channel.to_json())

    channel.seats.on_change = keep_seats
    keep_seats()


def check_key_file(key: Path, lang: str = "en") -> None:
    """A TLS private key anyone may change is refused; one others may read gets a
    warning (anyone on this computer could then pose as the page)."""
    import stat

    mode = key.stat().st_mode
    shown = safe(str(key), 200)
    if mode & stat.S_IWOTH:
        raise WiringError("companion_page.key_writable", path=shown)
    if mode & (stat.S_IRGRP | stat.S_IROTH | stat.S_IWGRP):
        print(say("companion_page.key_readable", lang, path=shown), file=sys.stderr)


def seats_path(save_path: Path) -> Path:
    """Where a game's room code and seats are kept (next to its save, private to the user;
    not ``.json``, so it is never taken for a saved game)."""
    return save_path.with_suffix(".seats")


def start_companion(config: SessionConfig, state: Any, io: HostIO, *,
                    resumed: bool = False) -> CompanionChannel:
    """Start the page, route the host's output through it (private lines to the phones,
    captions for everything said, the countdown) and print the QR code. A game saved with
    the page keeps its room code, seats and port. Raises :class:`WiringError` with a
    sentence when it cannot start."""
    try:
        from voice_host.host.companion.address import default_bind_address
        from voice_host.host.companion.channel import CompanionChannel
        from voice_host.host.companion.output import CompanionOutput
    except ImportError:
        raise WiringError(INSTALL_HINT, command=extra_install("companion")) from None
    wanted = config.companion
    screen = Narrator(config.game, config.lang).text  # the screen's lines, in the game's language
    host = wanted.bind or default_bind_address()
    given = wanted.port
    port = DEFAULT_PORT if given is None else int(given)
    if not 0 <= port <= 65535:
        raise WiringError("companion_page.port")
    tls = wanted.tls
    if tls is not None:
        for path in tls:
            if not Path(path).is_file():
                raise WiringError("companion_page.no_tls_file", path=str(path))
        check_key_file(Path(tls[1]), config.lang)
    channel = CompanionChannel(config.game, state.players, host=host, port=port,
                               lang=config.lang,
                               tls=(str(tls[0]), str(tls[1])) if tls else None,
                               wait_for_everyone=config.deal == "host")
    save_path = config.save_path
    kept = seats_path(save_path) if save_path is not None else None
    if kept is not None and kept.is_file() and resumed:
        try:
            data = json.loads(kept.read_text(encoding="utf-8"))
            if given is None and isinstance(data.get("port"), int):
                channel.requested_port = int(data["port"])  # where the phones look
            channel.restore(data)
        except (OSError, ValueError, AttributeError, TypeError):
            print(say("companion_page.seats_unreadable", config.lang, path=str(kept)),
                  file=sys.stderr)
    try:
        channel.start()
    except ImportError:
        raise WiringError(INSTALL_HINT, command=extra_install("companion")) from None
    except OSError as exc:
        raise WiringError.because_os(exc) from None
    if kept is not None:
        keep_seats_in(channel, SeatsFile(kept, config.lang))
    io.output = CompanionOutput(io.output, channel)
    io.secret_sink = channel.deliver
    io.closers.append(channel.stop)
    try:
        print(channel.qr_text(), file=sys.stderr)
    except ImportError:  # the page works without its QR code
        print(screen("common.screen_no_qrcode"), file=sys.stderr)
    print(screen("common.screen_companion", url=channel.url, code=channel.room_code),
          file=sys.stderr)
    print(screen("common.screen_table_view", url=channel.table_url()), file=sys.stderr)
    if wanted.tv:
        from voice_host.host.companion.tv import open_kiosk

        try:
            io.closers.append(open_kiosk(channel.table_url()).stop)
        except OSError as exc:
            print(screen("common.screen_tv_failed", reason=said(exc, config.lang)),
                  file=sys.stderr)
    return channel
