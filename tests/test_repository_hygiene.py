"""The repository says what the project is, not how it came to be: no tracked file names a
work session or a tracker issue by number (the history lives in git and CHANGELOG.md), and
the README stays short enough for a newcomer to read."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README_MAX_LINES = 300

# spelled in pieces, so that this file does not match its own pattern
_HISTORY = re.compile(r"\b(?:" + "ses" + "sions?" + "|" + "is" + "sues?" + r")[\s#-]{0,2}\d+",
                      re.IGNORECASE)


def _tracked_files() -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode()
    return [ROOT / name for name in listed.split("\0") if name]


def history_references(text: str) -> list[str]:
    """The references to a numbered work session or issue in ``text``."""
    return [found.group(0) for found in _HISTORY.finditer(text)]


def test_the_pattern_finds_what_it_is_meant_to_find() -> None:
    said = "as measured in " + "Ses" + "sion 21, see " + "is" + "sue #17 and " + "ses" + \
        "sions 3-4"
    assert history_references(said) == ["Ses" + "sion 21", "is" + "sue #17",
                                        "ses" + "sions 3"]
    assert history_references("a game session, issue a refusal, 21 sessions ago") == []


def test_no_tracked_file_names_a_work_session_or_an_issue() -> None:
    found = []
    for path in _tracked_files():
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary: sounds, images
        for number, line in enumerate(text.splitlines(), 1):
            for reference in history_references(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {reference}")
    assert not found, "development history in tracked files (say what the code does, in " \
                      "the present; history goes to git and CHANGELOG.md):\n" + "\n".join(found)


def test_the_readme_is_at_most_300_lines() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, \
        f"README.md has {len(lines)} lines; details go to docs/"
