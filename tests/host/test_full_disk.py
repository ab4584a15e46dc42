"""A full disk or a save folder that turns read-only mid-game: the host says (in the game's
language) that it cannot save, the game goes on in memory, every move tries again, and at
the end the game is saved in a fallback folder with the command that resumes it; the old
save stays whole. A failing ``--log`` warns once and never ends a game."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from voice_host.cli import main
from voice_host.host.core import store

PLAY = ["play", "resistance", "--players", "Ada,Ben,Cleo,Dan,Eve", "--first", "Ada",
        "--input", "text", "--output", "text", "--confirm", "never", "--seed", "3"]
MOVES = ["Ada and Ben", "everyone yes", "one sabotage", "Ben, Cleo and Dan", "everyone yes"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("VOICE_HOST_DATA", str(folder))
    return folder


def _script(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "moves.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _failing_saves(monkeypatch: pytest.MonkeyPatch, folder: Path, fails: Callable[[int], bool],
                   error: int) -> list[int]:
    """Writes into ``folder`` fail with ``error`` for the n-th save when ``fails(n)``: a
    full disk (ENOSPC) fails the write itself, after the temporary file was made; a folder
    turned read-only (EROFS) or taken away (EACCES) refuses the temporary file. Writes
    elsewhere (the fallback folders) work."""
    count = [0]
    real_mkstemp, real_fsync = store.tempfile.mkstemp, os.fsync

    def mkstemp(*args: object, **kwargs: object) -> tuple[int, str]:
        if Path(str(kwargs.get("dir"))) == folder:
            count[0] += 1
            if error != errno.ENOSPC and fails(count[0]):
                raise OSError(error, os.strerror(error))
        return real_mkstemp(*args, **kwargs)  # type: ignore[call-overload, no-any-return]

    def fsync(fd: int) -> None:
        try:
            where = Path(os.readlink(f"/proc/self/fd/{fd}")).parent
        except OSError:
            where = None
        if error == errno.ENOSPC and where == folder and fails(count[0]):
            raise OSError(error, os.strerror(error))
        real_fsync(fd)

    monkeypatch.setattr(store.tempfile, "mkstemp", mkstemp)
    monkeypatch.setattr(os, "fsync", fsync)
    return count


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc (Linux)")
@pytest.mark.parametrize(("error", "lang", "says"), [
    (errno.ENOSPC, "en", "I cannot save the game right now: the disk is full. The game goes "
                         "on: I keep it in memory and try again after every move."),
    (errno.EROFS, "fr", "Je ne peux pas sauvegarder la partie pour l'instant : cet "
                        "emplacement est en lecture seule."),
])
def test_saves_that_fail_to_the_end_go_to_a_fallback_folder(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, error: int, lang: str, says: str) -> None:
    folder = tmp_path / "usb"
    save = folder / "party.json"
    _failing_saves(monkeypatch, folder, lambda n: n >= 3, error)  # from the 2nd move on
    moves = MOVES if lang == "en" else ["Ada et Ben", "tout le monde oui", "un sabotage",
                                         "Ben, Cleo et Dan", "tout le monde oui"]
    code = main([*PLAY, "--lang", lang, "--script", str(_script(tmp_path, moves)), "--save",
                 str(save)])
    captured = capsys.readouterr()
    assert code == 3, captured.err  # the script ended before the game: not a crash
    assert "Traceback" not in captured.err
    assert captured.out.count(says) == 1  # said once, not at every move
    kept = json.loads(save.read_text(encoding="utf-8"))  # the old save: whole
    elsewhere = data / "saves" / "party.json"
    latest = json.loads(elsewhere.read_text(encoding="utf-8"))
    assert len(latest["state"]["history"]) > len(kept["state"]["history"])
    resume = f"voice-host resume {elsewhere}"
    assert resume in captured.err and str(elsewhere) in captured.err
    assert not list(folder.glob(".party.json.*.tmp"))  # no half-written file left
    monkeypatch.undo()
    code = main(["resume", str(elsewhere), "--input", "text", "--output", "text", "--script",
                 str(_script(tmp_path, []))])
    assert code == 3 and "Traceback" not in capsys.readouterr().err


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc (Linux)")
def test_the_host_says_when_saving_works_again(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "box"
    save = folder / "party.json"
    count = _failing_saves(monkeypatch, folder, lambda n: n in (3, 4), errno.ENOSPC)
    code = main([*PLAY, "--script", str(_script(tmp_path, MOVES)), "--save", str(save)])
    captured = capsys.readouterr()
    assert code == 3 and "Traceback" not in captured.err
    assert "I cannot save the game right now: the disk is full." in captured.out
    assert captured.out.count("The game is saved again.") == 1
    assert count[0] >= 5  # tried again at every move
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert f"voice-host resume {save}" in captured.err  # nothing was left unsaved
    assert not (data / "saves" / "party.json").exists()
    assert saved["state"]["history"]


def test_a_log_on_a_full_disk_warns_once_and_the_game_goes_on(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not os.access("/dev", os.W_OK) or not Path("/dev/full").exists():
        pytest.skip("needs /dev/full and a writable /dev (root) to take it as a log file")
    code = main([*PLAY, "--script", str(_script(tmp_path, MOVES)), "--log", "/dev/full",
                 "--save", str(tmp_path / "g.json")])
    captured = capsys.readouterr()
    assert code == 3 and "Traceback" not in captured.err
    warning = "The event log /dev/full cannot be written any more (the disk is full); the " \
              "game goes on without it."
    assert captured.err.count(warning) == 1
    assert "Ben, Cleo and Dan" in captured.out  # every move was still taken


def test_the_log_file_is_readable_by_its_owner_only(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "logs" / "events.jsonl"
    main([*PLAY, "--script", str(_script(tmp_path, MOVES[:1])), "--log", str(log), "--save",
          str(tmp_path / "g.json")])
    assert oct(log.stat().st_mode & 0o777) == "0o600"
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["event"]


@pytest.mark.slow
def test_a_real_full_disk_mid_game(tmp_path: Path) -> None:
    """A 96 KB tmpfs holds the save; it is filled while the game runs (a second process,
    moves typed on its standard input)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=96k", "tmpfs", str(disk)],
                             capture_output=True)
    if mounted.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    host: subprocess.Popen[str] | None = None
    try:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "VOICE_HOST_DATA": str(tmp_path / "d")}
        save = disk / "party.json"
        host = subprocess.Popen([sys.executable, "-m", "voice_host.cli", *PLAY, "--save",
                                 str(save)], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert host.stdin is not None
        host.stdin.write("Ada and Ben\n")
        host.stdin.flush()
        waited = 0.0
        while not save.exists() or '"Ben"' not in save.read_text(encoding="utf-8"):
            time.sleep(0.2)
            waited += 0.2
            assert waited < 60 and host.poll() is None
        before = save.read_text(encoding="utf-8")
        filler = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
        try:  # the rest of the disk
            while True:
                os.write(filler, b"\0" * 1024)
        except OSError:
            pass
        finally:
            os.close(filler)
        out, err = host.communicate("everyone yes\none sabotage\n", timeout=120)
        assert "Traceback" not in err
        assert "I cannot save the game right now: the disk is full." in out
        assert save.read_text(encoding="utf-8") == before  # the old save: whole
        elsewhere = tmp_path / "d" / "saves" / "party.json"
        assert f"voice-host resume {elsewhere}" in err
        assert "one sabotage" not in before and len(json.loads(elsewhere.read_text())[
            "state"]["history"]) > len(json.loads(before)["state"]["history"])
    finally:
        if host is not None and host.poll() is None:
            host.kill()
            host.wait()
        subprocess.run(["umount", str(disk)], check=False)


def test_the_seats_file_on_a_full_disk_warns_once_and_keeps_going(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from voice_host.host.companion import wiring

    seats = wiring.SeatsFile(tmp_path / "game.seats", lang="fr")
    assert seats.keep({"room": "ABCDEF"})

    def full(path: Path, text: str) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(wiring, "atomic_write_text", full)
    assert not seats.keep({"room": "ABCDEF", "tokens": {"Ada": "x"}})
    assert not seats.keep({"room": "ABCDEF", "tokens": {"Ada": "y"}})
    err = capsys.readouterr().err
    assert err.count("Les places ne peuvent pas être gardées dans") == 1
    monkeypatch.undo()
    assert seats.keep({"room": "ABCDEF", "tokens": {"Ada": "y"}})  # room again: written
    assert json.loads((tmp_path / "game.seats").read_text())["tokens"] == {"Ada": "y"}
