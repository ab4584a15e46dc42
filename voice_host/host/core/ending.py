"""The end of a game: the result saved and logged, the recap said (and sent to the table's
screen), then "Play again with the same players?"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from voice_host.host.core.adapter import Prompt, winner_json
from voice_host.host.core.confirm import ask_yes_no
from voice_host.intent import GrammarError

if TYPE_CHECKING:
    from voice_host.host.core.session import Session


def finish(s: Session) -> None:
    outcome = s.state.outcome()
    assert outcome is not None
    s.save()
    s.log.write("game_over", winner=winner_json(outcome), scores=dict(outcome.scores),
                reason=outcome.reason)
    recap = s.adapter.recap(s.state)
    if recap:  # said, and kept in the transcript and on the table's screen
        s.log.write("recap", lines=[line.text for line in recap])
        if s.companion is not None:
            s.companion.recap([line.text for line in recap])
        s.say(recap)


def offer_again(s: Session) -> bool:
    """At the end of a game: "Play again with the same players?"; True on a yes (by voice,
    keyboard, script or a phone's answer), False on a no or when nobody answers."""
    try:
        s.phase_grammar("answer")
    except GrammarError:  # a game without yes/no answers is not offered again
        return False
    question = [s.narrator.line("common.play_again")]
    s.say(question)
    prompt = Prompt(lines=tuple(question), phase="answer", expected=tuple(s.state.players),
                    key="play_again")
    again = ask_yes_no(s, prompt, question) is True
    s.log.write("play_again", answer=again)
    if not again:
        s.say_key("common.goodbye")
    return again
