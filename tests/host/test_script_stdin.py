"""Driving a game from another program: ``--script -`` reads script lines from standard
input one at a time, only when the host listens, and the log records each time the host
starts listening (the phase, who it expects), so the driver knows when to write."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import pytest

from voice_host.host.core.values import HeardKind, ListenRequest
from voice_host.host.io.terminal import ScriptListener

PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve"]
ROOT = Path(__file__).resolve().parents[2]


class CountingStream:
    """A text stream that counts the lines read from it."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.read = 0

    def readline(self) -> str:
        if self.read >= len(self.lines):
            return ""
        self.read += 1
        return self.lines[self.read - 1] + "\n"


def test_a_stream_is_read_one_line_per_listen() -> None:
    stream = CountingStream(["# a comment", "Ada: yes", "", "no", "(silence)"])
    listener = ScriptListener(Path("-"), stream=stream)  # type: ignore[arg-type]
    assert stream.read == 0  # nothing read before the host listens
    request = ListenRequest(grammar=None, grammar_name="resistance.vote", expected=("Ada",))
    first = listener.listen(request)
    assert (first.speaker, first.text, first.source) == ("Ada", "yes", "stdin line 2")
    assert stream.read == 2  # the comment, then the line
    second = listener.listen(request)
    assert second.text == "no" and stream.read == 4
    assert listener.listen(request).kind is HeardKind.SILENCE
    assert listener.listen(request).kind is HeardKind.END


def _wait_for(log: Path, count: int, process: subprocess.Popen[str]) -> list[dict[str, Any]]:
    """The log's events once it holds ``count`` listening events (or the host ended)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        events = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()] \
            if log.exists() else []
        if sum(e["event"] == "listening" for e in events) >= count or \
                process.poll() is not None:
            return events
        time.sleep(0.05)
    raise AssertionError("the host never listened")


def _write(stdin: IO[str] | None, line: str) -> None:
    assert stdin is not None
    stdin.write(line + "\n")
    stdin.flush()


@pytest.mark.slow
def test_a_program_drives_a_game_through_standard_input(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    env = {**os.environ, "VOICE_HOST_DATA": str(tmp_path / "data"),
           "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "voice_host.cli", "play", "resistance",
         "--players", ",".join(PLAYERS), "--first", "Ada", "--output", "text",
         "--confirm", "never", "--seed", "3", "--log", str(log), "--script", "-"],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        text=True, env=env)
    try:
        events = _wait_for(log, 1, process)
        listening = [e for e in events if e["event"] == "listening"]
        assert listening[0]["phase"] == "team" and listening[0]["expected"] == ["Ada"]
        assert not any(e["event"] == "heard" for e in events)  # it waits for the driver
        _write(process.stdin, "Ada and Ben")
        events = _wait_for(log, 2, process)
        listening = [e for e in events if e["event"] == "listening"]
        assert listening[1]["phase"] == "vote"
        assert [e["transcript"] for e in events if e["event"] == "heard"] == ["Ada and Ben"]
        _write(process.stdin, "Ada: yes")
        events = _wait_for(log, 3, process)
        assert [e["transcript"] for e in events if e["event"] == "heard"] == [
            "Ada and Ben", "yes"]
        assert process.stdin is not None
        process.stdin.close()  # the end of the input: the host stops, the game saved
        assert process.wait(60) == 3
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
