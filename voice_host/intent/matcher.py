"""Turn a transcript into an intent (last step of parse -> expand -> match).

The text is normalized, likely mis-hearings are offered as variants ("both" -> "vote"),
run-time values are tagged (exact, then near-miss by spelling and sound for names, icons and
board words), runs of values are joined ("heart and book"), and the tagged sentence is
looked up among the phase's expanded sentences. When nothing matches exactly, the sentence
is aligned word by word with the closest templates at a cost per edit (a filler word is
cheap, a hedge or negation is expensive, a missing slot is fatal), and accepted only under a
threshold that grows slowly with the template's length. Out-of-grammar talk gives
``best=None``; two close readings give ``ambiguous=True``.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz, process

from voice_host.intent.expand import Skeleton, Tok
from voice_host.intent.grammar import (
    NAMED_PLAYER_LIST,
    PLAYER_LIST,
    SELF,
    IntentEntry,
    PhaseGrammar,
    ValueList,
)
from voice_host.intent.normalize import tokenize
from voice_host.intent.phonetic import similarity, sound_key

MAX_TOKENS = 24
"""Longer utterances are talk, not commands."""
CONFUSION_PENALTY = 0.12
"""Cost of reading a word as one it is often mistaken for."""
WEAK_JOIN_PENALTY = 0.12
"""Cost of reading "in" as "and" inside a run of values."""
NEAR_NAME_THRESHOLD = 0.78
"""Least similarity for a near-miss name, icon or board word."""
AMBIGUITY_MARGIN = 0.2
"""Two readings closer than this in cost are ambiguous."""
ALTERNATIVE_MARGIN = 0.45
"""Readings within this cost of the best are returned as alternatives."""
OPENER_PENALTY = 0.1
"""Cost of each interjection before a command ("ah", "allez")."""
LEAD_FILLER_PENALTY = 0.02
"""Cost of each of the language's lead fillers before a command ("um", "bon alors"): next
to nothing, so that a filler leaves a command as sure as without it (a reading without
one still wins a tie)."""
LEAD_IN_PENALTY = 0.05
"""Cost of a lead-in phrase before a move ("I'd say the heart")."""
OBJECT_PRONOUN_COST = 2.0
"""Cost of leaving out a pronoun that follows a command word ("pass me", "passe-moi"): the
word then asks a person for something, as a veto word marks talk."""
TENTATIVE_CONFIDENCE = 0.6
"""Highest confidence of a move with a tentative lead-in ("maybe the heart"): below the
host's confirmation threshold, so it asks before acting."""
_BEAM = 12
_CANDIDATES = 14


@dataclass(frozen=True)
class IntentMatch:
    """One reading of an utterance."""

    intent: str
    """Intent name, e.g. ``"vote"``."""
    slots: Mapping[str, Any]
    """Slot values: names/board words as given, icons by English name, numbers as int or
    ``"unlimited"``, runs as tuples."""
    confidence: float
    """0..1; high only for an exact or nearly exact match."""
    text: str
    """The normalized text that was matched."""


@dataclass(frozen=True)
class MatchResult:
    """The matcher's answer for one utterance."""

    best: IntentMatch | None
    """The reading to act on, or ``None`` when the utterance is not a command."""
    alternatives: tuple[IntentMatch, ...]
    """Accepted readings, best first (includes ``best``)."""
    ambiguous: bool
    """True when the two best readings are too close to choose: ask which one was meant."""


class _T:
    """One tagged input position: a word or a run of list values."""

    __slots__ = ("key", "word", "list_name", "values", "words", "uncertain")

    def __init__(self, key: str, word: str, list_name: str | None = None,
                 values: tuple[Any, ...] = (), words: tuple[str, ...] = (),
                 uncertain: bool = False) -> None:
        self.key = key
        self.word = word
        self.list_name = list_name
        self.values = values
        self.words = words or (word,)
        self.uncertain = uncertain
        """The value was not said as such: a confusion ("hard" for "heart") or a near-miss."""


@dataclass
class _Fuzzy:
    entry: IntentEntry
    toks: Skeleton
    required: int
    delete: tuple[float, ...]
    threshold: float
    needed: tuple[tuple[str, float], ...]


@dataclass
class _Reading:
    intent: str
    slots: dict[str, Any]
    cost: float
    threshold: float
    exact: bool
    tentative: bool = False

    def key(self) -> tuple[str, str]:
        return self.intent, repr(sorted(self.slots.items()))


def _by_phrase(per_rule: Mapping[str, frozenset[tuple[str, ...]]]
               ) -> list[tuple[tuple[str, ...], frozenset[str]]]:
    """Each phrase of the lead-in (or lead-out) rules with the rules that allow it, longest
    first."""
    rules: dict[tuple[str, ...], set[str]] = {}
    for rule, phrases in per_rule.items():
        for phrase in phrases:
            rules.setdefault(phrase, set()).add(rule)
    return sorted(((p, frozenset(r)) for p, r in rules.items()), key=lambda item: -len(item[0]))


class _Compiled:
    def __init__(self, phase: PhaseGrammar) -> None:
        self.phase = phase
        settings = phase.settings
        self.fillers = settings.fillers
        self.function = settings.function_words | settings.articles
        self.vetoes = settings.vetoes
        self.answer_words = settings.answer_words
        self.question_starts = settings.question_starts
        self.interjections = settings.interjections
        self.discourse = settings.discourse | settings.interjections
        self.openers = settings.discourse & settings.interjections
        self.lead_fillers = tuple(sorted({tuple(p.split()) for p in settings.lead_fillers
                                          if p}, key=lambda p: -len(p)))
        self.lead_words = frozenset(p[0] for p in self.lead_fillers if len(p) == 1)
        self.joiners = settings.joiners
        self.weak_joiners = settings.weak_joiners
        self.articles = settings.articles
        self.confusions = settings.confusions
        self.literals = phase.literal_words
        self.object_pronouns = settings.object_pronouns
        # a word of the grammar that can take an object ("pass" in "pass me"); the small
        # words around values cannot ("for me", "avec moi")
        self.verbs = frozenset(word for word in self.literals if word not in (
            self.fillers | self.function | self.vetoes | self.joiners | self.weak_joiners))
        # a named player ({player_name}) is read as any player: the matcher forgives a verb
        # that does not agree with "moi", and tags each name once
        used = (PLAYER_LIST if name == NAMED_PLAYER_LIST else name for name in phase.used_lists)
        self.lists: dict[str, ValueList] = {
            name: phase.lists[name] for name in used if name in phase.lists}
        skeletons = {keep: [(entry, tuple(_any_player(t) for t in skeleton)) for entry, skeleton
                            in phase.skeletons(keep_optional=keep)] for keep in (False, True)}
        self.repeat_lists = frozenset(
            tok.text for _, sk in skeletons[True] for tok in sk
            if tok.kind == "slot" and tok.repeat)
        self.value_words = frozenset(t for vl in self.lists.values()
                                     for tokens, _ in vl.forms for t in tokens)
        self.one_word_values = frozenset(tokens[0] for vl in self.lists.values()
                                         for tokens, _ in vl.forms if len(tokens) == 1)
        self.list_slots = phase.list_slots
        self.diagnostic = phase.diagnostic_intents
        self.tentative = settings.tentative
        self.lead_ins = _by_phrase(phase.lead_ins)
        self.lead_outs = _by_phrase(phase.lead_outs)
        self.exact: dict[tuple[str, ...], list[tuple[IntentEntry, Skeleton]]] = {}
        for entry, skeleton in skeletons[False]:
            self.exact.setdefault(tuple(t.key for t in skeleton), []).append((entry, skeleton))
        self.has_wild = any("{*}" in key for key in self.exact)
        self.has_two_wild = any(key.count("{*}") > 1 for key in self.exact)
        self.fuzzy: list[_Fuzzy] = []
        self.index: dict[str, list[int]] = {}
        self.wild_ids: list[int] = []
        for entry, skeleton in skeletons[True]:
            required = sum(1 for t in skeleton if not t.optional)
            if required == 0:
                continue
            delete = tuple(self._delete_cost(t) for t in skeleton)
            threshold = min(1.25, 0.55 + 0.12 * required)
            ident = len(self.fuzzy)
            needed = tuple((t.key, d) for t, d in zip(skeleton, delete, strict=True) if d > 0)
            self.fuzzy.append(_Fuzzy(entry, skeleton, required, delete, threshold, needed))
            for key in {t.key for t in skeleton if t.key not in self.function
                        and t.key not in self.fillers}:
                self.index.setdefault(key, []).append(ident)
            if any(t.kind == "wild" for t in skeleton):
                self.wild_ids.append(ident)
        self.near_cache: dict[str, list[tuple[str, Any, float]]] = {}
        self.near_choices: dict[str, list[tuple[str, Any]]] = {}
        self.near_multi: dict[str, list[tuple[tuple[str, ...], Any]]] = {}
        for name, value_list in self.lists.items():
            if value_list.runtime:
                self.near_choices[name] = [(tokens[0], value) for tokens, value in
                                           value_list.forms if len(tokens) == 1
                                           and value != SELF]
                self.near_multi[name] = [(tokens, value) for tokens, value in value_list.forms
                                         if len(tokens) > 1 and value != SELF]

    def _delete_cost(self, tok: Tok) -> float:
        if tok.optional:
            return 0.0
        if tok.kind != "lit":
            return 1.6
        return 0.35 if tok.text in self.function else 1.0

    # ------------------------------------------------------------ tagging

    def variants(self, tokens: tuple[str, ...]
                 ) -> list[tuple[tuple[str, ...], float, frozenset[int]]]:
        """Readings of ``tokens`` with likely mis-hearings swapped in: (tokens, cost, the
        positions swapped)."""
        out: list[tuple[tuple[str, ...], float, frozenset[int]]] = [((), 0.0, frozenset())]
        for index, token in enumerate(tokens):
            options = [(token, 0.0)]
            for target in self.confusions.get(token, ()):
                if target != token and (target in self.literals or target in self.value_words):
                    options.append((target, CONFUSION_PENALTY))
            out = [(seq + (word,), cost + extra, swapped | {index} if extra else swapped)
                   for seq, cost, swapped in out for word, extra in options]
            if len(out) > 8:
                out.sort(key=lambda item: item[1])
                out = out[:8]
        return out

    def opening(self, tokens: tuple[str, ...]) -> tuple[int, float]:
        """How many words at the start of ``tokens`` open the utterance without saying
        anything ("um, okay", "bon alors", "euh"), never all of them nor a word that is a
        value on its own ("Ben, Cleo et Dan"; "bon" of "c'est bon" is a filler), and what
        reading past them costs."""
        skip, cost = 0, 0.0
        while skip < len(tokens) - 1:
            phrase = next((p for p in self.lead_fillers
                           if skip + len(p) < len(tokens) and tokens[skip:skip + len(p)] == p
                           and not any(w in self.one_word_values for w in p)), None)
            if phrase is not None:
                skip, cost = skip + len(phrase), cost + LEAD_FILLER_PENALTY
            elif tokens[skip] in self.openers and tokens[skip] not in self.value_words:
                skip, cost = skip + 1, cost + OPENER_PENALTY
            else:
                break
        return skip, cost

    def lead_in_starts(self, tokens: tuple[str, ...]
                       ) -> list[tuple[int, tuple[str, ...], frozenset[str]]]:
        """Where a lead-in phrase ends at the start of ``tokens`` (after interjections such
        as "um"): (index of the first word after it, the phrase, its rules)."""
        most = 0
        while most < len(tokens) and tokens[most] in self.interjections | self.lead_words \
                and tokens[most] not in self.value_words:
            most += 1
        out: list[tuple[int, tuple[str, ...], frozenset[str]]] = []
        for skip in range(most + 1):
            for phrase, rules in self.lead_ins:
                end = skip + len(phrase)
                if end < len(tokens) and tokens[skip:end] == phrase:
                    out.append((end, phrase, rules))
        return out

    def near(self, list_name: str, word: str) -> list[tuple[str, Any, float]]:
        cache_key = list_name + "\x00" + word
        cached = self.near_cache.get(cache_key)
        if cached is not None:
            return cached
        choices = self.near_choices.get(list_name, [])
        found: dict[Any, tuple[str, Any, float]] = {}
        if choices and len(word) >= 3 and not word.isdigit():
            hits = process.extract(word, [c[0] for c in choices], scorer=fuzz.ratio,
                                   score_cutoff=45, limit=8)
            key = sound_key(word)
            candidates = {index for _, _, index in hits}
            candidates.update(i for i, (form, _) in enumerate(choices)
                              if sound_key(form) == key)
            for index in candidates:
                form, value = choices[index]
                score = similarity(word, form)
                if score >= NEAR_NAME_THRESHOLD and (
                        value not in found or found[value][2] < score):
                    found[value] = (form, value, score)
        result = sorted(found.values(), key=lambda item: -item[2])
        if result:
            best = result[0][2]
            result = [r for r in result if r[2] >= best - 0.06][:2]
        if len(self.near_cache) > 4096:
            self.near_cache.clear()
        self.near_cache[cache_key] = result
        return result

    def _near_spans(self, tokens: tuple[str, ...], i: int) -> list[tuple[int, _T, float]]:
        """Near-misses of several-word values: "jean luke" for Jean-Luc."""
        out: list[tuple[int, _T, float]] = []
        n = len(tokens)
        for name, forms in self.near_multi.items():
            for form, value in forms:
                k = len(form)
                if i + k > n:
                    continue
                span = tokens[i:i + k]
                scores = [similarity(a, b) for a, b in zip(span, form, strict=True)]
                mean = sum(scores) / k
                if min(scores) >= 0.7 and mean >= 0.82 and span != form:
                    out.append((k, _T("{" + name + "}", " ".join(span), name, (value,), span,
                                      True), 0.15 + (1.0 - mean)))
        return out

    def tag(self, tokens: tuple[str, ...], swapped: frozenset[int] = frozenset()
            ) -> list[tuple[list[_T], float]]:
        n = len(tokens)
        options: list[list[tuple[int, _T, float]]] = [[] for _ in range(n)]
        for i, word in enumerate(tokens):
            tagged = False
            for name, value_list in self.lists.items():
                for length in range(min(value_list.longest, n - i), 0, -1):
                    span = tokens[i:i + length]
                    values = value_list.index.get(span)
                    if values:
                        tagged = True
                        unsure = any(k in swapped for k in range(i, i + length))
                        for value in values:
                            options[i].append((length, _T("{" + name + "}", " ".join(span),
                                                          name, (value,), span, unsure), 0.0))
            protected = (word in self.literals or word in self.fillers or word in self.function
                         or word in self.vetoes or word in self.joiners
                         or word in self.weak_joiners or word in self.answer_words)
            if not tagged and not protected:
                for name, value_list in self.lists.items():
                    if value_list.runtime:
                        for _form, value, score in self.near(name, word):
                            options[i].append((1, _T("{" + name + "}", word, name, (value,),
                                                     uncertain=True),
                                               0.15 + (1.0 - score)))
            if not tagged and word not in self.vetoes and word not in self.answer_words:
                options[i].extend(self._near_spans(tokens, i))
            if not tagged or protected:
                options[i].append((1, _T(word, word), 0.0))
        beams: list[list[tuple[list[_T], float]]] = [[] for _ in range(n + 1)]
        beams[0] = [([], 0.0)]
        for i in range(n):
            if not beams[i]:
                continue
            beams[i].sort(key=lambda item: item[1])
            for seq, cost in beams[i][:_BEAM]:
                for length, item, extra in options[i]:
                    beams[i + length].append((seq + [item], cost + extra))
        finals = sorted(beams[n], key=lambda item: item[1])[:_BEAM]
        return [self.join_runs(seq, cost) for seq, cost in finals]

    def join_runs(self, seq: list[_T], cost: float) -> tuple[list[_T], float]:
        out: list[_T] = []
        for item in seq:
            if item.list_name is not None and out:
                # find the previous value of the same list across joiners / articles
                j = len(out) - 1
                between: list[_T] = []
                while j >= 0 and out[j].list_name is None and (
                        out[j].key in self.joiners or out[j].key in self.weak_joiners
                        or out[j].key in self.articles):
                    between.append(out[j])
                    j -= 1
                if j >= 0 and out[j].list_name == item.list_name:
                    prev = out[j]
                    if item.list_name in self.repeat_lists:
                        weak = sum(WEAK_JOIN_PENALTY for b in between
                                   if b.key in self.weak_joiners and b.key not in self.joiners)
                        if between and all(b.key in self.articles for b in between):
                            weak += 0.05
                        merged = _T(prev.key, prev.word + " " + item.word, prev.list_name,
                                    prev.values + item.values, prev.words + item.words,
                                    prev.uncertain or item.uncertain)
                        del out[j:]
                        out.append(merged)
                        cost += weak
                        continue
                    if not between and prev.values == item.values:
                        continue
            out.append(item)
        return out, cost


_COMPILED: weakref.WeakKeyDictionary[PhaseGrammar, _Compiled] = weakref.WeakKeyDictionary()


def _any_player(tok: Tok) -> Tok:
    """A {player_name} position of a skeleton as a {player} one (see ``_Compiled``)."""
    if tok.kind == "slot" and tok.text == NAMED_PLAYER_LIST:
        return Tok(tok.kind, PLAYER_LIST, tok.slot, tok.repeat, tok.optional)
    return tok


def _compiled(phase: PhaseGrammar) -> _Compiled:
    found = _COMPILED.get(phase)
    if found is None:
        found = _Compiled(phase)
        _COMPILED[phase] = found
    return found


class Matcher:
    """Matches transcripts against one phase's grammar (compiled once per phase)."""

    def __init__(self, phase_grammar: PhaseGrammar, *, min_confidence: float = 0.0) -> None:
        self.phase = phase_grammar
        self.min_confidence = min_confidence
        """Readings less confident than this (after word confidences) are rejected."""
        self._c = _compiled(phase_grammar)

    def match(self, text: str, *, speaker: str | None = None,
              word_confidences: Sequence[float] | None = None,
              closed: bool = False) -> MatchResult:
        """The intent in ``text``, or ``best=None`` when it is not a command of this phase.

        ``closed`` says the text comes from a decoder restricted to this phase's JSGF: its
        output is then a sentence of the grammar unless the decoder lost its way (a partial
        path, the escape loop), so only exact readings are accepted."""
        tokens = tokenize(text)
        normalized = " ".join(tokens)
        if not tokens or len(tokens) > MAX_TOKENS:
            return MatchResult(None, (), False)
        who = speaker if speaker is not None else self.phase.slot_values.speaker
        readings: dict[tuple[str, str], _Reading] = {}
        # the whole utterance, and what follows a lead-in ("I'd say | the heart"), which
        # only entries taking that lead-in may read
        starts: list[tuple[tuple[str, ...], float, _Lead | None]] = [(tokens, 0.0, None)]
        # "um, okay, the heart": the same as "the heart" (a hair less sure)
        skip, opening_cost = self._c.opening(tokens)
        if skip:
            starts.append((tokens[skip:], opening_cost, None))
        for end, phrase, rules in self._c.lead_in_starts(tokens):
            tentative = any(word in self._c.tentative for word in tokens[:end])
            starts.append((tokens[end:], LEAD_IN_PENALTY + 0.02 * (end - len(phrase)),
                           _Lead(rules, tentative)))
        # a phrase of the lead-in's *_after* rule after the move ("the anchor, I think"),
        # with or without a lead-in before it; only entries taking that lead-in may read it
        for start, extra, lead in list(starts):
            for phrase, rules in self._c.lead_outs:
                size = len(phrase)
                if size >= len(start) or start[-size:] != phrase:
                    continue
                tentative = any(word in self._c.tentative for word in phrase)
                if (tentative or (lead is not None and lead.tentative)) and (
                        lead is not None or self._c.lead_in_starts(start[:-size])):
                    continue  # "I think it's the heart, maybe": two doubts, talk
                if lead is not None:
                    rules = rules & lead.rules
                if rules:
                    starts.append((start[:-size], extra + LEAD_IN_PENALTY,
                                   _Lead(rules, tentative)))
        passes: list[tuple[list[tuple[list[_T], float]], _Lead | None]] = []
        for start, extra, lead in starts:
            tagged_all: list[tuple[list[_T], float]] = []
            for variant, penalty, swapped in self._c.variants(start):
                for seq, cost in self._c.tag(variant, swapped):
                    tagged_all.append((seq, cost + penalty + extra))
            tagged_all.sort(key=lambda item: item[1])
            passes.append((tagged_all, lead))
            if closed:
                # a closed decoder's sentence is read exactly; a lead-in the grammar allows
                # before it ("[<h_move>] the heart") costs only its own penalty
                found: dict[tuple[str, str], _Reading] = {}
                for seq, cost in tagged_all:
                    self._exact(seq, cost, who, found, lead)
                for key, reading in found.items():
                    # the grammar lets a sentence start with lead fillers ("euh, ..."): a
                    # reading past them is as exact as the sentence alone
                    exact = reading.cost in (0.0, extra)
                    if exact and (key not in readings or reading.cost < readings[key].cost):
                        readings[key] = reading
                continue
            for seq, cost in tagged_all:
                self._exact(seq, cost, who, readings, lead)
        if not closed and not any(r.cost <= 0.3 for r in readings.values()):
            for tagged_all, lead in passes:
                seen: set[tuple[str, ...]] = set()
                for seq, cost in tagged_all[:6]:
                    keys = tuple(t.key for t in seq)
                    if keys in seen:
                        continue
                    seen.add(keys)
                    self._fuzzy(seq, cost, who, readings, lead)
        accepted = sorted((r for r in readings.values() if r.cost <= r.threshold),
                          key=lambda r: (r.cost, r.intent))
        if not accepted:
            return MatchResult(None, (), False)
        factor = 1.0
        if word_confidences is not None and len(word_confidences) == len(tokens) and tokens:
            mean = sum(min(1.0, max(0.0, c)) for c in word_confidences) / len(tokens)
            factor = 0.5 + 0.5 * mean
        diagnostic = self._c.diagnostic
        if diagnostic:
            # a sentence understood only to say what is wrong with it ("blue ocean two" as a
            # two-word clue) gives way to a command read about as well ("ocean two"), and is
            # never an alternative to it
            real = [r for r in accepted if r.intent not in diagnostic
                    and r.cost - accepted[0].cost < AMBIGUITY_MARGIN]
            if real:
                accepted = [r for r in accepted if r.intent not in diagnostic]
        best_cost = accepted[0].cost
        kept: list[_Reading] = []
        for reading in accepted:
            if reading.cost > best_cost + ALTERNATIVE_MARGIN or len(kept) == 4:
                break
            # a reading that only adds or drops a slot of another says the same thing
            if any(_compatible(reading, other) for other in kept):
                continue
            kept.append(reading)
        matches = tuple(IntentMatch(r.intent, r.slots, _confidence(r) * factor, normalized)
                        for r in kept)
        matches = tuple(IntentMatch(m.intent, m.slots, min(m.confidence, TENTATIVE_CONFIDENCE),
                                    m.text) if r.tentative else m
                        for m, r in zip(matches, kept, strict=True))
        ambiguous = len(kept) > 1 and kept[1].cost - best_cost < AMBIGUITY_MARGIN
        if ambiguous:
            matches = tuple(IntentMatch(m.intent, m.slots, min(m.confidence, 0.6), m.text)
                            for m in matches)
        matches = tuple(m for m in matches if m.confidence >= self.min_confidence)
        if not matches:
            return MatchResult(None, (), False)
        return MatchResult(matches[0], matches, ambiguous and len(matches) > 1)

    # ------------------------------------------------------------ exact

    def _exact(self, seq: list[_T], cost: float, who: str | None,
               readings: dict[tuple[str, str], _Reading], lead: _Lead | None = None) -> None:
        c = self._c
        keys = tuple(t.key for t in seq)
        found = c.exact.get(keys)
        if found:
            for entry, skeleton in found:
                self._add(entry, list(zip(skeleton, seq, strict=True)), cost, None, who,
                          readings, lead)
        if c.has_wild:
            free = [i for i, item in enumerate(seq)
                    if not (item.list_name is not None or item.key in c.fillers
                            or item.key in c.function or item.key in c.vetoes)]
            # one open word ("ocean two"), or two where a template has two ("ice cream two",
            # said to be told that a clue is one word)
            positions: list[tuple[int, ...]] = [(i,) for i in free]
            if c.has_two_wild:
                positions += [(i, j) for i in free for j in free if i < j]
            for where in positions:
                wild_keys = tuple("{*}" if k in where else key for k, key in enumerate(keys))
                found = c.exact.get(wild_keys)
                if found:
                    extra = sum(0.3 for k in where if seq[k].key in c.literals)
                    for entry, skeleton in found:
                        self._add(entry, list(zip(skeleton, seq, strict=True)), cost + extra,
                                  None, who, readings, lead)

    # ------------------------------------------------------------ fuzzy

    def _fuzzy(self, seq: list[_T], cost: float, who: str | None,
               readings: dict[tuple[str, str], _Reading], lead: _Lead | None = None) -> None:
        c = self._c
        counts: dict[int, int] = {}
        for item in seq:
            if item.key in c.fillers or item.key in c.function:
                continue
            for ident in c.index.get(item.key, ()):
                counts[ident] = counts.get(ident, 0) + 2  # a word said counts twice...
            if item.list_name is None:  # ...a word it is often mistaken for, once
                for target in c.confusions.get(item.key, ()):
                    for ident in c.index.get(target, ()):
                        counts[ident] = counts.get(ident, 0) + 1
        if c.wild_ids and any(t.list_name is None and t.key not in c.literals
                              and t.key not in c.fillers and t.key not in c.function
                              for t in seq):
            for ident in c.wild_ids:
                counts[ident] = counts.get(ident, 0) + 1
        if not counts:
            return
        present = {t.key for t in seq}
        for item in seq:
            present.update(c.confusions.get(item.key, ()))
        cheapest = sorted(self._insert_cost(item) for item in seq)
        extra = [0.0]
        for value in cheapest:
            extra.append(extra[-1] + value)
        n = len(seq)
        question = self._question_at(seq)
        pronoun = self._object_pronoun_at(seq)
        bounds: list[tuple[float, int, int]] = []
        for ident in counts:
            fz = c.fuzzy[ident]
            bound = sum(cost_ for key, cost_ in fz.needed if key not in present
                        and not (key == "{*}" and c.wild_ids))
            # words beyond the template's length must be inserted
            bound += extra[max(0, n - len(fz.toks))]
            if bound + cost <= fz.threshold:
                # ties (many sentences share their words) go to the one of the right length
                bounds.append((bound - 0.01 * counts[ident], abs(fz.required - n), ident))
        bounds.sort()
        for _, _, ident in bounds[:_CANDIDATES]:
            fz = c.fuzzy[ident]
            total, pairs = self._align(seq, fz, question, pronoun)
            if total + cost <= fz.threshold and self._supported(seq, pairs):
                self._add(fz.entry, pairs, cost + total, fz.threshold, who, readings, lead)

    def _supported(self, seq: list[_T], pairs: list[tuple[Tok, _T]]) -> bool:
        """False when a value that was not said as such (a confusion, a near-miss) or an open
        word (any word can be a clue) stands among words the sentence leaves unexplained:
        "this is so hard" is not the heart, though "the hard" may be, and "our spymaster is
        brilliant" is no clue. Two doubts do not make a command."""
        used = {id(item) for _, item in pairs}
        if not any((item.uncertain and item.list_name is not None) or tok.kind == "wild"
                   for tok, item in pairs):
            return True
        return all(item.key in self._c.discourse for item in seq if id(item) not in used)

    def _object_pronoun_at(self, seq: list[_T]) -> int:
        """Index of a pronoun that makes the word before it an imperative with an object
        ("pass me (the salt)", "okay, passe-moi"): a command word first, after only
        discourse words, and the pronoun right after it; else -1. "Je passe, moi" has a
        subject: the speaker passes."""
        c = self._c
        lead = 0
        while lead < len(seq) and seq[lead].list_name is None and seq[lead].key in c.discourse:
            lead += 1
        if lead + 1 < len(seq) and seq[lead].list_name is None and seq[lead].key in c.verbs \
                and seq[lead + 1].list_name is None \
                and seq[lead + 1].key in c.object_pronouns:
            return lead + 1
        return -1

    def _question_at(self, seq: list[_T]) -> int:
        """Index of a question-opening word ("is it Lucas?"), or -1."""
        c = self._c
        for index, item in enumerate(seq):
            if item.list_name is None and item.key in c.question_starts:
                return index
            if item.list_name is not None or item.key not in c.interjections:
                return -1
        return -1

    def _insert_cost(self, item: _T) -> float:
        c = self._c
        if item.list_name is not None:
            return 1.0
        key = item.key
        if key in c.vetoes:
            return 2.0
        if key in c.fillers:
            return 0.15
        if key in c.function or key in c.joiners or key in c.weak_joiners:
            return 0.3
        return 1.0

    def _sub_cost(self, item: _T, tok: Tok) -> float:
        c = self._c
        if tok.kind == "slot":
            return 0.0 if item.list_name == tok.text else 9.0
        if tok.kind == "wild":
            if item.list_name is not None or item.key in c.fillers or item.key in c.function \
                    or item.key in c.vetoes:
                return 9.0
            return 9.0 if item.key in c.literals else 0.05
        if item.list_name is not None:
            return 0.1 if item.words == (tok.text,) else 9.0
        if item.key == tok.text:
            return 0.0
        if tok.text in c.confusions.get(item.key, ()):
            return CONFUSION_PENALTY
        if item.key in c.vetoes:
            return 9.0
        score = similarity(item.key, tok.text)
        if score >= 0.8:
            return 0.15 + (1.0 - score) * 2.0
        return 9.0

    def _align(self, seq: list[_T], fz: _Fuzzy, question: int = -1,
               pronoun: int = -1) -> tuple[float, list[tuple[Tok, _T]]]:
        toks = fz.toks
        n, m = len(seq), len(toks)
        ins = [self._insert_cost(item) for item in seq]
        if pronoun >= 0 and fz.entry.phases != ("*",):
            # a move asked of a person ("pass me"); a request to the host, which every
            # phase takes, may name who it is for ("read me the board")
            ins[pronoun] = OBJECT_PRONOUN_COST
        if question >= 0:
            ins[question] = 2.0
        dele = fz.delete
        inf = float("inf")
        cost = [[inf] * (m + 1) for _ in range(n + 1)]
        back = [[0] * (m + 1) for _ in range(n + 1)]
        cost[0][0] = 0.0
        for j in range(1, m + 1):
            cost[0][j] = cost[0][j - 1] + dele[j - 1]
            back[0][j] = 2
        for i in range(1, n + 1):
            cost[i][0] = cost[i - 1][0] + ins[i - 1]
            back[i][0] = 1
            row, prev = cost[i], cost[i - 1]
            item = seq[i - 1]
            for j in range(1, m + 1):
                best = prev[j] + ins[i - 1]
                how = 1
                value = row[j - 1] + dele[j - 1]
                if value < best:
                    best, how = value, 2
                value = prev[j - 1] + self._sub_cost(item, toks[j - 1])
                if i - 1 == question and toks[j - 1].text != item.key:
                    value += 2.0  # nor is it a near word ("is it Lucas" for "its Lucas")
                if value < best:
                    best, how = value, 3
                row[j] = best
                back[i][j] = how
        pairs: list[tuple[Tok, _T]] = []
        total = cost[n][m]
        i, j = n, m
        while i > 0 or j > 0:
            how = back[i][j]
            if how == 3:
                if i - 1 == question and not all(t.optional for t in toks[:j - 1]):
                    total += 2.0  # "is it Lucas": the question word moved, not a command
                pairs.append((toks[j - 1], seq[i - 1]))
                i, j = i - 1, j - 1
            elif how == 1:
                i -= 1
            else:
                j -= 1
        pairs.reverse()
        return total, pairs

    # ------------------------------------------------------------ readings

    def _add(self, entry: IntentEntry, pairs: list[tuple[Tok, _T]], cost: float,
             threshold: float | None, who: str | None,
             readings: dict[tuple[str, str], _Reading], lead: _Lead | None = None) -> None:
        if lead is not None and entry.lead_in not in lead.rules:
            return
        if lead is not None and lead.tentative and any(
                item.uncertain for tok, item in pairs if tok.kind == "slot"):
            return  # "perhaps later" is not "perhaps ladder": two doubts
        slots: dict[str, Any] = dict(entry.fixed)
        list_slots = self._c.list_slots.get(entry.name, frozenset())
        for tok, item in pairs:
            if tok.kind == "wild":
                slots[tok.slot] = item.key
                continue
            if tok.kind != "slot":
                continue
            values: list[Any] = []
            for value in item.values:
                if value == SELF:
                    if who is None:
                        return
                    value = who
                if value not in values:
                    values.append(value)
            if not tok.repeat and len(values) > 1:
                return
            if tok.slot in list_slots:
                merged = tuple(dict.fromkeys(tuple(slots.get(tok.slot, ())) + tuple(values)))
                limit = entry.limits.get(tok.slot)
                if limit is not None and len(merged) > limit:
                    return
                slots[tok.slot] = merged
            else:
                if tok.slot in slots and slots[tok.slot] != values[0]:
                    return
                slots[tok.slot] = values[0]
        exact = threshold is None
        reading = _Reading(entry.name, slots, cost, 1.0 if threshold is None else threshold,
                           exact, lead is not None and lead.tentative)
        key = reading.key()
        old = readings.get(key)
        if old is None or old.cost > cost:
            readings[key] = reading


@dataclass(frozen=True)
class _Lead:
    """The lead-in a reading starts after."""

    rules: frozenset[str]
    """The lead-in rules that allow the phrase."""
    tentative: bool
    """The lead-in makes the move tentative ("maybe")."""


def _compatible(a: _Reading, b: _Reading) -> bool:
    if a.intent != b.intent:
        return False
    small, large = (a.slots, b.slots) if len(a.slots) <= len(b.slots) else (b.slots, a.slots)
    return all(key in large and large[key] == value for key, value in small.items())


def _confidence(reading: _Reading) -> float:
    if reading.cost <= 0.0:
        return 1.0
    if reading.exact:
        # every word matched; penalties come from a near-miss name or a confusion
        return max(0.3, 0.97 - reading.cost)
    return max(0.05, min(0.95, 1.0 - reading.cost / (2.0 * reading.threshold)))
