"""Files that cannot be played get a sentence and exit code 2, never a traceback: a script
that is not UTF-8, a recording longer than one utterance may last, a save nested 100,000
levels deep or too large; and the settings a save keeps are read like a command line (a
save cannot open the companion page wider than this machine's address, nor put the event
log outside the data folder)."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest

from voice_host.cli import main
from voice_host.host.cli.play import add_common
from voice_host.host.cli.saved_settings import checked_settings, quiet_parser
from voice_host.host.core.store import SaveError
from voice_host.speech.types import RecordingTooLong
from voice_host.speech.wav import (
    MAX_UTTERANCE_SECONDS,
    read_utterance_wav,
    wav_seconds,
    write_wav,
)

PLAY = ["play", "resistance", "--players", "Ada,Ben,Cleo,Dan,Eve", "--first", "Ada",
        "--input", "text", "--output", "text", "--confirm", "never", "--seed", "3"]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("VOICE_HOST_DATA", str(folder))
    return folder


def _long_wav(path: Path, seconds: float) -> Path:
    """A 16 kHz 16-bit mono WAV header announcing ``seconds`` of sound, the file made that
    long without writing it (sparse: no disk space used)."""
    data = int(seconds * 16000) * 2
    header = b"RIFF" + struct.pack("<I", 36 + data) + b"WAVE" + b"fmt " + struct.pack(
        "<IHHIIHH", 16, 1, 1, 16000, 32000, 2, 16) + b"data" + struct.pack("<I", data)
    with path.open("wb") as f:
        f.write(header)
        f.truncate(len(header) + data)
    return path


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_script_that_is_not_utf8_gets_a_sentence(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str], lang: str) -> None:
    script = tmp_path / "moves.txt"
    script.write_bytes(b"Ada and Ben\neveryone yes\n" + "Cléo non\n".encode("latin-1"))
    code = main([*PLAY, "--lang", lang, "--script", str(script)])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    says = {"en": f"The script {script} is not UTF-8 text: line 3 cannot be read. Save it as "
                  "UTF-8.",
            "fr": f"Le script {script} n'est pas un texte UTF-8 : sa ligne 3 est illisible."}
    assert says[lang] in err


def test_a_half_hour_wav_line_is_refused_before_the_game(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wav = _long_wav(tmp_path / "meeting.wav", 30 * 60)
    script = tmp_path / "moves.txt"
    script.write_text(f"Ada and Ben\nAda: {wav.name}\n", encoding="utf-8")
    code = main([*PLAY, "--script", str(script)])
    captured = capsys.readouterr()
    assert code == 2 and "Traceback" not in captured.err
    assert ("The recording meeting.wav on line 2 of the script lasts 1800 seconds; a "
            "recording may last at most 60 seconds.") in captured.err
    assert "Welcome" not in captured.out


def test_a_wav_longer_than_an_utterance_is_not_decoded(tmp_path: Path) -> None:
    long = _long_wav(tmp_path / "long.wav", MAX_UTTERANCE_SECONDS + 1)
    assert wav_seconds(long) == pytest.approx(MAX_UTTERANCE_SECONDS + 1)
    with pytest.raises(RecordingTooLong) as refused:
        read_utterance_wav(long)
    assert "61 seconds" in str(refused.value)
    short = tmp_path / "short.wav"
    write_wav(short, (np.sin(np.arange(16000) / 5) * 8000).astype(np.int16))
    assert wav_seconds(short) == pytest.approx(1.0)
    assert len(read_utterance_wav(short)) == 16000


def _a_save(tmp_path: Path, data: Path) -> Path:
    save = tmp_path / "game.json"
    script = tmp_path / "part.txt"
    script.write_text("Ada and Ben\n", encoding="utf-8")
    assert main([*PLAY, "--script", str(script), "--save", str(save)]) == 3
    return save


@pytest.mark.parametrize(("how", "says"), [
    ("deep", "is nested too deep to be a saved game"),
    ("deep_state", "is nested too deep to be a saved game"),
    ("huge", "is too large to be a saved game"),
])
def test_a_deep_or_huge_save_gets_a_sentence(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str], how: str,
        says: str) -> None:
    save = _a_save(tmp_path, data)
    if how == "deep":
        save.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    elif how == "deep_state":
        saved = json.loads(save.read_text(encoding="utf-8"))
        text = json.dumps(saved).replace('"state": {', '"state": {"x": ' + "[" * 100_000
                                         + "]" * 100_000 + ", ", 1)
        save.write_text(text, encoding="utf-8")
    else:
        with save.open("r+b") as f:
            f.truncate(40 * 1024 * 1024)  # sparse: no disk space used
    capsys.readouterr()
    code = main(["resume", str(save), "--input", "text", "--output", "text"])
    err = capsys.readouterr().err
    assert code == 2 and says in err and "Traceback" not in err
    # a bare resume passes over it with the same sentence
    capsys.readouterr()


def _with_settings(save: Path, **settings: object) -> None:
    saved = json.loads(save.read_text(encoding="utf-8"))
    saved["settings"].update(settings)
    save.write_text(json.dumps(saved), encoding="utf-8")


def test_a_save_cannot_put_the_log_outside_the_data_folder(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = _a_save(tmp_path, data)
    outside = tmp_path / "elsewhere" / "bashrc"
    outside.parent.mkdir()
    outside.write_text("# the user's file\n", encoding="utf-8")
    _with_settings(save, log=str(outside))
    capsys.readouterr()
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    code = main(["resume", str(save), "--output", "text", "--script", str(empty)])
    err = capsys.readouterr().err
    assert code == 3 and "Traceback" not in err
    assert f"The saved game asks to write its event log to {outside}, outside the data " \
           "folder" in err
    assert outside.read_text(encoding="utf-8") == "# the user's file\n"
    created = tmp_path / "elsewhere" / "new.jsonl"  # nor make a new file out there
    _with_settings(save, log=str(created))
    assert main(["resume", str(save), "--output", "text", "--script", str(empty)]) == 3
    assert not created.exists()
    inside = data / "logs" / "game.jsonl"  # inside the data folder: kept
    _with_settings(save, log=str(inside))
    assert main(["resume", str(save), "--output", "text", "--script", str(empty)]) == 3
    assert inside.exists()


@pytest.mark.parametrize("settings", [
    {"input": 5}, {"input": "keyboard"}, {"port": "80; rm -rf"}, {"port": 70000},
    {"confirm": ["never"]}, {"silence_timeout": -1}, {"companion": "yes"},
    {"tls": ["only-one"]}, {"log": {"path": "x"}}, {"asr": "whisper\0"},
])
def test_settings_the_command_line_would_refuse_make_the_save_damaged(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str],
        settings: dict[str, object]) -> None:
    save = _a_save(tmp_path, data)
    _with_settings(save, **settings)
    before = save.read_bytes()
    capsys.readouterr()
    code = main(["resume", str(save), "--input", "text", "--output", "text", "--lang", "fr"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "Cette partie sauvegardée est endommagée : la façon dont elle se jouait est " \
           "illisible." in err
    assert save.read_bytes() == before


def test_a_save_cannot_open_the_companion_page_wider(data: Path) -> None:
    parser = quiet_parser(add_common)
    checked = checked_settings({"companion": True, "companion_host": "0.0.0.0", "port": 8765},
                               parser)
    assert checked.values["companion_host"] is None  # this machine's network address
    assert checked.values["companion"] is True and checked.values["port"] == 8765
    assert checked.notes == {
        "companion_host": ("common.screen_saved_address", {"address": "0.0.0.0"})}
    for narrow in ("127.0.0.1", "::1"):
        kept = checked_settings({"companion": True, "companion_host": narrow}, parser)
        assert kept.values["companion_host"] == narrow and not kept.notes
    with pytest.raises(SaveError):
        checked_settings({"output": 3}, parser)
