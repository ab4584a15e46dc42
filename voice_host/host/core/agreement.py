"""Whether all the evidence of one utterance agrees with the move read from it: its two
readings (the grammar sentence and the free transcript), the decode without the prompt, and
the voice that said it. One pure function over plain values (:func:`doubt`); the
confirmation policy (``confirm.why_confirm``) asks about a move in doubt."""

from __future__ import annotations

import enum
from collections.abc import Hashable, Mapping
from typing import Any

from voice_host.host.core.understanding import Understood, tuning_of
from voice_host.host.core.values import Heard, Voice
from voice_host.intent import IntentMatch, PhaseGrammar
from voice_host.intent.expand import WILDCARD_LIST
from voice_host.intent.grammar import NAMED_PLAYER_LIST, PLAYER_LIST
from voice_host.speech.decision import Verdict
from voice_host.text import tokenize


class Doubt(enum.StrEnum):
    """Why the evidence of one utterance does not all point at the move read from it."""

    NONE = ""
    """It does: both readings (when there are two) and the voice (when known) agree."""
    READINGS = "readings"
    """The grammar sentence and the free transcript read as different moves."""
    WORDS = "words"
    """One reading is a move, the other no move, and the words tell them apart: a name or
    a value of the move is missing from the other text ("ada i'm in" beside "eva i'm in"),
    or the other text holds one the move lacks (its "no" in "yes Ada, Cleo and Dan, no Ben
    and Eve")."""
    VOICE = "voice"
    """The move is another player's than the voice that said it (Cleo's voice, "Ada yes")."""
    PROMPT = "prompt"
    """The decoder's transcript without the phase's words as its prompt holds a value of a
    list the move names, not a player, that the move lacks: the "no" of "nina no, chloe
    ... yes", lost by both readings of a long list the prompt's names turned into one
    (``SearchTuning.unprompted_words``)."""
    LIST = "list"
    """One verdict for a long list of names ("Grace, Chloe, Olivia, Sam and Ingrid no"):
    where a verdict the recognizer dropped between two groups hides (the "yes" of "Grace,
    Chloe and Olivia yes, Sam and Ingrid no"), with every reading agreeing on the loss. A
    table says "everyone no" rather than each name with one verdict, so the question is
    rare when nothing was lost."""


VOICE_SURE = 0.8
"""A voice names its seat surely enough to contradict a name from this confidence."""
LONG_LIST = 4
"""A list of at least this many players with one verdict is asked about (:data:`Doubt.LIST`)."""


def doubt(move: IntentMatch, understood: Understood | None, *, grammar_text: str = "",
          free_text: str = "", vocabulary: Mapping[str, Hashable] | None = None,
          actors: tuple[str, ...] = (), voice: Voice | None = None,
          confusions: Mapping[str, tuple[str, ...]] | None = None,
          grammar_sure: bool = True, free_sure: bool = True,
          unprompted_text: str = "") -> Doubt:
    """Whether all the evidence of one utterance agrees with ``move``, the reading the host
    would act on; over plain values only. ``understood``: the utterance's readings (its
    grammar sentence's and free transcript's, when a recognizer gave both; None for one
    reading); ``grammar_text``, ``free_text``: those two texts; ``vocabulary``: the words
    that make a move differ in this phase (player names, the values of its lists: yes, no,
    the numbers; :func:`phase_vocabulary`); ``actors``: whose move it is (each action's
    player); ``voice``: who spoke by voice, when known; ``confusions``: words a recognizer
    writes for a word of the vocabulary ("too" for "two"), read as that word;
    ``grammar_sure``, ``free_sure``: whether each text is one the recognizer stands by (the
    grammar sentence passed its rejection test; the decoder was sure of its free
    transcript): a text it does not stand by, that reads as no move, is noise, no
    evidence against the other reading (the confirmation policy judges that one alone).

    The readings agree when both read the same move (``Verdict.AGREE``), or when only one
    is a move and the other text holds the same names and values (no name of the move
    missing, no word of ``vocabulary`` beyond the move's own). The voice agrees when it is
    unsure, when the move is several players' (one player speaking for the table), or when
    it names the move's one actor. ``unprompted_text``: the decoder's transcript without
    the prompt, when it was decoded; it disagrees when it holds a value of a list the move
    names (other than the players) that the move lacks (:data:`Doubt.PROMPT`)."""
    if unprompted_text and _value_added(move.text, unprompted_text, vocabulary or {}):
        return Doubt.PROMPT
    if understood is not None and (understood.grammar is not None
                                   or understood.free is not None):
        grammar, free = understood.grammar, understood.free
        if grammar is not None and free is not None:
            if understood.verdict is not Verdict.AGREE:
                return Doubt.READINGS
        else:
            other = free_text if grammar is not None else grammar_text
            sure = free_sure if grammar is not None else grammar_sure
            if other and sure and _words_differ(move.text, other, vocabulary or {},
                                                confusions or {}):
                return Doubt.WORDS
    if (voice is not None and voice.seat is not None and voice.confidence >= VOICE_SURE
            and len(set(actors)) == 1 and actors[0] != voice.seat):
        return Doubt.VOICE
    if understood is not None and _one_verdict_for_many(move.text, vocabulary or {}):
        return Doubt.LIST  # heard, not typed: a typed list lost nothing on the way
    return Doubt.NONE


def _one_verdict_for_many(said: str, vocabulary: Mapping[str, Hashable]) -> bool:
    """Whether ``said`` names :data:`LONG_LIST` players or more and one value of another list
    once (one "no" after five names)."""
    names: set[Hashable] = set()
    verdicts = 0
    for word in tokenize(said):
        value = vocabulary.get(word)
        if not isinstance(value, tuple):
            continue
        if value[0] in (PLAYER_LIST, NAMED_PLAYER_LIST):
            names.add(value)
        else:
            verdicts += 1
    return len(names) >= LONG_LIST and verdicts == 1


def _words_differ(said: str, other: str, vocabulary: Mapping[str, Hashable],
                  confusions: Mapping[str, tuple[str, ...]]) -> bool:
    """Whether ``other`` lacks a value of ``vocabulary`` that ``said`` names, or names one
    that ``said`` lacks ("2" and "two" are one value; a word of ``other`` the
    ``confusions`` take for a word of the vocabulary, "too", is that word's value)."""
    mine = {vocabulary[w] for w in tokenize(said) if w in vocabulary}
    theirs: set[Hashable] = set()
    for word in tokenize(other):
        if word in vocabulary:
            theirs.add(vocabulary[word])
            continue
        meant = {vocabulary[m] for m in confusions.get(word, ()) if m in vocabulary}
        theirs.update(meant & mine if len(meant) > 1 else meant)
    return mine != theirs


def _value_added(said: str, other: str, vocabulary: Mapping[str, Hashable]) -> bool:
    """Whether ``other`` names a value that ``said`` lacks, of a list ``said`` names a
    value of, other than the players' ("no" beside a list of names and "yes"): a name
    Whisper writes otherwise without the prompt ("simon" for "sam") is no such value."""
    mine = {vocabulary[w] for w in tokenize(said) if w in vocabulary}
    lists = {value[0] for value in mine if isinstance(value, tuple)} - {
        PLAYER_LIST, NAMED_PLAYER_LIST}
    for word in tokenize(other):
        value = vocabulary.get(word)
        if isinstance(value, tuple) and value not in mine and value[0] in lists:
            return True
    return False


def phase_vocabulary(phase: PhaseGrammar) -> dict[str, Hashable]:
    """The words that tell one move of ``phase`` from another, each with the value it
    stands for: every one-word form of the lists its sentences use (player names, yes and
    no, numbers, icons, board words), the open slot's any-word aside."""
    words: dict[str, Hashable] = {}
    for name in sorted(phase.used_lists):
        value_list = phase.lists.get(name)
        if name == WILDCARD_LIST or value_list is None:
            continue
        for tokens, value in value_list.forms:
            if len(tokens) == 1:
                for word in tokenize(tokens[0]):
                    words.setdefault(word, (name, repr(value)))
    return words


def doubt_of(decision: Any, move: IntentMatch, heard: Heard, understood: Understood | None,
             phase: PhaseGrammar) -> Doubt:
    """:func:`doubt` of the move ``decision`` makes from ``move``, as ``heard`` (its two
    readings when a recognizer searched the grammar, its voice when known)."""
    judgement = heard.judgement if heard.spoken else None
    actions = (decision.action, *decision.then) if decision.action is not None else ()
    actors = tuple(str(a.player) for a in actions if isinstance(getattr(a, "player", None),
                                                                str))
    reading = judgement.reading if judgement is not None else None
    free_sure = judgement is not None and not judgement.looped and \
        judgement.free_logp >= tuning_of(heard).free_min_logp
    return doubt(move, understood if judgement is not None else None,
                 grammar_sure=judgement is not None and judgement.accepted,
                 free_sure=free_sure,
                 grammar_text=reading.text if reading is not None else "",
                 free_text=judgement.free_text if judgement is not None else "",
                 vocabulary=phase_vocabulary(phase), actors=actors, voice=heard.voice,
                 confusions=phase.settings.confusions,
                 unprompted_text=judgement.unprompted_text if judgement is not None else "")
