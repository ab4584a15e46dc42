"""Sizes that tell nothing: a message whose content depends on a secret (a seat's view, a
private line) is padded with spaces in a ``pad`` field to a fixed size, so an eavesdropper
on the Wi-Fi (even under TLS, which hides the bytes but not their count) learns nothing from
its length. The page ignores ``pad``; the websocket sends without compression."""

from __future__ import annotations

import json
from typing import Any


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False)


def size_of(message: dict[str, Any]) -> int:
    """Bytes of ``message`` as sent (UTF-8 JSON)."""
    return len(encode(message).encode("utf-8"))


def bucket(size: int, step: int) -> int:
    """``size`` rounded up to a multiple of ``step``."""
    return -(-size // step) * step


def padded_json(message: dict[str, Any], *, to: int = 0, step: int = 1024) -> str:
    """``message`` as JSON text of exactly ``to`` bytes when it fits in that, else of the
    next multiple of ``step`` above its own size."""
    bare = {**message, "pad": ""}
    size = size_of(bare)
    target = to if to >= size else bucket(size, step)
    return encode({**message, "pad": " " * (target - size)})
