"""The demo's table talk, without the recognizer: the scripted players of ``voice-host demo``
chat between moves, their lines go through the session loop like every utterance (as
spoken words), and the tally counts what the host answered (target 0) and what changed the
game (target 0). The real demo runs the same players through Whisper (tests/host/test_demo.py
and the figures in docs/benchmarks.md)."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest

from voice_host.host.cli.chatter import (
    BY_GAME,
    COMMON,
    ChatterTally,
    CountingOutput,
    chatter_line,
)
from voice_host.host.cli.demo import PlayerVoice, ScriptedPlayers
from voice_host.host.cli.demo_voices import PlayerSpeech
from voice_host.host.core.registry import new_game, registration
from voice_host.host.core.session import Session, SessionOptions, Stop
from voice_host.host.core.store import EventLog
from voice_host.host.core.values import Heard, HeardKind, Line, ListenRequest
from voice_host.host.io.terminal import TextOutput


class WordsAsHeard:
    """Ears that hear exactly the words said, as a recognizer's transcript would be."""

    def hear(self, samples: Any, request: ListenRequest, *, source: str) -> Heard:
        return Heard(HeardKind.SPEECH, text=str(samples), spoken=True, source=source)


class WordsAsSpoken(PlayerSpeech):
    """The demo players' speech, their 'audio' being their words."""

    def __init__(self) -> None:  # no engine: nothing is synthesized
        self.natural = False

    def render(self, text: str, voice: PlayerVoice) -> Any:
        return text


class TextPlayers(ScriptedPlayers):
    """The demo's players, their 'voices' being their words (no WAV is written)."""

    def synthesize(self, text: str, voice: PlayerVoice, path: Path) -> Any:
        return self.speech.render(text, voice)


def demo_game(tmp_path: Path, game: str, seed: int, *, chatter: bool) -> tuple[
        Stop, TextPlayers, str]:
    reg = registration(game)
    options: dict[str, Any] = {**reg.defaults(), **reg.demo_seats, "deal": "host",
                               "lang": "en", "seed": seed}
    state = new_game(game, options)
    out = io.StringIO()
    counted = CountingOutput(TextOutput(out, private_sink=lambda line: None))
    voices = {p: PlayerVoice("en", 160, 50) for p in state.players}
    players = TextPlayers(ears=WordsAsHeard(), speech=WordsAsSpoken(),  # type: ignore[arg-type]
                          voices=voices,
                          folder=tmp_path, transcript=out, rng=random.Random(seed + 1),
                          chatter=(counted, random.Random(seed + 2)) if chatter else None)
    from voice_host.host.adapters import make_adapter

    def sink(line: Line) -> Any:
        from voice_host.host.core.secrets import Delivery, Via
        return Delivery(Via.FILE, f"secret-{line.to}.txt")

    session = Session(adapter=make_adapter(game, options, secret_sink=sink), state=state,
                      rng=random.Random(seed), output=counted, listener=players,
                      log=EventLog(tmp_path / "log.jsonl"), game_options=options,
                      options=SessionOptions(confirm="auto"))
    players.session = session
    stop = session.run(fresh=True)
    session.log.close()
    return stop, players, out.getvalue()


@pytest.mark.parametrize("seed", [1944, 7, 21])
def test_a_five_player_resistance_demo_with_table_talk_plays_to_the_end_unanswered(
        tmp_path: Path, seed: int) -> None:
    stop, players, transcript = demo_game(tmp_path, "resistance", seed, chatter=True)
    assert stop is Stop.FINISHED
    tally = players.tally
    assert tally.lines >= 3  # one-sentence votes: fewer listens, so fewer chances to chat
    assert tally.answered == 0, tally.answers
    assert tally.changed == 0
    assert transcript.count("chats (table talk): ") == tally.lines


@pytest.mark.parametrize("game", ["codenames", "ici-londres"])
def test_the_other_demos_table_talk_gets_no_answer(tmp_path: Path, game: str) -> None:
    stop, players, _ = demo_game(tmp_path, game, 1944, chatter=True)
    assert stop is Stop.FINISHED
    assert players.tally.lines >= 5
    assert players.tally.answered == 0, players.tally.answers
    assert players.tally.changed == 0


def test_no_chatter_turns_it_off(tmp_path: Path) -> None:
    stop, players, transcript = demo_game(tmp_path, "resistance", 1944, chatter=False)
    assert stop is Stop.FINISHED
    assert players.tally.lines == 0 and "table talk" not in transcript


def test_the_tally_counts_an_answer_and_a_change() -> None:
    """The tally is not blind: a line the host answered, and a move taken from talk, count."""
    class State:
        def __init__(self) -> None:
            self.n = 0

        def to_json(self) -> dict[str, int]:
            return {"n": self.n}

    out = CountingOutput(TextOutput(io.StringIO()))
    state, tally = State(), ChatterTally()
    tally.said(out, state)
    out.emit([Line("Sorry, that was not a command I know.")])
    state.n = 1
    tally.next_listen(out, state)
    tally.said(out, state)
    out.emit([Line("", cue="listening")])
    tally.next_listen(out, state)
    assert (tally.lines, tally.answered, tally.changed, tally.cued) == (2, 1, 1, 1)


def test_chatter_names_someone_else_and_some_lines_talk_about_the_game() -> None:
    rng = random.Random(3)
    players = ["Ada", "Ben", "Cleo"]
    lines = {chatter_line("resistance", "Ada", players, rng) for _ in range(200)}
    assert not any("Ada" in line for line in lines if "{name}" not in line)
    assert any("Ben" in line or "Cleo" in line for line in lines)
    assert any("team" in line or "mission" in line for line in lines)
    assert all("{" not in line for line in lines)
    assert len(COMMON) >= 10 and all(len(v) >= 4 for v in BY_GAME.values())
