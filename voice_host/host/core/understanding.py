"""From what was heard to what was meant: one function used by the session loop, by
``voice-host understand`` and by the recognition benchmark, so the benchmark measures the
exact path the host plays with.

A recognizer that searches the phase's grammar (Whisper) hands over two readings of one
utterance in its :class:`~voice_host.speech.decision.Judgement`: its own free transcript and
the grammar sentence it found.  Both are read with the phase's matcher -- the free
transcript exactly as a typed line is read, the grammar sentence strictly -- and
:func:`voice_host.speech.decision.decide` combines them: agree -> take it; only one
confident -> that one; both confident and meaning different things -> "Did you mean X, or
Y?"; neither -> not a command."""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from typing import Any

from voice_host.host.core.values import Heard, HeardKind
from voice_host.intent import IntentMatch, Matcher, MatchResult, PhaseGrammar
from voice_host.intent.grammar import NAMED_PLAYER_LIST, PLAYER_LIST
from voice_host.speech.decision import (
    Decision,
    Judgement,
    SearchTuning,
    Verdict,
    decide_judgement,
    without_loops,
)


class Route(enum.StrEnum):
    """Which readings of a searched utterance count (the benchmark compares them)."""

    BOTH = "both"
    """The host's way: the two readings decided together."""
    GRAMMAR = "grammar"
    """The grammar search's sentence alone."""
    FREE = "free"
    """The free transcript alone, read as a typed line."""


@dataclass(frozen=True)
class Understood:
    """The reading of one utterance."""

    best: IntentMatch | None
    """The intent to act on, or None (not a command, rejected, or not speech)."""
    result: MatchResult | None
    """The matcher's full answer (alternatives, ambiguity), when it ran."""
    confidence: float
    """Matcher confidence times recognizer confidence (0 when nothing was understood)."""
    why_not: str = ""
    """When ``best`` is None: "silence", "rejected_by_recognizer", "no_match", "error"."""
    verdict: Verdict | None = None
    """How the two readings were combined (None when the recognizer gave only one)."""
    free: IntentMatch | None = None
    """The matcher's reading of the free transcript (None when none, or not searched)."""
    grammar: IntentMatch | None = None
    """The matcher's reading of the grammar sentence (None when none, or not searched)."""
    grammar_result: MatchResult | None = None
    """The matcher's full answer for the grammar sentence, the recognizer's close
    alternatives included (:func:`_with_heard_alternatives`): ``result`` when the grammar
    reading is chosen. None when not searched."""
    free_result: MatchResult | None = None
    """The matcher's full answer for the free transcript: ``result`` when its reading is
    chosen. None when not searched. (The benchmark records whether the host would ask
    about either, to decide again with other thresholds.)"""


DEFAULT_TUNING = SearchTuning()
"""The thresholds of a Heard whose recognizer names none (English's)."""


def tuning_of(heard: Heard) -> SearchTuning:
    """The thresholds ``heard``'s two readings are decided with: its recognizer's (a French
    Whisper judges with French ones), else the defaults."""
    return heard.tuning or DEFAULT_TUNING


def understand(heard: Heard, matcher: Matcher, *, speaker: str | None,
               route: Route = Route.BOTH, tuning: SearchTuning | None = None,
               key: Callable[[IntentMatch], Hashable] | None = None,
               prior: Callable[[IntentMatch], int] | None = None) -> Understood:
    """Match a Heard against the phase's grammar. A transcript the recognizer itself
    rejected (its escape path won) is never matched; a transcript decoded with the phase's
    closed sentence grammar is matched strictly (only exact readings), since anything else
    means the decoder lost its way. A recognizer's two readings are decided together, with
    ``tuning`` (default: the recognizer's own, :func:`tuning_of`); ``key`` says what
    matters of a reading, two readings with equal keys agreeing (default: its intent and
    slots; a session gives the move it makes, so that "Hannah picks the bell" said by
    Hannah and "picks the bell" agree); ``prior`` how likely a reading is meant
    (:func:`~voice_host.host.core.adapter.reading_prior`), to choose between two readings
    that differ only in an open slot's words (:func:`_unlikelier`)."""
    if heard.kind is not HeardKind.SPEECH:
        return Understood(None, None, 0.0, why_not=heard.kind.value)
    if heard.judgement is not None:
        return _two_readings(heard, heard.judgement, matcher, speaker=speaker, route=route,
                             tuning=tuning or tuning_of(heard), key=key or meaning,
                             prior=prior)
    if heard.rejected:
        return Understood(None, None, 0.0, why_not="rejected_by_recognizer")
    result = matcher.match(heard.text, speaker=speaker,
                           word_confidences=heard.word_confidences or None,
                           closed=heard.closed_grammar)
    if result.best is None:
        return Understood(None, result, 0.0, why_not="no_match")
    result = _with_heard_alternatives(result, heard, matcher, speaker=speaker)
    best = result.best
    assert best is not None
    return Understood(best, result, best.confidence * heard.confidence)


def meaning(match: IntentMatch) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """What matters of a reading: its intent and slots."""
    return match.intent, tuple(sorted((k, repr(v)) for k, v in match.slots.items()))


def _two_readings(heard: Heard, judgement: Judgement, matcher: Matcher, *,
                  speaker: str | None, route: Route, tuning: SearchTuning,
                  key: Callable[[IntentMatch], Hashable],
                  prior: Callable[[IntentMatch], int] | None = None) -> Understood:
    grammar_result: MatchResult | None = None
    if judgement.reading is not None and route is not Route.FREE:
        grammar_result = _with_heard_alternatives(
            _grammar_match(judgement, matcher, speaker=speaker), heard, matcher,
            speaker=speaker)
    free_result: MatchResult | None = None
    if judgement.free_text and route is not Route.GRAMMAR:
        free_result = matcher.match(judgement.free_text, speaker=speaker)
    g = grammar_result.best if grammar_result is not None else None
    f = free_result.best if free_result is not None else None
    decision = decide_readings(judgement, g, f, key=key, prior=prior, tuning=tuning,
                               route=route)

    def answer(best: IntentMatch | None, result: MatchResult | None, confidence: float,
               why_not: str = "") -> Understood:
        return Understood(best, result, confidence, why_not, decision.verdict, f, g,
                          grammar_result, free_result)

    chosen = decision.chosen
    if chosen is None:
        return answer(None, grammar_result or free_result, 0.0,
                      why_unread(g, f, judgement.accepted))
    if decision.verdict is Verdict.ASK:
        assert decision.other is not None
        return answer(chosen, MatchResult(chosen, (chosen, decision.other), ambiguous=True),
                      0.0)
    from_grammar = g is not None and chosen is g
    result = grammar_result if from_grammar else free_result
    assert result is not None
    if from_grammar:
        recognizer = judgement.confidence
    else:
        recognizer = judgement.free_certainty(tuning)
    if decision.verdict is Verdict.AGREE:
        recognizer = 1.0 if judgement.accepted else max(recognizer, 0.8)
    return answer(chosen, result, chosen.confidence * recognizer)


def decide_readings(judgement: Judgement, grammar: IntentMatch | None,
                    free: IntentMatch | None, *, key: Callable[[IntentMatch], Hashable],
                    prior: Callable[[IntentMatch], int] | None, tuning: SearchTuning,
                    route: Route = Route.BOTH,
                    accepted: bool | None = None) -> Decision[IntentMatch]:
    """The matcher's readings of a searched utterance's grammar sentence and free
    transcript (None when it read nothing, or the route leaves one out) decided together
    (:func:`~voice_host.speech.decision.decide_judgement`), after the reading that a
    likelier one outranks is dropped as no rival (:func:`_unlikelier`; it stays in the
    Understood: a clue confirmed against it is still not said plainly). ``accepted``: the
    grammar sentence passed the margin test (the judgement's own verdict when None). The
    benchmark decides saved readings again with it, with other thresholds."""
    if accepted is None:
        accepted = judgement.accepted
    drop = _unlikelier(judgement, grammar, free, prior, key, tuning, accepted)
    return decide_judgement(judgement, None if drop is grammar else grammar,
                            None if drop is free else free, key=key,
                            match_confidence=lambda m: m.confidence, tuning=tuning,
                            accepted=accepted, buried=route is Route.BOTH and drop is None)


def why_unread(grammar: IntentMatch | None, free: IntentMatch | None, accepted: bool) -> str:
    """Why the two readings of a searched utterance (as :func:`decide_readings` got them)
    gave nothing to act on: "rejected_by_recognizer" (neither is a command, and the grammar
    sentence failed the margin test), "no_match" (neither is a command), else
    "not_confident" (a command, not believed)."""
    if grammar is None and free is None:
        return "no_match" if accepted else "rejected_by_recognizer"
    return "not_confident"


def _unlikelier(judgement: Judgement, grammar: IntentMatch | None, free: IntentMatch | None,
                prior: Callable[[IntentMatch], int] | None,
                key: Callable[[IntentMatch], Hashable],
                tuning: SearchTuning, accepted: bool) -> IntentMatch | None:
    """Of two readings of an utterance that differ only in the words of an open slot (the
    same intent, the same numbers: "love one" and "lobe one", "house for two" and "as for
    two"), the one ``prior`` ranks below the other, when that other is confident on its
    own route (the grammar sentence accepted, the free transcript confident): Whisper's
    free spelling of a likely clue word as a rarer word ("lobe", "housed") or as no word
    at all ("putball"). The players were asked which ("Did you mean love one, or lobe
    one?"), or the grammar sentence was refused beside the unsure rival, though a
    spymaster who meant the rarer word would have said it again. None when neither is
    dropped."""
    if prior is None or grammar is None or free is None or key(grammar) == key(free):
        return None
    if grammar.intent != free.intent or grammar.slots.keys() != free.slots.keys():
        return None
    if any(grammar.slots[k] != free.slots[k] and not (
            isinstance(grammar.slots[k], str) and isinstance(free.slots[k], str))
           for k in grammar.slots):
        return None  # they differ in more than words (a number)
    ranked_grammar, ranked_free = prior(grammar), prior(free)
    if ranked_grammar > ranked_free and accepted:
        return free
    if ranked_free > ranked_grammar and judgement.free_confident(free.confidence, tuning):
        return grammar
    return None


def _grammar_match(judgement: Judgement, matcher: Matcher, *,
                   speaker: str | None) -> MatchResult:
    """The matcher's strict reading of the grammar sentence. When the decoder looped, the
    search may have followed the loop through the grammar ("certainly myself certainly
    myself", one vote said twice, read as two groups): the sentence with the loop cut, as
    the free transcript is cut, is read first, and kept when it is a command."""
    assert judgement.reading is not None
    text = judgement.reading.text
    if judgement.looped:
        once = without_loops(text)
        if once != text:
            result = matcher.match(once, speaker=speaker, closed=True)
            if result.best is not None:
                return result
    return matcher.match(text, speaker=speaker, closed=True)


def decoder_prompt(phase: PhaseGrammar) -> str:
    """The words that can be said now, as a recognizer's previous-text prompt: a couple of
    the phase's own example sentences, then the player names as the game spells them, then
    the values of the game's lists the phase names, icons or board words (the last words
    matter most: a long prompt keeps its end). Sentences, not a bare word list: a bare list
    made Whisper loop."""
    own = {e.name for e in phase.entries if e.phases != ("*",)}
    parts = [p[:1].upper() + p[1:] + "." for intent, phrases in phase.help_phrases(2).items()
             if intent in own for p in phrases]
    values = phase.slot_values
    lists = phase.used_lists
    if values.players and lists & {PLAYER_LIST, NAMED_PLAYER_LIST}:
        parts.append(", ".join(values.players) + ".")
    for slot_list in values.lists:  # the game's own lists: icons, board words ...
        if slot_list.name in lists:
            parts.append(", ".join(v.spoken[0] if v.spoken else v.value
                                   for v in slot_list.values) + ".")
    return " ".join(parts)


def _with_heard_alternatives(result: MatchResult, heard: Heard, matcher: Matcher, *,
                             speaker: str | None) -> MatchResult:
    """When the recognizer heard another sentence almost as well and it means something
    else, the reading is ambiguous: the host asks which one was meant."""
    best = result.best
    if best is None or result.ambiguous:
        return result
    for text in heard.alternatives:
        other = matcher.match(text, speaker=speaker, closed=heard.closed_grammar).best
        if other is None:
            continue
        if (other.intent, dict(other.slots)) != (best.intent, dict(best.slots)):
            return replace(result, alternatives=(best, other), ambiguous=True)
    return result
