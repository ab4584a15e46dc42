"""From what was heard to what was meant: one function used by the session loop, by
``voice-host understand`` and by the recognition benchmark, so the benchmark measures the
exact path the host plays with."""

from __future__ import annotations

from dataclasses import dataclass, replace

from voice_host.host.core.values import Heard, HeardKind
from voice_host.intent import IntentMatch, Matcher, MatchResult


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


def understand(heard: Heard, matcher: Matcher, *, speaker: str | None) -> Understood:
    """Match a Heard against the phase's grammar. A transcript the recognizer itself
    rejected (its escape path won) is never matched; a transcript decoded with the phase's
    closed sentence grammar is matched strictly (only exact readings), since anything else
    means the decoder lost its way."""
    if heard.kind is not HeardKind.SPEECH:
        return Understood(None, None, 0.0, why_not=heard.kind.value)
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
