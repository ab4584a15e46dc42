"""The intent layer's small error hierarchy. "No match" is never an error: it is ``None``."""

from __future__ import annotations


class IntentError(Exception):
    """Base of intent-layer errors. ``str(error)`` is a sentence a person can read."""


class TemplateError(IntentError):
    """A sentence template in a grammar file cannot be parsed."""


class GrammarError(IntentError):
    """A grammar file is missing or inconsistent, or an unknown game or phase was asked for."""
