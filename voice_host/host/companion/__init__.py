"""The companion page: private views and secret input on each player's phone, and a table
view for a television, served on the local network while the host runs a game
(``voice-host play ... --deal host --companion``).

Needs the ``companion`` extra (starlette, uvicorn, qrcode); imported only when asked for."""

from __future__ import annotations

from voice_host.host.companion.address import default_bind_address, lan_address
from voice_host.host.companion.channel import CompanionChannel
from voice_host.host.companion.output import CompanionOutput
from voice_host.host.companion.seats import Claim, Refusal, SeatBook, SeatError
from voice_host.host.core.config import DEFAULT_PORT

__all__ = [
    "DEFAULT_PORT",
    "Claim",
    "CompanionChannel",
    "CompanionOutput",
    "Refusal",
    "SeatBook",
    "SeatError",
    "default_bind_address",
    "lan_address",
]
