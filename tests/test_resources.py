"""The files the package reads at run time are package resources that the wheel ships.

Grammars and cue sounds stay at the top of the repository (``grammars/``, ``audio/``);
``voice_host/grammars`` and ``voice_host/audio`` are symlinks to them, and
``[tool.setuptools.package-data]`` copies them into the wheel. These tests fail when a file
the code loads would be left out of the wheel, or is not found through ``importlib.resources``.
(``scripts/test_wheel.sh`` installs the real wheel outside the checkout and plays from it.)"""

from __future__ import annotations

import shutil
import sys
import tomllib
from fnmatch import fnmatchcase
from importlib import resources
from pathlib import Path, PurePosixPath

import pytest

from voice_host.host.core.registry import registrations
from voice_host.intent.errors import GrammarError
from voice_host.intent.grammar import GRAMMARS_ENV, grammar_dir, load_grammar
from voice_host.speech.cues import Cue, cue_path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "voice_host"
LANGUAGES = ("en", "fr")


def _package_data() -> list[str]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns: list[str] = config["tool"]["setuptools"]["package-data"]["voice_host"]
    return patterns


def _shipped(relative: str) -> bool:
    """Whether a path inside voice_host/ matches a package-data pattern (setuptools globs:
    ``*`` stays within one folder)."""
    parts = PurePosixPath(relative).parts
    for pattern in _package_data():
        wanted = PurePosixPath(pattern).parts
        if len(wanted) == len(parts) and all(map(fnmatchcase, parts, wanted)):
            return True
    return False


def _grammar_files() -> list[str]:
    """Every grammar file the code loads, relative to the package."""
    files = []
    for lang in LANGUAGES:
        files.append(f"grammars/{lang}/common.toml")
        for game in (r.grammar_name for r in registrations()):
            files.append(f"grammars/{lang}/{game}.toml")
            spec = tomllib.loads((PACKAGE / files[-1]).read_text(encoding="utf-8"))
            files += [f"grammars/{lang}/{name}"
                      for name in spec.get("settings", {}).get("open_words_file", ())]
    return files


def _loaded_files() -> list[str]:
    narration = sorted(str(p.relative_to(PACKAGE)) for p in (PACKAGE / "host" / "lang").rglob("*")
                       if p.is_file())
    return _grammar_files() + [f"audio/{cue.value}.wav" for cue in Cue] + narration


def test_the_package_folders_are_the_repositorys_grammars_and_audio() -> None:
    for name in ("grammars", "audio"):
        assert (PACKAGE / name).is_symlink(), f"voice_host/{name} should link to ../{name}"
        assert (PACKAGE / name).resolve() == (REPO / name).resolve()


@pytest.mark.parametrize("relative", _loaded_files())
def test_every_file_the_code_loads_is_found_and_shipped(relative: str) -> None:
    assert resources.files("voice_host").joinpath(*relative.split("/")).is_file(), relative
    assert _shipped(relative), f"pyproject.toml's package-data leaves out {relative}"


def test_nothing_in_grammars_or_audio_is_left_out_of_the_wheel() -> None:
    for folder in ("grammars", "audio"):
        for path in sorted((REPO / folder).rglob("*")):
            relative = path.relative_to(REPO).as_posix()
            if path.is_file() and relative != "grammars/README.md":
                assert _shipped(relative), f"pyproject.toml's package-data leaves out {relative}"


def test_every_data_file_of_the_package_is_shipped() -> None:
    # narration, the companion page, py.typed, and anything added later beside the modules
    for path in sorted(PACKAGE.rglob("*")):
        if path.is_file() and path.suffix not in (".py", ".pyc"):
            relative = path.relative_to(PACKAGE).as_posix()
            if relative.split("/")[0] not in ("grammars", "audio"):  # see the test above
                assert _shipped(relative), f"pyproject.toml's package-data leaves out {relative}"


def test_the_code_reads_through_importlib_resources() -> None:
    assert str(grammar_dir()) == str(resources.files("voice_host") / "grammars")
    assert str(cue_path(Cue.TICK)) == str(resources.files("voice_host") / "audio" / "tick.wav")


def test_a_grammar_folder_can_be_given_for_development(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # a language only this folder has, so no grammar loaded before is reused
    shutil.copytree(REPO / "grammars" / "en", tmp_path / "xx")
    monkeypatch.setenv(GRAMMARS_ENV, str(tmp_path))
    assert grammar_dir() == tmp_path
    grammar = load_grammar("codenames", "xx")
    assert grammar.lang == "xx" and grammar.phases
    with pytest.raises(GrammarError, match="There is no yy grammar for resistance"):
        load_grammar("resistance", "yy")


def test_bench_from_an_installed_package_says_it_needs_a_checkout(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from voice_host.cli import main
    from voice_host.host.cli import bench as bench_cmd

    assert bench_cmd._script() == REPO / "benchmarks" / "bench_recognition.py"
    # site-packages: the package without the repository around it
    monkeypatch.setattr(bench_cmd, "CHECKOUT", tmp_path)
    monkeypatch.delitem(sys.modules, "bench_recognition", raising=False)
    assert bench_cmd._script() is None
    assert main(["bench"]) == 2
    err = capsys.readouterr().err
    assert "needs a source checkout" in err
    assert main(["bench", "--quick", "--jobs", "1"]) == 2  # its options: the same sentence
    assert "needs a source checkout" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    assert "needs a source checkout" in capsys.readouterr().out.replace("\n", " ")
