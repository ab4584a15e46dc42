"""An answer heard short at the microphone (a team of one for a mission of two, one icon
where Double 0 asks for two, a clue's word without its number) waits a moment for the rest:
a pause in the middle of a team is not the end of the answer. So does a line that is no
command, which may be the first half of one cut at a pause. The recognizer is scripted, so
these are exact cases."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.support.codenames_table import OPTS
from tests.support.ici_londres_table import ListListener, play
from tests.support.ici_londres_table import options as londres_options
from tests.support.resistance import make_state, play_missions
from voice_host.host.core.values import Heard, HeardKind, ListenRequest, Wants
from voice_host.host.io.listening import (
    MicListener,
    PhaseEars,
    continues,
    heard_as,
    shortfall,
)
from voice_host.host.io.terminal import TextOutput
from voice_host.intent import load_grammar
from voice_host.intent.grammar import SlotValues
from voice_host.speech.fakes import ScriptedRecognizer, StreamingScriptedRecognizer
from voice_host.speech.source import ArraySource
from voice_host.speech.types import SAMPLE_RATE

PLAYERS = ("Ada", "Ben", "Cleo", "Dan", "Eve")


def missing(heard: Heard, request: ListenRequest) -> int | None:
    """What the listener finds ``heard`` leaves out of the request's answer."""
    return shortfall(heard_as(heard, request), request.wants)


def goes_further(whole: Heard, first: Heard, request: ListenRequest) -> bool:
    """Whether the listener keeps ``whole`` (``first`` and what followed) as the answer."""
    start = heard_as(first, request)
    assert start is not None and request.wants is not None
    return continues(heard_as(whole, request), start, request.wants)


def _team_request(count: int | None) -> ListenRequest:
    pg = load_grammar("resistance").phase("team", SlotValues(players=PLAYERS))
    return ListenRequest(grammar=pg, grammar_name="resistance.team", expected=("Ada",),
                         wants=None if count is None else
                         Wants("propose_team", "players", count))


def _vote_request() -> ListenRequest:
    pg = load_grammar("resistance").phase("vote", SlotValues(players=PLAYERS))
    return ListenRequest(grammar=pg, grammar_name="resistance.vote", expected=("Ada",))


def _burst(seconds: float) -> np.ndarray:
    t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    return (6000 * np.sin(2 * np.pi * 180 * t) * (1.2 + np.sin(2 * np.pi * 3 * t)) / 2.2
            ).astype(np.int16)


def _quiet(seconds: float) -> np.ndarray:
    return np.zeros(int(seconds * SAMPLE_RATE), np.int16)


def _audio(*parts: float) -> np.ndarray:
    """Quiet, then bursts of speech (positive lengths) and pauses (negative ones)."""
    return np.concatenate([_quiet(1.0), *(_burst(p) if p > 0 else _quiet(-p) for p in parts)])


@pytest.fixture(params=[True, False], ids=["streaming", "whole"])
def streaming(request: pytest.FixtureRequest) -> bool:
    return bool(request.param)


def _listener(script: list[str], audio: np.ndarray, streaming: bool) -> tuple[
        MicListener, ScriptedRecognizer]:
    recognizer = StreamingScriptedRecognizer(script) if streaming \
        else ScriptedRecognizer(script)
    return MicListener(PhaseEars(recognizer), ArraySource(audio), TextOutput()), recognizer


def test_the_rest_of_a_team_said_after_a_pause_is_heard_with_it(streaming: bool) -> None:
    # "i choose myself" ... 0.8 s ... "and ben": the endpointer cuts in the pause
    listener, recognizer = _listener(["i choose myself", "i choose myself and ben"],
                                     _audio(0.6, -0.8, 0.5, -2.0), streaming)
    heard = listener.listen(_team_request(2))
    assert heard.kind is HeardKind.SPEECH and heard.text == "i choose myself and ben"
    assert heard.details.get("list_joined") == 1
    assert missing(heard, _team_request(2)) is None
    # the second decode is of both utterances, the pause between them included
    assert len(recognizer.audio) == 2
    assert len(recognizer.audio[1]) > len(recognizer.audio[0]) + 0.5 * SAMPLE_RATE


def test_a_short_team_with_nothing_after_it_is_the_answer(streaming: bool) -> None:
    listener, recognizer = _listener(["i choose ben"], _audio(0.6, -3.0), streaming)
    heard = listener.listen(_team_request(2))
    assert heard.text == "i choose ben" and "list_joined" not in heard.details
    assert len(recognizer.audio) == 1


def test_a_whole_team_is_not_held(streaming: bool) -> None:
    # the next utterance is not waited for, and it is the next thing heard
    listener, recognizer = _listener(["i choose ada and ben", "vote yes"],
                                     _audio(0.6, -0.8, 0.5, -2.0), streaming)
    assert listener.listen(_team_request(2)).text == "i choose ada and ben"
    assert len(recognizer.audio) == 1
    assert listener.listen(_team_request(2)).text == "vote yes"


@pytest.mark.parametrize("count", [None, 1])
def test_without_a_list_to_fill_nothing_is_held(count: int | None) -> None:
    listener, recognizer = _listener(["i choose ben", "and cleo"],
                                     _audio(0.6, -0.8, 0.5, -2.0), True)
    assert listener.listen(_team_request(count)).text == "i choose ben"
    assert len(recognizer.audio) == 1


def test_what_follows_that_is_not_the_rest_is_heard_next(streaming: bool) -> None:
    # the joined decode names no more of the team: the first answer stands, and the
    # second utterance is not lost but heard on the next listen, decoded on its own
    listener, recognizer = _listener(
        ["i choose ben", "i choose ben what a mess", "what is the score"],
        _audio(0.6, -0.8, 0.5, -2.0), streaming)
    assert listener.listen(_team_request(2)).text == "i choose ben"
    second = listener.listen(_team_request(2))
    assert second.text == "what is the score"
    assert len(recognizer.audio) == 3
    assert len(recognizer.audio[2]) < len(recognizer.audio[1])


def test_a_pause_longer_than_the_hold_ends_the_answer() -> None:
    listener, recognizer = _listener(["i choose ben", "and cleo"],
                                     _audio(0.6, -2.5, 0.5, -2.0), True)
    assert listener.listen(_team_request(2)).text == "i choose ben"
    assert len(recognizer.audio) == 1
    assert listener.listen(_team_request(2)).text == "and cleo"


def test_the_end_of_input_during_the_hold_keeps_the_answer() -> None:
    listener, _ = _listener(["i choose ben"], _audio(0.6, -0.6), True)
    assert listener.listen(_team_request(2)).text == "i choose ben"
    assert listener.listen(_team_request(2)).kind is HeardKind.END


def test_a_hold_of_zero_turns_it_off() -> None:
    recognizer = ScriptedRecognizer(["i choose ben", "i choose ben and cleo"])
    listener = MicListener(PhaseEars(recognizer), ArraySource(_audio(0.6, -0.8, 0.5, -2.0)),
                           TextOutput(), list_hold=0.0)
    assert listener.listen(_team_request(2)).text == "i choose ben"


def test_a_command_cut_at_a_pause_is_heard_whole(streaming: bool) -> None:
    # "my team is" ... 0.9 s ... "ada and ben": the first half is no command, so the
    # listener waits for the speaker to go on and hears the two as one
    listener, recognizer = _listener(["my team is", "my team is ada and ben"],
                                     _audio(0.5, -0.9, 0.6, -2.0), streaming)
    request = _team_request(None)
    heard = listener.listen(request)
    assert heard.text == "my team is ada and ben"
    assert heard.details.get("sentence_joined") == 1 and "list_joined" not in heard.details
    assert heard_as(heard, request) is not None
    assert len(recognizer.audio) == 2
    assert len(recognizer.audio[1]) > len(recognizer.audio[0]) + 0.5 * SAMPLE_RATE


def test_talk_followed_by_talk_is_heard_as_it_was_said(streaming: bool) -> None:
    # the two together are no command either: the first line is what was heard, and the
    # second is not lost but heard next, decoded on its own
    listener, recognizer = _listener(
        ["what a night", "what a night can someone pass the chips", "can someone pass the chips"],
        _audio(0.5, -0.8, 0.7, -2.0), streaming)
    request = _team_request(2)
    first = listener.listen(request)
    assert first.text == "what a night" and first.details.get("held") == 1
    assert "sentence_joined" not in first.details
    second = listener.listen(request)
    assert second.text == "can someone pass the chips"
    assert len(recognizer.audio) == 3
    assert len(recognizer.audio[2]) < len(recognizer.audio[1])


def test_a_joined_decode_shorter_than_the_first_part_is_no_continuation(
        streaming: bool) -> None:
    # babble at 6 dB: the two halves of a talk line decoded together came out as one word
    # that is a command; it continues nothing, so it is not taken
    listener, recognizer = _listener(
        ["can somebody open the window", "yes", "it's hot in here"],
        _audio(0.9, -0.8, 0.6, -2.0), streaming)
    request = _vote_request()
    assert heard_as(Heard(HeardKind.SPEECH, text="yes"), request) is not None  # a vote
    first = listener.listen(request)
    assert first.text == "can somebody open the window"
    assert "sentence_joined" not in first.details
    assert listener.listen(request).text == "it's hot in here"


def test_talk_with_nothing_after_it_is_answered_after_the_hold() -> None:
    listener, recognizer = _listener(["what a night"], _audio(0.6, -3.0), True)
    heard = listener.listen(_team_request(2))
    assert heard.text == "what a night" and heard.details.get("held") == 1
    assert len(recognizer.audio) == 1


def test_a_pause_longer_than_the_sentence_hold_ends_the_line() -> None:
    listener, recognizer = _listener(["my team is", "ada and ben"],
                                     _audio(0.5, -2.5, 0.6, -2.0), True)
    assert listener.listen(_team_request(None)).text == "my team is"
    assert len(recognizer.audio) == 1
    assert listener.listen(_team_request(None)).text == "ada and ben"


def test_a_sentence_hold_of_zero_turns_it_off() -> None:
    recognizer = ScriptedRecognizer(["my team is", "my team is ada and ben"])
    listener = MicListener(PhaseEars(recognizer), ArraySource(_audio(0.5, -0.9, 0.6, -2.0)),
                           TextOutput(), sentence_hold=0.0)
    heard = listener.listen(_team_request(None))
    assert heard.text == "my team is" and "held" not in heard.details


def test_what_is_missing_is_read_as_the_host_reads_it() -> None:
    def short(text: str, want: int | None = 3) -> int | None:
        return missing(Heard(HeardKind.SPEECH, text=text), _team_request(want))

    assert short("i choose myself and ben") == 1  # "myself" is the one expected to answer
    assert short("i choose ben") == 2
    assert short("ada ben and cleo") is None  # the whole team
    assert short("i vote yes") is None  # not a team
    assert short("what a mess") is None
    assert short("i choose ben", None) is None  # nothing wanted
    assert missing(Heard(HeardKind.SILENCE), _team_request(2)) is None
    request, ben = _team_request(3), Heard(HeardKind.SPEECH, text="i choose ben")

    def further(text: str, first: Heard = ben) -> bool:
        return goes_further(Heard(HeardKind.SPEECH, text=text), first, request)

    assert further("i choose ben and cleo")
    assert not further("i choose ben")
    assert not further("what is the score")
    assert not further("i choose cleo and dan")  # not the rest: ben is gone
    assert not further("ada ben and cleo", Heard(HeardKind.SPEECH, text="ada ben and cleo"))


BOARD = ("ocean", "piano", "bank", "moon", "kite") + tuple(f"word{i}" for i in range(20))


def _clue_request() -> ListenRequest:
    from voice_host.host.core.registry import registration

    lists = registration("codenames").example_lists("en", board_word=BOARD)
    pg = load_grammar("codenames").phase("clue", SlotValues(players=PLAYERS, lists=lists))
    return ListenRequest(grammar=pg, grammar_name="codenames.clue", expected=("Ada",),
                         wants=Wants("clue_no_number"))


def test_a_clue_word_and_its_number_after_a_pause_are_one_clue(streaming: bool) -> None:
    listener, recognizer = _listener(["travel", "travel two"],
                                     _audio(0.5, -0.9, 0.4, -2.0), streaming)
    heard = listener.listen(_clue_request())
    assert heard.text == "travel two" and heard.details.get("list_joined") == 1
    assert len(recognizer.audio) == 2


def test_a_clue_word_alone_is_still_answered_when_nothing_follows(streaming: bool) -> None:
    listener, _ = _listener(["travel"], _audio(0.5, -3.0), streaming)
    heard = listener.listen(_clue_request())
    assert heard.text == "travel" and missing(heard, _clue_request()) == 1


def test_a_whole_clue_is_not_held() -> None:
    listener, recognizer = _listener(["travel two", "what is the score"],
                                     _audio(0.5, -0.9, 0.4, -2.0), True)
    assert listener.listen(_clue_request()).text == "travel two"
    assert len(recognizer.audio) == 1


def test_what_follows_a_clue_word_that_is_no_clue_is_heard_next() -> None:
    request, travel = _clue_request(), Heard(HeardKind.SPEECH, text="travel")

    def further(text: str) -> bool:
        return goes_further(Heard(HeardKind.SPEECH, text=text), travel, request)

    assert further("travel two")
    assert not further("travel")
    assert not further("travel what a mess")
    assert not further("ocean two")  # another clue: not travel's number
    listener, recognizer = _listener(["travel", "travel what a mess", "what a mess"],
                                     _audio(0.5, -0.9, 0.4, -2.0), True)
    assert listener.listen(request).text == "travel"
    assert listener.listen(request).text == "what a mess"


@pytest.mark.parametrize(("players", "mission", "size"), [(5, 1, 2), (5, 2, 3), (8, 3, 4)])
def test_the_team_prompt_wants_the_missions_team(players: int, mission: int,
                                                 size: int) -> None:
    state, adapter = make_state(players)
    play_missions(state, mission - 1)  # the table is on this mission
    prompt = adapter.prompt(state)
    while prompt is None:  # the night first
        adapter.host_step(state)
        prompt = adapter.prompt(state)
    assert prompt.phase == "team"
    assert prompt.wants == Wants("propose_team", "players", size)


@pytest.mark.parametrize(("mode", "wanted"), [
    ("fragments", None), ("competing", None), ("double-zero", 2), ("countdown", 2)])
def test_a_guess_of_both_icons_at_once_wants_two(tmp_path: Path, mode: str,
                                                 wanted: int | None) -> None:
    listener = ListListener(["Il adorait ses kilos"])
    play(tmp_path, londres_options(mode=mode, deal="table"), [], listener=listener)
    guesses = [r for r in listener.requests if r.grammar_name.endswith(".guess")]
    assert guesses, "the game asked for a guess"
    first = guesses[0]
    assert first.wants == (None if wanted is None else Wants("pick", "icons", wanted))


def test_the_clue_prompt_waits_for_a_number_after_the_word() -> None:
    import random

    from voice_host.host.adapters import make_adapter, new_game

    opts = {**OPTS, "first": None}
    state = new_game("codenames", opts)
    state.apply(state.chance_action(random.Random(opts["seed"])))
    adapter = make_adapter("codenames", opts)
    prompt = adapter.prompt(state)
    assert prompt is not None and prompt.phase == "clue"
    assert prompt.wants == Wants("clue_no_number")
