"""The grammar search and the decision, over any decoder that can continue token prefixes.

This module is pure: it never loads a model.  A :class:`Decoder` (Whisper through
CTranslate2 in :mod:`voice_host.speech.whisper_asr`, a table of made-up log-probabilities in
the unit tests) continues token prefixes greedily and scores sentences exactly; everything
else -- which sentence of the phase's grammar was said, how far it is from what the decoder
would have written freely, and whether to believe it -- is decided here, the same way on
every CPU.

One utterance (:func:`judge`):

1. **Free decode**: the decoder's own greedy reading, length capped by the audio.  Its text
   is the *free reading*; its steps' exact distributions are kept.
2. **Grammar search** (:func:`search`): best-first over token prefixes that stay inside the
   phase's grammar (:class:`~voice_host.speech.grammar_search.TokenConstraint`), starting
   from the free decode, whose steps are walked through the grammar with their exact scores;
   a finished sentence is recorded wherever the grammar may end (end-of-text included in
   its score), and the best in-grammar tokens the decoder did not choose are queued as new
   prefixes.  The queue is ordered by how much log-probability a prefix has given up
   against the decoder's own choices so far (not by its total, which would favour short
   prefixes); each round continues a few prefixes in one batched call, restricted to the
   phase's tokens, and what those rollouts find is scored again, exactly.  The search stops
   when the free decode already is a sure sentence, when nothing queued is close enough,
   or after a fixed number of rounds (never on a clock: the result does not depend on the
   machine's speed).
3. **Rejection** of the grammar reading: its mean per-step *margin* (log-probability given
   up against the decoder's own choice at each step, end-of-text included) must pass a
   threshold, stricter for one-word sentences, and a middling margin must also read like
   the free transcript.  Another sentence within a small margin is an alternative.

The result is a :class:`Judgement`.  The host then reads both texts with the phase's
matcher and :func:`decide` combines the two readings: they agree -> take it; only one is
confident -> that one; both confident and meaning different things -> ask which; neither
-> not a command.
"""

from __future__ import annotations

import enum
import heapq
import itertools
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Protocol, TypeVar

import numpy as np
from rapidfuzz import fuzz

from voice_host.speech.grammar_search import (
    TokenConstraint,
    TokenTrie,
    WordGraph,
    letters,
    nearest_sentences,
    spelling_cost,
)
from voice_host.text import plain

# --------------------------------------------------------------------------- the decoder


@dataclass(frozen=True)
class Rollout:
    """A prefix continued greedily by the decoder."""

    tokens: tuple[int, ...]
    """The tokens written after the prefix (end-of-text not included)."""
    steps: tuple[Any, ...]
    """The log-probabilities (a normalized numpy vector over the vocabulary, end-of-text
    included) of each step after the prefix: one per token, and one more when the rollout
    ended with end-of-text."""


@dataclass(frozen=True)
class Scored:
    """A sentence scored exactly by the decoder (its tokens, then end-of-text)."""

    tokens: tuple[int, ...]
    score: float
    """Sum of the log-probabilities of the tokens and end-of-text."""
    margin: float
    """Sum over the same steps of (chosen log-probability - best log-probability): 0 when
    every token was the decoder's own first choice, negative otherwise."""

    @property
    def steps(self) -> int:
        return len(self.tokens) + 1

    @property
    def mean_margin(self) -> float:
        return self.margin / self.steps


class Decoder(Protocol):
    """What the search needs of a speech decoder, for one encoded utterance."""

    eot: int
    """The end-of-text token."""

    def continue_prefixes(self, prefixes: Sequence[tuple[int, ...]], cap: int,
                          suppress: Sequence[int] | None = None) -> list[Rollout]:
        """Each prefix continued greedily (up to ``cap`` tokens in all, the prefix included),
        never writing a token of ``suppress``."""
        ...

    def score(self, sentences: Sequence[tuple[int, ...]]) -> list[Scored]:
        """Each sentence's exact score and margin against the whole vocabulary."""
        ...

    def text(self, tokens: Sequence[int]) -> str:
        """The text of some tokens."""
        ...


# --------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class SearchTuning:
    """The search's, the rejection's and the decision's settings."""

    accept_margin: float = -0.7
    """Accept the best grammar sentence when its mean per-step margin is at least this...
    The thresholds of the rejection and of the free reading were calibrated together with
    ``voice-host bench --quick --languages en --split calib --calibrate`` (prompt on):
    of the combinations that act on at most 1% of the table talk and change the game on
    none, these understood the most commands (71.6%, espeak-ng and Festival voices),
    taken from the middle of the plateau of equal ones."""
    sure_alone: float = -0.15
    """A margin at least this good is accepted whatever the similarity. -0.2 before: on the
    English calibration split's saved outcomes (re-decided, with the test sentences naming
    each player once), -0.15 refused babble at 6 dB forced onto "i vote yes" at -0.16 ("i
    see the chip", mean log-probability -1.32) and no command; -0.12 lost one."""
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
    the mode" for "we'll pick the boat"). Calibrated on the calib split's saved outcomes
    (``--from-results --tuning``): from 0.8 and -0.8 to -1.1 a plateau of two more commands
    understood and no more table talk acted on; at -1.2 "what did emma just say" became
    *repeat*; a similarity of 0.75 lets "well" stand for "bell"."""
    short_steps: int = 3
    """A sentence of at most this many steps (one or two tokens and end-of-text) is short:
    a single word, which any noise can be forced onto."""
    short_accept_margin: float = -0.6
    """The margin a short sentence needs (stricter than ``accept_margin``)."""
    talk_words: int = 2
    """A confident free transcript this many words longer than a grammar reading unlike it
    is talk the reading was forced from (see :func:`rejection`). Checked on the saved
    outcomes of three report-split runs: it rejected one false action ("he talks about
    football all the time" -> "hit") and no command."""
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

    def free_confident(self, match_confidence: float, tuning: SearchTuning) -> bool:
        """True when the free transcript, read by the matcher with ``match_confidence``,
        is a confident reading on its own."""
        return (bool(self.free_text) and match_confidence >= tuning.free_min_match
                and not self.looped and self.free_logp >= tuning.free_min_logp)

    def free_certainty(self, tuning: SearchTuning) -> float:
        """0..1 confidence of the free transcript as a recognizer's transcript: 0.8 at the
        ``free_min_logp`` threshold, 1 when every step was certain, 0.5 below."""
        if not self.free_text or self.looped:
            return 0.0
        if self.free_logp < tuning.free_min_logp:
            return 0.5
        span = max(1e-6, -tuning.free_min_logp)
        return round(0.8 + 0.2 * min(1.0, (self.free_logp - tuning.free_min_logp) / span), 4)

    def rejection_of(self, reading: GrammarReading, tuning: SearchTuning) -> Rejection:
        """Why ``reading`` is not believed beside this free transcript, or
        ``Rejection.NONE`` (see :func:`rejection`)."""
        return rejection(reading, tuning,
                         free_is_talk(self.free_text, self.free_logp, self.looped,
                                      reading.text, tuning),
                         free_is_longer(self.free_text, reading.text, tuning),
                         spelled_alike(self.free_text, reading.text, tuning))

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
                                     float(record["similarity"]))
        return cls(str(record.get("free_text", "")),
                   float(record.get("free_logp", -math.inf)),
                   bool(record.get("looped", 0)), reading, bool(record.get("accepted", 0)),
                   Rejection(record.get("rejected_because", Rejection.NONE.value)), 0.0,
                   open_phase=bool(record.get("open_phase", 0)))


# --------------------------------------------------------------------------- search


@dataclass(order=True)
class _Prefix:
    sort_key: float
    order: int
    tokens: tuple[int, ...] = field(compare=False)
    score: float = field(compare=False)
    margin: float = field(compare=False)
    positions: Any = field(compare=False)
    exact: bool = field(compare=False, default=True)


@dataclass(frozen=True)
class Found:
    """A sentence the search finished."""

    tokens: tuple[int, ...]
    score: float
    """Sum of log-probabilities of the tokens and end-of-text."""
    margin: float
    """Sum over the same steps of (chosen - best log-probability)."""
    exact: bool = True
    """False when found by a restricted rollout (scores renormalized over the phase's
    tokens): it is scored again against the whole vocabulary."""

    @property
    def steps(self) -> int:
        return len(self.tokens) + 1


def search(decoder: Decoder, constraint: TokenConstraint, vocab: TokenTrie,
           free: Rollout, *, cap: int, tuning: SearchTuning,
           suppress: Sequence[int] | None = None) -> list[Found]:
    """Best-first search over in-grammar token prefixes, from the free decode (see the
    module docstring); every sentence found."""
    eot = decoder.eot
    queue: list[_Prefix] = []
    finished: list[Found] = []
    order = itertools.count()
    best = -math.inf
    spelled: dict[int, str] = {}

    def letters_of(token: int) -> str:
        got = spelled.get(token)
        if got is None:
            got = spelled[token] = letters(decoder.text([token]))
        return got

    def worth_trying(token: int, chosen: int | None, after: Any) -> bool:
        # a comma or a capital changes no word of the reading: such rivals filled the
        # rounds ("Show," "Show move," "Show MOVE") while "show move code of" waited
        said = letters_of(token)
        if not said:
            return constraint.can_end(after)  # only a full stop that ends a sentence
        return chosen is None or said != letters_of(chosen)

    def walk(prefix: tuple[int, ...], score: float, margin: float, positions: Any,
             ids: Sequence[int], rows: Sequence[Any], exact: bool) -> None:
        nonlocal best
        tokens = list(prefix)
        for step, logp in enumerate(rows):
            if len(tokens) >= cap:
                break
            whole = float(logp.max())
            if constraint.can_end(positions):
                end = float(logp[eot])
                done = Found(tuple(tokens), score + end, margin + end - whole, exact)
                finished.append(done)
                best = max(best, done.margin)
            allowed = constraint.allowed_arrays(positions, vocab)
            if not len(allowed.ids):
                break
            chosen = ids[step] if step < len(ids) else None
            chosen_at = np.flatnonzero(allowed.ids == chosen) if chosen is not None \
                else np.zeros(0, dtype=np.int64)
            on_path = len(chosen_at) > 0
            values = logp[allowed.ids]
            # where the decoder's own token stays in the grammar, only near rivals are
            # worth a rollout (they could be the alternative reading); where it leaves, the
            # best in-grammar tokens are -- one per way of writing the same letters
            wanted = tuning.rivals_per_step if on_path else tuning.branches_per_step
            floor = (float(logp[chosen]) - tuning.rival_window if on_path
                     else float(values.max()) + tuning.hopeless_step)
            taken = {int(allowed.groups[chosen_at[0]])} if on_path else set()
            picked = 0
            for pick in np.argsort(-values, kind="stable")[:8 * wanted + 8]:
                value = float(values[pick])
                if picked >= wanted or not math.isfinite(value) or value < floor:
                    break
                group = int(allowed.groups[pick])
                if group in taken:
                    continue
                taken.add(group)
                if not worth_trying(int(allowed.ids[pick]), chosen if on_path else None,
                                    allowed.after[group]):
                    continue
                picked += 1
                queued = margin + value - whole
                if queued <= best - tuning.alternative_window:
                    continue
                heapq.heappush(queue, _Prefix(-queued, next(order),
                                              (*tokens, int(allowed.ids[pick])),
                                              score + value, queued, allowed.after[group],
                                              exact))
            if not on_path:
                break
            assert chosen is not None
            score += float(logp[chosen])
            margin += float(logp[chosen]) - whole
            positions = allowed.after[int(allowed.groups[chosen_at[0]])]
            tokens.append(chosen)
        else:
            # the rollout stopped short while still inside the grammar: go on from there
            if len(tokens) > len(prefix) and len(tokens) < cap and len(rows) == len(ids):
                heapq.heappush(queue, _Prefix(-margin, next(order), tuple(tokens),
                                              score, margin, positions, exact))
        if len(queue) > tuning.queue_limit:
            queue[:] = heapq.nsmallest(tuning.queue_limit, queue)
            heapq.heapify(queue)

    def cut_short() -> bool:
        # the best sentence so far ends tokens before the free decode did ("la lapin" for
        # "la lapin pour jack"): the rest of the sentence may not have been reached yet
        top = max(finished, key=lambda f: f.margin / f.steps)
        return len(top.tokens) + tuning.complete_tokens <= len(free.tokens)

    # the free decode has exact scores, and is often already a sentence of the grammar
    walk((), 0.0, 0.0, constraint.start, free.tokens, free.steps, True)
    extra = max(tuning.rescue_rounds, tuning.complete_rounds)
    for round_ in range(tuning.rounds + extra):
        if round_ >= tuning.rounds:
            # the extra rounds: for a search that found nothing yet, or one whose best
            # sentence stops short of what the decoder wrote
            late = round_ - tuning.rounds
            if not (late < tuning.rescue_rounds and not finished
                    or late < tuning.complete_rounds and finished and cut_short()):
                break
        if any(f.exact and f.margin / f.steps >= tuning.sure_margin for f in finished):
            break  # the decoder's own words are a sentence of the grammar: nothing to search
        batch: list[_Prefix] = []
        while queue and len(batch) < tuning.batch:
            item = heapq.heappop(queue)
            if item.margin <= best - tuning.alternative_window:
                queue.clear()
                break
            batch.append(item)
        if not batch:
            break
        # later rollouts may only write the phase's tokens, so they stay near the grammar;
        # their scores are renormalized, so what they find is scored again; a rollout
        # writes a few tokens, and one still inside the grammar goes on next round
        longest = max(len(p.tokens) for p in batch)
        limit = min(cap, longest + tuning.rollout_tokens)
        rollouts = decoder.continue_prefixes([p.tokens for p in batch], limit, suppress)
        for item, rollout in zip(batch, rollouts, strict=True):
            walk(item.tokens, item.score, item.margin, item.positions, rollout.tokens,
                 rollout.steps, item.exact and suppress is None)
    return finished


# --------------------------------------------------------------------------- judging


@dataclass(frozen=True)
class Search:
    """One grammar to search an utterance in (a phase with an open slot has two: its likely
    words first, then the slot open to any word)."""

    constraint: TokenConstraint
    suppress: tuple[int, ...] | None = None
    """Tokens a restricted rollout may not write (every token that cannot occur in the
    grammar), or None when any can."""


def free_reading(decoder: Decoder, free: Rollout) -> tuple[str, float, bool]:
    """The free decode's text (plain, loops cut), its mean log-probability per step, and
    whether it looped or ran into its cap without ending."""
    eot = decoder.eot
    words = plain(decoder.text([t for t in free.tokens if t != eot]))
    text = without_loops(words)
    total = sum(float(logp[free.tokens[step] if step < len(free.tokens) else eot])
                for step, logp in enumerate(free.steps))
    ended = len(free.steps) > len(free.tokens)
    looped = text != words or (bool(free.tokens) and not ended)
    return text, total / max(1, len(free.steps)), looped


def judge(decoder: Decoder, searches: Sequence[Search], vocab: TokenTrie, *, cap: int,
          tuning: SearchTuning, open_phase: bool = False) -> Judgement:
    """The free decode, then each grammar in turn until one yields an accepted sentence."""
    free, = decoder.continue_prefixes([()], cap)
    free_text, free_logp, looped = free_reading(decoder, free)
    base = Judgement(free_text, free_logp, looped, None, False,
                     Rejection.NO_SENTENCE if free_text else Rejection.NO_AUDIO, 0.0,
                     open_phase=open_phase)
    first: Judgement | None = None
    for item in searches:
        found = search(decoder, item.constraint, vocab, free, cap=cap, tuning=tuning,
                       suppress=item.suppress)
        if not found:
            continue
        judged = rank(decoder, found, base, tuning)
        if judged.accepted:
            return judged
        first = first or judged
    if tuning.near_sentences > 0 and free_text and not looped and searches:
        near = near_search(decoder, searches[0], vocab, free, base, cap=cap, tuning=tuning)
        if near is not None and near.accepted:
            return near
        first = first or near
    return first or base


def near_search(decoder: Decoder, item: Search, vocab: TokenTrie, free: Rollout,
                base: Judgement, *, cap: int, tuning: SearchTuning) -> Judgement | None:
    """The grammar's sentences nearest to the free transcript, searched as a small grammar
    of their own (see ``SearchTuning.near_sentences``), judged as any reading is; None
    when none is near enough or the search finds none of them."""
    graph = item.constraint.graph
    near = nearest_sentences(graph, base.free_text, limit=tuning.near_sentences,
                             beam=tuning.near_beam, max_cost=tuning.near_cost)
    if not near:
        return None
    document = ("#JSGF V1.0;\ngrammar near;\npublic <s> = "
                + " | ".join("( " + " ".join(words) + " )" for words, _ in near) + ";\n")
    constraint = TokenConstraint(WordGraph(document), item.constraint.spellings)
    rounds = replace(tuning, rounds=tuning.near_rounds, rescue_rounds=0)
    found = search(decoder, constraint, vocab, free, cap=cap, tuning=rounds,
                   suppress=item.suppress)
    if not found:
        return None
    judged = rank(decoder, found, base, tuning)
    reading = judged.reading
    if judged.accepted or reading is None or reading.margin < tuning.near_close_margin:
        return judged
    spelled = {letters("".join(words)): (cost, len(words)) for words, cost in near}
    cost, length = spelled.get(letters(reading.text), (math.inf, 0))
    if cost <= tuning.near_close_cost and length >= 2:
        return replace(judged, accepted=True, reason=Rejection.NONE, confidence=0.6)
    return judged


def rank(decoder: Decoder, found: Sequence[Found], base: Judgement,
         tuning: SearchTuning) -> Judgement:
    """The best sentence found, scored exactly, judged against the free transcript."""
    unique: dict[tuple[int, ...], Found] = {}
    for item in sorted(found, key=lambda f: f.score, reverse=True):
        if item.tokens not in unique or (item.exact and not unique[item.tokens].exact):
            unique[item.tokens] = item
    ranked = sorted(unique.values(), key=lambda f: f.score, reverse=True)
    exact = [Scored(f.tokens, f.score, f.margin) for f in ranked if f.exact][:tuning.rescored]
    inexact = [f.tokens for f in ranked if not f.exact][:tuning.rescored]
    scored = exact + (decoder.score(inexact) if inexact else [])
    # ranked by the mean per-step margin, as they are judged: by their total score a
    # sentence cut short ("I choose Thomas" + end) beats the whole one with one misheard
    # name, since ending early costs the decoder little
    scored.sort(key=lambda s: s.mean_margin, reverse=True)
    top = scored[0]
    text = plain(decoder.text(top.tokens))
    similarity = fuzz.ratio(base.free_text, text) / 100
    reading = GrammarReading(text, top.mean_margin, top.score / top.steps, top.steps,
                             similarity)
    reason = base.rejection_of(reading, tuning)
    if reason is not Rejection.NONE:
        return Judgement(base.free_text, base.free_logp, base.looped, reading, False, reason,
                         0.0, open_phase=base.open_phase)
    alternatives: list[str] = []
    for other in scored[1:]:
        if top.margin - other.margin > tuning.alternative_window:
            break
        alt = plain(decoder.text(other.tokens))
        if alt != text and alt not in alternatives:
            alternatives.append(alt)
    floor = threshold(reading.steps, tuning)
    span = max(1e-6, tuning.sure_margin - floor)
    confidence = 0.6 + 0.4 * max(0.0, min(1.0, (reading.margin - floor) / span))
    return Judgement(base.free_text, base.free_logp, base.looped, reading, True,
                     Rejection.NONE, round(confidence, 4), tuple(alternatives[:2]),
                     open_phase=base.open_phase)


def threshold(steps: int, tuning: SearchTuning) -> float:
    """The margin a sentence of this many steps needs."""
    return tuning.short_accept_margin if steps <= tuning.short_steps else tuning.accept_margin


def rejection(reading: GrammarReading, tuning: SearchTuning, free_sure: bool = False,
              free_longer: bool = False, alike: bool = False) -> Rejection:
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
    (:func:`spelled_alike`); it is then taken down to ``near_close_margin``."""
    if reading.similarity >= tuning.close_similarity and reading.margin >= tuning.close_margin:
        return Rejection.NONE
    if alike and reading.margin >= tuning.near_close_margin:
        return Rejection.NONE
    if reading.margin < threshold(reading.steps, tuning):
        return Rejection.LOW_MARGIN
    if reading.similarity < tuning.min_similarity and (
            reading.margin < tuning.sure_alone or free_sure
            or (free_longer and reading.margin < tuning.sure_margin)):
        return Rejection.UNLIKE_TRANSCRIPT
    return Rejection.NONE


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
    on what matters, and neither is sure). On the English calibration split's saved
    outcomes this refused that one false action and no command."""
    if accepted is None:
        accepted = judgement.accepted
    reading = judgement.reading
    free_sure = free is not None and judgement.free_confident(match_confidence(free), tuning)
    if (accepted and reading is not None and reading.margin < tuning.sure_margin
            and grammar is not None and free is not None and not free_sure
            and key(grammar) != key(free)):
        accepted = False
    talk = buried and reading is not None and command_in_talk(
        judgement.free_text, judgement.free_logp, judgement.looped, reading.text, tuning)
    return decide(
        candidate(grammar, key, accepted),
        candidate(free, key, free_sure),
        free_talk=talk)


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
