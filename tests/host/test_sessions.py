"""Every game, played to the end by scripted players through the real session loop and
matcher (text in, text out), in host-deal mode: the game finishes, is saved, and the public
log never carries a secret."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from tests.support.scripted import game_over_of
from voice_host.host.adapters import make_adapter, new_game
from voice_host.host.core.adapter import winner_json
from voice_host.host.core.registry import registration
from voice_host.host.core.session import Session, SessionOptions, Stop
from voice_host.host.core.store import EventLog, load_game
from voice_host.host.io.bots import TextBots
from voice_host.host.io.secret_files import SecretFiles
from voice_host.host.io.terminal import TextOutput

OPTIONS = {
    "resistance": {"players": ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn"], "double_agent": True,
                   "votes": "together", "first": None},
    "ici-londres": {"players": ["Ada", "Ben", "Cleo"], "mode": "competing", "rounds": 3,
                    "first": None},
    "codenames": {"red": ["Ada", "Ben"], "blue": ["Cleo", "Dan"], "first": None, "words": "en",
                  "invalid_clue": "refuse"},
}


@pytest.mark.parametrize("game", sorted(OPTIONS))
@pytest.mark.parametrize("confirm", ["auto", "never"])
def test_bots_finish_a_host_dealt_game_and_the_log_keeps_secrets(game: str, confirm: str,
                                                                  tmp_path: Path) -> None:
    options = {"deal": "host", "lang": "en", "seed": 11, **OPTIONS[game]}
    state = new_game(game, options)
    secrets = SecretFiles(tmp_path / "secrets")
    adapter = make_adapter(game, options, secret_sink=secrets)
    bots = TextBots(random.Random(3))
    log_path = tmp_path / "log.jsonl"
    log = EventLog(log_path)
    save = tmp_path / "game.json"
    session = Session(adapter=adapter, state=state, rng=random.Random(11),
                      output=TextOutput(stream=io.StringIO(), private_sink=secrets),
                      listener=bots, log=log, game_options=options,
                      options=SessionOptions(confirm=confirm, save_path=save))
    bots.session = session
    assert session.run(fresh=True) is Stop.FINISHED
    log.close()
    entries = [json.loads(line) for line in log_path.read_text(encoding="utf-8").splitlines()]
    assert game_over_of(entries)["winner"] == winner_json(session.state.outcome())
    cls = registration(game).state_class
    secret_fields = {t.__name__: t.secret_fields for t in cls.action_types}
    for entry in entries:
        if entry["event"] not in ("action", "refused") or entry.get("action") is None:
            continue
        action = entry["action"]
        for name in secret_fields[action["type"]]:
            assert action[name] in ("(secret)", None), f"{action['type']}.{name} leaked"
        for event in entry.get("events", []):
            if event.get("audience"):
                assert set(event) == {"type", "audience", "secret"}, f"{event} leaked"
    # the save file, by contrast, holds everything needed to resume
    saved = load_game(save)
    assert cls.from_json(saved.state).is_terminal()
    assert any(secrets.folder.iterdir()), "host mode delivers secrets to files"


def test_an_unknown_speaker_is_told_so_and_nothing_changes(tmp_path: Path) -> None:
    options = {"deal": "table", "lang": "en", "seed": 2, **OPTIONS["resistance"]}
    state = new_game("resistance", options)
    adapter = make_adapter("resistance", options)
    out = io.StringIO()
    script = tmp_path / "s.txt"
    script.write_text("Zed: yes\n", encoding="utf-8")
    from voice_host.host.io.terminal import ScriptListener

    session = Session(adapter=adapter, state=state, rng=random.Random(2),
                      output=TextOutput(stream=out), listener=ScriptListener(script),
                      options=SessionOptions(confirm="never"))
    while session.state.is_chance_node():
        session.apply(adapter.chance(session.state, session.rng), record_undo=False)
    before = json.dumps(session.state.to_json(), sort_keys=True)
    prompt = adapter.prompt(session.state)
    while prompt is None:
        adapter.host_step(session.state)
        prompt = adapter.prompt(session.state)
    session.listen_once(prompt)
    assert "I do not know anyone called Zed" in out.getvalue()
    assert json.dumps(session.state.to_json(), sort_keys=True) == before


def test_a_universal_command_during_the_broadcast_is_not_taken_as_the_message(
        tmp_path: Path) -> None:
    from voice_host.host.io.terminal import ScriptListener

    options = {"deal": "table", "lang": "en", "seed": 4, **OPTIONS["ici-londres"]}
    script = tmp_path / "s.txt"
    script.write_text("repeat\nIl adorait ses kilos\n", encoding="utf-8")
    out = io.StringIO()
    session = Session(adapter=make_adapter("ici-londres", options),
                      state=new_game("ici-londres", options), rng=random.Random(4),
                      output=TextOutput(stream=out), listener=ScriptListener(script),
                      options=SessionOptions(confirm="never"))
    assert session.run(fresh=True) is Stop.INPUT_ENDED
    text = out.getvalue()
    assert "[radio] repeat" not in text
    assert "[radio] Il adorait ses kilos" in text


def test_no_speaker_falls_back_to_words_on_screen(tmp_path: Path, monkeypatch,  # type: ignore[no-untyped-def]
                                                  capsys) -> None:
    from voice_host.cli import main
    from voice_host.speech import mic

    monkeypatch.setattr(mic, "list_devices", lambda **_: [])
    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path))
    script = tmp_path / "s.txt"
    script.write_text("stop the game\nyes\n", encoding="utf-8")
    assert main(["play", "ici-londres", "--players", "Ada,Ben,Cleo", "--script", str(script),
                 "--seed", "1"]) == 0
    captured = capsys.readouterr()
    assert "I cannot find a speaker" in captured.err
    assert captured.err.count("I cannot find a speaker") == 1
    assert "HOST: Welcome to Ici Londres" in captured.out


STOP_CASES = [
    # (game, options, lines before the word, the word, the answer to the confirmation)
    ("ici-londres", {"players": ["Ada", "Ben", "Cleo"], "mode": "fragments", "rounds": 1,
                     "first": None, "lang": "en", "deal": "table", "seed": 1}, [], "stop",
     "yes"),
    ("resistance", {"players": ["Ada", "Ben", "Cleo", "Dan", "Eve"], "double_agent": True,
                    "votes": "together", "first": "Ada", "lang": "en", "deal": "table",
                    "seed": 1}, ["Ada and Ben"], "quit", "yes"),  # "stop" right after
    # a move takes it back (tests/host/test_corrections.py)
    ("resistance", {"players": ["Ada", "Ben", "Cleo", "Dan", "Eve"], "double_agent": True,
                    "votes": "together", "first": "Ada", "lang": "fr", "deal": "table",
                    "seed": 1}, [], "arrête", "oui"),
    ("codenames", {"red": ["Ada", "Ben"], "blue": ["Cleo", "Dan"], "first": "red",
                   "words": "en", "invalid_clue": "refuse", "lang": "en", "deal": "host",
                   "seed": 1}, ["Ada: ocean two"], "quit", "yes"),
    ("codenames", {"red": ["Ada", "Ben"], "blue": ["Cleo", "Dan"], "first": "red",
                   "words": "en", "invalid_clue": "refuse", "lang": "en", "deal": "host",
                   "seed": 1}, [], "stop", "yes"),
]


@pytest.mark.parametrize(("game", "opts", "before", "word", "yes"), STOP_CASES,
                         ids=[f"{c[0]}-{c[3]}" for c in STOP_CASES])
def test_stop_and_quit_alone_stop_the_game_everywhere_after_a_confirmation(
        tmp_path: Path, game: str, opts: dict[str, object], before: list[str], word: str,
        yes: str) -> None:
    from tests.support.scripted import run_script

    run = run_script(tmp_path, game, dict(opts), [*before, word, yes], confirm="auto",
                     save=tmp_path / "game.json")
    assert run.stop is Stop.QUIT, run.text
    question = ("Do you want to stop the game? It will be saved." if opts["lang"] == "en"
                else "Voulez-vous arrêter la partie ? Elle sera sauvegardée.")
    assert question in run.text
    assert "[radio] stop" not in run.text  # not taken as the coded sentence
    assert run.events("stopped")[-1]["reason"] == "quit"


def test_the_log_has_refusals_with_their_reason_and_one_winner_type(tmp_path: Path) -> None:
    """Every game writes ``game_over.winner`` as a list, and a command the host refuses is
    logged with its reason, whether the host or the rules engine refused it."""
    from tests.support.scripted import run_script

    res = run_script(tmp_path, "resistance", {
        "players": ["Ada", "Ben", "Cleo", "Dan", "Eve"], "double_agent": True,
        "votes": "together", "first": "Ada", "lang": "en", "deal": "table", "seed": 1},
        ["Ada and Ben", "Cleo yes", "Cleo: no", "Ben and Cleo and Dan"], name="res")
    refused = res.events("refused")
    assert {"code": "already_voted", "reason": "Cleo already voted."}.items() \
        <= refused[0].items()
    assert refused[0]["params"] == {"player": "Cleo"}
    assert "Cleo, you have already voted." in res.text
    ici = run_script(tmp_path, "ici-londres", {
        "players": ["Ada", "Ben", "Cleo"], "mode": "fragments", "rounds": 1, "first": None,
        "lang": "en", "deal": "table", "seed": 1},
        ["A sentence", "Cleo: heart", "heart", "hit", "Cleo: book", "hit"], name="ici")
    assert ici.events("refused")[0]["reason"] == "Cleo, it is Ben's turn to guess."
    assert ici.game_over()["winner"] == ["Ben"]
    cn = run_script(tmp_path, "codenames", {
        "red": ["Ada", "Ben"], "blue": ["Cleo", "Dan"], "first": "red", "words": "en",
        "invalid_clue": "refuse", "lang": "en", "deal": "host", "seed": 1},
        ["Ada: ice cream two"], name="cn")
    assert cn.events("refused")[0]["reason"].startswith("A clue is one word")
    for run in (res, ici, cn):
        for line in run.log:
            assert line["event"] != "rejected"
