"""A new game needs only its own modules (engine, host package, grammar and narration files)
plus one registration line: the toy game in tests/host/toy is registered by the single
``monkeypatch.setitem`` below, and from there the command line plays it, ``simulate`` and
``understand`` know it, refusals are said from its own table, and its demo bots play it."""

from __future__ import annotations

import dataclasses
import io
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from voice_host import cli
from voice_host.host import narration, registry
from voice_host.host.io import Heard, HeardKind, ListenRequest, TextOutput
from voice_host.host.session import Session, SessionOptions, Stop
from voice_host.intent import grammar

TOY = Path(__file__).parent / "toy"
REPO = Path(__file__).parents[2]


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


def _clear_caches() -> None:
    registry.registration.cache_clear()
    narration.catalogue.cache_clear()
    narration._load.cache_clear()
    grammar._LOADED.clear()


@pytest.fixture
def toy_registered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    grammars, lang = tmp_path / "grammars", tmp_path / "lang"
    _overlay(grammars, Path(grammar.grammar_dir()), TOY / "grammars")
    _overlay(lang, Path(str(narration.narration_dir())), TOY / "lang")
    monkeypatch.setenv("VOICE_HOST_GRAMMARS", str(grammars))
    monkeypatch.setenv("VOICE_HOST_NARRATION", str(lang))
    _clear_caches()
    # the one line a new game adds:
    monkeypatch.setitem(registry.REGISTERED, "ten", "tests.host.toy.host")
    yield
    monkeypatch.delitem(registry.REGISTERED, "ten")
    _clear_caches()


def test_the_command_line_plays_a_registered_game_to_its_end(
        toy_registered: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "moves.txt"
    # Ben speaks out of turn (refused from the toy's own table, nothing applied), then
    # 3 + 3 + 3 + 1 = 10: Ada wins
    script.write_text("Ben: two\nAda: three\nBen: I add three\nAda: plus three\n"
                      "Ben: three\nBen: one\n", encoding="utf-8")
    code = cli.main(["play", "ten", "--players", "Ada,Ben", "--input", "text",
                     "--script", str(script), "--output", "text", "--confirm", "never",
                     "--save", str(tmp_path / "ten.json"), "--seed", "1"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "Wait: it is Ada's turn." in out
    assert "That would pass ten; the total is 9." in out
    assert "Ben reaches ten and wins." in out


def test_simulate_and_understand_know_a_registered_game(
        toy_registered: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "ten", "--games", "5"]) == 0
    assert "ten: 5 games, 2 players" in capsys.readouterr().out
    assert cli.main(["understand", "--game", "ten", "--phase", "count", "--players", "Ada,Ben",
                     "--text", "I add two"]) == 0
    shown = capsys.readouterr().out
    assert "add" in shown and "2" in shown


class Bots:
    """The registered bots answer every prompt."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.rng = random.Random(4)

    def listen(self, request: ListenRequest) -> Heard:
        assert self.session is not None and request.prompt is not None
        speaker, text = registry.registration("ten").bots(
            self.session.adapter, self.session.state, request.prompt, self.rng)
        return Heard(HeardKind.SPEECH, text=text, speaker=speaker)

    def close(self) -> None:
        pass


def test_the_demo_bots_of_a_registered_game_finish_it(toy_registered: None) -> None:
    options = {"players": ["Ada", "Ben", "Cleo"], "lang": "en", "deal": "host", "seed": 2}
    bots = Bots()
    out = io.StringIO()
    session = Session(adapter=registry.make_adapter("ten", options),
                      state=registry.new_game("ten", options), rng=random.Random(2),
                      output=TextOutput(out), listener=bots,
                      options=SessionOptions(confirm="never"), game_options=options)
    bots.session = session
    assert session.run(fresh=True) is Stop.FINISHED
    assert "reaches ten and wins" in out.getvalue()


def test_the_real_games_are_registered_once_each() -> None:
    names = registry.game_names()
    assert names == ("resistance", "ici-londres", "codenames")
    for name in names:
        reg = registry.registration(name)
        assert reg.name == name and reg.grammar_name == name
        assert set(reg.defaults()) <= {f.name for f in dataclasses.fields(reg.options)}
