"""Shared fixtures: the toy game (tests/host/toy) registered by its one line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from voice_host.host.core import narration, registry
from voice_host.intent import grammar

TOY = Path(__file__).parent / "host" / "toy"


def _overlay(target: Path, *sources: Path) -> None:
    """``target/<lang>/*``: links to the files of every source (the real ones and the
    toy's), as a development override folder."""
    for source in sources:
        for lang in source.iterdir():
            if not lang.is_dir():
                continue
            (target / lang.name).mkdir(parents=True, exist_ok=True)
            for f in lang.iterdir():
                (target / lang.name / f.name).symlink_to(f.resolve())


@pytest.fixture(autouse=True)
def english_system_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts on a system whose language is English (C.UTF-8), whatever the
    machine's: where no save or option names a language, ``resume`` speaks the system's."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture
def toy_registered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    grammars, lang = tmp_path / "grammars", tmp_path / "lang"
    _overlay(grammars, Path(grammar.grammar_dir()), TOY / "grammars")
    _overlay(lang, Path(str(narration.narration_dir())), TOY / "lang")
    monkeypatch.setenv("VOICE_HOST_GRAMMARS", str(grammars))
    monkeypatch.setenv("VOICE_HOST_NARRATION", str(lang))
    registry.reload()
    # the one line a new game adds:
    monkeypatch.setattr(registry, "REGISTERED", (*registry.REGISTERED, "tests.host.toy.ten"))
    yield
    monkeypatch.undo()
    registry.reload()
