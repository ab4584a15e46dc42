"""The judgement of one utterance and the decision between its two readings.

This module is pure: it never loads a model.  The grammar search
(:mod:`voice_host.speech.search`) gives the decoder's free reading and the best sentence of
the phase's grammar; what is decided here, the same way on every CPU, is whether to believe
them:

**Rejection** of the grammar reading (:func:`rejection`): its mean per-step *margin*
(log-probability given up against the decoder's own choice at each step, end-of-text
included) must pass a threshold, stricter for one-word sentences, and a middling margin must
also read like the free transcript.  Another sentence within a small margin is an
alternative.  A reading the phase's words in the decoder's prompt made far likelier than the
audio alone does (its *prompt lift*, :func:`primed`) is heard only through the
prompt: not the grammar's reading, nor a confident free transcript.

The result is a :class:`Judgement`.  The host then reads both texts with the phase's
matcher and :func:`decide` combines the two readings: they agree -> take it; only one is
confident -> that one; both confident and meaning different things -> ask which; neither
-> not a command.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from rapidfuzz import fuzz

from voice_host.speech.grammar_search import spelling_cost
from voice_host.text import plain

# --------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class SearchTuning:
    """The search's, the rejection's and the decision's settings."""

    accept_margin: float = -0.7
    """Accept the best grammar sentence when its mean per-step margin is at least this...
    The thresholds of the rejection and of the free reading are calibrated together
    (``voice-host bench --quick --split calib --calibrate``): of the combinations that act
    on at most 1% of the table talk and change the game on none, the middle of the plateau
    of those that understand the most commands."""
    sure_alone: float = -0.15
    """A margin at least this good is accepted whatever the similarity. Babble forced onto
    a short command can come close ("i see the chip" forced onto "i vote yes" at -0.16),
    so the bar sits just above it."""
    min_similarity: float = 0.5
    """... and when it reads like what the decoder wrote freely (rapidfuzz ratio of the two
    texts, 0..1): table talk forced onto a short command ("pass me the chips" -> "pass")
    shares little with its own transcript."""
    close_similarity: float = 0.8
    """A sentence that reads almost exactly like the free transcript (similarity at least
    this) ..."""
    close_margin: float = -1.0
    """... is accepted down to this margin: Whisper wrote nearly the same words, and only
    its spelling of them cost the margin ("double if me" for "double is me", "we'll pick
    the mode" for "we'll pick the boat"). Much lower, talk that resembles a command is
    taken ("what did emma just say" as *repeat*); a similarity of 0.75 would let "well"
    stand for "bell"."""
    long_close_words: int = 3
    """A reading of at least this many words ..."""
    long_close_similarity: float = 2.0
    """... reads like the free transcript, for the close rule (``close_margin``), from this
    similarity when it is below ``close_similarity`` (above 1: off, the same bar for every
    reading): in a sentence of three words or more a ratio of 0.75 is still most of its
    letters where the decoder wrote them ("which was on left" for "which words are left",
    in a reverberant room), while a single word at 0.75 is another word ("well" for
    "bell")."""
    unsure_close_margin: float = -1.0
    """A sentence that reads like the free transcript (similarity at least
    ``unsure_close_similarity``) when the decoder was itself unsure of that transcript (a
    mean log-probability below ``free_min_logp``) is accepted down to this margin: the
    margin is given up against words the decoder did not believe ("better" at -0.61 for
    the board word "butter", "take" for "cake"). The floor of a close reading
    (``close_margin``), for a reading a little less alike; lower, chatter becomes
    commands."""
    unsure_close_similarity: float = 0.7
    """The similarity that rule needs."""
    short_steps: int = 3
    """A sentence of at most this many steps (one or two tokens and end-of-text) is short:
    a single word, which any noise can be forced onto."""
    short_accept_margin: float = -0.6
    """The margin a short sentence needs (stricter than ``accept_margin``)."""
    talk_words: int = 2
    """A confident free transcript this many words longer than a grammar reading unlike it
    is talk the reading was forced from (see :func:`rejection`): "he talks about football
    all the time" is not "hit"."""
    sure_margin: float = -0.15
    """At or above this margin the confidence is 1 (between the two it rises from 0.6)."""
    free_min_logp: float = -0.6
    """The free reading counts as confident when the decoder's mean log-probability per
    step of its own transcript (end-of-text included) is at least this..."""
    free_min_match: float = 0.7
    """... and the matcher reads it with at least this confidence (an exact or nearly exact
    reading of a typed line)."""
    alternative_window: float = 0.7
    """A second reading whose total margin is within this many nats is an alternative."""
    branches_per_step: int = 6
    """In-grammar tokens queued where the decoder's own next token leaves the grammar."""
    rivals_per_step: int = 2
    """In-grammar rivals queued where the decoder's own token stays in the grammar."""
    rival_window: float = 4.0
    """A rival of the decoder's own in-grammar token is queued when at most this many nats
    below it."""
    hopeless_step: float = -12.0
    """A token this far below the decoder's choice at its step is never tried."""
    rounds: int = 2
    """Rounds of batched rollouts after the free decode (one decoder call each)."""
    rescue_rounds: int = 0
    """Further rounds while no sentence at all has been found (rollouts that leave the
    grammar after a token or two, as in French: a rejected reading beats none)."""
    rescue_from: int = 0
    """The rescue rounds only when at least this many of the free decode's first tokens
    stay inside the phase's grammar (its first one, without an open slot): "the clue" of
    "the clueless house too", and the free transcript is unsure (a mean log-probability
    below ``free_min_logp``) (0 = always)."""
    open_rounds: int = -1
    """Rounds of the second search of a phase with an open slot (after its likely words'
    search), instead of ``rounds`` (-1 = the same)."""
    talk_rounds: int = -1
    """Rounds of a search when the free decode is sure (a mean log-probability of at least
    ``free_min_logp``, no loop) and its own words leave that search's grammar before they
    end (:func:`~voice_host.speech.search.sure_outside`): table talk written out clearly
    ("i started learning the piano again" in the clue phase), whose search only forces
    the grammar onto it and is rejected, and a command said in words of its own, which the
    matcher reads in the free transcript. No rescue rounds then (-1 = ``rounds``)."""
    talk_share: float = 0.5
    """... when at most this share of the free transcript's words are the grammar's."""
    complete_rounds: int = 0
    """Further rounds while the best sentence found ends at least ``complete_tokens``
    tokens before the free decode did: a sentence cut short ("la lapin" for "la lapin pour
    jack") is tried further, and its whole sentence, when found, is ranked beside it by
    the same mean margin (0 = never)."""
    complete_tokens: int = 2
    """How many tokens shorter than the free decode a sentence is cut short."""
    batch: int = 6
    """Prefixes continued per round."""
    rollout_tokens: int = 6
    """Tokens a later rollout writes at least past its prefix."""
    queue_limit: int = 48
    """Queued prefixes kept (the best ones)."""
    rescored: int = 4
    """Sentences found that are scored exactly at the end (the best and its rivals)."""
    near_sentences: int = 4
    """When no grammar sentence passes, the sentences of the grammar nearest to the free
    transcript letter by letter (:func:`~voice_host.speech.grammar_search.nearest_sentences`)
    are searched again as a grammar of their own (0 = never). The decoder's exact scores
    still decide, with the same rejection: the nearness only picks which sentences get
    tried, where the search cannot step over a word the decoder inserted or split
    ("jacksept" for "j'accepte", "des jadi" for "déjà dit")."""
    near_cost: float = 0.5
    """Nearest sentences farther than this (edit cost per letter) are not tried."""
    near_beam: int = 160
    """Partial alignments kept per letter of the transcript."""
    near_rounds: int = 4
    """Rounds of rollouts of that second search."""
    near_close_cost: float = 0.15
    """A near sentence the free transcript spells almost letter for letter (edit cost per
    letter at most this, sentences of two words or more) is accepted down to
    ``near_close_margin``, at the lowest confidence (the host confirms it first): the
    decoder wrote nearly these letters ("and do please" for "undo please"), and only how
    it cut them into words cost the margin."""
    near_close_margin: float = -1.2
    """The margin a near sentence spelled letter for letter needs."""
    sound_similarity: float = 2.0
    """A grammar reading that *sounds* like the free transcript (espeak-ng's phonemes of
    both, :mod:`voice_host.speech.sounds`, at least this alike) ... (above 1: off)"""
    sound_margin: float = -1.2
    """... is accepted down to this margin, at the lowest confidence (the host confirms it
    first): the decoder spelled what it heard as it sounds ("la top se jaque" for "la taupe
    c'est jack", "mepos" for "mets pause"), which costs the sentence its margin and its
    letters, not its sounds. Not in a phase with an open slot (the Codenames clue): there
    the slot's word is whatever the transcript wrote, so talk sounds like some clue ("quelqu'un
    lui même" read as "quelqu'un neuf")."""
    sound_unsure_only: bool = False
    """The sound rule holds only beside a free transcript the decoder was unsure of (a mean
    log-probability per step below ``free_min_logp``): a transcript it was sure of is
    words it heard, and a reading that merely sounds like them is another sentence ("what
    did hannah just say", -0.06 a step, sounds 0.82 like "what did you just say")."""
    sound_near: bool = True
    """The sound rule may also take a sentence the near search found
    (``near_sentences``). That search tries the sentences spelled most like the
    transcript, so the one it brings back sounds like the transcript by the way it was
    chosen, whatever was said; off, such a sentence needs the margin of any other."""
    agree_margin: float = -1.2
    """A grammar reading refused for its margin alone, down to this margin, is taken when
    the free transcript, however unsure the decoder was of it, reads as the same move
    (matcher confidence at least ``free_min_match``, not looped): two readings found apart
    agree (:func:`decide_judgement`). A demo game's "guess stone", written "guest stone"
    at -1.00 a step, searched as "stone" at -1.17. 0: off. The floor is that of the other
    rules that take a reading the decoder's own words back (``near_close_margin``,
    ``sound_margin``)."""
    split_cost: float = 1 / 3
    """A free transcript that is the grammar sentence with one of its words written as
    several, spelled alike (the edit cost per letter of the pieces joined against the word,
    :func:`~voice_host.speech.grammar_search.spelling_cost`, at most this: "good ball for
    two" and "pet ball for one" for "football for …", 0.19 and 0.31) is no rival of an
    accepted sentence, whatever the matcher reads it as (a clue of two words): the decoder
    cut the word it heard in two (:func:`split_word`). 0 turns the rule off for any
    spelling but the word's own letters ("foot ball")."""
    skip_talk: bool = True
    """Skip the grammar search when the free transcript is sure talk far longer than any
    sentence of the grammar (:func:`~voice_host.speech.search.beyond_grammar`): no reading
    could pass the rejection beside it, and the search is the slowest part of such a line;
    or sure talk in words the grammar lacks (:func:`~voice_host.speech.search.unlike_grammar`,
    the three values below)."""
    foreign_logp: float = -0.4
    """Talk in words the grammar lacks: the free transcript's mean log-probability per step
    is at least this ..."""
    foreign_words: int = 3
    """... it has at least this many words ..."""
    foreign_share: float = 0.6
    """... and at most this share of them are words of the grammar (letter for letter)."""
    prompt_lift: float = 2.25
    """A reading the decoder gives at least this much more log-probability per step with
    the phase's words as its prompt than without them was heard through the prompt, not in
    the audio (:func:`primed`): table talk in a held-out voice, "I've got a
    meeting at nine", written as the prompt's "I vote no" (per step -0.40 prompted, -4.45
    not), and babble at 6 dB written as "i vote no" or "i vote yes" (lifts 3.2 to 5.4). It
    is then neither the grammar's reading (``Rejection.PRIMED``) nor a confident free
    transcript. Commands of two words or more heard rightly are lifted less than 2, the
    talk the prompt turns into commands about 2.5 and more; 2.25 is the middle of the span
    where English and French both understand as many commands and act on the least talk.
    Above 50: off."""
    prompt_lift_words: int = 2
    """The rule holds for sentences of at least this many words. A single word is what the
    prompt is there to make heard (a board word, "pass", a name: tiny.en writes Piper's
    "butter" as "better" without it, a lift of 2.36 for the board word), and it already
    needs the stricter ``short_accept_margin``; the talk the prompt turned into commands
    was all sentences ("i vote no", "je choisis mila et moi")."""
    unprompted_words: int = 6
    """A reading of at least this many words that would be acted on (the grammar sentence
    accepted, or a sure free transcript) is also decoded freely without the phase's words
    as the prompt (:func:`~voice_host.speech.search.with_unprompted`; 0: never). The
    prompt ends with the players' names, and in a long spoken list the decoder follows it
    as a list: "sam, ingrid, olivia and nina no; chloe, grace and amelie yes" written "sam
    ingrid olivia and nina chloe grace and amelie yes" by both readings, the "no" that the
    decode without the prompt keeps gone. The host asks about a move whose words lack a
    value that decode holds. Shorter commands are what the prompt is for (a name, a board
    word), and cost no further decode."""


# --------------------------------------------------------------------------- results


class Rejection(enum.StrEnum):
    """Why the grammar reading was not accepted."""

    NONE = ""
    """It was accepted."""
    NO_AUDIO = "no speech"
    """The decoder wrote nothing."""
    NO_SENTENCE = "no grammar sentence"
    """The search found no sentence of the grammar."""
    LOW_MARGIN = "low margin"
    """The best sentence is too far from what the decoder would have written."""
    UNLIKE_TRANSCRIPT = "unlike the transcript"
    """A middling margin, and the sentence reads unlike the free transcript."""
    TALK = "talk longer than any command"
    """The free transcript is sure talk far longer than any sentence of the grammar: no
    sentence would have been believed beside it, and none was searched for."""
    PRIMED = "heard only through the prompt"
    """The decoder wrote the sentence because the phase's words prompted it: without the
    prompt the same audio makes it far less likely (``SearchTuning.prompt_lift``)."""
    FOREIGN = "talk in words the grammar lacks"
    """The free transcript is sure talk in words mostly not of the grammar
    (:func:`~voice_host.speech.search.unlike_grammar`); none was searched for."""


@dataclass(frozen=True)
class GrammarReading:
    """The best sentence of the phase's grammar for an utterance."""

    text: str
    """The sentence as the matcher reads it (lowercase words)."""
    margin: float
    """Mean per-step margin (0 = the decoder's own words; more negative = forced)."""
    score: float
    """Mean per-step log-probability."""
    steps: int
    """Tokens plus end-of-text."""
    similarity: float
    """rapidfuzz ratio (0..1) between this sentence and the free transcript."""
    bound: bool = False
    """The margin and score are a restricted rollout's, upper bounds of the exact ones: the
    sentence was not scored again, since even these are rejected
    (:func:`~voice_host.speech.search.hopeless`)."""
    sound: float = -1.0
    """How alike this sentence and the free transcript sound (0..1,
    :func:`~voice_host.speech.sounds.sound_similarity`), or -1 when not measured."""
    lift: float = 0.0
    """How much likelier per step the decoder makes this sentence with the phase's words as
    its prompt than without (:attr:`SearchTuning.prompt_lift`), 0 when not measured."""
    near: bool = False
    """Found by the near search, among the sentences spelled most like the free transcript
    (``SearchTuning.near_sentences``), not by the grammar search itself."""
    tokens: tuple[int, ...] = field(default=(), compare=False, repr=False)
    """The decoder's tokens of the sentence (for measuring ``lift``; not recorded)."""


@dataclass(frozen=True)
class Judgement:
    """What the speech layer heard in one utterance: its free transcript and its best
    grammar sentence, with the figures that say how far to trust each."""

    free_text: str
    """The decoder's own transcript (lowercase words, punctuation dropped, loops cut)."""
    free_logp: float
    """Mean log-probability per step of the free transcript (end-of-text included)."""
    looped: bool
    """The free decode repeated itself (a word or phrase again and again) or hit its cap."""
    reading: GrammarReading | None
    """The best grammar sentence found, accepted or not (None when none was found)."""
    accepted: bool
    """The grammar reading passes the rejection test."""
    reason: Rejection
    """Why it did not (``Rejection.NONE`` when it did)."""
    confidence: float
    """0..1 confidence of the grammar reading (0 when not accepted)."""
    alternatives: tuple[str, ...] = ()
    """Other grammar sentences almost as likely, best first."""
    open_phase: bool = False
    """The phase has an open slot (any word): its grammar search had the slot open too."""
    free_lift: float = 0.0
    """The free transcript's prompt lift (as :attr:`GrammarReading.lift`), 0 when not
    measured."""
    free_tokens: tuple[int, ...] = field(default=(), compare=False, repr=False)
    """The decoder's tokens of the free transcript (for measuring ``free_lift``)."""
    unprompted_text: str = ""
    """The decoder's own transcript without the phase's words as its prompt (plain, loops
    cut), when it was decoded (``SearchTuning.unprompted_words``), else empty."""

    def free_confident(self, match_confidence: float, tuning: SearchTuning) -> bool:
        """True when the free transcript, read by the matcher with ``match_confidence``,
        is a confident reading on its own."""
        return (bool(self.free_text) and match_confidence >= tuning.free_min_match
                and not self.looped and self.free_logp >= tuning.free_min_logp
                and not primed(self.free_text, self.free_lift, tuning))

    def free_certainty(self, tuning: SearchTuning) -> float:
        """0..1 confidence of the free transcript as a recognizer's transcript: 0.8 at the
        ``free_min_logp`` threshold, 1 when every step was certain, 0.5 below."""
        if not self.free_text or self.looped:
            return 0.0
        if self.free_logp < tuning.free_min_logp or primed(self.free_text, self.free_lift,
                                                           tuning):
            return 0.5
        span = max(1e-6, -tuning.free_min_logp)
        return round(0.8 + 0.2 * min(1.0, (self.free_logp - tuning.free_min_logp) / span), 4)

    def rejection_of(self, reading: GrammarReading, tuning: SearchTuning) -> Rejection:
        """Why ``reading`` is not believed beside this free transcript, or
        ``Rejection.NONE`` (see :func:`rejection`)."""
        if primed(reading.text, reading.lift, tuning):
            return Rejection.PRIMED
        return rejection(reading, tuning,
                         free_is_talk(self.free_text, self.free_logp, self.looped,
                                      reading.text, tuning),
                         free_is_longer(self.free_text, reading.text, tuning),
                         spelled_alike(self.free_text, reading.text, tuning),
                         bool(self.free_text) and self.free_logp < tuning.free_min_logp,
                         sounds_alike=self.sound_applies(reading, tuning)
                         and reading.sound >= tuning.sound_similarity)

    def sound_applies(self, reading: GrammarReading, tuning: SearchTuning) -> bool:
        """Whether the sound rule (``SearchTuning.sound_similarity``) may take ``reading``
        here: the phase has no open slot, with ``sound_unsure_only`` the decoder was unsure
        of its own transcript, and without ``sound_near`` the reading is not the near
        search's."""
        return (tuning.sound_similarity <= 1.0 and not self.open_phase
                and not (tuning.sound_unsure_only
                         and self.free_logp >= tuning.free_min_logp)
                and (tuning.sound_near or not reading.near))

    def figures(self) -> dict[str, float | str]:
        """The figures as a flat record (logs, ``understand --json``, the benchmark)."""
        out: dict[str, float | str] = {
            "free_text": self.free_text, "free_logp": round(self.free_logp, 4),
            "looped": int(self.looped), "accepted": int(self.accepted),
            "rejected_because": self.reason.value}
        if self.reading is not None:
            out.update(heard=self.reading.text, margin=round(self.reading.margin, 4),
                       score=round(self.reading.score, 4), steps=self.reading.steps,
                       similarity=round(self.reading.similarity, 3))
            if self.reading.bound:
                out["bound"] = 1
            if self.reading.sound >= 0:
                out["sound"] = round(self.reading.sound, 3)
            if self.reading.lift:
                out["lift"] = round(self.reading.lift, 3)
            if self.reading.near:
                out["near"] = 1
        if self.free_lift:
            out["free_lift"] = round(self.free_lift, 3)
        if self.unprompted_text:
            out["unprompted"] = self.unprompted_text
        return out

    @classmethod
    def from_figures(cls, record: Mapping[str, Any]) -> Judgement:
        """A judgement again from its :meth:`figures` (the benchmark decides again from
        recorded figures); the grammar reading's confidence and alternatives are not
        recorded and come back as 0 and none."""
        reading = None
        if "heard" in record:
            reading = GrammarReading(str(record["heard"]), float(record["margin"]),
                                     float(record["score"]), int(record["steps"]),
                                     float(record["similarity"]),
                                     bool(record.get("bound", 0)),
                                     float(record.get("sound", -1.0)),
                                     float(record.get("lift", 0.0)),
                                     bool(record.get("near", 0)))
        return cls(str(record.get("free_text", "")),
                   float(record.get("free_logp", -math.inf)),
                   bool(record.get("looped", 0)), reading, bool(record.get("accepted", 0)),
                   Rejection(record.get("rejected_because", Rejection.NONE.value)), 0.0,
                   open_phase=bool(record.get("open_phase", 0)),
                   free_lift=float(record.get("free_lift", 0.0)),
                   unprompted_text=str(record.get("unprompted", "")))


def primed(text: str, lift: float, tuning: SearchTuning) -> bool:
    """A reading of ``text`` lifted this much by the prompt was heard only through it (a
    sentence of ``prompt_lift_words`` words or more)."""
    return lift >= tuning.prompt_lift and len(text.split()) >= tuning.prompt_lift_words


def threshold(steps: int, tuning: SearchTuning) -> float:
    """The margin a sentence of this many steps needs."""
    return tuning.short_accept_margin if steps <= tuning.short_steps else tuning.accept_margin


def close_bar(reading: str, tuning: SearchTuning) -> float:
    """The similarity to the free transcript at which a reading counts as close."""
    if len(reading.split()) >= tuning.long_close_words:
        return min(tuning.close_similarity, tuning.long_close_similarity)
    return tuning.close_similarity


def rejection(reading: GrammarReading, tuning: SearchTuning, free_sure: bool = False,
              free_longer: bool = False, alike: bool = False,
              free_unsure: bool = False, *, sounds_alike: bool = False) -> Rejection:
    """Why this grammar reading is not believed, or ``Rejection.NONE``. ``free_sure``: the
    decoder's own transcript is a confident sentence longer than the reading
    (:func:`free_is_talk`); a reading unlike it is then never believed, however small its
    margin (table talk written out clearly, "he talks about football all the time", forced
    onto "hit" with a sure-looking margin, since ending early costs the decoder little; a
    single word misheard as another, "Bye." for "book", is not such a case).
    ``free_longer``: the transcript is that much longer but unsure (:func:`free_is_longer`,
    talk in noise: "yes the new types of high speed ones" forced onto "yes it is"); a
    reading unlike it then needs a sure margin (``sure_margin``), not merely
    ``sure_alone``. ``alike``: the transcript spells the reading almost letter for letter
    (:func:`spelled_alike`); it is then taken down to ``near_close_margin``.
    ``free_unsure``: the decoder was unsure of its own transcript; a reading like it is
    then taken down to ``unsure_close_margin``. ``sounds_alike``: it sounds like the
    transcript (``reading.sound`` at least ``sound_similarity``, in a phase without an open
    slot, see :meth:`Judgement.rejection_of`); it is then taken down to ``sound_margin``."""
    if reading.similarity >= close_bar(reading.text, tuning) \
            and reading.margin >= tuning.close_margin:
        return Rejection.NONE
    if (free_unsure and reading.similarity >= tuning.unsure_close_similarity
            and reading.margin >= tuning.unsure_close_margin):
        return Rejection.NONE
    if alike and reading.margin >= tuning.near_close_margin:
        return Rejection.NONE
    if sounds_alike and reading.margin >= tuning.sound_margin:
        return Rejection.NONE
    if reading.margin < threshold(reading.steps, tuning):
        return Rejection.LOW_MARGIN
    if reading.similarity < tuning.min_similarity and (
            reading.margin < tuning.sure_alone or free_sure
            or (free_longer and reading.margin < tuning.sure_margin)):
        return Rejection.UNLIKE_TRANSCRIPT
    return Rejection.NONE


def sound_may_help(judgement: Judgement, tuning: SearchTuning) -> bool:
    """Whether how the grammar reading sounds could change the verdict, so that it is worth
    measuring (an espeak-ng call, :func:`with_sound`): the rule applies here
    (:meth:`Judgement.sound_applies`), the reading was rejected and it is within reach of
    ``sound_margin``."""
    reading = judgement.reading
    return (reading is not None and judgement.sound_applies(reading, tuning)
            and not judgement.accepted and reading.margin >= tuning.sound_margin)


def with_sound(judgement: Judgement, sound: float | None, tuning: SearchTuning) -> Judgement:
    """The judgement with its grammar reading's sound similarity recorded (``sound``, None
    when it could not be measured), and accepted when that is what it lacked
    (``SearchTuning.sound_similarity``), at the lowest confidence: the host confirms it."""
    reading = judgement.reading
    if reading is None or sound is None:
        return judgement
    reading = replace(reading, sound=sound)
    judged = replace(judgement, reading=reading)
    if judgement.accepted or judgement.reason not in (Rejection.LOW_MARGIN,
                                                      Rejection.UNLIKE_TRANSCRIPT):
        return judged
    if judged.rejection_of(reading, tuning) is not Rejection.NONE:
        return judged
    return replace(judged, accepted=True, reason=Rejection.NONE, confidence=0.6)


def spelled_alike(free_text: str, reading: str, tuning: SearchTuning) -> bool:
    """The free transcript spells the grammar reading, of two words or more, almost letter
    for letter (:func:`~voice_host.speech.grammar_search.spelling_cost` at most
    ``near_close_cost``): "and turn" for "end turn", where the decoder's own words cost
    the sentence its margin, not what it heard (the rule of the near-sentence search,
    applied to the first search's sentence too: English searches no near sentences)."""
    return (bool(free_text) and len(reading.split()) >= 2
            and spelling_cost(free_text, reading) <= tuning.near_close_cost)


def free_is_longer(free_text: str, reading: str, tuning: SearchTuning) -> bool:
    """The decoder's own transcript has at least ``talk_words`` more words than the grammar
    reading ``reading`` (a phrase it wrote twice in a row counted once)."""
    return (bool(free_text) and len(without_loops(free_text).split())
            >= len(reading.split()) + tuning.talk_words)


def free_is_talk(free_text: str, free_logp: float, looped: bool, reading: str,
                 tuning: SearchTuning) -> bool:
    """The decoder's own transcript is a confident sentence of at least ``talk_words`` more
    words than the grammar reading ``reading`` (a phrase it wrote twice in a row counted
    once): written without a loop, at a mean
    log-probability per step of at least ``free_min_logp``."""
    return (not looped and free_logp >= tuning.free_min_logp
            and free_is_longer(free_text, reading, tuning))


def command_in_talk(free_text: str, free_logp: float, looped: bool, reading: str,
                    tuning: SearchTuning) -> bool:
    """The grammar reading's words stand, together and in order, inside a sure, longer
    free transcript (:func:`free_is_talk`) that is not only the reading said again:
    "what is going on" in "honestly, I have no idea what is going on". When the matcher
    finds no command in the whole transcript, the reading is a command's words buried in
    talk (see :func:`decide`). A command said twice, once heard a little otherwise ("what's
    this score now, what's the score now"), is no talk: what stands around the reading reads
    as the reading itself (similarity at least ``close_similarity``)."""
    if not free_is_talk(free_text, free_logp, looped, reading, tuning):
        return False
    said, words = plain(reading).split(), plain(free_text).split()
    n = len(said)
    if not n:
        return False
    spoken = " ".join(said)
    for i in range(len(words) - n + 1):
        if words[i:i + n] != said:
            continue
        rest = " ".join(words[:i] + words[i + n:])
        if fuzz.ratio(rest, spoken) / 100 < tuning.close_similarity:
            return True
    return False


# --------------------------------------------------------------------------- two readings

M = TypeVar("M")


@dataclass(frozen=True)
class Candidate(Generic[M]):
    """One reading of an utterance as the matcher understood it."""

    meaning: M
    """What the matcher made of it (the host's IntentMatch)."""
    key: Hashable
    """What matters of it: two readings with equal keys mean the same (intent and slots)."""
    confident: bool
    """It passes its own route's test (the grammar's margin test, or the free transcript's
    decoder and matcher confidence)."""


class Verdict(enum.StrEnum):
    """How the two readings were combined."""

    AGREE = "agree"
    """Both readings mean the same and at least one is confident."""
    GRAMMAR = "grammar reading"
    """Only the grammar reading is confident."""
    FREE = "free transcript"
    """Only the free transcript's reading is confident."""
    ASK = "ask"
    """Both are confident and mean different things: ask which one was meant."""
    NEITHER = "neither"
    """Neither reading is a confident command."""


@dataclass(frozen=True)
class Decision(Generic[M]):
    """The combination of the grammar reading and the free reading."""

    verdict: Verdict
    chosen: M | None
    """The reading to act on (the first of the two to ask about for ``ASK``)."""
    other: M | None = None
    """For ``ASK``: the second reading to ask about."""


def decide(grammar: Candidate[M] | None, free: Candidate[M] | None, *,
           free_talk: bool = False) -> Decision[M]:
    """Two readings, one decision (see the module docstring). ``free_talk``: the grammar
    reading stands inside a sure, longer free transcript (:func:`command_in_talk`); when
    the matcher finds no command in that transcript at all, as it would find none typed,
    the reading is a command's words buried in talk ("I have no idea what is going on" read
    as "what is going on"), and neither is taken."""
    if free is None and free_talk:
        return Decision(Verdict.NEITHER, None)
    g = grammar if grammar is not None and grammar.confident else None
    f = free if free is not None and free.confident else None
    if g is not None and f is not None:
        if g.key == f.key:
            return Decision(Verdict.AGREE, g.meaning)
        return Decision(Verdict.ASK, g.meaning, f.meaning)
    if g is not None:
        agree = free is not None and free.key == g.key
        return Decision(Verdict.AGREE if agree else Verdict.GRAMMAR, g.meaning)
    if f is not None:
        agree = grammar is not None and grammar.key == f.key
        return Decision(Verdict.AGREE if agree else Verdict.FREE, f.meaning)
    return Decision(Verdict.NEITHER, None)


def decide_judgement(judgement: Judgement, grammar: M | None, free: M | None, *,
                     key: Callable[[M], Hashable], match_confidence: Callable[[M], float],
                     tuning: SearchTuning, accepted: bool | None = None,
                     buried: bool = True) -> Decision[M]:
    """The two readings of one utterance decided together: ``grammar`` and ``free`` are
    what the matcher made of the judgement's grammar sentence and of its free transcript
    (None when it made nothing of one, or that route is not wanted). The grammar reading
    is confident when ``accepted`` (the judgement's own verdict when None), the free one
    when :meth:`Judgement.free_confident`; ``buried``: a grammar reading standing inside
    sure, longer talk (:func:`command_in_talk`) may be refused. One function for the host
    and the recognition benchmark, so the benchmark decides exactly as the host does.

    A grammar reading below the sure margin is not taken alone against a free transcript
    the matcher reads as another command, however unsure that transcript: "i vote no",
    written by the decoder in babble, forced onto "i vote yes" at -0.52 (the two disagree
    on what matters, and neither is sure). A free transcript the
    matcher only guessed at (a confidence below ``free_min_match``: "noth" read as the
    board word "knight", near in spelling) is no such rival: the matcher's guess is no
    command the decoder wrote, and the grammar sentence ("moth") is what it heard. A free
    transcript that is the grammar sentence with a word cut in two (:func:`split_word`) is
    no rival either; one the matcher reads as the very move of a sentence refused for its
    margin, down to ``agree_margin``, vouches for it."""
    if accepted is None:
        accepted = judgement.accepted
    reading = judgement.reading
    if (accepted and reading is not None and free is not None
            and split_word(judgement.free_text, reading.text, tuning.split_cost)):
        free = None
    if (not accepted and reading is not None and grammar is not None and free is not None
            and tuning.agree_margin < 0 and reading.margin >= tuning.agree_margin
            and not judgement.looped and key(grammar) == key(free)
            and match_confidence(free) >= tuning.free_min_match
            and judgement.rejection_of(reading, tuning) is Rejection.LOW_MARGIN):
        accepted = True
    free_sure = free is not None and judgement.free_confident(match_confidence(free), tuning)
    if (accepted and reading is not None and reading.margin < tuning.sure_margin
            and grammar is not None and free is not None and not free_sure
            and match_confidence(free) >= tuning.free_min_match
            and key(grammar) != key(free)):
        accepted = False
    talk = buried and reading is not None and command_in_talk(
        judgement.free_text, judgement.free_logp, judgement.looped, reading.text, tuning)
    return decide(
        candidate(grammar, key, accepted),
        candidate(free, key, free_sure),
        free_talk=talk)


def split_word(free_text: str, sentence: str, max_cost: float) -> bool:
    """Whether the free transcript is ``sentence`` with one of its words written as two or
    more, the pieces joined spelled like the word (:func:`spelling_cost` at most
    ``max_cost``): "the clue is foot ball one" and "good ball for two" are Whisper's
    writing of "football" heard whole by the grammar search. Every other word is the
    same, in the same order; "i vote no" against "i vote yes" splits nothing."""
    free, said = plain(free_text).split(), plain(sentence).split()
    if len(free) <= len(said):
        return False
    head = 0
    while head < len(said) and free[head] == said[head]:
        head += 1
    tail = 0
    while tail < len(said) - head and free[-1 - tail] == said[-1 - tail]:
        tail += 1
    word, pieces = said[head:len(said) - tail], free[head:len(free) - tail]
    return (len(word) == 1 and len(pieces) >= 2
            and spelling_cost(" ".join(pieces), word[0]) <= max_cost)


def candidate(meaning: M | None, key: Callable[[M], Hashable],
              confident: bool) -> Candidate[M] | None:
    """A Candidate for a matcher reading, or None when the matcher read nothing."""
    if meaning is None:
        return None
    return Candidate(meaning, key(meaning), confident)


# --------------------------------------------------------------------------- text


def without_loops(text: str) -> str:
    """A transcript with the decoder's loops cut: a word or phrase said again and again in
    a row ("for the full full full full") is kept once."""
    out: list[str] = []
    for word in text.split():
        out.append(word)
        for size in range(1, 5):  # a repeated phrase of up to four words
            if len(out) >= 2 * size and out[-size:] == out[-2 * size:-size]:
                del out[-size:]
                break
    return " ".join(out)
