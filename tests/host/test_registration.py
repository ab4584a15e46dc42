"""A new game needs only its own modules (engine, host package, grammar and narration files,
page script) plus one registration line: the toy game in tests/host/toy is registered by the
single ``monkeypatch.setitem`` of the ``toy_registered`` fixture (tests/conftest.py), and from
there the command line plays it, ``simulate`` and ``understand`` know it, refusals are said
from its own table, its demo bots play it, and the companion page shows it and takes its
moves."""

from __future__ import annotations

import dataclasses
import io
import random
from pathlib import Path

import pytest

from voice_host import cli
from voice_host.host.core import registry
from voice_host.host.core.session import Session, SessionOptions, Stop
from voice_host.host.core.values import Heard, HeardKind, ListenRequest
from voice_host.host.io.terminal import TextOutput


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
    assert {"resistance", "ici-londres", "codenames"} <= set(names)
    assert len(set(names)) == len(names)
    for name in names:
        reg = registry.registration(name)
        assert reg.name == name and reg.grammar_name == name
        assert set(reg.defaults()) <= {f.name for f in dataclasses.fields(reg.options)}


def test_a_game_has_one_name_its_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine, the host package and the narration table all carry the module's name;
    the command line's is derived from it, and a registration under another name is
    refused with a sentence."""
    import sys
    import types

    from voice_host.games import SetupError
    from voice_host.games.base import game_name, module_name

    for module in registry.REGISTERED:
        reg = registry.registration(game_name(module))
        assert reg.state_class.__module__.rsplit(".", 1)[-1] == module_name(reg.name)
        assert module.rsplit(".", 1)[-1] == module_name(reg.name)
    assert game_name("voice_host.host.adapters.ici_londres") == "ici-londres"
    # a module called "spyfall" that registers Codenames: refused, with the reason
    spyfall = types.ModuleType("spyfall")
    spyfall.REGISTRATION = registry.registration("codenames")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "spyfall", spyfall)
    monkeypatch.setattr(registry, "REGISTERED", (*registry.REGISTERED, "spyfall"))
    registry.reload()
    with pytest.raises(SetupError, match="registers codenames, not spyfall"):
        registry.registration("spyfall")
    registry.reload()


@pytest.mark.network
def test_the_companion_page_shows_a_registered_game_and_takes_its_moves(
        toy_registered: None) -> None:
    httpx = pytest.importorskip("httpx", reason="httpx (test client) is not installed")
    pytest.importorskip("starlette", reason="the companion extra (starlette) is not installed")
    from tests.host.toy.engine import Add, TenState
    from tests.support.companion_phone import page_origin
    from voice_host.host.companion import CompanionChannel

    state = TenState(["Ada", "Ben"])
    channel = CompanionChannel("ten", state.players, host="127.0.0.1", port=0)
    channel.start()
    try:
        channel.publish(state)
        with httpx.Client(base_url=channel.url, headers=page_origin(channel.url),
                          timeout=10) as client:
            script = client.get("/game.js")
            assert script.status_code == 200
            assert 'register("ten"' in script.text  # the toy's own page.js, not another game's
            assert "javascript" in script.headers["content-type"]
            words = client.get("/api/strings").json()["strings"]
            assert words["game.turn"] == "{player} adds one, two or three to {total}."
            assert words["page.game_not_shown"]  # the page's own words are still there
            tokens = {}
            for seat in state.players:
                body = client.post("/api/claim", json={"room": channel.room_code,
                                                       "seat": seat}).json()
                tokens[seat] = body["token"]
                assert client.post(f"/api/seat/{seat}/confirm", json={},
                                   headers={"X-Seat-Token": tokens[seat]}).status_code == 200
            channel.lock_seats()

            def offered(seat: str) -> list[tuple[str, str]]:
                items = client.get(f"/api/seat/{seat}",
                                   headers={"X-Seat-Token": tokens[seat]}).json()["items"]
                view = next(i for i in items if i["type"] == "view")
                assert view["game"] == "ten" and view["view"]["total"] == 0
                return [(c["id"], c["label"]) for c in view["choices"]]

            assert offered("Ada") == [("add:1", "Add 1"), ("add:2", "Add 2"), ("add:3", "Add 3")]
            assert offered("Ben") == []  # not Ben's turn
            act = client.post("/api/seat/Ada/act", json={"choice": "add:2"},
                              headers={"X-Seat-Token": tokens["Ada"]})
            assert act.status_code == 200
            assert channel.take_actions(state) == [Add("Ada", 2)]
    finally:
        channel.stop()


def test_the_real_games_bring_their_own_page_scripts() -> None:
    for name in registry.game_names():
        script = registry.registration(name).page_script
        assert script is not None and script.is_file(), name
        assert f'window.companionGames.register("{name}"' in script.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_list_a_grammar_uses_is_fixed_or_declared_by_its_game(lang: str) -> None:
    """Run-time lists are the registration's (``slot_lists``): intent hard-codes none."""
    from voice_host.intent import SlotValues, load_grammar
    from voice_host.intent.expand import WILDCARD_LIST
    from voice_host.intent.grammar import PLAYER_LIST

    for reg in registry.registrations():
        declared = reg.example_lists(lang)
        grammar = load_grammar(reg.grammar_name, lang)
        for phase in grammar.phases:
            pg = grammar.phase(phase, SlotValues(players=("Ada", "Ben"), lists=declared))
            missing = pg.used_lists - set(pg.lists) - {WILDCARD_LIST}
            assert not missing, f"{reg.name}.{phase} ({lang}) uses undeclared lists {missing}"
        assert {s.name for s in declared}.isdisjoint({PLAYER_LIST, WILDCARD_LIST})
