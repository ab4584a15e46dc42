"""Grammars -> recognizer vocabulary and an intent matcher. Knows no game rules."""

from __future__ import annotations

from voice_host.intent.errors import GrammarError, IntentError, TemplateError
from voice_host.intent.grammar import (
    GameGrammar,
    IconEntry,
    PhaseGrammar,
    SampleUtterance,
    SlotValues,
    load_grammar,
)
from voice_host.intent.matcher import IntentMatch, Matcher, MatchResult

__all__ = [
    "GameGrammar",
    "GrammarError",
    "IconEntry",
    "IntentError",
    "IntentMatch",
    "MatchResult",
    "Matcher",
    "PhaseGrammar",
    "SampleUtterance",
    "SlotValues",
    "TemplateError",
    "load_grammar",
]
