"""The end of a game: the result saved and logged, the recap said (and sent to the table's
screen), then, when the session is asked to offer it, "Play again with the same players?":
a question of the session's own loop (``questions.ask``), so the answer is heard like any
other (voice, keyboard, script, the universal commands meanwhile)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from voice_host.host.core.adapter import Prompt, winner_json
from voice_host.host.core.questions import ask
from voice_host.host.core.values import Stop
from voice_host.intent import GrammarError

if TYPE_CHECKING:
    from voice_host.host.core.session import Session


def finish(s: Session, *, offer_again: bool = False) -> Stop | None:
    """The game is over: save, log and say the recap; then ask "Play again?" when
    ``offer_again`` and return None (the loop listens for the answer, which returns
    ``Stop.AGAIN`` or ``Stop.FINISHED``), else ``Stop.FINISHED``."""
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
    if offer_again and offer(s):
        return None
    return Stop.FINISHED


def offer(s: Session) -> bool:
    """Ask "Play again with the same players?" in the session's loop; False (nothing
    asked) for a game without yes/no answers."""
    try:
        s.phase_grammar("answer")
    except GrammarError:
        return False
    question = [s.narrator.line("common.play_again")]
    prompt = Prompt(lines=tuple(question), phase="answer", expected=tuple(s.state.players),
                    key="play_again")
    ask(s, prompt, question, lambda yes: answered(s, yes))
    return True


def answered(s: Session, yes: bool | None) -> Stop:
    """The answer to "Play again?": ``Stop.AGAIN`` on a yes (by voice, keyboard, script or
    a phone's answer); goodbye and ``Stop.FINISHED`` on a no, or when nobody answers.
    Always a stop: the loop never goes round to the finished game again."""
    again = yes is True
    s.log.write("play_again", answer=again)
    if not again:
        s.say_key("common.goodbye")
    return Stop.AGAIN if again else Stop.FINISHED
