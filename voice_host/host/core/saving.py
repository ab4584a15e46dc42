"""Saving when the disk says no: a save that cannot be written (a full disk, a folder turned
read-only, a pulled USB stick) is said aloud once, in the game's language; the game goes on
in memory and every later save tries again (the host says when it works again). The old save
file stays whole meanwhile (writes are atomic). When the game stops with its latest moves
still unsaved, :func:`save_at_exit` writes them to a fallback folder and says where."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from voice_host.host.core.store import SavedGame, save_elsewhere, save_game, why_text

if TYPE_CHECKING:
    from pathlib import Path

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
