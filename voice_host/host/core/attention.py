"""Whom the host answers. A table talks: most of what the microphone hears is the players
talking to each other, and a host that answered every line would interrupt all the time.
So a line the host did not take as a move gets a spoken answer only when it was meant for
the host:

* it was **addressed** to the host: it starts with an address word ("host, ...",
  "hey host", "game master"; "l'hôte, ...", "animateur", "maître du jeu"), and the words
  after it are read as the command;
* it was **typed at the host's keyboard**: a person typing at the terminal is talking to
  the host, never to the table (a script file stands for the table: its lines are heard as
  if said aloud);
* it was a **near miss**: the recognizer's free transcript reads as a command of the phase
  but was not sure enough to act on, or a decoder held to the phase's sentences came out
  with a broken one -- words aimed at the game, not at a neighbour.

A universal command (help, repeat, pause ...) is understood like any command, so it is
always answered, and so is a line read two ways that are each confident enough to act on
("Did you mean X, or Y?": it is a command either way). Everything else -- table talk,
including a line the recognizer itself rejected -- is silent: it is logged as an
``ignored`` event with its transcript and why.

The players the host **waits for** are never left in silence: outside a discussion, when the
prompt names the players who answer ("Hannah, how many sabotage cards?", "Still to vote:
... Hannah?", "Everyone at once! Thomas, Sophie and Oliver ...") and the line came from one
of them (the speaker is known from a script line or by voice) or, when it is not known (a
microphone), the prompt waits for one player alone, a line the host cannot read gets a
short spoken re-ask naming what it needs ("Sorry, Ben: pass, or a word?"; a few variants,
never the same twice in a row); from the second miss on, one example sentence and the
other ways to answer (the phone, help).
Only a line that is clearly talk (sure words that hold no move of the phase, and either
longer than a command or mostly not the phase's words; or the recognizer found it in words
the grammar lacks: :func:`clearly_talk`) gets, from that player, the soft ``listening`` cue
instead: the player is talking, not answering. A line that holds a move with words around
it the grammar does not take ("ok i should pick the apple and the snake") is an answer
misheard, however long.

In a discussion (a team being proposed, a clue being thought of) the table talks, the
leader too, and only a line of the awaited player, known by name or voice, that holds a
move, a clue's number beside a word, or is a near miss gets the re-ask."""

from __future__ import annotations

import copy
import enum
import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from voice_host.host.core.adapter import Prompt
from voice_host.host.core.agreement import VOICE_SURE, phase_vocabulary
from voice_host.host.core.aimed import aimed_at, holds_clue, own_words
from voice_host.host.core.choice import answer_or_drop
from voice_host.host.core.understanding import Understood, tuning_of
from voice_host.host.core.unknown_values import unknown_value_lines
from voice_host.host.core.values import Heard, Line
from voice_host.intent import PhaseGrammar
from voice_host.intent.grammar import grammar_dir
from voice_host.speech.decision import Rejection
from voice_host.text import tokenize

if TYPE_CHECKING:
    from voice_host.host.core.session import Session

KEYBOARD = "keyboard"
"""The ``source`` of a line typed at the host's terminal."""

@cache
def _address_words(folder: str, lang: str) -> tuple[tuple[str, ...], ...]:
    common = Path(folder) / lang / "common.toml"
    if not common.is_file():
        common = Path(folder) / "en" / "common.toml"
    settings = tomllib.loads(common.read_text(encoding="utf-8")).get("settings", {})
    words = (tokenize(phrase) for phrase in settings.get("address", ()))
    return tuple(sorted((w for w in words if w), key=len, reverse=True))


def address_words(lang: str) -> tuple[tuple[str, ...], ...]:
    """Words that call the host, as folded tokens, longest first: the ``address`` setting
    of the language's ``grammars/<lang>/common.toml`` (read once per grammar folder)."""
    return _address_words(str(grammar_dir()), lang)


class Answer(enum.StrEnum):
    """What the host does with a line it did not take as a move."""

    HELP = "help"
    """Say it was not understood and how to get help (the line was meant for the host)."""
    REASK = "reask"
    """Say briefly what the host needs (the player asked tried to answer)."""
    CUE = "cue"
    """Only the soft listening cue (the player asked by name is talking)."""
    SILENT = "silent"
    """Nothing: table talk."""


@dataclass(frozen=True)
class Addressed:
    """A line that called the host by name."""

    rest: str
    """The words after the address word: the command itself."""


def addressed(text: str, lang: str) -> Addressed | None:
    """``text`` as a call to the host ("host, what can I say" -> "what can I say"), or None
    when it does not start with one of the language's address words (only the start: "you
    are a good host" is said about the host, not to it)."""
    tokens = tokenize(text)
    for words in address_words(lang):
        n = len(words)
        if len(tokens) >= n and tokens[:n] == words:
            return Addressed(" ".join(tokens[n:]))
    return None


def without_address(heard: Heard, rest: str) -> Heard:
    """The utterance with the address word taken off: what is read as the command. A
    searched utterance keeps only its free transcript (the grammar sentence was forced onto
    words that included the address)."""
    if heard.judgement is not None:
        return replace(heard, text=rest, judgement=None, rejected=False, closed_grammar=False,
                       alternatives=())
    return replace(heard, text=rest, rejected=False, closed_grammar=False, alternatives=())


def typed(heard: Heard) -> bool:
    """Typed at the host's own keyboard (not a recognizer's transcript, not a script)."""
    return not heard.spoken and heard.source == KEYBOARD


def near_miss(heard: Heard, understood: Understood) -> bool:
    """Words aimed at the phase that the host could not act on: the free transcript reads
    as a command of the phase but the recognizer was not sure enough, or a decoder held to
    the phase's sentences (and not escaping to its garbage path) gave a broken sentence."""
    if understood.why_not == "not_confident" and understood.free is not None:
        return True
    return (heard.closed_grammar and not heard.rejected and heard.judgement is None
            and understood.why_not == "no_match")


def answer_for(heard: Heard, understood: Understood, prompt: Prompt, *, called: bool,
               speaker: str | None, phase: PhaseGrammar | None = None
               ) -> tuple[Answer, str]:
    """What to do with a line that was not understood as a command, and why (logged);
    ``phase``: the prompt's grammar (what its moves say, to tell talk from an answer)."""
    if called:
        return Answer.HELP, "addressed"
    if typed(heard):
        return Answer.HELP, "typed"
    why = understood.why_not or "no_match"
    if asked(heard, prompt, speaker):
        return (Answer.CUE if clearly_talk(heard, phase, speaker) else Answer.REASK), why
    if prompt.discussion and named(heard, prompt, speaker) and (
            near_miss(heard, understood) or (phase is not None and attempt(heard, phase,
                                                                           speaker))):
        return Answer.REASK, why  # the leader's team, the clue, misheard amid the discussion
    if near_miss(heard, understood):
        return Answer.HELP, "near_miss"
    return Answer.SILENT, why


def attempt(heard: Heard, phase: PhaseGrammar, speaker: str | None) -> bool:
    """Whether a line said in a discussion by the player it waits for is an attempt at the
    move: it holds one (:func:`holds_move`), or a number beside a word in a phase whose move
    is any word and a number (the clue: "ok season 42", ``aimed.holds_clue``)."""
    content = _said_once([w for w in tokenize(said_words(heard))
                          if w not in phase.settings.discourse])
    return holds_move(content, phase, speaker) or holds_clue(content, phase)


TALK_WORDS = 6
"""A line of at least this many sure words that reads as no command and holds none is talk (a
command is shorter: the longest common ones, a whole table's votes, are said as a list of
names)."""
TALK_SHARE = 0.5
"""A line of three words or more, sure, of which at most this share are words of the
phase's own sentences and values, is talk ("this is getting really tense" at a pick)."""
VALUES_SHARE = 0.5
"""... unless at least this share of its words that carry something are the values of the
phase's moves (player names, yes and no, numbers, icons, board words): a whole table's votes
garbled at its end ("sam ingrid olivia and nina chloe grace andam elie yes")."""
HOLDS_SHARE = 0.5
"""A line holds a move when a run of at least this share of its words (two at least) reads
plainly as a move of the phase (:func:`holds_move`)."""
HOLDS_MATCH = 0.9
"""... read with at least this confidence: plain words of the grammar, not the matcher's
guess (at 0.9, 7 of the benchmark's 696 calibration lines of talk across every phase hold
one, such as "no way" in "no way really")."""


def clearly_talk(heard: Heard, phase: PhaseGrammar | None = None,
                 speaker: str | None = None) -> bool:
    """Whether a line the host could not read is clearly talk rather than an attempt at an
    answer: the recognizer found it in words the grammar lacks; or its words are sure
    (typed, a script's line, a recognizer's only transcript, or a free transcript the
    decoder was sure of), hold no move of the phase said by ``speaker`` (:func:`holds_move`:
    "so noor chooses the skull and the wolf" is a pick misheard around its move, however
    long), and either they are ``TALK_WORDS`` or more (and not mostly the values of the
    phase's moves, :data:`VALUES_SHARE`), or hold no piece of a move (``aimed.aimed_at``:
    "white bone please" holds a board word) and are mostly not the
    words of the phase's own moves (:data:`TALK_SHARE`, :func:`own_words`, among the words
    that carry something: not "okay", "um", the grammar's ``discourse``). A phrase the
    decoder wrote twice in a row is read once. An unsure transcript is misheard words,
    which may have been an answer."""
    judgement = heard.judgement
    if judgement is None:
        text = heard.text
    else:
        if judgement.reason is Rejection.FOREIGN:
            return True
        if judgement.looped or judgement.free_logp < tuning_of(heard).free_min_logp:
            return False
        text = judgement.free_text
    words = _said_once(tokenize(text))
    if phase is None:
        return len(words) >= TALK_WORDS
    content = [w for w in words if w not in phase.settings.discourse]
    if holds_move(content, phase, speaker):
        return False
    settings = phase.settings
    carrying = [w for w in content if w not in settings.articles and w not in settings.joiners]
    if len(carrying) < TALK_WORDS and aimed_at(content, phase):
        # a piece of a move ("white bone please", "zopan l'orloge et la tou"): a move
        # misheard; articles and "and" do not make a line long (French has more of them)
        return False
    if len(words) >= TALK_WORDS:
        values = phase_vocabulary(phase)
        return sum(w in values for w in content) < VALUES_SHARE * len(content)
    if len(words) < 3:
        return False
    own = own_words(phase)
    return sum(w in own for w in content) <= TALK_SHARE * len(content)


def holds_move(words: Sequence[str], phase: PhaseGrammar, speaker: str | None = None) -> bool:
    """Whether a run of ``words`` -- at least :data:`HOLDS_SHARE` of them, two at least --
    reads plainly (:data:`HOLDS_MATCH`) as a move of the phase (no universal command), said
    by ``speaker`` when known ("me" in a team): the move said with words around it the
    grammar does not take ("ok i should pick the apple and the snake"). A phrase the decoder
    wrote twice in a row is read once."""
    from voice_host.host.core.commands import UNIVERSAL

    words = _said_once(words)
    size = max(2, math.ceil(HOLDS_SHARE * len(words)))
    matcher = phase.matcher
    for length in range(len(words), size - 1, -1):
        for start in range(len(words) - length + 1):
            match = matcher.match(" ".join(words[start:start + length]),
                                  speaker=speaker).best
            if (match is not None and match.intent not in UNIVERSAL
                    and match.confidence >= HOLDS_MATCH):
                return True
    return False


def _said_once(words: Sequence[str]) -> list[str]:
    """``words`` without a repeat of their opening phrase ("ai should take the boat ai
    should take the boat ai" -> its first five words)."""
    for size in range(2, len(words) // 2 + 1):
        rest = words[size:size * 2]
        if rest and list(rest) == list(words[:len(rest)]) and len(rest) >= min(size, 2):
            return list(words[:size])
    return list(words)


def voice_seat(heard: Heard) -> str | None:
    """The player whose voice said ``heard``, when speaker identification is sure of it."""
    voice = heard.voice
    if voice is None or voice.seat is None or voice.confidence < VOICE_SURE:
        return None
    return voice.seat


def said_words(heard: Heard) -> str:
    """The words of ``heard`` as the recognizer wrote them freely (its only transcript, or
    the free transcript of a grammar search)."""
    return heard.judgement.free_text if heard.judgement is not None else heard.text


def named(heard: Heard, prompt: Prompt, speaker: str | None) -> bool:
    """The line came from a player the prompt waits for, known by name or by voice (not
    only assumed because one player is awaited)."""
    by_voice = voice_seat(heard) if heard.speaker is None else None
    if by_voice is not None:
        return by_voice in prompt.expected
    return heard.speaker is not None and speaker in prompt.expected


def asked(heard: Heard, prompt: Prompt, speaker: str | None) -> bool:
    """The line came from a player the prompt waits for (see the module's rule)."""
    if prompt.discussion or not prompt.expected:
        return False
    by_voice = voice_seat(heard) if heard.speaker is None else None
    if by_voice is not None:  # known by voice: any player still awaited
        return by_voice in prompt.expected
    if heard.speaker is not None:  # who spoke is known: any player still awaited
        return speaker in prompt.expected
    return len(prompt.expected) == 1


def not_a_command(s: Session, prompt: Prompt, heard: Heard, understood: Understood,
                  speaker: str | None, called: bool) -> None:
    """A line not understood as a command: help when it was meant for the host, else
    ignore it (logged, with the soft cue where the module's rule gives one)."""
    if not prompt.discussion and lone_answer(s, prompt, heard):
        # "yes", "miss" to a question that is not yes-or-no: that question, again
        s.log.write("ignored", transcript=heard.text, speaker=heard.speaker,
                    why="answer_not_asked", source=heard.source, cue=False)
        answer_or_drop(s, prompt, [s.narrator.line("common.answer_not_asked"),
                                   *s.reminder(prompt)])
        return
    refusal = unknown_value_lines(s, prompt, heard, speaker, for_host=called or typed(heard)
                                  or asked(heard, prompt, speaker))
    if refusal is not None:  # "Frank yes": a command naming what the game does not have
        s.log.write("refused", reason=" ".join(line.text for line in refusal),
                    transcript=heard.text, speaker=speaker)
        answer_or_drop(s, prompt, list(refusal))
        return
    answer, why = answer_for(heard, understood, prompt, called=called, speaker=speaker,
                             phase=s.phase_grammar(prompt.phase)[0])
    if answer is Answer.HELP:
        answer_or_drop(s, prompt, [s.narrator.line("common.not_understood")])
        return
    if answer is Answer.REASK:
        player = by_name(heard, prompt, speaker)
        s.patience.misses += 1
        s.log.write("reask", transcript=heard.text, speaker=player, why=why,
                    misses=s.patience.misses, source=heard.source)
        answer_or_drop(s, prompt, [reask(s, prompt, player, s.patience.misses)])
        return
    s.log.write("ignored", transcript=heard.text, speaker=heard.speaker, why=why,
                source=heard.source, cue=answer is Answer.CUE)
    if answer is Answer.CUE:
        s.output.emit([Line("", lang=s.narrator.lang, cue="listening")])


def by_name(heard: Heard, prompt: Prompt, speaker: str | None) -> str:
    """The name of the player asked who said ``heard`` (see :func:`asked`)."""
    return voice_seat(heard) or speaker or (prompt.expected[0] if prompt.expected else "")


REASK_EXAMPLES = 2
"""Example sentences a short re-ask names."""


def needs(s: Session, prompt: Prompt, player: str) -> list[str]:
    """What the prompt needs, as a few of its phase's own example sentences that would be
    moves now, said by ``player`` (the adapter refuses none of them: no single votes when
    the leader gives the count): the first of each of its moves first ("pass", "I guess
    bell"), then the others."""
    from voice_host.host.core.commands import UNIVERSAL

    pg, matcher = s.phase_grammar(prompt.phase)
    own = [list(phrases) for intent, phrases in pg.help_phrases(REASK_EXAMPLES).items()
           if phrases and intent not in UNIVERSAL and intent not in pg.diagnostic_intents]
    ordered = [p for column in zip(*(o + [""] * REASK_EXAMPLES for o in own), strict=False)
               for p in column if p]
    fits = []
    kept = copy.deepcopy(s.adapter.host_state)  # interpreting may note what it read
    for phrase in ordered:
        match = matcher.match(phrase, speaker=player or None).best
        if match is not None and s.adapter.interpret(s.state, match,
                                                     player or None).action is not None:
            fits.append(phrase)
    s.adapter.host_state.clear()
    s.adapter.host_state.update(kept)
    return fits[:REASK_EXAMPLES]


def reask(s: Session, prompt: Prompt, player: str, misses: int) -> Line:
    """The re-ask of the ``misses``-th line of ``player`` the host could not read: short
    and naming what it needs; from the second on, one example sentence and the other ways
    to answer (the variants of each are said in turn: never the same twice in a row)."""
    examples = needs(s, prompt, player)
    if misses >= 2 and examples:
        other = "common.reask_other_phone" if s.phones is not None else "common.reask_other"
        return s.narrator.line("common.reask_example", player=player, example=examples[0],
                               other=s.narrator.text(other))
    if not examples:
        return s.narrator.line("common.reask_plain", player=player)
    said = examples[0] if len(examples) == 1 else s.narrator.text(
        "common.either", first=examples[0], second=examples[1])
    return s.narrator.line("common.reask", player=player, needs=said)
def lone_answer(s: Session, prompt: Prompt, heard: Heard) -> bool:
    """Whether ``heard`` is only an answer word ("yes", "miss", "touché"), perhaps with a
    word that carries nothing ("um, yes"), said where the phase asks no yes-or-no question."""
    settings = s.phase_grammar(prompt.phase)[0].settings
    text = heard.judgement.free_text if heard.judgement is not None else heard.text
    words = [w for w in tokenize(text or "") if w not in settings.discourse]
    return bool(words) and len(words) <= 2 and all(w in settings.answer_words for w in words)
