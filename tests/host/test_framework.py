"""The generic host pieces: saves, narration resources, script parsing, secret files."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from voice_host.host.core.narration import Narrator, catalogue
from voice_host.host.core.store import (
    SavedGame,
    SaveError,
    atomic_write_text,
    load_game,
    rng_from_json,
    rng_to_json,
    save_game,
)
from voice_host.host.core.values import HeardKind, Line, ListenRequest, Style
from voice_host.host.io.secret_files import SecretFiles
from voice_host.host.io.terminal import ScriptListener, TextOutput, parse_script_line

REQUEST = ListenRequest(grammar=None, grammar_name="x.y", expected=("Ada",))


def test_script_line_names_the_speaker_only_when_it_looks_like_a_name() -> None:
    assert parse_script_line("Hannah: heart and book") == ("Hannah", "heart and book")
    assert parse_script_line("vote yes") == (None, "vote yes")
    assert parse_script_line("Mary Ann: yes") == ("Mary Ann", "yes")
    assert parse_script_line("well I think: we should go") == (None, "well I think: we should go")
    # a word of the phase's commands before the colon is part of the sentence, not a name
    words = frozenset({"yes", "no", "the", "rest", "oui"})
    assert parse_script_line("yes: Ada, Ben; the rest no", words) == (
        None, "yes: Ada, Ben; the rest no")
    assert parse_script_line("oui : Ada et Ben", words) == (None, "oui : Ada et Ben")
    assert parse_script_line("Ada: yes", words) == ("Ada", "yes")


def test_script_listener_reads_lines_silence_and_end(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("# a comment\nAda: yes\n\n(silence)\nno\n", encoding="utf-8")
    listener = ScriptListener(script)
    first = listener.listen(REQUEST)
    assert (first.kind, first.speaker, first.text) == (HeardKind.SPEECH, "Ada", "yes")
    assert listener.listen(REQUEST).kind is HeardKind.SILENCE
    assert listener.listen(REQUEST).text == "no"
    assert listener.listen(REQUEST).kind is HeardKind.END


def test_script_wav_line_without_recognizer_is_an_error_sentence(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("Ada: take.wav\n", encoding="utf-8")
    heard = ScriptListener(script).listen(REQUEST)
    assert heard.kind is HeardKind.ERROR and heard.error.endswith(".")


def test_saved_game_round_trip_and_rng_state(tmp_path: Path) -> None:
    rng = random.Random(5)
    rng.random()
    saved = SavedGame(game="resistance", options={"players": ["A"]}, state={"x": 1},
                      rng=rng_to_json(rng.getstate()), host_state={"night": True}, undo=[])
    path = tmp_path / "g.json"
    save_game(path, saved)
    back = load_game(path)
    assert back.to_json() == saved.to_json()
    other = random.Random()
    other.setstate(rng_from_json(back.rng))
    assert other.random() == rng.random()


def test_load_game_refuses_other_files_with_a_sentence(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(SaveError, match="cannot be read"):
        load_game(bad)
    bad.write_text(json.dumps({"hello": 1}), encoding="utf-8")
    with pytest.raises(SaveError, match="not a voice-host saved game"):
        load_game(bad)
    with pytest.raises(SaveError, match="no saved game"):
        load_game(tmp_path / "missing.json")


def test_atomic_write_leaves_no_temporary_files(tmp_path: Path) -> None:
    path = tmp_path / "a" / "f.json"
    atomic_write_text(path, "one")
    atomic_write_text(path, "two")
    assert path.read_text() == "two"
    assert [p.name for p in path.parent.iterdir()] == ["f.json"]


def test_narrator_variants_turn_and_french_falls_back_to_english() -> None:
    en = Narrator("resistance", "en")
    first = en.text("common.not_understood")
    second = en.text("common.not_understood")
    assert first != second
    fr = Narrator("resistance", "fr")
    assert fr.text("common.silence") == "Je n'ai rien entendu."
    assert fr.names(["Ada", "Ben", "Cleo"]) == "Ada, Ben et Cleo"


def test_every_common_key_is_translated() -> None:
    assert set(catalogue("en", "none")) == set(catalogue("fr", "none"))


def test_private_lines_never_reach_the_text_output(tmp_path: Path) -> None:
    stream = io.StringIO()
    secrets = SecretFiles(tmp_path)
    out = TextOutput(stream=stream, private_sink=secrets)
    out.emit([Line("You are a spy.", style=Style.PRIVATE, to="Ada"), Line("Hello.")])
    assert "spy" not in stream.getvalue() and "Hello." in stream.getvalue()
    assert secrets.path_for("Ada").read_text(encoding="utf-8") == "You are a spy.\n"


def test_secret_file_names_are_safe() -> None:
    files = SecretFiles(Path("/tmp/x"))
    assert files.path_for("../Zoé O'Neil").name == "secret-Zoé_O_Neil.txt"
