"""How a saved game was played, read back as carefully as a command line: each setting the
save keeps goes through ``play``'s own argument parser (its choices and types), and two are
not taken from a file at all when they would reach further than the command line's defaults:
a companion page listening wider than this machine's network address (``0.0.0.0`` opens it
to every interface), and an event log outside the data folder unless it is already this
program's event log (a crafted save could otherwise append to any file the user may write).
Those are dropped with a line on the screen; a value the parser refuses makes the save
damaged."""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voice_host.host.core.store import SaveError, data_dir

DAMAGED = "save.settings"
NARROW_BINDS = frozenset({"127.0.0.1", "::1", "localhost"})
"""Addresses a save may ask the companion page to listen on besides the default (this
machine only: never wider than the default)."""


class _Refused(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # refuse quietly, never exit
        raise _Refused(message)


@dataclass
class Checked:
    """A save's settings as the command line would give them, and what was left out."""

    values: dict[str, Any] = field(default_factory=dict)
    notes: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    """For each setting not taken from the save: a narration key and its fields, for the
    screen."""


def _tokens(name: str, value: Any) -> list[str]:
    """``name=value`` as command-line words (raises :class:`_Refused` for a wrong type)."""
    flag = "--" + name.replace("_", "-")
    if name == "companion":
        if not isinstance(value, bool):
            raise _Refused(name)
        return [flag] if value else []
    if name == "tls":
        if not (isinstance(value, list) and len(value) == 2
                and all(isinstance(v, str) for v in value)):
            raise _Refused(name)
        return [flag, *value]
    if name in ("port", "silence_timeout"):
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not math.isfinite(value):
            raise _Refused(name)
        if name == "port" and not (isinstance(value, int) and 0 <= value <= 65535):
            raise _Refused(name)
        if name == "silence_timeout" and not 0 < value <= 3600:
            raise _Refused(name)
        return [flag, str(value)]
    if not isinstance(value, str) or len(value) > 4096 or "\0" in value:
        raise _Refused(name)
    return [flag, value]


def checked_settings(settings: Mapping[str, Any], parser_for: Any) -> Checked:
    """``settings`` (a save's) read through the parser ``parser_for()`` builds (``play``'s
    options); raises :class:`SaveError` when one is not a value the command line takes."""
    from voice_host.host.companion.address import lan_address

    checked = Checked()
    for name, value in settings.items():
        if value is None:
            checked.values[name] = None
            continue
        parser = parser_for()
        try:
            tokens = _tokens(name, value)
            parsed: dict[str, Any] = vars(parser.parse_args(tokens)) if tokens \
                else {name: False}
        except _Refused:
            raise SaveError(DAMAGED) from None
        if name not in parsed:  # a setting this version does not know: not taken
            continue
        taken = parsed[name]
        if name == "companion_host" and taken not in NARROW_BINDS and taken != lan_address():
            if settings.get("companion"):
                checked.notes[name] = ("common.screen_saved_address", {"address": str(taken)})
            taken = None
        if name == "log" and not _inside(Path(taken), data_dir()) \
                and not _event_log(Path(taken)):
            checked.notes[name] = ("common.screen_saved_log",
                                   {"path": str(taken), "folder": str(data_dir())})
            taken = None
        checked.values[name] = taken
    return checked


def _event_log(path: Path) -> bool:
    """Whether ``path`` is already an event log of this program (the log the game was started
    with, continued: no other file is written to)."""
    try:
        if path.suffix != ".jsonl" or path.is_symlink() or not path.is_file():
            return False
        with path.open("rb") as f:
            first = json.loads(f.readline(4096))
    except (OSError, ValueError):
        return False
    return isinstance(first, dict) and isinstance(first.get("event"), str)


def _inside(path: Path, folder: Path) -> bool:
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError, ValueError):
        return False


def quiet_parser(add: Any) -> Any:
    """A function building a parser that ``add`` fills and that raises instead of exiting."""

    def build() -> argparse.ArgumentParser:
        parser = _Parser(add_help=False)
        add(parser)
        return parser

    return build
