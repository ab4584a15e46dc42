""""Did you mean X, or Y?": two close readings of one utterance that make different moves
are asked about, and the answer is heard as players give it.

The players may name one reading -- by its place ("the first one", "the latter"; "le
second") or by a word only it has ("gold" for "gold for one" against "called for one") --
say "neither", or say the move again. While the question waits, the phase's grammar holds
those answers too (:data:`~voice_host.intent.grammar.CHOOSING`, ``Session.phase_grammar``);
table talk and universal commands ("what's the score") leave it waiting; any other command,
an answer, or a new prompt ends it. A named reading is the move of whoever said it first,
taken with no yes/no question about its words (the players just settled them)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

from voice_host.games import GameState
from voice_host.host.core.adapter import GameAdapter, Prompt, same_move
from voice_host.host.core.values import Heard, Line, Stop
from voice_host.intent import (
    GameGrammar,
    IntentMatch,
    MatchResult,
    PhaseGrammar,
    SlotList,
    SlotValue,
    SlotValues,
)
from voice_host.intent.grammar import CHOICE_WORD_LIST
from voice_host.text import tokenize

if TYPE_CHECKING:
    from voice_host.host.core.session import Session

CHOOSE_INTENT = "choose"
"""The grammar's answer to "Did you mean X, or Y?" (slot ``which``: first, second or
neither), in the pseudo-phase :data:`~voice_host.intent.grammar.CHOOSING`."""


@dataclass(frozen=True)
class PendingChoice:
    """A "Did you mean X, or Y?" waiting for its answer: the phase it was asked in, the two
    readings, and who said them (the session drops it when the prompt changes)."""

    phase: str
    options: tuple[IntentMatch, IntentMatch]
    speaker: str | None
    question: tuple[Line, ...]
    """What the host asked ("repeat" asks it again)."""
    misses: int = 0
    """Lines meant for the host since the question that answered nothing (see
    :func:`answer_or_drop`)."""

    @cached_property
    def words(self) -> SlotList:
        """The words only one reading has, each standing for it (the
        :data:`~voice_host.intent.grammar.CHOICE_WORD_LIST`): "gold" for the first of "gold
        for one" and "called for one". A word both have tells nothing. Worked out once per
        question (the phase's grammar is asked for at every listen)."""
        first, second = (tokenize(o.text) for o in self.options)
        values = [SlotValue(which, tuple(dict.fromkeys(w for w in own if w not in other)))
                  for which, own, other in (("first", first, second),
                                            ("second", second, first))]
        return SlotList(CHOICE_WORD_LIST, tuple(v for v in values if v.spoken))

    def pick(self, which: object) -> IntentMatch | None:
        """The reading ``which`` names ("first", "second"), or None (neither)."""
        return {"first": self.options[0], "second": self.options[1]}.get(str(which))


def would_ask(adapter: GameAdapter, state: GameState, result: MatchResult,
              speaker: str | None) -> bool:
    """Whether the host asks "Did you mean X, or Y?" about ``result`` said by ``speaker``
    in ``state``: its two best readings are too close to choose and make different moves.
    Two readings that make the same move ("Sophie and Oliver no" and "Sophie no, Oliver
    no"; "rose from me" and "rose" said by Hugo) are one reading: nothing is asked, as for
    a clear reading. Pure (interpreting has no effect on the game): the session asks by it
    (:func:`asked_which`), and the demo and the recognition benchmark count by it what the
    host understood."""
    if not result.ambiguous or len(result.alternatives) < 2:
        return False
    a, b = result.alternatives[:2]
    return not same_move(adapter, state, a, b, speaker)


def asked_which(s: Session, result: MatchResult, speaker: str | None,
                prompt: Prompt) -> bool:
    """Two close readings that make different moves (:func:`would_ask`): ask "Did you mean
    X, or Y?" (and take neither yet; True). The answer may name one ("the first one", the
    word that tells them apart: :class:`PendingChoice`) or say the move again. Otherwise
    nothing is asked (False)."""
    if not would_ask(s.adapter, s.state, result, speaker):
        return False
    a, b = result.alternatives[:2]
    question = (s.narrator.line("common.did_you_mean", first=said_back(s, a, speaker),
                                second=said_back(s, b, speaker)),)
    s.choosing = PendingChoice(prompt.phase, (a, b), speaker, question)
    s.say(question)
    return True


CHOICE_MISSES = 2
"""Lines for the host that answer nothing after which the question is dropped: a "neither"
heard twice as something else ("alpha") must not keep the question open for ever."""


def answer_or_drop(s: Session, prompt: Prompt, lines: list[Line]) -> None:
    """Say ``lines``, the host's reply to a line meant for it that was no command (a
    refusal, a re-ask). While "Did you mean X, or Y?" waits, the second such line drops the
    question instead: the host says so and what it still waits for."""
    choice = s.choosing
    if choice is None or choice.phase != prompt.phase:
        s.say(lines)
        return
    if choice.misses + 1 < CHOICE_MISSES:
        s.choosing = replace(choice, misses=choice.misses + 1)
        s.say(lines)
        return
    s.choosing = None
    s.log.write("choice_dropped", misses=choice.misses + 1)
    s.say([s.narrator.line("common.choice_dropped"), *s.reminder(prompt)])


def said_back(s: Session, reading: IntentMatch, speaker: str | None) -> str:
    """A reading as the host says it back: the move it makes, in the game's words
    ("Oliver touches telescope"; French with its accents, "Ada prend la clé"), each action
    of it ("Ada votes yes, Eve votes no"); else the words heard (a command that is no move)."""
    decision = s.adapter.interpret(s.state, reading, speaker)
    if decision.action is None:
        return reading.text or reading.intent
    return s.narrator.names([s.adapter.describe(s.state, action)
                             for action in (decision.action, *decision.then)])


def with_choice(grammar: GameGrammar, phase: str, slots: SlotValues,
                choice: PendingChoice | None) -> PhaseGrammar:
    """The grammar of ``phase``: with the answers to ``choice`` while it waits there."""
    if choice is None or choice.phase != phase:
        return grammar.phase(phase, slots)
    return grammar.phase(phase, replace(slots, lists=(*slots.lists, choice.words)),
                         choosing=True)


def take_choice(s: Session, choice: PendingChoice, answer: IntentMatch, prompt: Prompt,
                heard: Heard) -> Stop | None:
    """The answer to the question: the reading it names is carried out as its speaker's
    move; "neither" drops both and says what the host still waits for."""
    picked = choice.pick(answer.slots.get("which"))
    s.log.write("chosen", which=str(answer.slots.get("which")),
                intent=picked.intent if picked else None,
                slots=dict(picked.slots) if picked else {})
    if picked is None:
        s.say([s.narrator.line("common.neither"), *s.reminder(prompt)])
        return None
    return s.act(picked, prompt, heard, choice.speaker, None, chosen=True)
