"""Setup puts ``voice-host`` on the PATH as a link to the checkout's command
(``scripts/link_command.sh``), and leaves alone a ``voice-host`` it did not make."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "link_command.sh"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


def _link(bin_dir: Path, target: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", 'source "$1" && link_command "$2"', "link", str(SCRIPT), str(target)],
        env={"PATH": "/usr/bin:/bin", "HOME": str(bin_dir.parent),
             "VOICE_HOST_BIN_DIR": str(bin_dir)},
        capture_output=True, text=True, timeout=30, check=True)


def test_the_command_is_linked_and_linked_again(tmp_path: Path) -> None:
    first, second = tmp_path / "one" / "voice-host", tmp_path / "two" / "voice-host"
    bin_dir = tmp_path / "bin dir"  # a space in the path
    done = _link(bin_dir, first)
    link = bin_dir / "voice-host"
    assert link.is_symlink() and link.readlink() == first
    assert f"voice-host is on your PATH: {link} -> {first}" in done.stdout
    assert "is not on this shell's PATH" in done.stdout  # and says how to get it there
    _link(bin_dir, second)  # a setup run from another checkout takes the link over
    assert link.readlink() == second


def test_a_voice_host_it_did_not_make_is_left_alone(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    other = bin_dir / "voice-host"
    other.write_text("#!/bin/sh\n", encoding="utf-8")
    done = _link(bin_dir, tmp_path / "checkout" / "voice-host")
    assert not other.is_symlink() and other.read_text(encoding="utf-8") == "#!/bin/sh\n"
    assert "left as it is" in done.stdout
