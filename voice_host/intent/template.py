"""Parse sentence templates (first step of parse -> expand -> match).

Syntax, close to hassil's:

* ``(a|b c)`` alternatives; ``[a|b]`` optional (zero or one of the alternatives);
* ``{list}`` or ``{list:slot}`` a slot filled from a value list (slot name defaults to the
  list name); ``{list:slot}+`` a run of one or more values ("heart and book");
* ``<rule>`` a named rule from the grammar file's ``[rules]`` table;
* anything else is words; they are normalized like speech (lowercase, accents stripped).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from voice_host.intent.errors import TemplateError
from voice_host.intent.normalize import tokenize


@dataclass(frozen=True)
class Word:
    """One literal token."""

    text: str
    """The normalized token."""


@dataclass(frozen=True)
class Slot:
    """A slot filled from a value list."""

    list_name: str
    """Which list supplies the values (``player``, ``icon``, ``number``, ``word``...)."""
    slot_name: str
    """The slot the value is stored under in the match."""
    repeat: bool = False
    """True for ``{list:slot}+``: one or more values joined by "and", commas..."""


@dataclass(frozen=True)
class RuleRef:
    """A reference to a named rule."""

    name: str
    """The rule's name in the grammar's ``[rules]`` table."""


@dataclass(frozen=True)
class Seq:
    """Items in order."""

    items: tuple[Node, ...]
    """The parts, each matched after the previous one."""


@dataclass(frozen=True)
class Alt:
    """One of several options."""

    options: tuple[Node, ...]
    """The alternatives."""
    optional: bool = False
    """True for ``[...]``: the whole group may be left out."""
    alike: bool = False
    """The ways of writing one word said alike (:func:`spelled_alike`), the word as the
    template wrote it first: a sentence generated from the template says that one."""


Node = Word | Slot | RuleRef | Seq | Alt

_TOKEN = re.compile(r"\s*(\(|\)|\[|\]|\||\{[^{}]*\}\+?|<[^<>]*>|[^()\[\]|{}<>\s]+)")
_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")


def parse_template(text: str, alike: Mapping[str, tuple[str, ...]] | None = None) -> Node:
    """Parse one template into a tree; raise :class:`TemplateError` on bad syntax. With
    ``alike``, each word said like others is the choice of them (:func:`spelled_alike`)."""
    pieces: list[str] = []
    pos = 0
    stripped = text.rstrip()
    while pos < len(stripped):
        match = _TOKEN.match(stripped, pos)
        if not match:
            raise TemplateError(f"Cannot read the template {text!r} at {stripped[pos:]!r}.")
        pieces.append(match.group(1))
        pos = match.end()
    parser = _Parser(pieces, text)
    node = parser.alternatives(closing=None)
    if parser.index != len(pieces):
        raise TemplateError(f"Unbalanced brackets in the template {text!r}.")
    return spelled_alike(node, alike) if alike else node


def spelled_alike(node: Node, alike: Mapping[str, tuple[str, ...]]) -> Node:
    """``node`` with each word that is said like others but written apart (``alike``: word
    -> its group, itself first, e.g. "whose" -> ("whose", "who's")) as the choice of them
    (an ``alike`` :class:`Alt`): a recognizer writes either ("who's turn is it now"), and
    so does a typist."""
    if not alike:
        return node
    if isinstance(node, Word):
        forms = alike.get(node.text)
        return Alt(tuple(Word(w) for w in forms), alike=True) if forms else node
    if isinstance(node, Seq):
        return Seq(tuple(spelled_alike(item, alike) for item in node.items))
    if isinstance(node, Alt):
        return Alt(tuple(spelled_alike(option, alike) for option in node.options),
                   node.optional, node.alike)
    return node


class _Parser:
    def __init__(self, pieces: list[str], source: str) -> None:
        self.pieces = pieces
        self.index = 0
        self.source = source

    def alternatives(self, closing: str | None) -> Node:
        options: list[Node] = [self.sequence()]
        while self.index < len(self.pieces) and self.pieces[self.index] == "|":
            self.index += 1
            options.append(self.sequence())
        if closing is not None:
            if self.index >= len(self.pieces) or self.pieces[self.index] != closing:
                raise TemplateError(f"Missing {closing!r} in the template {self.source!r}.")
            self.index += 1
        if len(options) == 1 and closing != "]":
            return options[0]
        return Alt(tuple(options), optional=closing == "]")

    def sequence(self) -> Node:
        items: list[Node] = []
        while self.index < len(self.pieces):
            piece = self.pieces[self.index]
            if piece in ("|", ")", "]"):
                break
            self.index += 1
            if piece == "(":
                items.append(self.alternatives(closing=")"))
            elif piece == "[":
                items.append(self.alternatives(closing="]"))
            elif piece.startswith("{"):
                items.append(self.slot(piece))
            elif piece.startswith("<"):
                name = piece[1:-1].strip()
                if not _NAME.match(name):
                    raise TemplateError(f"Bad rule name {name!r} in {self.source!r}.")
                items.append(RuleRef(name))
            else:
                items.extend(Word(token) for token in tokenize(piece))
        if len(items) == 1:
            return items[0]
        return Seq(tuple(items))

    def slot(self, piece: str) -> Slot:
        repeat = piece.endswith("+")
        body = piece[1:-2] if repeat else piece[1:-1]
        list_name, _, slot_name = body.strip().partition(":")
        list_name = list_name.strip()
        slot_name = slot_name.strip() or list_name
        if not _NAME.match(list_name) or not _NAME.match(slot_name):
            raise TemplateError(f"Bad slot {piece!r} in the template {self.source!r}.")
        return Slot(list_name, slot_name, repeat)
