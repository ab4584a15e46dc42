"""The install commands the program prints run as printed: this Python's own pip (an
absolute path), apt-get with sudo only for a user other than root, the checkout's setup
script for an extra of voice-host, every word quoted for the shell."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from voice_host.speech import install


def test_pip_is_this_pythons_own_and_every_word_is_quoted() -> None:
    command = install.pip_install("pocketsphinx>=5", "vosk")
    assert shlex.split(command) == [sys.executable, "-m", "pip", "install", "pocketsphinx>=5",
                                    "vosk"]
    assert Path(shlex.split(command)[0]).is_absolute()
    assert "'pocketsphinx>=5'" in command  # '>' would redirect the output in a shell


def test_the_printed_pip_runs_from_the_root_folder_in_a_shell() -> None:
    pip = install.pip_install().removesuffix(" install")
    done = subprocess.run(["sh", "-c", f"cd / && {pip} --version"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("pip ")


@pytest.mark.parametrize(("uid", "expected"), [
    (0, ["apt-get", "install", "-y", "espeak-ng"]),
    (1000, ["sudo", "apt-get", "install", "-y", "espeak-ng"]),
])
def test_apt_needs_sudo_only_for_another_user(monkeypatch: pytest.MonkeyPatch, uid: int,
                                              expected: list[str]) -> None:
    monkeypatch.setattr(install.os, "geteuid", lambda: uid, raising=False)
    assert shlex.split(install.apt_install("espeak-ng")) == expected


def test_an_extra_from_a_checkout_is_its_setup_script(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "my checkout"
    (root / "scripts").mkdir(parents=True)
    (root / "scripts" / "setup.sh").write_text("", encoding="utf-8")
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    assert install.checkout_root(root / "voice_host") == root
    monkeypatch.setattr(install, "checkout_root", lambda: root)
    assert shlex.split(install.extra_install("speech")) == [
        "bash", str(root / "scripts" / "setup.sh")]


def test_an_extra_of_an_installed_wheel_is_its_requirements(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert install.checkout_root(tmp_path / "site-packages" / "voice_host") is None
    monkeypatch.setattr(install, "checkout_root", lambda: None)
    monkeypatch.setattr(install.metadata, "requires", lambda name: [
        "wordfreq>=3", 'vosk>=0.3; extra == "speech"', "starlette>=0.3 ; extra == 'companion'",
        'pytest; extra == "dev"'])
    assert shlex.split(install.extra_install("speech")) == [
        sys.executable, "-m", "pip", "install", "vosk>=0.3"]
    assert shlex.split(install.extra_install("companion"))[-1] == "starlette>=0.3"


def test_without_metadata_the_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> list[str]:
        raise install.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(install, "checkout_root", lambda: None)
    monkeypatch.setattr(install.metadata, "requires", missing)
    assert shlex.split(install.extra_install("speech"))[-1] == "voice-host[speech]"


def test_this_checkout_is_found() -> None:
    root = Path(install.__file__).resolve().parents[2]
    assert install.checkout_root() == root
