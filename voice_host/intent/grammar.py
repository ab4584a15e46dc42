"""Load grammar files and specialise them per phase with the game's run-time values.

A grammar is ``grammars/<lang>/common.toml`` merged with ``grammars/<lang>/<game>.toml``.
Both may hold ``[settings]``, ``[confusions]``, ``[rules]``, ``[lists.<name>]`` and
``[[intents]]`` entries (``name``, ``phases``, optional fixed ``slots`` and ``max`` run
lengths, ``sentences``); the game file also lists its ``phases``. The game's own values
(players, and the game's own :class:`SlotList` s such as icons or board words) arrive as
:class:`SlotValues` when a phase is built.
"""

from __future__ import annotations

import os
import random
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voice_host.intent.errors import GrammarError, IntentError
from voice_host.intent.expand import (
    WILDCARD_LIST,
    Skeleton,
    expand,
    iter_slots,
    iter_words,
    sample,
    to_jsgf,
)
from voice_host.intent.normalize import fold, is_jsgf_token, tokenize
from voice_host.intent.nouns import Articles, Nouns
from voice_host.intent.phonetic import similarity
from voice_host.intent.template import Node, RuleRef, Slot, parse_template

if TYPE_CHECKING:
    from voice_host.intent.matcher import Matcher


PLAYER_LIST = "player"
"""The run-time list every game has: the players' names (and "me" for the speaker)."""

NAMED_PLAYER_LIST = "player_name"
"""The same names without "me": a player the sentence names in the third person ("Sophie
prend le cœur"), where the speaker's "moi" would not agree with the verb."""

SELF = "\x00self"
"""Value of "me"/"myself" in the player list, replaced by the speaker's name when matching."""

_ALL_PHASES = "*"

CHOOSING = "choosing"
"""The pseudo-phase of an answer to "Did you mean X, or Y?" ("the first one", "neither",
the word that tells the two apart): intents naming it join a phase's grammar only while the
host waits for that answer (``GameGrammar.phase(..., choosing=True)``)."""

CHOICE_WORD_LIST = "choice_word"
"""The run-time list of a choosing phase: the words only one of the two readings has
("gold" against "called"), each standing for its reading ("first" or "second")."""


GRAMMARS_ENV = "VOICE_HOST_GRAMMARS"
"""Environment variable naming a folder of grammar files to use instead of the package's
(a folder laid out like ``grammars/``: ``<lang>/common.toml``, ``<lang>/<game>.toml``)."""

LEAD_OUT_SUFFIX = "_after"
"""A lead-in rule's name with this after it names the phrases that may follow a sentence."""


def grammar_dir() -> Traversable:
    """Where the grammar files are read from: the package's ``grammars`` resources (the
    repository's top-level ``grammars/``, which the wheel ships), or the folder
    ``VOICE_HOST_GRAMMARS`` names."""
    override = os.environ.get(GRAMMARS_ENV)
    if override:
        return Path(override)
    return resources.files("voice_host") / "grammars"


@dataclass(frozen=True)
class SlotValue:
    """One value of a run-time slot list: what the slot gets, and how it may be said."""

    value: str
    """What the slot returns (an icon's English identifier, a board word as spelled)."""
    spoken: tuple[str, ...]
    """The phrases that name it in the phase's language ("heart", "love"; "cœur")."""


@dataclass(frozen=True)
class SlotList:
    """A run-time slot list (like hassil's slot lists): its name is the ``{name}`` the
    game's grammar uses, its values come from the game when a phase is built. The game's
    registration declares which lists it fills (``slot_lists``)."""

    name: str
    """The list's name in the grammar (``icon``, ``board_word``)."""
    values: tuple[SlotValue, ...]
    """Every value that may be named now."""
    plurals: bool = False
    """English plurals of each phrase are heard too ("two hearts"; the matcher only, the
    recognizer grammar leaves them out; not in French)."""
    written: bool = True
    """Generated examples write the value as the game spells it ("Ice-Cream"); False: the
    phrase the players say (an icon's identifier is not what a French player says)."""


def as_spoken(name: str, words: Iterable[str]) -> SlotList:
    """A list whose values are said as they are written (board words, any names)."""
    return SlotList(name, tuple(SlotValue(w, (w,)) for w in words))


@dataclass(frozen=True)
class SlotValues:
    """The game's run-time slot values for one phase."""

    players: tuple[str, ...] = ()
    """Player names exactly as the game spells them (the ``{player}`` list, every game's)."""
    speaker: str | None = None
    """Who is talking, so "me" and "myself" resolve (may also be given per match)."""
    lists: tuple[SlotList, ...] = ()
    """The game's own run-time lists (icons, board words ...)."""
    open_words: tuple[str, ...] = ()
    """Words the game expects in an open slot (the clue word): the recognizer listens for
    these first; the matcher still takes any word."""


@dataclass(frozen=True)
class SampleUtterance:
    """A generated test sentence with the reading the matcher must give."""

    text: str
    """The sentence, lowercase words."""
    intent: str
    """Expected intent name."""
    slots: Mapping[str, Any]
    """Expected slots (lists of values as tuples)."""


@dataclass(frozen=True)
class IntentEntry:
    """One ``[[intents]]`` entry of a grammar file."""

    name: str
    """Intent name."""
    phases: tuple[str, ...]
    """Phases where it applies (``("*",)`` for all)."""
    fixed: Mapping[str, Any]
    """Slot values set by this entry (e.g. ``choice = "yes"``)."""
    limits: Mapping[str, int]
    """Largest run length per repeated slot."""
    templates: tuple[Node, ...]
    """Parsed sentences."""
    examples: tuple[str, ...] = ()
    """Phrases to read out as help; ``{list}`` stands for a value of that list."""
    in_help: bool = True
    """False for sentences the host understands only to say what is wrong with them ("ice
    cream two": a clue is one word); help never offers them."""
    lead_in: str | None = None
    """A rule whose phrases may come before any sentence of this entry (hedges: "I'd say",
    "let's try", "je dirais"): matched as a prefix, not multiplied into every sentence. When
    the grammar also has a rule named after it with ``_after`` (``hedge_after``), one of its
    phrases may follow the sentence ("the anchor, I think"), matched as a suffix."""


@dataclass(frozen=True)
class Settings:
    """Per-language word classes the matcher uses."""

    fillers: frozenset[str]
    """Words people add that change nothing ("um", "okay", "please")."""
    function_words: frozenset[str]
    """Template words cheap to leave out ("the", "is", "i")."""
    vetoes: frozenset[str]
    """Words that, when not part of a command, mark talk (hedges, negations, questions)."""
    joiners: frozenset[str]
    """Words between values of a run ("and", "plus")."""
    weak_joiners: frozenset[str]
    """Mis-heard joiners ("in" for "and"), accepted with a small penalty."""
    articles: frozenset[str]
    """Articles allowed before each value of a run."""
    self_words: frozenset[str]
    """Words meaning the speaker ("me", "myself"), normalized, space-separated."""
    garbage_words: frozenset[str]
    """Table-talk words for the recognizer's optional escape path."""
    confusions: Mapping[str, tuple[str, ...]]
    """Heard word -> words it is often mistaken for."""
    interjections: frozenset[str] = frozenset()
    """Words that may precede a question's first word ("so", "um")."""
    lead_fillers: tuple[str, ...] = ()
    """Words people start a command with that say nothing ("euh", "bon alors", "um", "so"),
    normalized, each a space-separated phrase: read past at almost no cost, and offered to
    a recognizer that searches the grammar as an optional start of every sentence."""
    question_starts: frozenset[str] = frozenset()
    """Words that, first in an utterance and not part of a command, make it a question."""
    joiner: str = "and"
    """The usual word between two values of a run (generated sentences)."""
    distinct: frozenset[str] = frozenset()
    """Lists whose values a generated sentence names at most once (``player``: "Ada yes,
    Ben and Ada no" has no one reading)."""
    open_words: tuple[str, ...] = ()
    """Likely words for an open slot, from the grammar's ``open_words_file``."""
    discourse: frozenset[str] = frozenset()
    """Words that carry nothing at all ("um", "please", "okay"): the only words a sentence
    may leave unexplained around a value that was not said as such."""
    tentative: frozenset[str] = frozenset()
    """Words of a lead-in that make the move tentative ("maybe", "peut-être"): understood,
    but with a confidence low enough that the host confirms before acting."""
    alike: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Word -> the words said like it but written apart, itself first ("whose" -> ("whose",
    "who's")), from ``spelled_alike``: every template takes any of them where it has one,
    and the word classes above hold all of them."""
    answer_words: frozenset[str] = frozenset()
    """Words that answer a question ("yes", "no", "hit", "miss", "touché"): never read as a
    near miss of a game's value (an icon, a board word, a player)."""
    game_answers: frozenset[str] = frozenset()
    """The answer words that answer only a game's own question ("hit", "miss"; "touché",
    "raté"), never the host's yes-or-no question ("Did you mean ...?")."""
    object_pronouns: frozenset[str] = frozenset()
    """Pronouns that, right after a command word the sentence does not explain, make that word
    a verb with an object of its own ("pass me", "passe-moi", "give him"): a request to
    someone at the table, not to the host."""


@dataclass(frozen=True)
class ValueList:
    """The spoken forms of one list's values."""

    name: str
    """List name."""
    forms: tuple[tuple[tuple[str, ...], Any], ...]
    """(tokens, value) pairs; several forms may share a value."""
    runtime: bool
    """True for the game's own values (fuzzy name matching applies)."""
    extra_forms: tuple[tuple[tuple[str, ...], Any], ...] = ()
    """Forms the matcher accepts but the recognizer grammar leaves out (plurals)."""
    written: bool = True
    """A run-time list whose examples write the value itself (see :class:`SlotList`)."""
    said: tuple[tuple[tuple[str, ...], Any], ...] | None = None
    """The forms a generated sentence or a help phrase takes, when not all of ``forms``:
    the others write a word said like one of them otherwise (``spelled_alike``)."""

    @property
    def said_forms(self) -> tuple[tuple[tuple[str, ...], Any], ...]:
        """The forms generated sentences and help phrases take."""
        return self.forms if self.said is None else self.said

    @cached_property
    def index(self) -> dict[tuple[str, ...], tuple[Any, ...]]:
        """Tokens -> the values they can mean."""
        out: dict[tuple[str, ...], tuple[Any, ...]] = {}
        for tokens, value in self.forms + self.extra_forms:
            if value not in out.get(tokens, ()):
                out[tokens] = out.get(tokens, ()) + (value,)
        return out

    @cached_property
    def longest(self) -> int:
        """Most tokens in one form."""
        return max((len(tokens) for tokens, _ in self.forms + self.extra_forms), default=0)


class GameGrammar:
    """The merged grammar of one game in one language."""

    def __init__(self, game: str, lang: str, data: Mapping[str, Any]) -> None:
        self.game = game
        self.lang = lang
        self.phases: tuple[str, ...] = tuple(data["phases"])
        """The game's phases, in play order."""
        self._data = data
        self._settings = _settings(data)
        try:
            alike = self._settings.alike
            self._rules: dict[str, Node] = {name: parse_template(text, alike)
                                            for name, text in data["rules"].items()}
            self._fixed_lists = {name: _fixed_list(name, values, self._rules, alike)
                                 for name, values in data["lists"].items()}
            self._intents = tuple(_intent(entry, self._rules, alike)
                                  for entry in data["intents"])
        except IntentError as error:
            raise GrammarError(f"Grammar {lang}/{game}: {error}") from error
        for entry in self._intents:
            unknown = [p for p in entry.phases
                       if p not in (_ALL_PHASES, CHOOSING) and p not in self.phases]
            if unknown:
                raise GrammarError(f"Grammar {lang}/{game}: intent {entry.name} names an "
                                   f"unknown phase {unknown[0]!r}.")
        self._cache: dict[tuple[str, SlotValues, bool], PhaseGrammar] = {}
        try:
            self.nouns = Nouns.from_data(data.get("articles"), data.get("genders"))
            """The articles of the language and the genders of the game's nouns."""
        except (KeyError, TypeError) as error:
            raise GrammarError(f"Grammar {lang}/{game}: its [articles] lack {error}.") from None

    def phase(self, name: str, slots: SlotValues | None = None, *,
              choosing: bool = False) -> PhaseGrammar:
        """The grammar of phase ``name`` with these run-time values (cached); ``choosing``:
        with the answers to "Did you mean X, or Y?" too (:data:`CHOOSING`; the slots then
        hold the :data:`CHOICE_WORD_LIST`)."""
        if name not in self.phases:
            raise GrammarError(f"{self.game} has no phase {name!r}; its phases are "
                               f"{', '.join(self.phases)}.")
        slots = slots or SlotValues()
        key = (name, slots, choosing)
        cached = self._cache.get(key)
        if cached is None:
            if len(self._cache) > 64:
                self._cache.clear()
            entries = tuple(e for e in self._intents
                            if _ALL_PHASES in e.phases or name in e.phases
                            or (choosing and CHOOSING in e.phases))
            lists = dict(self._fixed_lists)
            lists.update(_runtime_lists(slots, self._settings, self.lang))
            cached = PhaseGrammar(game=self.game, lang=self.lang, name=name, entries=entries,
                                  rules=self._rules, lists=lists, settings=self._settings,
                                  slot_values=slots)
            self._cache[key] = cached
        return cached


@dataclass(frozen=True, eq=False)
class PhaseGrammar:
    """What can be said in one phase, with the game's values filled in."""

    game: str
    """Game name."""
    lang: str
    """Language code."""
    name: str
    """Phase name."""
    entries: tuple[IntentEntry, ...]
    """Intent entries active in this phase."""
    rules: Mapping[str, Node]
    """Named rules."""
    lists: Mapping[str, ValueList]
    """Every value list (fixed and run-time)."""
    settings: Settings
    """Word classes for the matcher."""
    slot_values: SlotValues = field(default_factory=SlotValues)
    """The run-time values this phase was built with."""

    @cached_property
    def matcher(self) -> Matcher:
        """The matcher of this phase (built once, cached with the phase: the one cache of
        phase grammars is :meth:`GameGrammar.phase`)."""
        from voice_host.intent.matcher import Matcher

        return Matcher(self)

    @cached_property
    def intents(self) -> tuple[str, ...]:
        """Intent names possible in this phase."""
        return tuple(dict.fromkeys(e.name for e in self.entries))

    @cached_property
    def list_slots(self) -> dict[str, frozenset[str]]:
        """Per intent, the slots that hold a list of values (used with ``+``)."""
        out: dict[str, set[str]] = {}
        for entry in self.entries:
            names = out.setdefault(entry.name, set())
            for template in entry.templates:
                names.update(s.slot_name for s in iter_slots(template, self.rules) if s.repeat)
        return {k: frozenset(v) for k, v in out.items()}

    @cached_property
    def used_lists(self) -> frozenset[str]:
        """Lists referenced by this phase's templates."""
        return frozenset(s.list_name for e in self.entries for t in e.templates
                         for s in iter_slots(t, self.rules))

    @cached_property
    def number_words(self) -> dict[int, frozenset[str]]:
        """Each number of this phase's fixed lists -> its one-word forms there ("two", "2";
        "deux")."""
        out: dict[int, set[str]] = {}
        for name in self.used_lists:
            value_list = self.lists.get(name)
            if value_list is None or value_list.runtime:
                continue
            for tokens, value in value_list.forms:
                if isinstance(value, int) and not isinstance(value, bool) and len(tokens) == 1:
                    out.setdefault(value, set()).add(tokens[0])
        return {value: frozenset(words) for value, words in out.items()}

    @cached_property
    def open_vocabulary(self) -> bool:
        """True when a template takes any word (the recognizer must not be restricted)."""
        return WILDCARD_LIST in self.used_lists

    def skeletons(self, *, keep_optional: bool) -> list[tuple[IntentEntry, Skeleton]]:
        """Every (entry, skeleton) of the phase."""
        out: list[tuple[IntentEntry, Skeleton]] = []
        for entry in self.entries:
            for template in entry.templates:
                for skeleton in expand(template, self.rules, keep_optional=keep_optional):
                    out.append((entry, skeleton))
        return out

    @cached_property
    def diagnostic_intents(self) -> frozenset[str]:
        """Intents understood only to say what is wrong with them (``help = false`` in the
        grammar file): help never offers them, the recognizer's grammar leaves them out, and
        the matcher lets a command read about as well win over them."""
        return frozenset(e.name for e in self.entries if not e.in_help) - frozenset(
            e.name for e in self.entries if e.in_help)

    @cached_property
    def literal_words(self) -> frozenset[str]:
        """Every literal word of the phase's templates (not list values)."""
        return frozenset(w for e in self.entries
                         for t in e.templates + ((RuleRef(e.lead_in),) if e.lead_in else ())
                         for w in iter_words(t, self.rules))

    @cached_property
    def lead_ins(self) -> dict[str, frozenset[tuple[str, ...]]]:
        """Per lead-in rule of the phase's entries, the token sequences it allows."""
        return self._phrases("")

    @cached_property
    def lead_outs(self) -> dict[str, frozenset[tuple[str, ...]]]:
        """Per lead-in rule of the phase's entries, the token sequences that may follow a
        sentence (its rule ``<lead_in>_after``; "yes, I guess", "la chouette je pense")."""
        return self._phrases(LEAD_OUT_SUFFIX)

    def _phrases(self, suffix: str) -> dict[str, frozenset[tuple[str, ...]]]:
        out: dict[str, frozenset[tuple[str, ...]]] = {}
        for entry in self.entries:
            if entry.lead_in is None or entry.lead_in in out \
                    or entry.lead_in + suffix not in self.rules:
                continue
            out[entry.lead_in] = frozenset(
                tuple(t.text for t in sk)
                for sk in expand(RuleRef(entry.lead_in + suffix), self.rules,
                                 keep_optional=False)
                if sk and all(t.kind == "lit" for t in sk))
        return out

    def vocabulary(self) -> frozenset[str]:
        """Every JSGF-safe word the phase's grammar can produce (for the recognizer)."""
        words = set(self.literal_words)
        for list_name in self.used_lists:
            value_list = self.lists.get(list_name)
            if value_list is not None:
                words.update(t for tokens, _ in value_list.forms for t in tokens)
        if any(s for s in self.list_slots.values()):
            words.update(self.settings.joiners)
            words.update(self.settings.articles)
        return frozenset(w for w in words if is_jsgf_token(w))

    def jsgf(self, *, garbage_weight: float | None = None) -> str | None:
        """A complete JSGF 1.0 document for this phase; ``None`` for open vocabulary.

        With ``garbage_weight`` the public rule also offers a loop of table-talk words with
        that JSGF weight (commands weigh 1), an escape path so that chatter is not forced
        onto a command; the matcher rejects what comes out of it."""
        base = self._jsgf
        if base is None or garbage_weight is None:
            return base
        vocab = self.vocabulary()
        words = sorted(w for w in self.settings.garbage_words
                       if w not in vocab and is_jsgf_token(w)
                       and not any(similarity(w, v) >= 0.75 for v in vocab))
        if not words:
            return base
        head, _, rest = base.partition("public <command> = ")
        commands, _, tail = rest.partition(";\n")
        return (f"{head}public <command> = /1/ ( {commands} ) | /{garbage_weight:g}/ "
                f"<garbage>;\n{tail}<garbage> = <g_word>+;\n"
                f"<g_word> = {' | '.join(words)};\n")

    def recognition_jsgf(self) -> str | None:
        """The JSGF a recognizer should try first. For a closed phase, ``jsgf()``. For an
        open phase (the clue word), the same sentences with the open slot drawn from the
        likely words (the grammar's list and the game's ``open_words``); None when there are
        none. A recognizer falls back to its full vocabulary when this grammar rejects the
        audio, so an unlisted clue word can still be heard."""
        if not self.open_vocabulary:
            return self.jsgf()
        return self._open_jsgf

    def open_slot_jsgf(self, rule: str) -> str | None:
        """For a phase with an open slot: its JSGF with the slot as a reference to ``rule``,
        a rule the document leaves undefined for a recognizer that can hear any word there
        (None for a closed phase)."""
        if not self.open_vocabulary:
            return None
        return self._build_jsgf({}, open_rule=rule)

    def written_forms(self) -> dict[str, tuple[str, ...]]:
        """Spoken word -> the other ways it is written in this phase's lists, for recognizers
        that write digits ("two" -> "2"); from the lists' own forms, per language."""
        out: dict[str, list[str]] = {}
        for list_name in self.used_lists:
            value_list = self.lists.get(list_name)
            if value_list is None:
                continue
            by_value: dict[Any, list[tuple[str, ...]]] = {}
            for tokens, value in value_list.forms:
                by_value.setdefault(value, []).append(tokens)
            for forms in by_value.values():
                written = [t[0] for t in forms if len(t) == 1 and t[0].isdigit()]
                spoken = [t[0] for t in forms if len(t) == 1 and is_jsgf_token(t[0])]
                for word in spoken:
                    for digits in written:
                        if digits not in out.setdefault(word, []):
                            out[word].append(digits)
        return {word: tuple(forms) for word, forms in out.items() if forms}

    @cached_property
    def _open_jsgf(self) -> str | None:
        words = [w for w in (*self.settings.open_words,
                             *(t for word in self.slot_values.open_words
                               for t in tokenize(word)))
                 if is_jsgf_token(w)]
        if not words:
            return None
        open_list = ValueList(WILDCARD_LIST, tuple(((w,), w) for w in dict.fromkeys(words)),
                              runtime=False)
        return self._build_jsgf({WILDCARD_LIST: open_list})

    @cached_property
    def _jsgf(self) -> str | None:
        if self.open_vocabulary:
            return None
        return self._build_jsgf({})

    def _build_jsgf(self, extra_lists: Mapping[str, ValueList], *,
                    open_rule: str | None = None) -> str | None:
        used: dict[str, str] = {}

        def list_rule(list_name: str) -> str | None:
            if open_rule is not None and list_name == WILDCARD_LIST:
                return f"<{open_rule}>"
            value_list = extra_lists.get(list_name) or self.lists.get(list_name)
            if value_list is None:
                return None
            if list_name not in used:
                forms = sorted({" ".join(tokens) for tokens, _ in value_list.forms
                                if tokens and all(is_jsgf_token(t) for t in tokens)})
                if not forms:
                    used[list_name] = ""
                else:
                    used[list_name] = " | ".join(forms)
            return f"<l_{list_name}>" if used[list_name] else None

        def slot_rule(slot: Slot, limit: int) -> str | None:
            one = list_rule(slot.list_name)
            if one is None or not slot.repeat:
                return one
            join = self._jsgf_join()
            if limit <= 3:
                more = ""
                for _ in range(limit - 1):
                    more = f"[ {join} {one} {more}]" if more else f"[ {join} {one} ]"
                return f"{one} {more}" if more else one
            return f"{one} ( {join} {one} )*"

        intent_rules: dict[str, list[str]] = {}
        leads: dict[str, str] = {}
        for entry in self.entries:
            if entry.name in self.diagnostic_intents:
                # sentences understood only to say what is wrong with them ("ice cream two",
                # "ocean") would loosen the recognizer's search (PocketSphinx heard "ocean
                # two" as "low shoot two", Whisper as the one word "ashenu"); typed lines and
                # the open-vocabulary decode still reach them
                continue
            for template in entry.templates:
                def rule_for(slot: Slot, entry: IntentEntry = entry) -> str | None:
                    return slot_rule(slot, entry.limits.get(slot.slot_name, 10))
                text = to_jsgf(template, self.rules, rule_for)
                if text and entry.lead_in is not None:
                    lead = to_jsgf(RuleRef(entry.lead_in), self.rules, rule_for)
                    if lead:
                        leads[entry.lead_in] = lead
                        text = f"[ <h_{entry.lead_in}> ] {text}"
                if text:
                    intent_rules.setdefault(entry.name, []).append(text)
        if not intent_rules:
            return None
        safe_name = "".join(c if c.isalnum() else "_" for c in f"{self.game}_{self.name}")
        lines = ["#JSGF V1.0;", "", f"grammar {safe_name};", ""]
        lines.append("public <command> = " + " | ".join(
            f"<i_{name}>" for name in intent_rules) + ";")
        for name, bodies in intent_rules.items():
            unique = list(dict.fromkeys(bodies))
            lines.append(f"<i_{name}> = " + " | ".join(f"( {b} )" for b in unique) + ";")
        for list_name, body in sorted(used.items()):
            if body:
                lines.append(f"<l_{list_name}> = {body};")
        for rule_name, body in sorted(leads.items()):
            lines.append(f"<h_{rule_name}> = {body};")
        return "\n".join(lines) + "\n"

    def _jsgf_join(self) -> str:
        joiners = sorted(w for w in self.settings.joiners if is_jsgf_token(w))
        articles = sorted(w for w in self.settings.articles if is_jsgf_token(w))
        parts = []
        if joiners:
            parts.append("[ " + " | ".join(joiners) + " ]")
        if articles:
            parts.append("[ " + " | ".join(articles) + " ]")
        return " ".join(parts)

    def sample(self, rng: random.Random, n: int) -> list[SampleUtterance]:
        """``n`` random sentences of this phase with their expected readings.

        Six in ten come from the phase's own intents (the rest from the universal ones);
        within each group the intent is drawn uniformly, then one of its templates. A
        quarter of the sentences of an entry with a lead-in start with one ("I'd say")."""
        by_intent: dict[str, list[tuple[IntentEntry, Node]]] = {}
        for entry in self.entries:
            by_intent.setdefault(entry.name, []).extend((entry, t) for t in entry.templates)
        universal = sorted({e.name for e in self.entries if _ALL_PHASES in e.phases})
        own = sorted(name for name in by_intent if name not in universal)
        out: list[SampleUtterance] = []
        attempts = 0
        while len(out) < n and attempts < n * 20 and by_intent:
            attempts += 1
            group = own if own and (not universal or rng.random() < 0.6) else universal
            entry, template = rng.choice(by_intent[rng.choice(group)])
            got = self._sample_one(entry, template, rng, lead_in=True)
            if got is not None:
                out.append(got)
        return out

    def _sample_one(self, entry: IntentEntry, template: Node, rng: random.Random, *,
                    lead_in: bool = False) -> SampleUtterance | None:
        filled: list[tuple[Slot, object]] = []

        def sampler(slot: Slot, rng: random.Random) -> tuple[tuple[str, ...], object] | None:
            return self._sample_slot(slot, entry, rng)

        words = sample(template, self.rules, rng, sampler, filled)
        if words is None or not words:
            return None
        if lead_in and entry.lead_in is not None and rng.random() < 0.25:
            phrases = sorted(self.lead_ins.get(entry.lead_in, ()))
            if phrases:
                words = list(rng.choice(phrases)) + words
        slots: dict[str, Any] = dict(entry.fixed)
        list_slots = self.list_slots.get(entry.name, frozenset())
        for slot, value in filled:
            if slot.slot_name in list_slots:
                values = value if isinstance(value, tuple) else (value,)
                merged = tuple(slots.get(slot.slot_name, ())) + values
                slots[slot.slot_name] = tuple(dict.fromkeys(merged))
            elif slot.slot_name in slots and slots[slot.slot_name] != value:
                return None  # e.g. "no thanks, I vote yes": not one reading
            else:
                slots[slot.slot_name] = value
        named = [self._resolve_self(v) for slot, value in filled
                 if slot.list_name in self.settings.distinct
                 for v in (value if isinstance(value, tuple) else (value,))]
        if len(named) != len(set(named)):
            return None  # one player in two groups ("Ada yes, Ben and Ada no"): no one reading
        return SampleUtterance(" ".join(words), entry.name, slots)

    def _sample_slot(self, slot: Slot, entry: IntentEntry,
                     rng: random.Random) -> tuple[tuple[str, ...], object] | None:
        if slot.list_name == WILDCARD_LIST:
            word = rng.choice(("ocean", "winter", "music", "animal", "tree", "france",
                               "metal", "water", "space", "history"))
            return (word,), word
        value_list = self.lists.get(slot.list_name)
        if value_list is None or not value_list.forms:
            return None
        forms = [f for f in value_list.said_forms if f[1] != SELF or self.slot_values.speaker]
        if not forms:
            return None
        if not slot.repeat:
            tokens, value = rng.choice(forms)
            return tokens, self._resolve_self(value)
        limit = entry.limits.get(slot.slot_name, 4)
        count = rng.randint(1, max(1, min(limit, 3)))
        words: list[str] = []
        values: list[Any] = []
        for _ in range(count * 3):
            tokens, value = rng.choice(forms)
            value = self._resolve_self(value)
            if value in values:
                continue
            if values and (len(values) == count - 1 or rng.random() < 0.7):
                words.append(self.settings.joiner)
            values.append(value)
            words.extend(tokens)
            if len(values) == count:
                break
        return tuple(words), tuple(values)

    def _fill_example(self, text: str) -> str | None:
        used: dict[str, int] = {}
        missing = False

        def fill(match: re.Match[str]) -> str:
            nonlocal missing
            value_list = self.lists.get(match.group(1))
            # each value once, by its first said form: the second {icon} of an example is
            # another icon, not another way of saying the first ("coeur", "le coeur")
            first_forms: dict[Any, tuple[str, ...]] = {}
            for tokens, value in (value_list.said_forms if value_list else ()):
                if value != SELF:
                    first_forms.setdefault(value, tuple(tokens))
            values = list(first_forms)
            index = used.get(match.group(1), 0)
            used[match.group(1)] = index + 1
            if index >= len(values) or value_list is None:
                missing = True
                return ""
            if value_list.runtime and value_list.written:
                return str(values[index])
            return " ".join(first_forms[values[index]])

        filled = _PLACEHOLDER.sub(fill, text)
        return None if missing else filled

    def _resolve_self(self, value: Any) -> Any:
        return self.slot_values.speaker if value == SELF else value

    def help_phrases(self, per_intent: int = 3) -> dict[str, tuple[str, ...]]:
        """A few short example phrases per intent, to read out as "what you can say now"."""
        out: dict[str, tuple[str, ...]] = {}
        for intent in self.intents:
            if intent in self.diagnostic_intents:
                continue
            examples = [self._fill_example(text) for e in self.entries if e.name == intent
                        for text in e.examples]
            kept = tuple(dict.fromkeys(x for x in examples if x))
            if kept:
                out[intent] = kept[:per_intent]
                continue
            rng = random.Random(f"{self.game}/{self.name}/{intent}")
            pool = [(e, t) for e in self.entries if e.name == intent for t in e.templates]
            phrases: set[str] = set()
            for _ in range(40):
                entry, template = rng.choice(pool)
                got = self._sample_one(entry, template, rng)
                if got is not None and all(is_jsgf_token(w) for w in got.text.split()):
                    phrases.add(got.text)
            ranked = sorted(phrases, key=lambda p: (len(p.split()), p))
            out[intent] = tuple(ranked[:per_intent])
        return out


_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def _settings(data: Mapping[str, Any]) -> Settings:
    raw = data["settings"]
    alike: dict[str, tuple[str, ...]] = {}
    for group in raw.get("spelled_alike", ()):
        forms = tokenize(group)
        for word in forms:
            alike[word] = tuple(dict.fromkeys((word, *forms)))

    def words(key: str) -> frozenset[str]:
        return frozenset(form for item in raw.get(key, ()) for t in tokenize(item)
                         for form in alike.get(t, (t,)))

    joiners = [t for item in raw.get("joiners", ()) for t in tokenize(item)]
    joiner = joiners[0] if joiners else "and"
    confusions: dict[str, tuple[str, ...]] = {}
    for heard, meant in data["confusions"].items():
        targets = meant if isinstance(meant, list) else [meant]
        confusions[fold(heard)] = tuple(fold(t) for t in targets)
    return Settings(fillers=words("fillers"), function_words=words("function_words"),
                    vetoes=words("vetoes"), joiners=words("joiners"),
                    weak_joiners=words("weak_joiners"), articles=words("articles"),
                    self_words=frozenset(" ".join(tokenize(x)) for x in raw.get("self_words", ())),
                    garbage_words=words("garbage_words"), joiner=joiner,
                    question_starts=words("question_starts"),
                    interjections=words("interjections"),
                    lead_fillers=tuple(dict.fromkeys(
                        " ".join(tokenize(item)) for item in raw.get("lead_fillers", ()))),
                    open_words=tuple(dict.fromkeys(raw.get("open_words", ()))),
                    tentative=words("tentative"), discourse=words("discourse"),
                    distinct=frozenset(raw.get("distinct", ())), confusions=confusions,
                    alike=alike, object_pronouns=words("object_pronouns"),
                    answer_words=words("answer_words"), game_answers=words("game_answers"))


def _value(key: str) -> Any:
    return int(key) if key.isdigit() else key


def _fixed_list(name: str, values: Mapping[str, Any], rules: Mapping[str, Node],
                alike: Mapping[str, tuple[str, ...]]) -> ValueList:
    forms: list[tuple[tuple[str, ...], Any]] = []
    said: list[tuple[tuple[str, ...], Any]] = []
    for key, spoken in values.items():
        templates = spoken if isinstance(spoken, list) else [spoken]
        for text in templates:
            node = parse_template(text, alike)
            for spellings, out in ((True, forms), (False, said)):
                for skeleton in expand(node, rules, keep_optional=False, spellings=spellings):
                    if any(tok.kind != "lit" for tok in skeleton):
                        raise GrammarError(f"List {name} value {key}: slots are not allowed.")
                    if skeleton:
                        out.append((tuple(tok.text for tok in skeleton), _value(key)))
    all_forms, said_forms = tuple(dict.fromkeys(forms)), tuple(dict.fromkeys(said))
    return ValueList(name, all_forms, runtime=False,
                     said=None if said_forms == all_forms else said_forms)


def _intent(entry: Mapping[str, Any], rules: Mapping[str, Node],
            alike: Mapping[str, tuple[str, ...]]) -> IntentEntry:
    try:
        name = entry["name"]
        sentences = entry["sentences"]
    except KeyError as missing:
        raise GrammarError(f"An intent entry lacks {missing}.") from None
    phases = entry.get("phases", _ALL_PHASES)
    phases_tuple = (phases,) if isinstance(phases, str) else tuple(phases)
    templates = tuple(parse_template(s, alike) for s in sentences)
    for template in templates:  # fail early on unknown rules or explosive templates
        expand(template, rules, keep_optional=True)
    lead_in = entry.get("lead_in")
    if lead_in is not None and lead_in not in rules:
        raise GrammarError(f"Intent {name}: the lead_in rule <{lead_in}> is not defined.")
    return IntentEntry(name=name, phases=phases_tuple, fixed=dict(entry.get("slots", {})),
                       limits=dict(entry.get("max", {})), templates=templates,
                       examples=tuple(entry.get("examples", ())),
                       in_help=bool(entry.get("help", True)), lead_in=lead_in)


def _plurals(word: str) -> tuple[str, ...]:
    if word.endswith(("s", "x", "ch", "sh")):
        return (word + "es",)
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return (word[:-1] + "ies",)
    if word.endswith("fe"):
        return (word[:-2] + "ves", word + "s")
    if word.endswith("f"):
        return (word[:-1] + "ves", word + "s")
    return (word + "s",)


def _runtime_lists(slots: SlotValues, settings: Settings, lang: str) -> dict[str, ValueList]:
    players: list[tuple[tuple[str, ...], Any]] = []
    for name in slots.players:
        tokens = tokenize(name)
        if tokens:
            players.append((tokens, name))
    for phrase in sorted(settings.self_words):
        players.append((tuple(phrase.split()), SELF))
    lists = {PLAYER_LIST: ValueList(PLAYER_LIST, tuple(players), runtime=True),
             NAMED_PLAYER_LIST: ValueList(NAMED_PLAYER_LIST,
                                          tuple(p for p in players if p[1] != SELF),
                                          runtime=True)}
    for slot_list in slots.lists:
        forms: list[tuple[tuple[str, ...], Any]] = []
        plurals: list[tuple[tuple[str, ...], Any]] = []
        for item in slot_list.values:
            for spoken in item.spoken:
                tokens = tokenize(spoken)
                if tokens:
                    forms.append((tokens, item.value))
                    if slot_list.plurals and lang != "fr":
                        plurals.extend((tokens[:-1] + (plural,), item.value)
                                       for plural in _plurals(tokens[-1]))
        lists[slot_list.name] = ValueList(slot_list.name, tuple(dict.fromkeys(forms)),
                                          runtime=True,
                                          extra_forms=tuple(dict.fromkeys(plurals)),
                                          written=slot_list.written)
    return lists


def _merge(common: Mapping[str, Any], game: Mapping[str, Any]) -> dict[str, Any]:
    merged: dict[str, Any] = {"phases": list(game.get("phases", ()))}
    settings = {k: list(v) for k, v in common.get("settings", {}).items()}
    for key, values in game.get("settings", {}).items():
        settings[key] = settings.get(key, []) + list(values)
    merged["settings"] = settings
    for table in ("confusions", "rules", "lists", "articles", "genders"):
        merged[table] = {**common.get(table, {}), **game.get(table, {})}
    merged["intents"] = list(common.get("intents", ())) + list(game.get("intents", ()))
    return merged


_LOADED: dict[tuple[str, str], GameGrammar] = {}


def forget_loaded() -> None:
    """Forget the cached grammars: the next :func:`load_grammar` reads the files again
    (after the grammar folder changed, e.g. ``VOICE_HOST_GRAMMARS``)."""
    _LOADED.clear()
    _ARTICLES.clear()


_ARTICLES: dict[str, Articles | None] = {}


def language_articles(lang: str) -> Articles | None:
    """The articles of ``lang`` and where they elide (the ``[articles]`` of its
    ``common.toml``; cached), or None for a language without them (English). The host's
    narration elides "de" and "que" before a name by the same letters as a player's
    "l'ancre"."""
    if lang not in _ARTICLES:
        path = grammar_dir() / lang / "common.toml"
        try:
            table = tomllib.loads(path.read_text(encoding="utf-8")).get("articles") \
                if path.is_file() else None
            _ARTICLES[lang] = Articles.from_table(table) if table else None
        except (tomllib.TOMLDecodeError, KeyError, TypeError) as error:
            raise GrammarError(f"The {lang} common grammar's [articles] cannot be read: "
                               f"{error}") from None
    return _ARTICLES[lang]


def load_grammar(game: str, lang: str = "en") -> GameGrammar:
    """The grammar of ``game`` in ``lang`` (common intents merged in); cached."""
    key = (game, lang)
    grammar = _LOADED.get(key)
    if grammar is not None:
        return grammar
    folder = grammar_dir() / lang
    game_file = folder / f"{game}.toml"
    if not game_file.is_file():
        raise GrammarError(f"There is no {lang} grammar for {game}.")
    try:
        common = tomllib.loads((folder / "common.toml").read_text(encoding="utf-8")) \
            if (folder / "common.toml").is_file() else {}
        specific = tomllib.loads(game_file.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise GrammarError(f"The {lang} grammar for {game} cannot be read: {error}") from None
    merged = _merge(common, specific)
    for name in merged["settings"].pop("open_words_file", ()):
        path = folder / name
        if not path.is_file():
            raise GrammarError(f"The {lang} grammar for {game} names a missing word file {name}.")
        merged["settings"].setdefault("open_words", []).extend(
            w for line in path.read_text(encoding="utf-8").splitlines()
            if not line.lstrip().startswith("#") for w in line.split())
    grammar = GameGrammar(game, lang, merged)
    _LOADED[key] = grammar
    return grammar
