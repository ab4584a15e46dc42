"""Yes/no questions: a mode of the session's loop. A question asked (:func:`ask`) waits in
``Session.question``; the loop's next listen is for its answer (:func:`answer_question`),
and the answer's effect (:class:`Question.answered`) is carried out then: the move
confirmed, the undo, the end of the game, another game, a seat given to a new phone.
Nothing listens from inside a helper: a helper asks, and returns to the loop."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from voice_host.host.core.adapter import Decision, Prompt
from voice_host.host.core.corrections import exactly
from voice_host.host.core.understanding import understand
from voice_host.host.core.values import Heard, HeardKind, Line, ListenRequest, Stop
from voice_host.intent import IntentMatch, Matcher, PhaseGrammar
from voice_host.text import tokenize

if TYPE_CHECKING:
    from voice_host.host.core.session import Session

CONFIRM_TRIES = 3
"""Answers to a yes/no question that are neither yes nor no before the host gives up."""
ANSWERED_DURING_CONFIRM = frozenset({
    "score", "status", "read_board", "list_tried", "slower", "faster", "louder", "quieter"})
"""Universal commands answered while a yes/no question waits (which is then asked again);
a correction sentence ("undo", "wait, undo that", "non, annule", "stop") answers no; the
others (help, repeat...) get the question again."""


def make_move(s: Session, decision: Decision) -> None:
    """Apply the decision's move and its follow-ups (one undo step)."""
    assert decision.action is not None
    if s.apply(decision.action):
        for action in decision.then:
            if not s.apply(action, record_undo=False):
                break


@dataclass(frozen=True)
class Question:
    """A yes/no question waiting for its answer: a mode of the session's loop
    (``Session.question``), which listens for the answer next (:func:`answer_question`)
    instead of the prompt's move."""

    lines: tuple[Line, ...]
    """The question (said again after a line that is no answer)."""
    prompt: Prompt
    """The prompt it was asked at (who answers it)."""
    answered: Callable[[bool | None], Stop | None]
    """What the answer does: yes (True), no (False), or no answer (None)."""
    misses: int = 0
    """Lines so far that were not yes or no."""


def ask(s: Session, prompt: Prompt, question: Sequence[Line],
        answered: Callable[[bool | None], Stop | None]) -> None:
    """Ask ``question`` and wait for its answer in the session's loop: ``answered`` gets
    it (see :func:`answer_question`)."""
    s.say(question)
    s.question = Question(tuple(question), prompt, answered)


def answer_question(s: Session) -> Stop | None:
    """One listen for the answer to the waiting question (``Session.question``): yes or
    no is carried out; a universal command meanwhile (score, status, slower...) is
    answered and the question asked again; anything else that is not yes or no (a number,
    table talk, silence) gets "please answer yes or no" and the question again, up to
    ``CONFIRM_TRIES`` times, then counts as no answer. The end of the input is no
    answer too (the next listen stops the game)."""
    q = s.question
    assert q is not None
    pg, matcher = s.phase_grammar("answer")
    heard = s.listen(ListenRequest(
        grammar=pg, grammar_name=f"{s.adapter.game}.answer", expected=q.prompt.expected,
        timeout=s.options.silence_timeout, purpose="confirm", prompt=q.prompt))
    yes, best = read_answer(s, q.prompt, heard, matcher)
    if yes is not None or heard.kind is HeardKind.END:
        s.question = None
        return q.answered(yes)
    if best is not None and best.intent in ANSWERED_DURING_CONFIRM:
        s.universal(best, q.prompt)
        s.say(q.lines)
        return None
    if q.misses + 1 >= CONFIRM_TRIES:
        s.question = None
        return q.answered(None)
    s.question = replace(q, misses=q.misses + 1)
    s.say([s.narrator.line(hint(pg, heard)), *q.lines])
    return None


def read_answer(s: Session, prompt: Prompt, heard: Heard, matcher: Matcher
                ) -> tuple[bool | None, IntentMatch | None]:
    """A line heard in answer to a yes/no question, read (and logged): yes (True), no
    (False) or neither (None), with what the matcher read it as."""
    if heard.kind is HeardKind.END:
        return None, None
    understood = understand(heard, matcher, speaker=s.resolve_speaker(heard.speaker, prompt))
    best = understood.best
    s.log.write("heard", speaker=heard.speaker, transcript=heard.text,
                source=heard.source, intent=best.intent if best else None,
                slots=dict(best.slots) if best else {},
                confidence=round(understood.confidence, 3),
                free=heard.judgement.free_text if heard.judgement is not None else None,
                **(s.voices.logged(heard) if s.voices is not None else {}))
    if game_answer(matcher.phase, heard):  # "hit" answers a guess, not this question
        return None, None
    if best is not None and best.intent == "answer" and \
            best.slots.get("choice") in ("yes", "no"):
        return best.slots.get("choice") == "yes", best
    if exactly(readings(heard), s.narrator.lang):  # "wait, undo that", "non, annule": not that move
        return False, best
    return None, best


def game_answer(pg: PhaseGrammar, heard: Heard) -> bool:
    """Whether ``heard`` holds one of the game's own answers ("hit", "touché"), which answer
    a guess, never a yes-or-no question of the host's: in the reading taken or in the
    recognizer's free transcript (the search may have forced "hit" onto "go ahead")."""
    words = pg.settings.game_answers
    return bool(words) and any(w in words for text in readings(heard)
                               for w in tokenize(text or ""))


def readings(heard: Heard) -> list[str]:
    """The reading taken and the recognizer's free transcript of ``heard``."""
    return [heard.text, heard.judgement.free_text if heard.judgement is not None else ""]


def hint(pg: PhaseGrammar, heard: Heard) -> str:
    """What the host says before asking a yes/no question again: the game's answer is not
    this question's, nothing was heard, or please answer yes or no."""
    if game_answer(pg, heard):
        return "common.game_answer_not_asked"
    return "common.silence" if heard.kind is HeardKind.SILENCE else "common.yes_or_no"
