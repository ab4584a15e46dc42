"""One host per save: a running game holds an OS lock beside its save, a second ``resume`` or
``play --save`` of it is refused with a sentence naming the running game (exit 2), and the
lock goes with its holder, however the holder ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from voice_host.host.core.save_lock import SaveInUse, SaveLock, lock_path

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = "Ada,Ben,Cleo,Dan,Eve"


def test_a_second_lock_of_one_save_is_refused_and_released_with_the_first(
        tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    first = SaveLock(save)
    first.acquire(game="Resistance")
    with pytest.raises(SaveInUse) as refused:
        SaveLock(save).acquire(game="Codenames")
    assert refused.value.holder.pid == os.getpid()
    assert refused.value.holder.game == "Resistance"
    assert oct(lock_path(save).stat().st_mode & 0o777) == "0o600"
    first.release()
    assert not lock_path(save).exists()
    with SaveLock(save) as again:  # free again
        again.acquire(game="Resistance")
        assert again.held
    lock_path(save).write_text("not json")  # a stale, damaged note: no holder, no refusal
    with SaveLock(save) as stale:
        stale.acquire(game="Resistance")


def _cli(*args: str, data: Path, stdin: int | None = subprocess.DEVNULL
         ) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "VOICE_HOST_DATA": str(data)}
    return subprocess.Popen([sys.executable, "-m", "voice_host.cli", *args], cwd=ROOT, env=env,
                            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _wait_for(path: Path, proc: subprocess.Popen[str], limit: float = 60.0) -> None:
    waited = 0.0
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.1)
        waited += 0.1
        assert waited < limit, f"{path} never appeared"


@pytest.mark.slow
def test_two_processes_one_save(tmp_path: Path) -> None:
    save = tmp_path / "saves" / "party.json"
    host = _cli("play", "resistance", "--players", PLAYERS, "--input", "text", "--output",
                "text", "--seed", "3", "--save", str(save), data=tmp_path,
                stdin=subprocess.PIPE)  # waits for typed lines: a game in progress
    try:
        _wait_for(lock_path(save), host)
        second = _cli("resume", str(save), "--input", "text", "--output", "text",
                      data=tmp_path)
        out, err = second.communicate(timeout=120)
        french = _cli("resume", str(save), "--input", "text", "--output", "text", "--lang",
                      "fr", data=tmp_path)
        _, err_fr = french.communicate(timeout=120)
        again = _cli("play", "resistance", "--players", PLAYERS, "--input", "text",
                     "--output", "text", "--save", str(save), data=tmp_path)
        _, err_play = again.communicate(timeout=120)
        print(err.strip())
        assert second.returncode == 2 and french.returncode == 2 and again.returncode == 2
        assert f"The game saved at {save} (Resistance with a double agent) is already being " \
               f"hosted by another voice-host" in err and f"(process {host.pid})" in err
        assert "est déjà animée par un autre voice-host" in err_fr
        assert "already being hosted" in err_play
        assert "Traceback" not in err + err_fr + err_play
        os.kill(host.pid, signal.SIGKILL)  # the holder dies without a word
        host.wait(timeout=30)
        after = _cli("resume", str(save), "--input", "text", "--output", "text",
                     data=tmp_path)
        out, err = after.communicate(timeout=120)
        assert after.returncode == 3, err  # resumed, then its (empty) input ended
        assert "already being hosted" not in err and "Traceback" not in err
        assert not lock_path(save).exists()  # released on exit
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
