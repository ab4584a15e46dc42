"""A new phone asking for a seat during the game is put to the table as a question of the
session's own loop: ``run()`` hears the answer through ``Session.listen`` (purpose
"confirm") while the question waits in ``Session.question``, a universal command meanwhile
is answered and the question asked again, and the game's move is heard next."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the companion extra (starlette) is not installed")

from voice_host.host.adapters import make_adapter, new_game  # noqa: E402
from voice_host.host.companion import CompanionChannel  # noqa: E402
from voice_host.host.core.session import Session, SessionOptions, Stop  # noqa: E402
from voice_host.host.core.store import EventLog  # noqa: E402
from voice_host.host.core.values import Heard, HeardKind, ListenRequest  # noqa: E402
from voice_host.host.io.terminal import TextOutput  # noqa: E402

OPTS: dict[str, Any] = {"deal": "table", "lang": "en", "red": ["Ada", "Ben"],
                        "blue": ["Cleo", "Dan"], "first": "red", "words": "en",
                        "invalid_clue": "refuse", "seed": 4}


class Table:
    """Ada gives a clue aloud; then a new phone asks to play for Ben (the seats are locked
    once a move is made), and the table answers ``answers``, one line per question asked;
    then Ben guesses aloud, and the input ends."""

    def __init__(self, channel: CompanionChannel, answers: list[str]) -> None:
        self.channel = channel
        self.answers = list(answers)
        self.session: Session | None = None
        self.asked: list[tuple[str, str | None]] = []  # (purpose, the waiting question)
        self.claimed = False
        self.guessed = ""

    def listen(self, request: ListenRequest) -> Heard:
        session = self.session
        assert session is not None
        waiting = session.question.prompt.key if session.question is not None else None
        self.asked.append((request.purpose, waiting))
        state = session.state
        if request.purpose == "confirm":
            return Heard(HeardKind.SPEECH, text=self.answers.pop(0)) if self.answers \
                else Heard(HeardKind.SILENCE)
        if state.phase() == "clue":
            clue = next(w for w in ("zebra", "ocean", "planet") if w not in state.words)
            return Heard(HeardKind.SPEECH, text=f"{clue} one", speaker="Ada")
        if not self.claimed:  # a phone nobody knows asks for Ben's seat
            self.claimed = True
            claim = self.channel.seats.claim(self.channel.room_code, "Ben",
                                             client="192.0.2.7")
            assert claim.ticket  # the seats are locked: the host must ask the table
            return Heard(HeardKind.SILENCE)
        if not self.guessed:
            self.guessed = state.uncovered_words()[0]
            return Heard(HeardKind.SPEECH, text=self.guessed, speaker="Ben")
        return Heard(HeardKind.END)

    def close(self) -> None:
        pass


def play(tmp_path: Path, answers: list[str]) -> tuple[Stop, Table, CompanionChannel, str,
                                                       list[dict[str, Any]]]:
    state = new_game("codenames", OPTS)
    channel = CompanionChannel("codenames", state.players, host="127.0.0.1", port=0,
                               wait_for_everyone=False)
    table = Table(channel, answers)
    out = io.StringIO()
    log = EventLog(tmp_path / "log.jsonl")
    session = Session(adapter=make_adapter("codenames", {**OPTS, "companion": True}),
                      state=state, rng=random.Random(4), output=TextOutput(out),
                      listener=table, log=log, game_options=OPTS, companion=channel,
                      options=SessionOptions(confirm="never", silence_timeout=20))
    table.session = session
    stop = session.run(fresh=True)
    log.close()
    events = [json.loads(x) for x in
              (tmp_path / "log.jsonl").read_text(encoding="utf-8").splitlines()]
    return stop, table, channel, out.getvalue(), events


@pytest.mark.parametrize("answer", ["yes", "no"])
def test_the_seat_question_is_answered_in_the_loop_and_the_game_goes_on(
        tmp_path: Path, answer: str) -> None:
    stop, table, channel, said, events = play(tmp_path, [answer])
    assert stop is Stop.INPUT_ENDED
    assert "A new phone asks to play for Ben." in said
    confirms = [waiting for purpose, waiting in table.asked if purpose == "confirm"]
    assert confirms == ["companion.asked"]  # heard while the question waits in the loop
    holder = next(seat for seat in channel.seats.seats() if seat.name == "Ben")
    assert holder.claimed is (answer == "yes")
    if answer == "no":
        assert "Ben's seat stays where it was." in said
    # the move is heard after the answer, and taken
    assert table.guessed
    assert any(e["event"] == "action" and e["action"].get("word") == table.guessed
               for e in events)


def test_a_universal_command_during_the_seat_question_is_answered_then_asked_again(
        tmp_path: Path) -> None:
    stop, table, channel, said, _ = play(tmp_path, ["score", "yes"])
    confirms = [waiting for purpose, waiting in table.asked if purpose == "confirm"]
    assert confirms == ["companion.asked", "companion.asked"]
    question = said.index("A new phone asks to play for Ben.")
    assert "Agents left to find" in said[question:]
    assert said.count("A new phone asks to play for Ben.") == 2
    assert next(s for s in channel.seats.seats() if s.name == "Ben").claimed
