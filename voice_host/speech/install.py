"""Commands that install what is missing, written so that they run as printed.

A hint such as "Install it with: pip install vosk" fails as typed on Debian (no ``pip`` on
the PATH, or the system's Python refusing packages), and an extra of voice-host itself is
not on PyPI. So every command the program prints is built here: pip is this very Python's
(``sys.executable -m pip``, an absolute path, so the package lands in the environment
voice-host runs in, from any folder); an extra of voice-host is the checkout's own setup
script when voice-host runs from a source checkout, else the extra's requirements by name;
a system package is ``apt-get install`` (with ``sudo`` for a user other than root). Every
word is quoted for the shell.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "voice-host"


def pip_install(*requirements: str) -> str:
    """The command that installs ``requirements`` into the environment voice-host runs in."""
    return " ".join([shlex.quote(sys.executable), "-m", "pip", "install",
                     *(shlex.quote(r) for r in requirements)])


def apt_install(*packages: str) -> str:
    """The command that installs Debian or Ubuntu ``packages``."""
    sudo = [] if _is_root() else ["sudo"]
    return " ".join([*sudo, "apt-get", "install", "-y", *(shlex.quote(p) for p in packages)])


def extra_install(extra: str) -> str:
    """The command that installs voice-host's optional ``extra`` (``speech``,
    ``companion``): the checkout's ``scripts/setup.sh`` (which installs both, with their
    system packages) when voice-host runs from a source checkout, else the extra's
    requirements."""
    root = checkout_root()
    if root is not None:
        return "bash " + shlex.quote(str(root / "scripts" / "setup.sh"))
    return pip_install(*(extra_requirements(extra) or [f"{DISTRIBUTION}[{extra}]"]))


def checkout_root(package: Path | None = None) -> Path | None:
    """The source checkout the package ``package`` (voice_host's folder by default) lies
    in, or None when it was installed from a wheel."""
    folder = package if package is not None else Path(__file__).resolve().parents[1]
    root = folder.parent
    if (root / "pyproject.toml").is_file() and (root / "scripts" / "setup.sh").is_file():
        return root
    return None


def extra_requirements(extra: str) -> list[str]:
    """The requirements of voice-host's ``extra``, as its installed metadata lists them
    (empty when voice-host's metadata cannot be read)."""
    try:
        listed = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        return []
    wanted = re.compile(r"""extra\s*==\s*["']""" + re.escape(extra) + r"""["']""")
    found = []
    for requirement in listed:
        spec, _, marker = requirement.partition(";")
        if wanted.search(marker):
            found.append(spec.strip())
    return found


def _is_root() -> bool:
    geteuid = getattr(os, "geteuid", None)
    return geteuid is not None and geteuid() == 0
