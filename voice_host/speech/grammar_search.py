"""A phase's JSGF grammar as a constraint on a subword decoder's next token.

The recognizers get each phase's sentences as a JSGF document (the same one PocketSphinx
compiles).  A neural decoder such as Whisper writes text in subword tokens with capitals,
accents, digits and punctuation (" I", " vote", " yes", "."), so the grammar is compiled here
into something that answers, after any sequence of tokens, *which next tokens keep the text
inside the grammar, and may the text end here?*

1. :func:`parse_jsgf` reads the document into rule expressions.
2. :class:`WordGraph` turns the public rule into a word-level automaton (Thompson
   construction, determinised lazily: a state is a set of automaton nodes).
3. :class:`TokenConstraint` walks text character by character over that automaton.  Text is
   folded as the matcher folds it (lowercase, accents stripped, apostrophes unified); spaces,
   punctuation and hyphens separate words; a word may also be written in any of the extra
   spellings the caller gives (``"two"`` as ``"2"``); a French elision (``l'``) may run into
   the next word as Whisper writes it (``l'éléphant``).  An open slot (the rule
   :data:`~voice_host.speech.types.ANY_WORD_RULE`) takes any one word of letters.
4. The allowed next tokens are found by walking a character trie of the decoder's whole
   vocabulary together with the grammar positions, so only tokens consistent with some
   sentence are visited; results are cached per set of positions, and below each first
   character per set of positions after it.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from voice_host.speech.types import ANY_WORD_RULE
from voice_host.text import ELISIONS, WORD_CHARS, fold_marked

ANY_WORD = "\x00any"
"""The automaton's label for an open slot's word."""

_SEPARATOR = " "
_INVALID = "\x01"


class JsgfError(ValueError):
    """The JSGF document cannot be read."""


# --------------------------------------------------------------------------- parsing

@dataclass(frozen=True)
class _Word:
    text: str


@dataclass(frozen=True)
class _Ref:
    name: str


@dataclass(frozen=True)
class _Seq:
    items: tuple[_Expr, ...]


@dataclass(frozen=True)
class _Alt:
    options: tuple[_Expr, ...]


@dataclass(frozen=True)
class _Repeat:
    item: _Expr
    minimum: int  # 0 for '*', 1 for '+', 0 with at_most 1 for '[...]'
    at_most_one: bool = False


_Expr = _Word | _Ref | _Seq | _Alt | _Repeat

_TOKENS = re.compile(r"\s*(<[^<>]+>|/[^/]*/|\{[^{}]*\}|[()\[\]|*+]|[^\s()\[\]|*+<>/{};=]+)")
_RULE = re.compile(r"^\s*(public\s+)?<([^<>]+)>\s*=\s*(.*)$", re.DOTALL)


def parse_jsgf(document: str) -> tuple[dict[str, _Expr], list[str]]:
    """Rules by name, and the names of the public rules (in order)."""
    text = re.sub(r"/\*.*?\*/", " ", document, flags=re.DOTALL)
    text = re.sub(r"//[^\n]*", " ", text)
    rules: dict[str, _Expr] = {}
    public: list[str] = []
    for statement in text.split(";"):
        stripped = statement.strip()
        if not stripped or stripped.startswith(("#", "grammar ", "import ")):
            continue
        match = _RULE.match(stripped)
        if not match:
            raise JsgfError(f"Cannot read the grammar statement {stripped[:60]!r}.")
        name, body = match.group(2).strip(), match.group(3)
        rules[name] = _Parser(body).parse()
        if match.group(1):
            public.append(name)
    if not public:
        raise JsgfError("The grammar has no public rule.")
    return rules, public


class _Parser:
    def __init__(self, body: str) -> None:
        self.pieces: list[str] = []
        pos = 0
        body = body.strip()
        while pos < len(body):
            match = _TOKENS.match(body, pos)
            if not match:
                raise JsgfError(f"Cannot read the grammar at {body[pos:pos + 40]!r}.")
            piece = match.group(1)
            pos = match.end()
            if piece.startswith(("/", "{")):
                continue  # weights and tags do not change what can be said
            self.pieces.append(piece)
        self.index = 0

    def parse(self) -> _Expr:
        expr = self.alternatives()
        if self.index != len(self.pieces):
            raise JsgfError("Unbalanced brackets in the grammar.")
        return expr

    def alternatives(self) -> _Expr:
        options = [self.sequence()]
        while self.peek() == "|":
            self.index += 1
            options.append(self.sequence())
        return options[0] if len(options) == 1 else _Alt(tuple(options))

    def sequence(self) -> _Expr:
        items: list[_Expr] = []
        while self.peek() not in (None, "|", ")", "]"):
            items.append(self.item())
        return items[0] if len(items) == 1 else _Seq(tuple(items))

    def item(self) -> _Expr:
        piece = self.pieces[self.index]
        self.index += 1
        expr: _Expr
        if piece == "(":
            expr = self.alternatives()
            self.expect(")")
        elif piece == "[":
            expr = _Repeat(self.alternatives(), 0, at_most_one=True)
            self.expect("]")
        elif piece.startswith("<"):
            expr = _Ref(piece[1:-1].strip())
        elif piece in ("*", "+"):
            raise JsgfError("A repeat mark must follow something.")
        else:
            expr = _Word(piece.lower())
        while self.peek() in ("*", "+"):
            expr = _Repeat(expr, 0 if self.pieces[self.index] == "*" else 1)
            self.index += 1
        return expr

    def peek(self) -> str | None:
        return self.pieces[self.index] if self.index < len(self.pieces) else None

    def expect(self, closing: str) -> None:
        if self.peek() != closing:
            raise JsgfError(f"Missing {closing!r} in the grammar.")
        self.index += 1


# --------------------------------------------------------------------------- word automaton

State = frozenset[int]


class WordGraph:
    """The word-level automaton of a JSGF document's public rules."""

    def __init__(self, document: str) -> None:
        rules, public = parse_jsgf(document)
        self._rules = rules
        self._eps: list[list[int]] = []
        self._arcs: list[list[tuple[str, int]]] = []
        start = self._node()
        self.accept = self._node()
        for name in public:
            self._build(_Ref(name), start, self.accept, depth=0)
        self.start: State = self._closure({start})
        self._next: dict[State, dict[str, State]] = {}
        self._most_letters: int | None = -1  # -1: not yet known

    def _node(self) -> int:
        self._eps.append([])
        self._arcs.append([])
        return len(self._eps) - 1

    def _build(self, expr: _Expr, a: int, b: int, *, depth: int) -> None:
        if depth > 50:
            raise JsgfError("The grammar refers to itself too deeply.")
        if isinstance(expr, _Word):
            self._arcs[a].append((expr.text, b))
        elif isinstance(expr, _Ref):
            if expr.name == ANY_WORD_RULE:
                self._arcs[a].append((ANY_WORD, b))
            elif expr.name in ("NULL",):
                self._eps[a].append(b)
            elif expr.name == "VOID":
                return
            else:
                body = self._rules.get(expr.name)
                if body is None:
                    raise JsgfError(f"The grammar uses the undefined rule <{expr.name}>.")
                self._build(body, a, b, depth=depth + 1)
        elif isinstance(expr, _Seq):
            here = a
            for index, item in enumerate(expr.items):
                there = b if index == len(expr.items) - 1 else self._node()
                self._build(item, here, there, depth=depth)
                here = there
        elif isinstance(expr, _Alt):
            for option in expr.options:
                self._build(option, a, b, depth=depth)
        elif isinstance(expr, _Repeat):
            inner_a, inner_b = self._node(), self._node()
            self._eps[a].append(inner_a)
            self._build(expr.item, inner_a, inner_b, depth=depth)
            self._eps[inner_b].append(b)
            if expr.minimum == 0:
                self._eps[a].append(b)
            if not expr.at_most_one:
                self._eps[inner_b].append(inner_a)

    def _closure(self, nodes: Iterable[int]) -> State:
        seen = set(nodes)
        stack = list(seen)
        while stack:
            for target in self._eps[stack.pop()]:
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
        return frozenset(seen)

    def next_words(self, state: State) -> dict[str, State]:
        """Word -> the state after it, for every word that may follow ``state``."""
        cached = self._next.get(state)
        if cached is None:
            targets: dict[str, set[int]] = {}
            for node in state:
                for word, target in self._arcs[node]:
                    targets.setdefault(word, set()).add(target)
            cached = {word: self._closure(t) for word, t in targets.items()}
            self._next[state] = cached
        return cached

    def is_final(self, state: State) -> bool:
        """True when a sentence may end in ``state``."""
        return self.accept in state

    def most_letters(self) -> int | None:
        """An upper bound on the letters (:func:`letters`) of a sentence, open-slot words not
        counted (None: a repeat makes sentences of any length; kept)."""
        if self._most_letters == -1:
            found = self.longest(lambda w: (1, 0 if w == ANY_WORD else len(letters(w))))
            self._most_letters = None if found is None else found[1]
        return self._most_letters

    def has_open_slot(self) -> bool:
        """True when some sentence takes any word (an open slot)."""
        return any(word == ANY_WORD for arcs in self._arcs for word, _ in arcs)

    def words(self) -> frozenset[str]:
        """Every literal word of the automaton."""
        return frozenset(w for arcs in self._arcs for w, _ in arcs if w != ANY_WORD)

    def longest(self, size: Callable[[str], tuple[int, int]]) -> tuple[int, int] | None:
        """An upper bound on the sentences' length: the most words of any sentence, and the
        most characters, each maximized on its own. ``size`` gives each word's (words,
        characters) as written (:data:`ANY_WORD` included); one space goes between words.
        None when a repeat makes sentences of any length."""
        memo: dict[int, tuple[int, int] | None] = {}
        visiting: set[int] = set()
        unbounded = False

        def best(node: int) -> tuple[int, int] | None:
            # (words, characters) of the longest path to the accepting node; None: no path
            nonlocal unbounded
            if node in memo:
                return memo[node]
            if node in visiting:
                unbounded = True
                return None
            visiting.add(node)
            words = chars = -1
            if node == self.accept:
                words = chars = 0
            steps = [((0, 0), t) for t in self._eps[node]]
            steps += [(size(w), t) for w, t in self._arcs[node]]
            for (add_words, add_chars), target in steps:
                got = best(target)
                if got is not None:
                    space = 1 if add_words and got[0] else 0
                    words = max(words, got[0] + add_words)
                    chars = max(chars, got[1] + add_chars + space)
            visiting.discard(node)
            memo[node] = None if words < 0 else (words, chars)
            return memo[node]

        found = [got for node in self.start if (got := best(node)) is not None]
        if unbounded or not found:
            return None
        return max(w for w, _ in found), max(c for _, c in found)


_PUBLIC = re.compile(r"public\s+<([^<>]+)>\s*=\s*([^;]*);")
LEAD_RULE = "vh_lead"
"""The rule :func:`with_lead_words` adds for the words that may open a sentence."""


def with_lead_words(document: str, lead_words: Sequence[str]) -> str:
    """``document`` (JSGF) whose public rule may start with one or two of ``lead_words``
    (phrases of space-separated words: "euh", "bon", "d' accord"), the words people open a
    command with that say nothing. Whisper writes them ("Bon, alors, la cloche."); without
    them in the grammar, the search forces the command's first words onto their sound and
    the sentence loses its margin. ``document`` unchanged when no word is given."""
    phrases = [" ".join(p.split()) for p in lead_words if p.split()]
    match = _PUBLIC.search(document)
    if not phrases or match is None:
        return document
    lead = f"<{LEAD_RULE}>"
    body = f"public <{match.group(1)}> = [ {lead} [ {lead} ] ] ( {match.group(2).strip()} );"
    rule = f"\n{lead} = " + " | ".join(f"( {p} )" for p in dict.fromkeys(phrases)) + ";\n"
    return document[:match.start()] + body + document[match.end():].rstrip("\n") + rule


# --------------------------------------------------------------------------- characters

def fold_text(text: str) -> str:
    """Fold decoder text the way the grammar's words are written: lowercase, accents and
    ligatures stripped, separators as spaces, any other character as an invalid mark
    (:func:`voice_host.text.fold_marked`, the folding every layer shares)."""
    return fold_marked(text, _INVALID)


class _Trie:
    __slots__ = ("children", "words")

    def __init__(self) -> None:
        self.children: dict[str, _Trie] = {}
        self.words: list[str] = []


Position = tuple[State, "_Trie | None", bool]
"""(word-automaton state, node of the current word in that state's word trie or None at a
word boundary, inside an open-slot word)."""

Positions = frozenset[Position]


@dataclass
class TokenConstraint:
    """Which decoder tokens may come next inside a phase's grammar (see the module doc)."""

    graph: WordGraph
    spellings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Extra written forms of a grammar word, folded (``"two": ("2",)``)."""

    def __post_init__(self) -> None:
        self._tries: dict[State, _Trie] = {}
        self._steps: dict[tuple[Position, str], Positions] = {}
        self._after: dict[tuple[Positions, str], Positions] = {}
        self._subtrees: dict[tuple[str, Positions], list[_Chunk]] = {}
        self._arrays: dict[Positions, AllowedTokens] = {}
        self._ends: dict[Positions, bool] = {}
        self._longest: dict[int, tuple[int, int] | None] = {}
        self._word_sizes: dict[str, tuple[int, int]] = {}
        self.start: Positions = frozenset({(self.graph.start, None, False)})

    def longest(self, slot: int) -> tuple[int, int] | None:
        """The most words and the most characters a sentence of the grammar can be written
        in (the spellings included), an open-slot word counted as one word of ``slot``
        characters (:meth:`WordGraph.longest`); None when unbounded."""
        if slot not in self._longest:
            sizes = self._word_sizes

            def size(word: str) -> tuple[int, int]:
                if word == ANY_WORD:
                    return 1, slot
                got = sizes.get(word)
                if got is None:
                    forms = (word, *self.spellings.get(word, ()))
                    got = sizes[word] = (max(len(f.split()) for f in forms),
                                         max(max(len(f), len(fold_text(f))) for f in forms))
                return got

            self._longest[slot] = self.graph.longest(size)
        return self._longest[slot]

    def _trie(self, state: State) -> _Trie:
        trie = self._tries.get(state)
        if trie is None:
            trie = _Trie()
            for word in self.graph.next_words(state):
                if word == ANY_WORD:
                    continue
                for form in (word, *self.spellings.get(word, ())):
                    node = trie
                    for char in form:
                        node = node.children.setdefault(char, _Trie())
                    node.words.append(word)
            self._tries[state] = trie
        return trie

    def _after_word(self, state: State, word: str) -> State | None:
        return self.graph.next_words(state).get(word)

    def step(self, position: Position, char: str) -> Positions:
        """Positions after one folded character."""
        key = (position, char)
        cached = self._steps.get(key)
        if cached is not None:
            return cached
        state, node, wild = position
        out: set[Position] = set()
        if char == _SEPARATOR:
            if node is None and not wild:
                out.add(position)
            else:
                for after in self._word_ends(position):
                    out.add((after, None, False))
        elif char in WORD_CHARS:
            if node is None and not wild:
                child = self._trie(state).children.get(char)
                if child is not None:
                    out.add((state, child, False))
                if char.isalpha() and ANY_WORD in self.graph.next_words(state):
                    out.add((state, None, True))
            elif wild:
                if char.isalpha() or char == "'":
                    out.add(position)
            else:
                assert node is not None
                child = node.children.get(char)
                if child is not None:
                    out.add((state, child, False))
                # an elision written together with its word: "l'elephant"
                for word in node.words:
                    if word.endswith("'") and word in ELISIONS:
                        elided = self._after_word(state, word)
                        if elided is not None:
                            out.update(self.step((elided, None, False), char))
        result = frozenset(out)
        self._steps[key] = result
        return result

    def _word_ends(self, position: Position) -> list[State]:
        state, node, wild = position
        if wild:
            after = self._after_word(state, ANY_WORD)
            return [after] if after is not None else []
        if node is None:
            return [state]
        ends = []
        for word in node.words:
            after = self._after_word(state, word)
            if after is not None:
                ends.append(after)
        return ends

    def advance(self, positions: Positions, text: str) -> Positions:
        """Positions after some folded text (empty when it leaves the grammar)."""
        for char in text:
            positions = self.after_char(positions, char)
            if not positions:
                break
        return positions

    def after_char(self, positions: Positions, char: str) -> Positions:
        """Positions after one folded character from any of these (empty: out of the
        grammar; cached, as a vocabulary walk asks the same again and again: a letter inside
        an open-slot word leads back to the same positions)."""
        key = (positions, char)
        cached = self._after.get(key)
        if cached is None:
            if len(positions) == 1:
                cached = self.step(next(iter(positions)), char)
            else:
                nxt: set[Position] = set()
                for position in positions:
                    nxt.update(self.step(position, char))
                cached = frozenset(nxt)
            if len(self._after) > 200_000:
                self._after.clear()
            self._after[key] = cached
        return cached

    def can_end(self, positions: Positions) -> bool:
        """True when the text so far is a whole sentence of the grammar."""
        cached = self._ends.get(positions)
        if cached is None:
            cached = any(self.graph.is_final(after) for position in positions
                         for after in self._word_ends(position))
            self._ends[positions] = cached
        return cached

    def allowed(self, positions: Positions, vocabulary: TokenTrie) -> dict[int, Positions]:
        """Token id -> positions after it, for every token that keeps the text in grammar
        (in the order of a depth-first walk of the vocabulary's trie, see :meth:`_walk`)."""
        arrays = self.allowed_arrays(positions, vocabulary)
        return {int(token): arrays.after[group]
                for token, group in zip(arrays.ids.tolist(), arrays.groups.tolist(), strict=True)}

    def _walk(self, positions: Positions, vocabulary: TokenTrie) -> list[_Chunk]:
        """The walk of :meth:`allowed_arrays`: the vocabulary's trie and the grammar
        positions together, as runs of tokens that lead to the same positions (in no
        particular order: :meth:`allowed_arrays` puts them in the trie's order,
        :attr:`TokenTrie.rank`). Below each first character, what the walk finds depends only
        on that character and the positions after it, so it is kept (:meth:`_below`): the
        same first character and positions come back from many positions (a space after any
        word that ends before an open slot leads to the slot's start; a letter inside an
        open-slot word leads back into it, whatever likely word was also being spelled)."""
        found: list[_Chunk] = []
        for char, child in vocabulary.root.children.items():
            after = self.after_char(positions, char)
            if not after:
                continue
            found.append((child.tokens, after))
            if child.children:
                found.extend(self._below(char, child, after, vocabulary))
        return found

    def _below(self, char: str, node: _VocabNode, positions: Positions,
               vocabulary: TokenTrie) -> list[_Chunk]:
        """Every token below the trie node of the first character ``char`` (its own tokens
        not included) that keeps the text in grammar from ``positions`` (the positions
        after that character), with the positions after it (cached). Inside an open-slot
        word and nothing else, every letter keeps the positions as they are, so a subtree's
        tokens spelled with letters alone are taken at once (:meth:`TokenTrie.wordish`):
        an open slot's subtrees are most of the vocabulary, a tenth of a second to walk
        letter by letter in Python."""
        key = (char, positions)
        cached = self._subtrees.get(key)
        if cached is not None:
            return cached
        found: list[_Chunk] = []
        stack: list[tuple[_VocabNode, Positions]] = [(node, positions)]
        while stack:
            vnode, here = stack.pop()
            if len(here) == 1 and next(iter(here))[2]:  # only inside an open-slot word
                tokens, exits = vocabulary.wordish(vnode)
                found.append((tokens, here))
                children: Iterable[tuple[str, _VocabNode]] = exits
            else:
                children = vnode.children.items()
            for letter, child in children:
                after = self.after_char(here, letter)
                if not after:
                    continue
                found.append((child.tokens, after))
                if child.children:
                    stack.append((child, after))
        if len(self._subtrees) > 2_000:
            self._subtrees.clear()
        self._subtrees[key] = found
        return found

    def allowed_arrays(self, positions: Positions, vocabulary: TokenTrie) -> AllowedTokens:
        """Every token that keeps the text in grammar, with the positions after it, as
        arrays for scoring them all at once (cached): in the order of a depth-first walk of
        the vocabulary's trie (:attr:`TokenTrie.rank`), the positions numbered in the order
        their first token comes."""
        import numpy as np

        cached = self._arrays.get(positions)
        if cached is None:
            chunks = [(tokens, after) for tokens, after in self._walk(positions, vocabulary)
                      if tokens]
            index: dict[Positions, int] = {}
            labels = [index.setdefault(after, len(index)) for _, after in chunks]
            ids = np.fromiter(itertools.chain.from_iterable(t for t, _ in chunks),
                              dtype=np.int64)
            raw = np.repeat(np.asarray(labels, dtype=np.int64), [len(t) for t, _ in chunks])
            order = np.argsort(vocabulary.rank[ids], kind="stable")
            ids, raw = ids[order], raw[order]
            # renumber the positions by their first token in that order
            distinct, first = np.unique(raw, return_index=True)
            by_first = distinct[np.argsort(first)]
            renumber = np.empty(len(index), dtype=np.int64)
            renumber[by_first] = np.arange(len(by_first))
            afters = tuple(index)
            cached = AllowedTokens(ids, renumber[raw], tuple(afters[g] for g in by_first))
            if len(self._arrays) > 20_000:
                self._arrays.clear()
            self._arrays[positions] = cached
        return cached


def phase_tokens(graph: WordGraph, spellings: Mapping[str, tuple[str, ...]],
                 token_texts: Mapping[int, str]) -> set[int] | None:
    """The tokens that can occur anywhere in the grammar's sentences (a superset: a token's
    word pieces must each fit some grammar word where they stand), or None when any token
    can (an open slot). A decoder restricted to these stays near the grammar."""
    if graph.has_open_slot():
        return None
    words = set(graph.words())
    for forms in spellings.values():
        words.update(forms)
    prefixes: set[str] = set()
    pieces: set[str] = set()
    for word in words:
        for end in range(1, len(word) + 1):
            prefixes.add(word[:end])
            for start in range(end):
                pieces.add(word[start:end])
    out: set[int] = set()
    for token, text in token_texts.items():
        folded = fold_text(text)
        if not folded or _INVALID in folded:
            continue
        parts = folded.split(_SEPARATOR)
        fits = True
        for index, part in enumerate(parts):
            if not part:
                continue
            first, last = index == 0, index == len(parts) - 1
            if first and last:
                fits = part in pieces
            elif first:
                fits = any(w.endswith(part) for w in words) if part not in words else True
            elif last:
                fits = part in prefixes
            else:
                fits = part in words
            if not fits:
                break
        if fits:
            out.add(token)
    return out


@dataclass(frozen=True)
class AllowedTokens:
    """The allowed next tokens as arrays, for scoring them all at once."""

    ids: Any
    """Token ids (numpy int64)."""
    groups: Any
    """Per token, the index of the positions it leads to (tokens written alike, such as
    " Yes" and " yes", share one)."""
    after: tuple[Positions, ...]
    """Positions per group."""


class _VocabNode:
    __slots__ = ("children", "tokens", "wordish")

    def __init__(self) -> None:
        self.children: dict[str, _VocabNode] = {}
        self.tokens: list[int] = []
        self.wordish: tuple[tuple[int, ...], tuple[tuple[str, _VocabNode], ...]] | None = None


_Chunk = tuple[Sequence[int], Positions]
"""Tokens that all lead to the same positions (a walk's result, in runs)."""


def _in_word(char: str) -> bool:
    """True for a folded character that keeps an open-slot word going (see
    :meth:`TokenConstraint.step`)."""
    return char in WORD_CHARS and (char.isalpha() or char == "'")


class TokenTrie:
    """A decoder's vocabulary as a trie of folded text (built once per model and language;
    ``ascii_only`` leaves out tokens with accented letters, which an English grammar never
    needs and which would otherwise stand for the same letters many times over)."""

    def __init__(self, token_texts: Mapping[int, str], *, ascii_only: bool = False) -> None:
        self.root = _VocabNode()
        self.size = 0
        for token, text in token_texts.items():
            if ascii_only and not text.isascii():
                continue
            folded = fold_text(text)
            if not folded or _INVALID in folded:
                continue
            node = self.root
            for char in folded:
                node = node.children.setdefault(char, _VocabNode())
            node.tokens.append(token)
            self.size += 1
        self._rank: Any = None

    @property
    def rank(self) -> Any:
        """Token id -> its place in a depth-first walk of the whole trie (a node's
        children's own tokens before their subtrees, the last child's subtree first), as a
        numpy array; -1 for a token not in the trie."""
        if self._rank is None:
            import numpy as np

            order: list[int] = []
            stack = [self.root]
            while stack:
                node = stack.pop()
                for child in node.children.values():
                    order.extend(child.tokens)
                    if child.children:
                        stack.append(child)
            rank = np.full(max(order, default=-1) + 1, -1, dtype=np.int64)
            rank[np.asarray(order, dtype=np.int64)] = np.arange(len(order))
            self._rank = rank
        return self._rank

    def wordish(self, node: _VocabNode) -> tuple[tuple[int, ...],
                                                tuple[tuple[str, _VocabNode], ...]]:
        """Below ``node`` (its own tokens not included): the tokens spelled from it with
        letters and apostrophes alone, and the first other characters met on the way, with
        the nodes they lead to (kept on the node)."""
        if node.wordish is None:
            tokens: list[int] = []
            exits: list[tuple[str, _VocabNode]] = []
            for char, child in node.children.items():
                if _in_word(char):
                    tokens.extend(child.tokens)
                    below, more = self.wordish(child)
                    tokens.extend(below)
                    exits.extend(more)
                else:
                    exits.append((char, child))
            node.wordish = (tuple(tokens), tuple(exits))
        return node.wordish


# --------------------------------------------------------------------------- nearest sentences

_SOUND_CLASSES = ("aeiouy", "bp", "dt", "fv", "gj", "mn", "ckqsxz", "lr", "w")
"""Letters a misheard word often trades for one another (vowels; voiced and unvoiced pairs;
the letters of k and s): trading within a class costs half."""
_CLASS_OF = {ch: index for index, letters in enumerate(_SOUND_CLASSES) for ch in letters}


@functools.cache
def _substitution(a: str, b: str) -> float:
    if a == b:
        return 0.0
    same = _CLASS_OF.get(a, -1) == _CLASS_OF.get(b, -2)
    return 0.5 if same else 1.0


def letters(text: str) -> str:
    """Folded letters and digits only: what a spoken sentence is aligned on (word breaks and
    apostrophes are where a decoder is least reliable: "jacksept" for "j'accepte")."""
    return "".join(c for c in fold_text(text) if c.isalnum())


def spelling_cost(text: str, other: str) -> float:
    """How far apart two texts are spelled, letter by letter: the weighted edit distance
    of :func:`nearest_sentences` (a letter of the same sound class half, any other edit
    one) divided by the longer of the two letter strings; 0 when they spell the same."""
    a, b = letters(text), letters(other)
    if not a or not b:
        return 0.0 if a == b else 1.0
    row = [float(j) for j in range(len(b) + 1)]
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], float(i)
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1.0, row[j - 1] + 1.0,
                                           previous + _substitution(x, y))
    return row[-1] / max(len(a), len(b))


def nearest_sentences(graph: WordGraph, text: str, *, limit: int = 4, beam: int = 256,
                      max_cost: float = 0.5) -> list[tuple[tuple[str, ...], float]]:
    """The grammar's sentences nearest to ``text`` letter by letter (a weighted edit
    distance over the word automaton: substituting a letter of the same sound class costs
    half, any other edit one), at most ``limit``, each with its cost divided by the longer
    of the two letter strings; only those at most ``max_cost``. Open-slot words are not
    taken (an open slot matches anything). A beam of ``beam`` partial alignments is kept
    per letter of ``text``, so the result does not depend on anything but its inputs."""
    target = letters(text)
    if not target:
        return []
    # a hypothesis: (state, word being written or "", letters of it written, words so far)
    Hyp = tuple[State, str, int, tuple[str, ...]]
    spelled: dict[str, str] = {}

    def letters_of(word: str) -> str:
        got = spelled.get(word)
        if got is None:
            got = spelled[word] = letters(word)
        return got

    def grammar_steps(hyp: Hyp) -> list[tuple[str, Hyp]]:
        state, word, done, words = hyp
        out: list[tuple[str, Hyp]] = []
        if word:
            after = letters_of(word)
            char = after[done]
            if done + 1 == len(after):
                nxt = graph.next_words(state).get(word)
                if nxt is not None:
                    out.append((char, (nxt, "", 0, (*words, word))))
            else:
                out.append((char, (state, word, done + 1, words)))
            return out
        for candidate, nxt in graph.next_words(state).items():
            if candidate == ANY_WORD:
                continue
            after = letters_of(candidate)
            if not after:
                continue
            if len(after) == 1:
                out.append((after, (nxt, "", 0, (*words, candidate))))
            else:
                out.append((after[0], (state, candidate, 1, words)))
        return out

    def deletions(layer: dict[Hyp, float]) -> dict[Hyp, float]:
        # a letter of the grammar the text lacks costs one; up to two in a row
        out = dict(layer)
        frontier = layer
        for _ in range(2):
            grown: dict[Hyp, float] = {}
            for hyp, cost in frontier.items():
                value = cost + 1.0
                if value > bound:
                    continue
                for _char, nxt in grammar_steps(hyp):
                    if value < out.get(nxt, math.inf) and value < grown.get(nxt, math.inf):
                        grown[nxt] = value
            out.update(grown)
            frontier = grown
        return out

    def prune(layer: dict[Hyp, float]) -> dict[Hyp, float]:
        if len(layer) <= beam:
            return layer
        # the beam's worst cost first, so that only what may be kept is ordered in full
        worst = heapq.nsmallest(beam, layer.values())[-1]
        kept = sorted(((hyp, cost) for hyp, cost in layer.items() if cost <= worst),
                      key=lambda item: (item[1], item[0][3], item[0][1:3]))
        return dict(kept[:beam])

    # a cost never falls, and a sentence ends up at most max(text, longest sentence) letters
    # long: a hypothesis that costs more than this can end in nothing near enough (dropping
    # it changes nothing else: the beam keeps what is cheaper either way)
    most = graph.most_letters()
    bound = math.inf if most is None else max_cost * max(len(target), most)
    layer: dict[Hyp, float] = {(graph.start, "", 0, ()): 0.0}
    for char in target:
        expanded = deletions(layer)
        nxt_layer: dict[Hyp, float] = {}
        for hyp, cost in expanded.items():
            # a letter the grammar lacks (the decoder inserted it) costs one
            if cost + 1.0 <= bound and cost + 1.0 < nxt_layer.get(hyp, math.inf):
                nxt_layer[hyp] = cost + 1.0
            for g_char, nxt in grammar_steps(hyp):
                value = cost + _substitution(g_char, char)
                if value <= bound and value < nxt_layer.get(nxt, math.inf):
                    nxt_layer[nxt] = value
        layer = prune(nxt_layer)
    # the end: finish the word being written (each missing letter costs one) at a final state
    finished: dict[tuple[str, ...], float] = {}
    for hyp, cost in deletions(layer).items():
        state, word, done, words = hyp
        if word:
            rest = len(letters_of(word)) - done
            ended = graph.next_words(state).get(word)
            if ended is None:
                continue
            state, words, cost = ended, (*words, word), cost + rest
        if not words or not graph.is_final(state):
            continue
        length = max(len(target), sum(len(letters_of(w)) for w in words))
        value = cost / length
        if value <= max_cost and value < finished.get(words, math.inf):
            finished[words] = value
    ranked = sorted(finished.items(), key=lambda item: (item[1], item[0]))
    return ranked[:limit]
