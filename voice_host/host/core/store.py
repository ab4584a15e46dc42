"""Saved games: one JSON file written atomically after every action, and the JSONL event log."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from voice_host.games import GameError, SetupError
from voice_host.host.core.messages import HostError
from voice_host.host.core.narration import LANGS, Narrator
from voice_host.host.core.registry import registration
from voice_host.speech.models import data_dir

SAVE_FORMAT = "voice-host-save"
SAVE_VERSION = 3
"""Version of the save file. 2: every player action in the game's history names its actor
(the engines' state version 2) and the options are the game's validated options. 3: the
save keeps how the game is played (``settings``: input, output, recognizer, companion page,
for ``resume``), and an undo step may say its move in words (``move``). Older saves are
migrated on load (:func:`migrate`: version 1 to 2, then 2 to 3) and written back as
version 3 at the next move."""


class SaveError(HostError):
    """A save file cannot be read: a code of ``host/lang/<lang>/messages.toml`` and its
    values (``str()`` is the English sentence)."""


def saves_dir() -> Path:
    return data_dir() / "saves"


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` so that a crash leaves either the old file or the new one, whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    try:  # make the rename itself durable
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


@dataclass
class SessionRecord:
    """What the host itself must remember across a resume (the rules' state is saved
    beside it)."""

    host_state: dict[str, Any] = field(default_factory=dict)
    """The adapter's own facts (broadcast done, recordings...)."""
    undo: list[dict[str, Any]] = field(default_factory=list)
    """Snapshots to go back to, oldest first."""
    paused: bool = False
    """The players paused the game: it stays paused after a resume."""
    narration: dict[str, int] = field(default_factory=dict)
    """How far each varied sentence has turned (a resumed game does not start its
    variants over)."""
    voices: dict[str, Any] = field(default_factory=dict)
    """The players' voice prints (:meth:`~voice_host.speech.speakers.SpeakerId.to_json`:
    vectors only, never audio); empty when nobody enrolled."""


@dataclass
class SavedGame:
    """Everything needed to continue a game exactly."""

    game: str
    options: dict[str, Any]
    state: dict[str, Any]
    rng: list[Any]
    host_state: dict[str, Any]
    undo: list[dict[str, Any]]
    paused: bool = False
    narration: dict[str, int] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    """How the game was played (see :data:`SETTINGS`); empty for a game saved before
    version 3, which resumes with the command line's defaults."""
    voices: dict[str, Any] = field(default_factory=dict)
    """The players' voice prints (vectors only, never audio; empty when nobody enrolled)."""

    def record(self) -> SessionRecord:
        return SessionRecord(host_state=self.host_state, undo=self.undo, paused=self.paused,
                             narration=self.narration, voices=self.voices)

    def to_json(self) -> dict[str, Any]:
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": self.game,
                "options": self.options, "state": self.state, "rng": self.rng,
                "host_state": self.host_state, "undo": self.undo, "paused": self.paused,
                "narration": self.narration, "settings": self.settings,
                **({"voices": self.voices} if self.voices else {})}

    @classmethod
    def from_json(cls, data: Any) -> SavedGame:
        if not isinstance(data, Mapping) or data.get("format") != SAVE_FORMAT:
            raise SaveError("save.not_a_save")
        if data.get("version") == 1:
            data = migrate(data)
        if data.get("version") == 2:
            data = {**data, "version": 3, "settings": {}}
        if data.get("version") != SAVE_VERSION:
            raise SaveError("save.other_version")
        try:
            saved = cls(game=data["game"], options=dict(data["options"]), state=data["state"],
                        rng=data["rng"], host_state=dict(data["host_state"]),
                        undo=list(data["undo"]), paused=data.get("paused", False),
                        narration=dict(data.get("narration") or {}),
                        settings=dict(data.get("settings") or {}),
                        voices=dict(data.get("voices") or {}))
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveError("save.part_missing") from exc
        if not isinstance(saved.game, str):
            raise SaveError("save.no_game_name")
        if not isinstance(saved.state, Mapping):
            raise SaveError("save.no_game")
        if not isinstance(saved.paused, bool) or not all(
                isinstance(k, str) and type(v) is int and v >= 0
                for k, v in saved.narration.items()):
            raise SaveError("save.host_part")
        if not _is_rng(saved.rng):
            raise SaveError("save.random_state")
        if saved.options.get("lang", "en") not in LANGS:
            raise SaveError("save.language")
        for snap in saved.undo:
            if not (isinstance(snap, Mapping) and isinstance(snap.get("state"), Mapping)
                    and isinstance(snap.get("host_state"), Mapping)
                    and _is_rng(snap.get("rng"))
                    and isinstance(snap.get("move", ""), str)):
                raise SaveError("save.undo")
        if not all(isinstance(k, str) for k in saved.settings):
            raise SaveError("save.settings")
        if saved.voices and not isinstance(saved.voices.get("seats"), Mapping):
            raise SaveError("save.voices")
        return saved


def migrate(data: Mapping[str, Any]) -> dict[str, Any]:
    """A version-1 save as version 2 (which :meth:`SavedGame.from_json` then takes to 3):
    the game's state and every undo snapshot read by its engine (which replays a version-1
    history, naming each action's actor) and written in the engine's current version; the
    options checked and completed by the game's options.
    Raises SaveError (a sentence) when the old save cannot be read."""
    try:
        reg = registration(str(data.get("game")))
    except SetupError:
        raise SaveError("save.unknown_game", game=str(data.get("game"))) from None
    upgraded = dict(data)
    try:
        upgraded["options"] = reg.complete(reg.options.upgrade(data["options"]))
        upgraded["state"] = reg.state_class.from_json(data["state"]).to_json()
        upgraded["undo"] = [{**snap, "state": reg.state_class.from_json(snap["state"]).to_json()}
                            for snap in data["undo"]]
    except (GameError, KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise SaveError("save.old_damaged") from exc
    upgraded["version"] = 2
    return upgraded


def save_game(path: Path, saved: SavedGame) -> None:
    atomic_write_text(path, json.dumps(saved.to_json(), ensure_ascii=False))


MAX_SAVE_BYTES = 32 * 1024 * 1024
"""The largest file read as a save (a whole game with its undo steps is well under 2 MB)."""


def load_game(path: Path) -> SavedGame:
    try:
        if path.stat().st_size > MAX_SAVE_BYTES:
            raise SaveError("save.too_large", path=str(path))
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SaveError("save.missing", path=str(path)) from None
    except RecursionError:
        raise SaveError("save.too_deep", path=str(path)) from None
    except (OSError, ValueError) as exc:
        raise SaveError("save.unreadable", path=str(path)) from exc
    try:
        return SavedGame.from_json(data)
    except RecursionError:
        raise SaveError("save.too_deep", path=str(path)) from None


def saved_games() -> list[Path]:
    """Save files in the data folder, the most recently written first."""
    folder = saves_dir()
    if not folder.is_dir():
        return []
    files = []
    for path in folder.glob("*.json"):
        try:
            files.append((path.stat().st_mtime, path))
        except OSError:
            continue
    return [p for _, p in sorted(files, reverse=True)]


class PathError(SaveError):
    """A file the host must write cannot be written there: a narration key and its
    fields, so the sentence is said in the game's language (``str()`` is the English)."""

    def __init__(self, key: str, **params: str) -> None:  # noqa: D107 - a narration key
        self.key = key
        self.code = ""
        self.params = params
        self.reason = self.sentence(Narrator("common", "en"))
        Exception.__init__(self, self.reason)

    def sentence(self, narrator: Narrator) -> str:
        """The sentence in ``narrator``'s language."""
        params: dict[str, Any] = {
            k: narrator.text(v) if k == "why" and v.startswith("common.") else v
            for k, v in self.params.items()}
        return narrator.text(self.key, **params)


def why_key(exc: OSError, parent_exists: bool) -> str:
    """An OS error as a narration key (or the system's own words, lower-case)."""
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "common.why_denied"
    if exc.errno == errno.EROFS:
        return "common.why_read_only"
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "common.why_disk_full"
    if exc.errno == errno.ENOENT and parent_exists:  # /proc and its like
        return "common.why_no_new_files"
    return (exc.strerror or str(exc)).lower()


def _check_writable(path: Path, what: str) -> None:
    """Raise :class:`PathError` (keys ``common.screen_<what>_...``) when ``path`` cannot be
    written: a folder, under a file, or refused by the system. A throw-away file next to
    it is created and removed; ``path`` itself is not touched."""
    if path.is_dir():
        raise PathError(f"common.screen_{what}_folder", path=str(path))
    ancestor = path.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if ancestor.exists() and not ancestor.is_dir():
        raise PathError(f"common.screen_{what}_under_file", path=str(path),
                        parent=str(ancestor))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        raise PathError(f"common.screen_{what}_cannot", path=str(path),
                        why=why_key(exc, path.parent.is_dir())) from None


def check_save_path(path: Path) -> None:
    """Raise :class:`PathError` (a sentence) when a game cannot be saved at ``path``."""
    _check_writable(path, "save")


def check_log_path(path: Path) -> None:
    """Raise :class:`PathError` (a sentence) when the event log cannot be written at
    ``path`` (a folder, under a file, a place the system refuses)."""
    _check_writable(path, "log")
    if path.exists():
        try:
            with path.open("a", encoding="utf-8"):
                pass
        except OSError as exc:
            raise PathError("common.screen_log_cannot", path=str(path),
                            why=why_key(exc, True)) from None


def _is_rng(data: Any) -> bool:
    """Whether ``data`` is a random generator's state as :func:`rng_to_json` writes it."""
    if not (isinstance(data, list) and len(data) == 3):
        return False
    version, internal, gauss = data
    if not (isinstance(version, int) and isinstance(internal, list) and internal
            and all(isinstance(x, int) and not isinstance(x, bool) for x in internal)):
        return False
    try:
        random.Random().setstate(rng_from_json(data))
    except (TypeError, ValueError, OverflowError):
        return False
    return gauss is None or isinstance(gauss, float)


def rng_to_json(state: tuple[Any, ...]) -> list[Any]:
    version, internal, gauss = state
    return [version, list(internal), gauss]


def rng_from_json(data: list[Any]) -> tuple[Any, ...]:
    version, internal, gauss = data
    return (version, tuple(internal), gauss)


class EventLog:
    """``--log FILE.jsonl``: one JSON object per line, flushed at once; the file is created
    readable by its owner only (it holds the room code). A write that fails (a full disk, a
    folder turned read-only) ends the log, never the game: ``on_failure`` is told once."""

    def __init__(self, path: Path | None,
                 on_failure: Callable[[OSError], None] | None = None) -> None:
        self.path = path
        self.on_failure = on_failure
        self._file: TextIO | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            self._file = os.fdopen(fd, "a", encoding="utf-8")

    def write(self, event: str, **data: Any) -> None:
        if self._file is None:
            return
        try:
            self._file.write(json.dumps({"event": event, **data}, ensure_ascii=False) + "\n")
            self._file.flush()
        except OSError as exc:
            self._failed(exc)

    def _failed(self, exc: OSError) -> None:
        file, self._file = self._file, None
        if file is not None:
            with contextlib.suppress(OSError):
                file.close()
        if self.on_failure is not None:
            self.on_failure(exc)
        else:
            print(f"The event log {self.path} cannot be written any more "
                  f"({exc.strerror or exc}); the game goes on without it.", file=sys.stderr)

    def close(self) -> None:
        if self._file is not None:
            try:
                self._file.close()
            except OSError as exc:  # the last lines could not be flushed
                self._file = None
                self._failed(exc)
            self._file = None


def resume_key(key: str, save_path: Path | None) -> str:
    """``key``, or its ``_file`` form when the game is saved outside the saves folder:
    a bare ``voice-host resume`` would not find it there, so the hint names the file."""
    if save_path is None or save_path.resolve().parent == saves_dir().resolve():
        return key
    return f"{key}_file"


def save_name(save_path: Path | None) -> str:
    """The save file's name, to say aloud (the whole path is printed on the screen)."""
    return save_path.name if save_path else ""
