"""Saving when the disk says no: a save that cannot be written (a full disk, a folder turned
read-only, a pulled USB stick) is said aloud once, in the game's language; the game goes on
in memory and every later save tries again (the host says when it works again). The old save
file stays whole meanwhile (writes are atomic). When the game stops with its latest moves
still unsaved, :func:`save_at_exit` writes them to a fallback folder and says where."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from voice_host.host.core.store import (
    SavedGame,
    atomic_write_text,
    data_dir,
    save_game,
    saves_dir,
    why_key,
)

if TYPE_CHECKING:
    from voice_host.host.core.narration import Narrator
    from voice_host.host.core.session import Session


def keep_saving(s: Session, saved: SavedGame) -> None:
    """Write ``saved`` to the session's save file, or keep it in memory (``s.unsaved``) and
    say once that the game cannot be saved."""
    path = s.options.save_path
    assert path is not None
    try:
        save_game(path, saved)
    except OSError as exc:
        first = s.unsaved is None
        s.unsaved = saved
        s.unsaved_why = why_text(s.narrator, exc, path.parent)
        if first:
            s.log.write("save_failed", error=exc.strerror or str(exc))
            print(s.narrator.text("common.screen_save_failed", path=path,
                                  why=s.unsaved_why), file=s.screen)
            s.say_key("common.save_failed", why=s.unsaved_why)
        return
    if s.unsaved is not None:
        s.unsaved = None
        s.log.write("save_works_again")
        s.say_key("common.save_works_again")


def save_at_exit(s: Session, screen: TextIO | None = None) -> Path | None:
    """When the session's latest state could not be saved: write it to a fallback folder
    and say so on ``screen``. Returns the file to resume from (the save file itself when
    nothing was left unsaved, None when no folder took it)."""
    path = s.options.save_path
    if s.unsaved is None or path is None:
        return path
    screen = screen or sys.stderr
    try:  # one more try where it belongs (the disk may have room again)
        save_game(path, s.unsaved)
    except OSError:
        pass
    else:
        s.unsaved = None
        return path
    elsewhere = save_elsewhere(path, s.unsaved)
    if elsewhere is None:
        print(s.narrator.text("common.screen_not_saved", path=path, why=s.unsaved_why),
              file=screen)
        return None
    print(s.narrator.text("common.screen_saved_elsewhere", path=path, why=s.unsaved_why,
                          elsewhere=elsewhere), file=screen)
    return elsewhere


def log_failure(narrator: Narrator, path: Path | None,
                screen: TextIO | None = None) -> Callable[[OSError], None]:
    """What the event log does when it cannot be written any more: one line on the host's
    screen, in the game's language (the game goes on without the log)."""

    def warn(exc: OSError) -> None:
        print(narrator.text("common.screen_log_failed", path=path,
                            why=why_text(narrator, exc, path.parent if path else None)),
              file=screen or sys.stderr)

    return warn


def why_text(narrator: Narrator, exc: OSError, folder: Path | None = None) -> str:
    """Why ``exc`` stopped a write, in ``narrator``'s language ("the disk is full")."""
    why = why_key(exc, folder is not None and folder.is_dir())
    return narrator.text(why) if why.startswith("common.") else why


FALLBACK_FOLDERS = ("saves", "data", "temp")
"""Where a game whose save cannot be written is saved at the end, in this order: the saves
folder, the data folder, a folder of this user's in the system's temporary folder."""


def fallback_folders(save_path: Path) -> list[Path]:
    """The folders :func:`save_elsewhere` tries for ``save_path`` (not its own folder)."""
    uid = getattr(os, "getuid", lambda: None)()
    temp = Path(tempfile.gettempdir()) / ("voice-host" if uid is None else f"voice-host-{uid}")
    own = save_path.parent.resolve()
    return [f for f in (saves_dir(), data_dir(), temp) if f.resolve() != own]


def save_elsewhere(save_path: Path, saved: SavedGame) -> Path | None:
    """Write ``saved``, which could not be written at ``save_path``, into the first folder
    of :func:`fallback_folders` that takes it (a new name if one is taken); None when none
    does. A temporary folder another user owns is passed over."""
    text = json.dumps(saved.to_json(), ensure_ascii=False)
    for folder in fallback_folders(save_path):
        target = folder / save_path.name
        if target.exists():
            target = folder / f"{save_path.stem}-{time.strftime('%Y%m%d-%H%M%S')}.json"
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            if hasattr(os, "getuid") and folder.stat().st_uid != os.getuid():
                continue
            atomic_write_text(target, text)
        except OSError:
            continue
        return target
    return None
