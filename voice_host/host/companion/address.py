"""Where the companion page is served: the local-network address, which ``Host`` headers
name this server (no DNS rebinding), the host machine's own addresses, the QR code."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable


def lan_address() -> str | None:
    """The address of this machine on its local network (the interface of the default
    route), or None. Connecting a UDP socket only looks up the route: no packet is sent."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 9))
        address = str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def default_bind_address() -> str:
    """Where the server listens unless told otherwise: the local-network interface only
    (phones on the same Wi-Fi reach it; other interfaces do not), else the loopback."""
    return lan_address() or "127.0.0.1"


def host_allowed(host: str, port: int, names: Iterable[str]) -> bool:
    """Whether a request's ``Host`` header names this server: an IP address or
    ``localhost`` (no DNS rebinding possible) or a name it announced, with its port."""
    host = host.strip().lower()
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        given = rest[1:] if rest.startswith(":") else ""
    elif host.count(":") == 1:
        name, _, given = host.partition(":")
    else:
        name, given = host, ""
    if not name:
        return False
    if given != str(port) and (given or port not in (80, 443)):
        return False
    return is_ip(name) or name == "localhost" or name in set(names)


def own_addresses(bind_host: str) -> set[str]:
    """The host machine's own addresses (its table view keeps reserved slots)."""
    own = {"127.0.0.1", "::1", "::ffff:127.0.0.1"}
    lan = lan_address()
    if lan:
        own.add(lan)
    if is_ip(bind_host) and bind_host not in ("0.0.0.0", "::"):
        own.add(bind_host)
    return own


def qr_text(url: str) -> str:
    """A QR code of ``url`` drawn with text characters, for the terminal."""
    import io

    import qrcode

    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    qr.make(fit=True)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True
