"""Starting the companion page for ``voice-host play ... --companion``."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from voice_host.host.io import Line
from voice_host.host.wiring import HostIO, WiringError

if TYPE_CHECKING:
    from voice_host.host.companion.channel import CompanionChannel

INSTALL_HINT = ("The companion page needs the companion extra: "
                "pip install 'voice-host[companion]'.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--companion``, ``--port`` and ``--companion-host``."""
    parser.add_argument("--companion", action="store_true",
                        help="serve the companion page on the local network: each player's "
                             "secrets and secret cards on their phone, and a table view")
    parser.add_argument("--port", type=int, default=8765,
                        help="port of the companion page (default 8765)")
    parser.add_argument("--companion-host", default=None, metavar="ADDRESS",
                        help="address the companion page listens on (default: this "
                             "machine's local-network address only; 127.0.0.1: this computer "
                             "only; 0.0.0.0: every interface)")


def start_companion(args: argparse.Namespace, game: str, state: Any,
                    io: HostIO) -> CompanionChannel:
    """Start the page, route the host's output through it (private lines to the phones,
    captions for everything said, the countdown) and print the QR code. Raises
    :class:`WiringError` with a sentence when it cannot start."""
    try:
        from voice_host.host.companion.channel import CompanionChannel, default_bind_address
        from voice_host.host.companion.output import CompanionOutput
    except ImportError:
        raise WiringError(INSTALL_HINT) from None
    host = getattr(args, "companion_host", None) or default_bind_address()
    port = int(getattr(args, "port", 8765))
    if not 0 <= port <= 65535:
        raise WiringError("The port must be a number from 0 to 65535.")
    channel = CompanionChannel(game, state.players, host=host, port=port)
    try:
        channel.start()
    except ImportError:
        raise WiringError(INSTALL_HINT) from None
    except OSError as exc:
        raise WiringError(str(exc)) from None
    io.output = CompanionOutput(io.output, channel)
    io.secret_sink = channel.deliver
    io.closers.append(channel.stop)
    try:
        print(channel.qr_text(), file=sys.stderr)
    except ImportError:  # the page works without its QR code
        print("(Install qrcode to see a QR code of the address here.)", file=sys.stderr)
    print(f"Companion page: {channel.url}  room code {channel.room_code}  "
          f"(table view: {channel.url}table)", file=sys.stderr)
    return channel


def announcement_lines(channel: CompanionChannel) -> list[Line]:
    """What the host says so players can join (English; the page itself is English)."""
    return [Line(text, lang="en") for text in channel.announcement()]
