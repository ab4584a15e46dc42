"""Expand parsed templates (second step of parse -> expand -> match).

One template tree expands into:

* *exact skeletons*: every token sequence the template allows, slots left as placeholders
  (the matcher's fast dictionary lookup);
* *fuzzy skeletons*: the same with optional words kept and flagged (the matcher's weighted
  alignment, where leaving out an optional word is free);
* a JSGF expression (the recognizer's grammar);
* random sentences (generated test cases and help phrases).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from voice_host.intent.errors import TemplateError
from voice_host.intent.normalize import is_jsgf_token
from voice_host.intent.template import Alt, Node, RuleRef, Slot, Word

MAX_EXPANSIONS = 20_000
"""A template expanding into more sequences than this is a grammar mistake."""

WILDCARD_LIST = "word"
"""The open-vocabulary list: any single word heard (the Codenames clue)."""


@dataclass(frozen=True)
class Tok:
    """One position of a skeleton."""

    kind: str
    """``"lit"`` (a word), ``"slot"`` (a value from a list) or ``"wild"`` (any word)."""
    text: str
    """The word for ``lit``; the list name for ``slot`` and ``wild``."""
    slot: str = ""
    """Slot name (``slot`` and ``wild`` only)."""
    repeat: bool = False
    """A run of values is allowed here."""
    optional: bool = False
    """May be left out at no cost (fuzzy skeletons only)."""

    @property
    def key(self) -> str:
        """What the position must match: the word, ``{list}`` or ``{*}``."""
        if self.kind == "lit":
            return self.text
        if self.kind == "wild":
            return "{*}"
        return "{" + self.text + "}"


Skeleton = tuple[Tok, ...]


def _resolve(name: str, rules: Mapping[str, Node], depth: int) -> Node:
    if depth > 20:
        raise TemplateError(f"The rule <{name}> refers to itself.")
    try:
        return rules[name]
    except KeyError:
        raise TemplateError(f"The rule <{name}> is not defined.") from None


def expand(node: Node, rules: Mapping[str, Node], *, keep_optional: bool,
           spellings: bool = True, _depth: int = 0,
           _optional: bool = False) -> list[Skeleton]:
    """All skeletons of ``node``. With ``keep_optional`` optional parts are flagged, not
    expanded into with/without variants; without ``spellings`` a word said like others
    (an ``alike`` :class:`Alt`) is written only as the template wrote it."""
    if isinstance(node, Word):
        return [(Tok("lit", node.text, optional=_optional),)]
    if isinstance(node, Slot):
        kind = "wild" if node.list_name == WILDCARD_LIST else "slot"
        return [(Tok(kind, node.list_name, node.slot_name, node.repeat, _optional),)]
    if isinstance(node, RuleRef):
        return expand(_resolve(node.name, rules, _depth), rules, keep_optional=keep_optional,
                      spellings=spellings, _depth=_depth + 1, _optional=_optional)
    if isinstance(node, Alt):
        out: list[Skeleton] = []
        if node.optional and not keep_optional:
            out.append(())
        flag = _optional or (node.optional and keep_optional)
        options = node.options[:1] if node.alike and not spellings else node.options
        for option in options:
            out.extend(expand(option, rules, keep_optional=keep_optional, spellings=spellings,
                              _depth=_depth, _optional=flag))
        return _dedupe(out)
    results: list[Skeleton] = [()]
    for item in node.items:
        parts = expand(item, rules, keep_optional=keep_optional, spellings=spellings,
                       _depth=_depth, _optional=_optional)
        results = [left + right for left in results for right in parts]
        if len(results) > MAX_EXPANSIONS:
            raise TemplateError("A template expands into too many sentences.")
    return _dedupe(results)


def _dedupe(items: list[Skeleton]) -> list[Skeleton]:
    return list(dict.fromkeys(items))


def _leaves(node: Node, rules: Mapping[str, Node], depth: int = 0) -> Iterator[Word | Slot]:
    """Every word and slot of the template, rules followed."""
    if isinstance(node, Word | Slot):
        yield node
    elif isinstance(node, RuleRef):
        yield from _leaves(_resolve(node.name, rules, depth), rules, depth + 1)
    else:
        for child in node.options if isinstance(node, Alt) else node.items:
            yield from _leaves(child, rules, depth)


def iter_words(node: Node, rules: Mapping[str, Node]) -> Iterator[str]:
    """Every literal word the template can produce."""
    return (leaf.text for leaf in _leaves(node, rules) if isinstance(leaf, Word))


def iter_slots(node: Node, rules: Mapping[str, Node]) -> Iterator[Slot]:
    """Every slot the template can fill."""
    return (leaf for leaf in _leaves(node, rules) if isinstance(leaf, Slot))


SlotJsgf = Callable[[Slot], str | None]


def to_jsgf(node: Node, rules: Mapping[str, Node], slot_rule: SlotJsgf,
            _depth: int = 0) -> str | None:
    """A JSGF expression for ``node``; ``None`` when nothing speakable remains (e.g. digits
    only). ``slot_rule`` gives the expression for a slot (``None`` if it has no values)."""
    if isinstance(node, Word):
        return node.text if is_jsgf_token(node.text) else None
    if isinstance(node, Slot):
        return slot_rule(node)
    if isinstance(node, RuleRef):
        return to_jsgf(_resolve(node.name, rules, _depth), rules, slot_rule, _depth + 1)
    if isinstance(node, Alt):
        options = [to_jsgf(option, rules, slot_rule, _depth) for option in node.options]
        kept = list(dict.fromkeys(o for o in options if o))
        if not kept:
            return None
        body = " | ".join(kept)
        return f"[ {body} ]" if node.optional else f"( {body} )"
    parts: list[str] = []
    for item in node.items:
        text = to_jsgf(item, rules, slot_rule, _depth)
        if text is None:
            if isinstance(item, Alt) and item.optional:
                continue
            return None
        parts.append(text)
    return " ".join(parts) if parts else None


SlotSampler = Callable[[Slot, random.Random], tuple[tuple[str, ...], object] | None]


def sample(node: Node, rules: Mapping[str, Node], rng: random.Random, slot_sampler: SlotSampler,
           filled: list[tuple[Slot, object]], _depth: int = 0) -> list[str] | None:
    """One random sentence of ``node`` as words; slot values picked are appended to
    ``filled``. ``None`` when a slot has no values."""
    if isinstance(node, Word):
        return [node.text]
    if isinstance(node, Slot):
        got = slot_sampler(node, rng)
        if got is None:
            return None
        slot_words, value = got
        filled.append((node, value))
        return list(slot_words)
    if isinstance(node, RuleRef):
        return sample(_resolve(node.name, rules, _depth), rules, rng, slot_sampler, filled,
                      _depth + 1)
    if isinstance(node, Alt):
        if node.alike:  # one word said: the template's spelling (and no random draw)
            return sample(node.options[0], rules, rng, slot_sampler, filled, _depth)
        if node.optional and rng.random() < 0.5:
            return []
        options = list(node.options)
        rng.shuffle(options)
        for option in options:
            mark = len(filled)
            got_words = sample(option, rng=rng, rules=rules, slot_sampler=slot_sampler,
                               filled=filled, _depth=_depth)
            if got_words is not None:
                return got_words
            del filled[mark:]
        return [] if node.optional else None
    words: list[str] = []
    for item in node.items:
        got_words = sample(item, rules, rng, slot_sampler, filled, _depth)
        if got_words is None:
            return None
        words.extend(got_words)
    return words
