"""The grammar search, over any decoder that can continue token prefixes.

This module is pure: it never loads a model.  A :class:`Decoder` (Whisper through
CTranslate2 in :mod:`voice_host.speech.whisper_asr`, a table of made-up log-probabilities in
the unit tests) continues token prefixes greedily and scores sentences exactly; which
sentence of the phase's grammar was said, and how far it is from what the decoder would have
written freely, is searched here, the same way on every CPU.  Whether to believe it is
:mod:`voice_host.speech.decision`'s.

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
3. **Ranking** (:func:`rank`): the best sentences found, scored exactly, ranked by their
   mean per-step margin and judged by :func:`~voice_host.speech.decision.rejection`
   into a :class:`~voice_host.speech.decision.Judgement`.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np
from rapidfuzz import fuzz

from voice_host.speech.decision import (
    GrammarReading,
    Judgement,
    Rejection,
    SearchTuning,
    primed,
    threshold,
    without_loops,
)
from voice_host.speech.grammar_search import (
    TokenConstraint,
    TokenTrie,
    WordGraph,
    letters,
    nearest_sentences,
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

    @classmethod
    def of(cls, tokens: Sequence[int], rows: Iterable[Any], eot: int) -> Scored:
        """A sentence scored from its steps' log-probability rows (one a token, then the
        one end-of-text is read from; rows past those are not read)."""
        score = margin = 0.0
        for token, logp in zip([*tokens, eot], rows, strict=False):
            value = float(logp[token])
            score += value
            margin += value - float(logp.max())
        return cls(tuple(tokens), score, margin)

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


def speller(decoder: Decoder) -> Callable[[int], str]:
    """The letters (:func:`~voice_host.speech.grammar_search.letters`) of one token of
    this decoder's, each token spelled once."""
    spelled: dict[int, str] = {}

    def letters_of(token: int) -> str:
        got = spelled.get(token)
        if got is None:
            got = spelled[token] = letters(decoder.text([token]))
        return got

    return letters_of


def loops_back(said: Sequence[int], rest: Sequence[int],
               letters_of: Callable[[int], str]) -> bool:
    """True when the decoder's own tokens after a sentence, ``rest``, say that sentence
    again, letter for letter after any punctuation: the decoder's loop ("tractor, tractor,
    tractor," for a player's single "tractor"; Whisper repeats a short utterance rather
    than end it). Its loop then ends the sentence as well as end-of-text would: the search
    values that end as the decoder's own next token (a comma, or the word again), not as
    the end-of-text the decoder put off, when the decoder wrote the sentence's first copy
    surely (a mean log-probability of at least ``free_min_logp``, as its own transcript
    needs to be trusted). Otherwise a single word heard right and written right, whose
    end is one step of two, would be rejected on that step's margin alone (-1.6 for
    "tractor", written at -0.03), though the decoder wrote nothing but that word. Babble
    loops the other way: "I vote no" guessed at -1.6 a token, then said again ever more
    surely, which the bar keeps from ending a sentence."""
    wanted = "".join(letters_of(t) for t in said)
    copy = spelled_copy(wanted, rest, letters_of)
    return bool(wanted) and copy is not None and copy[1] == wanted


def spelled_copy(unit: str, tokens: Sequence[int],
                 letters_of: Callable[[int], str]) -> tuple[int, str] | None:
    """The first tokens read as a copy of the letters ``unit``: how many were read and the
    letters they spell, ``unit`` itself once a whole copy ends where a token does (what
    comes after is not read), else the start of it the tokens ran out in; None when their
    letters leave ``unit``. Punctuation spells nothing, so it is read through."""
    heard = ""
    for count, token in enumerate(tokens, 1):
        heard += letters_of(token)
        if heard == unit:
            return count, heard
        if not unit.startswith(heard):
            return None
    return len(tokens), heard


def inside_grammar(constraint: TokenConstraint, vocab: TokenTrie,
                   tokens: Sequence[int]) -> int:
    """How many of these first tokens stay inside the grammar (the decoder's own words
    read through it, as the search's walk reads them)."""
    positions = constraint.start
    for count, token in enumerate(tokens):
        allowed = constraint.allowed_arrays(positions, vocab)
        at = np.flatnonzero(allowed.ids == token)
        if not len(at):
            return count
        positions = allowed.after[int(allowed.groups[at[0]])]
    return len(tokens)


def search(decoder: Decoder, constraint: TokenConstraint, vocab: TokenTrie,
           free: Rollout, *, cap: int, tuning: SearchTuning,
           suppress: Sequence[int] | None = None, rescue: bool = True) -> list[Found]:
    """Best-first search over in-grammar token prefixes, from the free decode (see the
    module docstring); every sentence found. Without ``rescue``, no rescue rounds."""
    eot = decoder.eot
    queue: list[_Prefix] = []
    finished: list[Found] = []
    order = itertools.count()
    best = -math.inf
    letters_of = speller(decoder)

    def worth_trying(token: int, chosen: int | None, after: Any) -> bool:
        # a comma or a capital changes no word of the reading: such rivals filled the
        # rounds ("Show," "Show move," "Show MOVE") while "show move code of" waited
        said = letters_of(token)
        if not said:
            return constraint.can_end(after)  # only a full stop that ends a sentence
        return chosen is None or said != letters_of(chosen)

    def walk(prefix: tuple[int, ...], score: float, margin: float, positions: Any,
             ids: Sequence[int], rows: Sequence[Any], exact: bool,
             own: bool = False) -> None:
        # own: these are the free decode's steps, whose loops end a sentence (see loops_back)
        nonlocal best
        tokens = list(prefix)
        for step, logp in enumerate(rows):
            if len(tokens) >= cap:
                break
            whole = float(logp.max())
            if constraint.can_end(positions):
                end = float(logp[eot])
                if (own and tokens and step < len(ids)
                        and score / len(tokens) >= tuning.free_min_logp
                        and loops_back(tokens, ids[step:], letters_of)):
                    end = max(end, float(logp[ids[step]]))
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
    walk((), 0.0, 0.0, constraint.start, free.tokens, free.steps, True, own=True)
    rescue_rounds = tuning.rescue_rounds if rescue else 0
    extra = max(rescue_rounds, tuning.complete_rounds)
    for round_ in range(tuning.rounds + extra):
        if round_ >= tuning.rounds:
            # the extra rounds: for a search that found nothing yet, or one whose best
            # sentence stops short of what the decoder wrote
            late = round_ - tuning.rounds
            if not (late < rescue_rounds and not finished
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


def said_again(tokens: Sequence[int], ended: bool,
               letters_of: Callable[[int], str]) -> int | None:
    """How many first tokens a decode that ended says once before it only says them
    again, whole copies after any punctuation ("Yes, kite. Yes, kite." for a player's
    single "yes kite"), the last one perhaps cut short once more than half of it is said
    ("chocolate one chocolate"), or None when it does not: the length of the first copy,
    its punctuation included. A decode that ran into its cap without ending is a loop that
    never ends, and no saying said again."""
    if not ended:
        return None
    for size in range(1, len(tokens)):
        unit = "".join(letters_of(t) for t in tokens[:size])
        if not unit or not letters_of(tokens[size]):
            continue  # a copy starts after the unit's own punctuation, with a word
        at, copies, left = size, 0, ""
        while at < len(tokens):
            copy = spelled_copy(unit, tokens[at:], letters_of)
            if copy is None:
                break
            at += copy[0]
            copies, left = (copies + 1, "") if copy[1] == unit else (copies, copy[1])
        else:
            if (copies and not left) or 2 * len(left) > len(unit):
                return size
    return None


def free_reading(decoder: Decoder, free: Rollout,
                 sure: float = -math.inf) -> tuple[str, float, bool]:
    """The free decode's text (plain, loops cut), its mean log-probability per step, and
    whether it looped or ran into its cap without ending. A decode that says one thing and
    then only says it again (:func:`said_again`), the first time at a mean
    log-probability of at least ``sure``, is read as said once: its first copy, whose end
    is valued as the decoder's next token (the copy it put before ending, see
    :func:`loops_back`), unlooped."""
    eot = decoder.eot
    ended = len(free.steps) > len(free.tokens)
    letters_of = speller(decoder)

    size = said_again(free.tokens, ended, letters_of)
    if size is not None:
        said = sum(float(free.steps[step][free.tokens[step]]) for step in range(size))
        if said / size >= sure:
            end = free.steps[size]
            total = said + max(float(end[eot]), float(end[free.tokens[size]]))
            return plain(decoder.text(free.tokens[:size])), total / (size + 1), False
    words = plain(decoder.text([t for t in free.tokens if t != eot]))
    text = without_loops(words)
    total = sum(float(logp[free.tokens[step] if step < len(free.tokens) else eot])
                for step, logp in enumerate(free.steps))
    looped = text != words or (bool(free.tokens) and not ended)
    return text, total / max(1, len(free.steps)), looped


def judge(decoder: Decoder, searches: Sequence[Search], vocab: TokenTrie, *, cap: int,
          tuning: SearchTuning, open_phase: bool = False) -> Judgement:
    """The free decode, then each grammar in turn until one yields an accepted sentence."""
    free, = decoder.continue_prefixes([()], cap)
    free_text, free_logp, looped = free_reading(decoder, free, tuning.free_min_logp)
    base = Judgement(free_text, free_logp, looped, None, False,
                     Rejection.NO_SENTENCE if free_text else Rejection.NO_AUDIO, 0.0,
                     open_phase=open_phase, free_tokens=writing(decoder, free, free_text))
    if tuning.skip_talk and searches and beyond_grammar(free_text, free_logp, looped,
                                                         searches, tuning):
        return replace(base, reason=Rejection.TALK)
    if tuning.skip_talk and searches and unlike_grammar(free_text, free_logp, looped,
                                                        searches, tuning):
        return replace(base, reason=Rejection.FOREIGN)
    first: Judgement | None = None
    rescue = rescue_worth(free, free_logp, searches, vocab, tuning)
    for number, item in enumerate(searches):
        own = tuning if number == 0 or tuning.open_rounds < 0 else replace(
            tuning, rounds=tuning.open_rounds)
        talk = sure_outside(free, free_text, free_logp, looped, item, vocab, tuning)
        if talk:
            own = replace(own, rounds=min(own.rounds, tuning.talk_rounds))
        found = search(decoder, item.constraint, vocab, free, cap=cap, tuning=own,
                       suppress=item.suppress, rescue=rescue and not talk)
        if not found:
            continue
        judged = rank(decoder, found, base, tuning)
        if judged.accepted:
            return own_words_instead(decoder, judged, searches[number + 1:], vocab, free,
                                     base, cap=cap, tuning=tuning)
        first = first or judged
    if tuning.near_sentences > 0 and free_text and not looped and searches:
        near = near_search(decoder, searches[0], vocab, free, base, cap=cap, tuning=tuning)
        if near is not None and near.accepted:
            return near
        first = first or near
    return first or base


def writing(decoder: Decoder, free: Rollout, text: str) -> tuple[int, ...]:
    """The free decode's first tokens that write ``text`` (its free transcript, loops cut),
    or none when no run of them does."""
    tokens = tuple(t for t in free.tokens if t != decoder.eot)
    for end in range(len(tokens), 0, -1):
        if plain(decoder.text(tokens[:end])) == text:
            return tokens[:end]
    return ()


def with_lift(unprompted: Decoder, judged: Judgement, tuning: SearchTuning) -> Judgement:
    """The judgement with the prompt lift of its readings measured (one call of
    ``unprompted``, the decoder over the same audio without the phase's words as its
    prompt): the grammar reading's, when it was scored exactly, and the free transcript's,
    when the decoder was sure of it. A grammar reading heard only through the prompt
    (:func:`~voice_host.speech.decision.primed`) is not accepted
    (``Rejection.PRIMED``); a free transcript so heard is not confident."""
    reading = judged.reading
    if reading is not None and (reading.bound or not reading.tokens):
        reading = None  # not scored exactly: no lift to measure
    free = judged.free_tokens if (not judged.looped
                                  and judged.free_logp >= tuning.free_min_logp) else ()
    sentences = [tokens for tokens in (reading.tokens if reading else (), free) if tokens]
    if not sentences:
        return judged
    alone = iter(s.score / s.steps for s in unprompted.score(sentences))
    if reading is not None:
        reading = replace(reading, lift=reading.score - next(alone))
        judged = replace(judged, reading=reading)
        if judged.accepted and primed(reading.text, reading.lift, tuning):
            judged = replace(judged, accepted=False, reason=Rejection.PRIMED, confidence=0.0,
                             alternatives=())
    if free:
        judged = replace(judged, free_lift=judged.free_logp - next(alone))
    return judged


def with_unprompted(unprompted: Decoder, judged: Judgement, tuning: SearchTuning, *,
                    cap: int) -> Judgement:
    """The judgement with the decoder's own transcript without the prompt
    (:attr:`Judgement.unprompted_text`; one more decode of ``unprompted``, the decoder over
    the same audio without the phase's words), when the reading that would be acted on is
    long (``SearchTuning.unprompted_words``): the grammar sentence accepted, or else a sure
    free transcript that is no talk the search skipped."""
    if tuning.unprompted_words <= 0:
        return judged
    if judged.accepted and judged.reading is not None:
        said = judged.reading.text
    elif (not judged.looped and judged.free_logp >= tuning.free_min_logp
          and judged.reason not in (Rejection.TALK, Rejection.FOREIGN)):
        said = judged.free_text
    else:
        return judged
    if len(said.split()) < tuning.unprompted_words:
        return judged
    free, = unprompted.continue_prefixes([()], cap)
    text, _, _ = free_reading(unprompted, free)
    return replace(judged, unprompted_text=text)


def own_words_instead(decoder: Decoder, judged: Judgement, later: Sequence[Search],
                      vocab: TokenTrie, free: Rollout, base: Judgement, *, cap: int,
                      tuning: SearchTuning) -> Judgement:
    """An accepted reading of a phase's likely words (the first of its searches), or the
    decoder's own words where they are a sure sentence of a later, open search. A reading
    taken below ``accept_margin`` was taken only because it is spelled like the free
    transcript ("the clue is foot all" beside a free "the clue is football one": a likely
    word and a number forced onto the decoder's own clue); the free decode is then walked
    through the later grammars too (no decoder call: its steps are already scored), and a
    sentence found there at ``sure_margin`` or better, the decoder's own words, is the
    reading. A likely reading taken on its own margin stays: the open slot takes any word
    the decoder writes, a misspelling too ("marikit one" for "market one")."""
    reading = judged.reading
    if not later or reading is None or reading.margin >= tuning.accept_margin:
        return judged
    walk_only = replace(tuning, rounds=0, rescue_rounds=0, complete_rounds=0)
    for item in later:
        found = [f for f in search(decoder, item.constraint, vocab, free, cap=cap,
                                   tuning=walk_only, suppress=item.suppress, rescue=False)
                 if f.exact and f.margin / f.steps >= tuning.sure_margin]
        if found:
            own = rank(decoder, found, base, tuning)
            if own.accepted and own.reading is not None and own.reading.margin > reading.margin:
                return own
    return judged


def rescue_worth(free: Rollout, free_logp: float, searches: Sequence[Search],
                 vocab: TokenTrie, tuning: SearchTuning) -> bool:
    """Whether the rescue rounds may run (``SearchTuning.rescue_from``): always when the
    gate is off, else only where the decoder's own words began as the phase's grammar does
    ("the clue" of "the clueless house too": table talk mostly leaves it at once; read
    through the first grammar, as an open slot takes any word, talk's too) and were unsure
    (a mean log-probability below ``free_min_logp``): a sure transcript that left the
    grammar ("i think hannah is lying to us") is talk, read by the matcher."""
    if tuning.rescue_from <= 0 or not searches:
        return True
    if free_logp >= tuning.free_min_logp:
        return False
    head = free.tokens[:tuning.rescue_from]
    return inside_grammar(searches[0].constraint, vocab, head) >= tuning.rescue_from


def sure_outside(free: Rollout, free_text: str, free_logp: float, looped: bool,
                 item: Search, vocab: TokenTrie, tuning: SearchTuning) -> bool:
    """Whether a search is cut to ``SearchTuning.talk_rounds``: the free decode is sure
    (a mean log-probability of at least ``free_min_logp``, no loop), its tokens leave
    this search's grammar before they end, and of its words (at least ``foreign_words``)
    at most ``talk_share`` are words of that grammar, letter for letter. Not two words:
    "commence please" for "commands please" is a command misheard, which the search's
    rollouts find."""
    if tuning.talk_rounds < 0 or looped or free_logp < tuning.free_min_logp:
        return False
    words = spelled_words(free_text)
    known = _grammar_words((item.constraint.graph,))
    if (len(words) < tuning.foreign_words
            or sum(w in known for w in words) > tuning.talk_share * len(words)):
        return False
    return inside_grammar(item.constraint, vocab, free.tokens) < len(free.tokens)


def beyond_grammar(free_text: str, free_logp: float, looped: bool,
                   searches: Sequence[Search], tuning: SearchTuning) -> bool:
    """True when the free transcript is sure talk so much longer than every sentence of
    every grammar to search that no sentence the search could find would be believed
    beside it (:func:`~voice_host.speech.decision.rejection`): it has at least
    ``talk_words`` more words than the longest sentence (so the transcript is talk beside
    any reading) and so many more letters that no reading can be similar enough to it
    (rapidfuzz's ratio is at most ``2 s / (f + s)`` for texts of ``f`` and ``s``
    characters) nor spelled alike (the letters it lacks alone cost more than
    ``near_close_cost``). An open-slot word is counted as long as the transcript's
    longest word (the slot is written with the decoder's own words). The search, which
    costs several decoder calls for such a line, is then skipped."""
    if not free_text or looped or free_logp < tuning.free_min_logp:
        return False
    words = without_loops(free_text).split()
    slot = max(len(w) for w in words)
    spelled = len(letters(free_text))
    similar = min(tuning.min_similarity, tuning.close_similarity, tuning.long_close_similarity)
    for item in searches:
        bound = item.constraint.longest(slot)
        if bound is None:
            return False
        most_words, most_chars = bound
        if len(words) < most_words + tuning.talk_words:
            return False
        if 2 * most_chars / (len(free_text) + most_chars) >= similar:
            return False
        if spelled == 0 or 1 - most_chars / spelled <= tuning.near_close_cost:
            return False
    return True


def spelled_words(text: str) -> list[str]:
    """The letters of each word of a text that has any (punctuation alone drops out)."""
    return [w for w in (letters(w) for w in text.split()) if w]


@functools.lru_cache(maxsize=32)
def _grammar_words(graphs: tuple[WordGraph, ...]) -> frozenset[str]:
    return frozenset(letters(w) for graph in graphs for w in graph.words())


def unlike_grammar(free_text: str, free_logp: float, looped: bool,
                   searches: Sequence[Search], tuning: SearchTuning) -> bool:
    """True when the free transcript is sure talk (mean log-probability per step at least
    ``foreign_logp``, no loop) of at least ``foreign_words`` words, few of which (a share
    of at most ``foreign_share``) are words of any grammar to search, or letters of one
    ("do" of "undo": "and do please" is a command cut in two): table talk in words of its
    own ("remember what happened last time" in the clue phase). The search, several
    decoder calls for such a line, is then skipped; the free transcript is still read by
    the matcher. Not where the nearest sentences are searched (``near_sentences``): there
    the decoder's words are read letter by letter, whatever words it cut them into.
    With the defaults the search is skipped for about 40% of the benchmark's table talk
    and for no command.

    A word that begins with a grammar word of four letters or more is the grammar's too
    (Whisper's inflection of it: "our guests is tired" for "our guess is tire"), and
    where a grammar has an open slot one word is (the slot takes any word: "travel for
    tube" for the clue "travel for two" has two of three words): without these, such
    commands would be skipped as talk."""
    if (tuning.near_sentences > 0 or not free_text or looped
            or free_logp < tuning.foreign_logp):
        return False
    words = spelled_words(without_loops(free_text))
    if len(words) < tuning.foreign_words:
        return False
    graphs = tuple(item.constraint.graph for item in searches)
    known = _grammar_words(graphs)
    stems = [k for k in known if len(k) >= 4]
    heard = sum(w in known or any(w in k for k in known) or any(w.startswith(k) for k in stems)
                for w in words)
    if any(graph.has_open_slot() for graph in graphs):
        heard = min(len(words), heard + 1)
    return heard <= tuning.foreign_share * len(words)


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
    if judged.reading is not None:
        judged = replace(judged, reading=replace(judged.reading, near=True))
    reading = judged.reading
    if judged.accepted or reading is None or reading.margin < tuning.near_close_margin:
        return judged
    spelled = {letters("".join(words)): (cost, len(words)) for words, cost in near}
    cost, length = spelled.get(letters(reading.text), (math.inf, 0))
    if cost <= tuning.near_close_cost and length >= 2:
        return replace(judged, accepted=True, reason=Rejection.NONE, confidence=0.6)
    return judged


def reading_of(decoder: Decoder, top: Scored, base: Judgement) -> GrammarReading:
    """A scored sentence as a grammar reading beside the free transcript."""
    text = plain(decoder.text(top.tokens))
    similarity = fuzz.ratio(base.free_text, text) / 100
    return GrammarReading(text, top.mean_margin, top.score / top.steps, top.steps, similarity,
                          tokens=top.tokens)


def settled(decoder: Decoder, exact: Sequence[Scored], inexact: Sequence[Found],
            base: Judgement, tuning: SearchTuning) -> bool:
    """True when scoring the sentences found by restricted rollouts again cannot change the
    judgement, so that decoder call is skipped: the best exactly scored sentence is
    rejected, and none of the others can rank above it. A restricted rollout's margin is
    an upper bound of its exact one (renormalized over fewer tokens, the chosen token only
    gains on the best one), so a sentence below it before rescoring stays below it."""
    if not exact:
        return False
    top = max(exact, key=lambda s: s.mean_margin)
    if any(f.margin / f.steps >= top.mean_margin for f in inexact):
        return False
    return base.rejection_of(reading_of(decoder, top, base), tuning) is not Rejection.NONE


def hopeless(decoder: Decoder, sentences: Sequence[Scored], base: Judgement,
             tuning: SearchTuning) -> bool:
    """True when every one of these sentences is rejected with the scores it has, some of
    them a restricted rollout's, not scored again: those are upper bounds of the exact
    margins (see :func:`settled`), and a lower margin is never accepted where a higher one
    was rejected, so scoring them again (a decoder call) cannot make the judgement an
    acceptance. Table talk the search forced onto the grammar ends this way, and that last
    call would be most of the slowest searches' time; skipping it changes no outcome."""
    return all(base.rejection_of(reading_of(decoder, s, base), tuning) is not Rejection.NONE
               for s in sentences)


def rank(decoder: Decoder, found: Sequence[Found], base: Judgement,
         tuning: SearchTuning) -> Judgement:
    """The best sentence found, scored exactly, judged against the free transcript."""
    unique: dict[tuple[int, ...], Found] = {}
    for item in sorted(found, key=lambda f: f.score, reverse=True):
        if item.tokens not in unique or (item.exact and not unique[item.tokens].exact):
            unique[item.tokens] = item
    ranked = sorted(unique.values(), key=lambda f: f.score, reverse=True)
    exact = [Scored(f.tokens, f.score, f.margin) for f in ranked if f.exact][:tuning.rescored]
    inexact = [f for f in ranked if not f.exact][:tuning.rescored]
    scored: list[Scored] = list(exact)
    rescored: list[Scored] = []
    if inexact and not settled(decoder, exact, inexact, base, tuning):
        bounds = [Scored(f.tokens, f.score, f.margin) for f in inexact]
        if hopeless(decoder, scored + bounds, base, tuning):
            scored += bounds  # rejected as they are: scored again, they could only fall
        else:
            rescored = decoder.score([f.tokens for f in inexact])
            scored += rescored
    # ranked by the mean per-step margin, as they are judged: by their total score a
    # sentence cut short ("I choose Thomas" + end) beats the whole one with one misheard
    # name, since ending early costs the decoder little
    scored.sort(key=lambda s: s.mean_margin, reverse=True)
    top = scored[0]
    reading = reading_of(decoder, top, base)
    if not any(top is s for s in exact) and not any(top is s for s in rescored):
        reading = replace(reading, bound=True)
    reason = base.rejection_of(reading, tuning)
    if reason is not Rejection.NONE:
        return replace(base, reading=reading, reason=reason)
    alternatives: list[str] = []
    for other in scored[1:]:
        if top.margin - other.margin > tuning.alternative_window:
            break
        alt = plain(decoder.text(other.tokens))
        if alt != reading.text and alt not in alternatives:
            alternatives.append(alt)
    floor = threshold(reading.steps, tuning)
    span = max(1e-6, tuning.sure_margin - floor)
    confidence = 0.6 + 0.4 * max(0.0, min(1.0, (reading.margin - floor) / span))
    return replace(base, reading=reading, accepted=True, reason=Rejection.NONE,
                   confidence=round(confidence, 4), alternatives=tuple(alternatives[:2]))
