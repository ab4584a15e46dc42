"""Confirmations: whether an understood action is checked with the players first, and the
yes/no question that checks it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from voice_host.host.core.adapter import Decision, Prompt
from voice_host.host.core.understanding import understand
from voice_host.host.core.values import Heard, HeardKind, Line, ListenRequest
from voice_host.intent import IntentMatch

if TYPE_CHECKING:
    from voice_host.host.core.session import Session

CONFIRM_BELOW = 0.75
"""Actions understood with less confidence than this are confirmed first (--confirm auto)."""
CONFIRM_TRIES = 3
"""Answers to a yes/no question that are neither yes nor no before the host gives up."""
ANSWERED_DURING_CONFIRM = frozenset({
    "score", "status", "read_board", "list_tried", "slower", "faster", "louder", "quieter"})
"""Universal commands answered while a yes/no question waits (which is then asked again);
the others (help, repeat, undo, stop...) get the question again."""


def confirm_decision(s: Session, decision: Decision, match: IntentMatch, prompt: Prompt,
                     heard: Heard) -> bool:
    """True when the decision's action may go ahead: it needs no confirmation (the adapter
    asks for none, it was understood with confidence, or ``--confirm never``), or the
    players said yes. On a no, the host says what was not done and what it still waits
    for."""
    assert decision.action is not None
    confidence = match.confidence * heard.confidence
    spoken_check = decision.confirm_spoken if heard.spoken else None
    needs = s.options.confirm != "never" and (
        decision.confirm is not None or spoken_check is not None
        or confidence < CONFIRM_BELOW)
    if not needs:
        return True
    what = decision.confirm or spoken_check or s.adapter.describe(s.state, decision.action)
    question = [s.narrator.line("common.confirm", what=what)]
    s.say(question)
    if ask_yes_no(s, prompt, question):
        return True
    # what was not done, and what the host is still waiting for
    s.say([s.narrator.line("common.cancelled_what", what=what), *s.reminder(prompt)])
    return False


def ask_yes_no(s: Session, prompt: Prompt, question: Sequence[Line] = ()) -> bool | None:
    """Listen for a yes/no answer from the same players; None when none came.

    A universal command meanwhile (score, status, slower...) is answered and the
    ``question`` asked again; anything else that is not yes or no (a number, table talk,
    silence) gets "please answer yes or no" and the question again, up to
    ``CONFIRM_TRIES`` times."""
    pg, matcher = s.phase_grammar("answer")
    request = ListenRequest(grammar=pg, grammar_name=f"{s.adapter.game}.answer",
                            expected=prompt.expected, timeout=s.options.silence_timeout,
                            purpose="confirm", prompt=prompt)
    misses = 0
    while True:
        heard = s.listener.listen(request)
        if heard.kind is HeardKind.END:
            return None
        understood = understand(heard, matcher,
                                speaker=s.resolve_speaker(heard.speaker, prompt))
        best = understood.best
        s.log.write("heard", speaker=heard.speaker, transcript=heard.text,
                    source=heard.source, intent=best.intent if best else None,
                    slots=dict(best.slots) if best else {},
                    confidence=round(understood.confidence, 3))
        if best is not None and best.intent == "answer" and \
                best.slots.get("choice") in ("yes", "no"):
            return bool(best.slots.get("choice") == "yes")
        if best is not None and best.intent in ANSWERED_DURING_CONFIRM:
            s.universal(best, prompt)
            s.say(question)
            continue
        misses += 1
        if misses >= CONFIRM_TRIES:
            return None
        hint = "common.silence" if heard.kind is HeardKind.SILENCE else "common.yes_or_no"
        s.say([s.narrator.line(hint), *question])
