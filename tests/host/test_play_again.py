""""Play again with the same players?" is a question of the session's own loop: ``run()``
listens for the answer itself (through ``Session.listen``, purpose "confirm", logged as a
``listening`` event), answers a universal command meanwhile and asks again, and counts
silence or the end of the input as a no. The end of the game is said once."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

from tests.support.codenames_game import dealt, key_of, options, valid_clues
from voice_host.games.codenames import Colour
from voice_host.host.adapters import make_adapter
from voice_host.host.core.session import Session, SessionOptions, Stop
from voice_host.host.core.store import EventLog, load_game
from voice_host.host.core.values import Heard, ListenRequest
from voice_host.host.io.terminal import ScriptListener, TextOutput

QUESTION = "Play again with the same players?"
GOODBYE = "Good night, and see you next time!"


class Recording:
    """A script, with each request the session listened with and the question that waited
    in the session's loop (``Session.question``) at the time."""

    def __init__(self, script: Path) -> None:
        self.script = ScriptListener(script)
        self.session: Session | None = None
        self.asked: list[tuple[ListenRequest, str | None]] = []

    def listen(self, request: ListenRequest) -> Heard:
        assert self.session is not None
        question = self.session.question
        self.asked.append((request, question.prompt.key if question is not None else None))
        return self.script.listen(request)

    def close(self) -> None:
        self.script.close()


def host(tmp_path: Path, after: list[str], *, state: Any = None,
         offer_again: bool = True, fresh: bool = True
         ) -> tuple[Stop, Recording, str, list[dict[str, Any]]]:
    """A Codenames game that red loses at once (its first guess is the assassin), then
    ``after`` in answer to what the host asks at the end."""
    opts = options(first="red", seed=11)
    if state is None:
        state = dealt(opts)
    assassin = key_of(state)[Colour.ASSASSIN][0]
    script = tmp_path / "script.txt"
    lines = [f"Hannah: {valid_clues(state)[0]} one", f"Thomas: {assassin}", *after]
    script.write_text("\n".join(lines if fresh else after) + "\n", encoding="utf-8")
    listener = Recording(script)
    out = io.StringIO()
    log = EventLog(tmp_path / "log.jsonl")
    session = Session(adapter=make_adapter("codenames", opts), state=state,
                      rng=random.Random(11), output=TextOutput(out), listener=listener,
                      log=log, game_options=opts,
                      options=SessionOptions(confirm="never", save_path=tmp_path / "g.json"))
    listener.session = session
    stop = session.run(fresh=fresh, offer_again=offer_again)
    log.close()
    events = [json.loads(x) for x in
              (tmp_path / "log.jsonl").read_text(encoding="utf-8").splitlines()]
    return stop, listener, out.getvalue(), events


def after_the_end(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ends = [i for i, e in enumerate(events) if e["event"] == "game_over"]
    assert len(ends) == 1, "the end of the game is said once"
    return events[ends[0] + 1:]


def test_a_yes_to_play_again_is_heard_in_the_sessions_own_loop(tmp_path: Path) -> None:
    stop, listener, said, events = host(tmp_path, ["Oliver: yes"])
    assert stop is Stop.AGAIN
    request, waiting = listener.asked[-1]
    assert request.purpose == "confirm" and request.grammar_name == "codenames.answer"
    assert waiting == "play_again"  # a mode of the loop, not a nested listen
    assert request.prompt is not None and set(request.prompt.expected) == set(
        ["Hannah", "Thomas", "Sophie", "Oliver"])
    end = after_the_end(events)
    # a driver of --script - sees when to answer: a listening event after the question
    listening = [e for e in end if e["event"] == "listening"]
    assert [e["purpose"] for e in listening] == ["confirm"]
    assert {"event": "play_again", "answer": True}.items() <= end[-1].items()
    assert said.count(QUESTION) == 1 and GOODBYE not in said


def test_a_universal_command_meanwhile_is_answered_and_the_question_asked_again(
        tmp_path: Path) -> None:
    stop, listener, said, events = host(tmp_path, ["Sophie: score", "Sophie: no"])
    assert stop is Stop.FINISHED
    assert [waiting for _, waiting in listener.asked[-2:]] == ["play_again", "play_again"]
    first, second = said.index(QUESTION), said.rindex(QUESTION)
    assert first < second, said[-600:]
    assert said[first + len(QUESTION):second].strip()  # the score was said in between
    assert said.rstrip().endswith(GOODBYE)
    assert [e["answer"] for e in after_the_end(events) if e["event"] == "play_again"] == [False]


def test_the_end_of_the_input_counts_as_no(tmp_path: Path) -> None:
    stop, listener, said, events = host(tmp_path, [])
    assert stop is Stop.FINISHED
    assert listener.asked[-1][1] == "play_again"
    assert said.rstrip().endswith(GOODBYE)
    assert [e["answer"] for e in after_the_end(events) if e["event"] == "play_again"] == [False]


def test_silence_every_time_counts_as_no(tmp_path: Path) -> None:
    stop, listener, said, events = host(tmp_path, ["(silence)"] * 3 + ["Oliver: yes"])
    assert stop is Stop.FINISHED  # the yes after three silences is never read
    assert [w for _, w in listener.asked].count("play_again") == 3
    assert said.count(QUESTION) == 3 and said.rstrip().endswith(GOODBYE)


def test_a_session_not_asked_to_offer_another_game_just_finishes(tmp_path: Path) -> None:
    stop, listener, said, events = host(tmp_path, ["Oliver: yes"], offer_again=False)
    assert stop is Stop.FINISHED
    assert all(r.purpose != "confirm" for r, _ in listener.asked)
    assert QUESTION not in said
    assert not [e for e in after_the_end(events) if e["event"] == "listening"]


def test_a_game_resumed_at_its_end_says_the_recap_and_offers_another(tmp_path: Path) -> None:
    stop, _, _, _ = host(tmp_path, ["Oliver: no"])
    assert stop is Stop.FINISHED
    saved = load_game(tmp_path / "g.json")
    finished = type(dealt(options(first="red", seed=11))).from_json(saved.state)
    assert finished.is_terminal()
    stop, listener, said, events = host(tmp_path, ["Hannah: score", "Hannah: yes"],
                                        state=finished, fresh=False)
    assert stop is Stop.AGAIN
    assert said.count("Here is how it went.") == 1  # the recap, once
    assert said.count(QUESTION) == 2  # asked, then again after the score
    assert [w for _, w in listener.asked] == ["play_again", "play_again"]
