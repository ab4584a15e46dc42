"""Grammars -> recognizer vocabulary and an intent matcher. Knows no game rules."""

from __future__ import annotations

from voice_host.intent.errors import GrammarError, IntentError, TemplateError
from voice_host.intent.grammar import (
    GameGrammar,
    PhaseGrammar,
    SampleUtterance,
    SlotList,
    SlotValue,
    SlotValues,
    as_spoken,
    language_articles,
    load_grammar,
)
from voice_host.intent.matcher import IntentMatch, Matcher, MatchResult

__all__ = [
    "GameGrammar",
    "GrammarError",
    "IntentError",
    "IntentMatch",
    "MatchResult",
    "Matcher",
    "PhaseGrammar",
    "SampleUtterance",
    "SlotList",
    "SlotValue",
    "SlotValues",
    "TemplateError",
    "as_spoken",
    "language_articles",
    "load_grammar",
]
