"""Confirmations: whether an understood move is checked with the players first, and the
yes/no question that checks it.

The policy, in one place (:func:`why_confirm`): the host asks only

* for a **doubtful** reading (matcher confidence times recognizer confidence below
  ``CONFIRM_BELOW``: a guessed word, a tentative lead-in such as "maybe"), unless Whisper's
  free transcript holds every value of the move (:func:`echoed`);
* for a **risk** the adapter names (``Decision.confirm``: the Codenames assassin, a clue
  that breaks a rule and is played with the penalty), however plainly it was said;
* for an **irreversible** move (``Decision.irreversible``: a clue the operatives have
  heard, a mission report, an accusation) that was **not said plainly**, unless the free
  transcript holds every value of the move (:func:`echoed`: "the clodwis house too" for
  "the clue is house two", the values heard twice).

A close alternative ("Did you mean X, or Y?") is asked by the session before any of this.
"Said plainly" is decided from the evidence alone (:func:`said_plainly`): the matcher read
the words with ``PLAIN_MATCH`` confidence or more; through Whisper's grammar search, the
grammar sentence passed the rejection test and means the move, and the free transcript
either means the same move, confidently (one homophone Whisper spelled otherwise, "travel
to" for "travel two", is no doubt: ``AGREE_MATCH``), or reads as no move at all while the grammar
sentence is sure (``PLAIN_RECOGNIZER``), the free decode is not lost (a loop that only
begins the sentence again is no loss: :func:`lost`) and still backs the
sentence (reads like it, or holds the move's words: :func:`_free_backs`) without being
that unsure transcript itself (:func:`_only_own_words`); a free transcript that means
another move ("marikit one" for "market one") is never plain. A recognizer with
one reading must give ``PLAIN_RECOGNIZER`` and no rival sentence."""

from __future__ import annotations

import enum
from dataclasses import replace
from typing import TYPE_CHECKING

from voice_host.host.core.adapter import Decision, Prompt
from voice_host.host.core.agreement import Doubt, doubt_of
from voice_host.host.core.questions import ask, make_move
from voice_host.host.core.understanding import Understood, tuning_of
from voice_host.host.core.values import Heard
from voice_host.intent import IntentMatch, PhaseGrammar
from voice_host.speech.decision import Judgement, SearchTuning, Verdict
from voice_host.text import plain as plain_words

if TYPE_CHECKING:
    from voice_host.host.core.session import Session

CONFIRM_BELOW = 0.75
"""Moves understood with less confidence than this are confirmed first (--confirm auto)."""
PLAIN_MATCH = 0.9
"""A reading the matcher gives at least this confidence is plain words: a sentence of the
grammar read as such, not a guessed or near-miss word, no tentative lead-in (those stay
below 0.9)."""
AGREE_MATCH = 0.85
"""When the free transcript means the very move of a plain grammar sentence, its own reading
may be this sure: one of the words Whisper writes for another that sounds the same ("the
clue is travel to" for "travel two", a ``[confusions]`` entry of the grammar), never a
near-miss spelling (those the matcher gives 0.82 or less)."""
ECHO_SIMILARITY = 0.75
"""How alike (rapidfuzz ratio, 0..1) the free transcript and the grammar sentence must read
for the free transcript to vouch for the move's values (:func:`echoed`)."""
PLAIN_RECOGNIZER = 0.9
"""A recognizer that gives one reading only (Vosk, PocketSphinx) heard plainly at this
confidence or more."""
class Why(enum.StrEnum):
    """Why a move is confirmed (the log's ``confirmation`` event says it)."""

    NONE = ""
    """It is not: the move goes ahead."""
    DOUBTFUL = "doubtful"
    """The reading itself is doubtful."""
    RISK = "risk"
    """The adapter asks whatever was said (the assassin, a penalised clue)."""
    IRREVERSIBLE = "irreversible"
    """It cannot be taken back once heard, and it was not said plainly."""
    DISAGREE = "disagree"
    """It cannot be taken back once heard, and the utterance's two readings disagree on it
    (:func:`~voice_host.host.core.agreement.doubt`); or, any move, the decode without
    the prompt holds a value the move lacks (``Doubt.PROMPT``)."""
    VOICE = "voice"
    """The voice that said it is another player's than the move's."""


def why_confirm(decision: Decision, *, confidence: float, plain: bool,
                echoed: bool = False, mode: str = "auto", doubt: Doubt = Doubt.NONE) -> Why:
    """The confirmation policy: why ``decision`` is asked about, or ``Why.NONE``.
    ``confidence`` is the reading's (matcher times recognizer), ``plain`` whether the move
    was said plainly (:func:`said_plainly`), ``echoed`` whether the free transcript holds
    the move's every value (:func:`echoed`: a low confidence is then no doubt about what
    the move is), ``mode`` the ``--confirm`` option, ``doubt`` what of the evidence
    disagrees with the move (:func:`~voice_host.host.core.agreement.doubt`): a move
    the table cannot take back is never made on evidence that disagrees, however confident
    the reading, and no move is made for another player than the voice that said it."""
    if mode == "never" or decision.action is None:
        return Why.NONE
    if decision.confirm is not None:
        return Why.RISK
    if doubt is Doubt.VOICE:
        return Why.VOICE
    if doubt is Doubt.PROMPT:
        return Why.DISAGREE  # a value the decode without the prompt heard is missing
    if doubt is not Doubt.NONE and decision.irreversible is not None:
        return Why.DISAGREE
    if confidence < CONFIRM_BELOW and not echoed:
        return Why.DOUBTFUL
    if decision.irreversible is not None and not (plain or echoed):
        return Why.IRREVERSIBLE
    return Why.NONE


def said_plainly(heard: Heard, match: IntentMatch, understood: Understood | None) -> bool:
    """Whether the evidence shows the move was said plainly: see the module docstring.
    ``understood`` is the utterance read again with the phase's matcher (its two readings
    when a recognizer searched the grammar)."""
    if match.confidence < PLAIN_MATCH:
        return False
    if not heard.spoken:
        return True  # typed: the words are the words
    judgement = heard.judgement
    if judgement is not None:
        if understood is None or understood.best is None:
            return False
        grammar, free = _grammar_reading(judgement, understood, match), understood.free
        if grammar is None or grammar.confidence < PLAIN_MATCH:
            return False
        if (free is not None and understood.verdict is Verdict.AGREE
                and free.confidence >= AGREE_MATCH
                and judgement.free_confident(free.confidence, tuning_of(heard))):
            return True  # both readings, each confident, mean this move (a homophone apart)
        # the free transcript is unsure or reads as no move ("house for work"): the grammar
        # sentence, as sure as a one-reading recognizer must be, the decoder not lost, and
        # what Whisper wrote freely backing it -- but not the free transcript itself
        return (judgement.confidence >= PLAIN_RECOGNIZER and not lost(judgement)
                and _free_backs(judgement, match)
                and not _only_own_words(judgement, tuning_of(heard)))
    return heard.confidence >= PLAIN_RECOGNIZER and not heard.alternatives


def echoed(heard: Heard, match: IntentMatch, understood: Understood | None,
           phase: PhaseGrammar) -> bool:
    """Whether Whisper's free transcript, though it reads as no move, holds every value of
    the move the grammar sentence found, and reads like that sentence: "my big is the
    spider" for "my pick is the spider", "the clodwis house too" for "the clue is house
    two" (the words that make the move agree; only the carrier words were misheard). A
    number is held as a word or digits of it, or as a word the grammar's confusions take
    for it ("too") when no other number is there ("house for one" holds no four). The
    grammar sentence must have passed the rejection test and be read exactly (no tentative
    lead-in), the free decode must not be lost (:func:`lost`)."""
    j = heard.judgement
    if (j is None or j.reading is None or lost(j) or match.confidence < PLAIN_MATCH
            or j.reading.similarity < ECHO_SIMILARITY
            or _grammar_reading(j, understood, match) is None):
        return False
    heard_words = _words(j.free_text)
    wanted: list[str] = []
    numbers: list[int] = []
    for value in match.slots.values():
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(item, bool) or not isinstance(item, (str, int)):
                return False  # nothing to find in the words
            if isinstance(item, int):
                numbers.append(item)
            else:
                wanted.append(item)
    if not wanted and not numbers:
        return False
    spoken = {v.value: v.spoken for slot_list in phase.slot_values.lists
              for v in slot_list.values}
    if not all(any(_words(form) and _words(form) <= heard_words
                   for form in (item, *spoken.get(item, ()))) for item in wanted):
        return False
    return all(_holds_number(number, heard_words, phase) for number in numbers)


def _holds_number(number: int, heard_words: set[str], phase: PhaseGrammar) -> bool:
    """Whether ``heard_words`` hold ``number`` (see :func:`echoed`)."""
    forms = phase.number_words
    own = forms.get(number, frozenset()) | {str(number)}
    if heard_words & own:
        return True
    others = set().union(*(f for value, f in forms.items() if value != number))
    confusions = phase.settings.confusions
    return not heard_words & others and any(
        own & set(confusions.get(word, ())) for word in heard_words)


def lost(judgement: Judgement) -> bool:
    """Whether the free decode lost its way: it looped or hit its cap, unless what it wrote
    is the grammar sentence, then at most that sentence begun again ("chocolate one
    chocolate", "football for one football for", or the repeat already cut from the
    transcript: Whisper said it, then missed the end of the text)."""
    if not judgement.looped:
        return False
    if judgement.reading is None:
        return True
    said, free = _word_list(judgement.reading.text), _word_list(judgement.free_text)
    tail = free[len(said):]
    return not (said and free[:len(said)] == said and tail == said[:len(tail)])


def _word_list(text: str) -> list[str]:
    """The words of ``text`` in order, lower-case, elisions apart."""
    return plain_words(text).replace("'", " ").split()


def _only_own_words(judgement: Judgement, tuning: SearchTuning) -> bool:
    """Whether the grammar sentence is the free transcript itself, which the decoder wrote
    unsurely (a mean log-probability below ``free_min_logp``): the search walked the free
    decode through the grammar, and the sentence's margin (none given up against the
    decoder's own choices) says nothing the free transcript's doubt does not. A demo
    game's "gold two", written "build two" at -0.83 a step, was played unasked."""
    return (judgement.reading is not None and judgement.free_logp < tuning.free_min_logp
            and plain_words(judgement.reading.text) == plain_words(judgement.free_text))


def _free_backs(judgement: Judgement, match: IntentMatch) -> bool:
    """Whether the free transcript, though it is no confident reading of the move, backs the
    grammar sentence: it reads like it ("marikit one" for "market one"), or it holds the
    move's every word ("house for work" for "house two"). "the closed foot ball one" backs
    no "the clue is good for one": the sentence was forced onto other words."""
    if judgement.reading is not None and judgement.reading.similarity >= ECHO_SIMILARITY:
        return True
    heard = _words(judgement.free_text)
    wanted = [item for value in match.slots.values()
              for item in (value if isinstance(value, (list, tuple)) else [value])
              if isinstance(item, str)]
    return bool(wanted) and all(_words(w) and _words(w) <= heard for w in wanted)


def _grammar_reading(judgement: Judgement, understood: Understood | None,
                     match: IntentMatch) -> IntentMatch | None:
    """The grammar sentence's reading, when it passed the rejection test and means the move
    while the free transcript means no other move ("marikit one" for "market one"); else
    None. Both :func:`said_plainly` and :func:`echoed` start from it."""
    if understood is None or not judgement.accepted:
        return None
    grammar, free = understood.grammar, understood.free
    if grammar is None or not _same(grammar, match) or (free is not None
                                                        and not _same(free, match)):
        return None
    return grammar


def _words(text: str) -> set[str]:
    """The words of ``text``, lower-case, elisions apart ("l'araignée": l, araignée)."""
    return set(_word_list(text))


def _same(a: IntentMatch, b: IntentMatch) -> bool:
    return (a.intent, dict(a.slots)) == (b.intent, dict(b.slots))


def move_words(s: Session, decision: Decision) -> str:
    """The move in words: what the adapter named for a question, else its description."""
    assert decision.action is not None
    return (decision.confirm or decision.irreversible
            or s.adapter.describe(s.state, decision.action))


def confirm_decision(s: Session, decision: Decision, match: IntentMatch, prompt: Prompt,
                     heard: Heard, understood: Understood | None, *,
                     chosen: bool = False) -> bool:
    """True when the decision's move may go ahead: the policy (:func:`why_confirm`) asks
    nothing, or the players said yes. On a no, the host says what was not done and what it
    still waits for. The move's words are kept for ``undo`` (``Session.move_said``).
    ``understood`` is the session's reading of ``heard`` (its two readings, when a
    recognizer searched the grammar; not read again here). ``chosen``: the players named
    this reading in answer to "Did you mean X, or Y?", which settles every doubt about the
    words (a risk the adapter names is still asked)."""
    assert decision.action is not None
    doubt = Doubt.NONE
    if chosen:  # the players named it: no doubt left about the words
        confidence, plain, vouched = 1.0, True, True
    else:
        confidence, plain, vouched, doubt = _evidence(s, decision, match, prompt, heard,
                                                      understood)
    why = why_confirm(decision, confidence=confidence, plain=plain, echoed=vouched,
                      mode=s.options.confirm, doubt=doubt)
    what = move_words(s, decision)
    s.move_said = what
    if why is Why.NONE:
        s.log.write("move_taken", what=what, asked=None, plain=plain, echoed=vouched)
        return True
    voice = heard.voice.seat if heard.voice is not None else None
    question = [s.narrator.line("common.confirm_voice", voice=voice, what=what)
                if why is Why.VOICE and voice else s.narrator.line("common.confirm", what=what)]

    def answered(yes: bool | None) -> None:
        s.log.write("confirmation", why=why.value, what=what, answer=yes)
        if yes:
            s.log.write("move_taken", what=what, asked=why.value, plain=plain)
            s.move_said = what
            make_move(s, decision)
            return
        s.move_said = None
        # what was not done, and what the host is still waiting for
        s.say([s.narrator.line("common.cancelled_what", what=what), *s.reminder(prompt)])

    ask(s, prompt, question, answered)
    return False


def _evidence(s: Session, decision: Decision, match: IntentMatch, prompt: Prompt,
              heard: Heard, understood: Understood | None
              ) -> tuple[float, bool, bool, Doubt]:
    """What the policy weighs of a reading: its confidence, whether it was said plainly
    (:func:`said_plainly`), whether the free transcript vouches for its values
    (:func:`echoed`) and what of the evidence disagrees with it (:func:`doubt_of`)."""
    confidence = match.confidence * heard.confidence
    if not (heard.spoken and heard.judgement is not None):
        understood = None
    if understood is not None:
        # the host's own confidence combines the two readings (both agreeing and the
        # grammar sentence accepted count as sure)
        if understood.best is not None and _same(understood.best, match):
            confidence = understood.confidence
        rival = understood.free
        if rival is not None and not _same(rival, match) and \
                not s.adapter.plausible(s.state, rival):
            # "marikit one" for "market one": no move a player could mean, so no rival
            understood = replace(understood, free=None)
    plain = said_plainly(heard, match, understood)
    phase = s.phase_grammar(prompt.phase)[0]
    vouched = echoed(heard, match, understood, phase)
    return confidence, plain, vouched, doubt_of(decision, match, heard, understood, phase)
