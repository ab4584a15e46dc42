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

The one sound a silent line may get is the soft ``listening`` cue, and only where a player
was asked for something, outside a discussion: the prompt names the player who answers
("Hannah, how many sabotage cards?", "Still to vote: ... Hannah?"), and the line came from
that player (when the speaker is known) or, when it is not known (a microphone), the prompt
waits for that one player alone. It tells the player the host is still waiting for their
answer without talking over the table."""

from __future__ import annotations

import enum
import tomllib
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from voice_host.host.core.adapter import Prompt
from voice_host.host.core.understanding import Understood
from voice_host.host.core.unknown_values import unknown_value_lines
from voice_host.host.core.values import Heard, Line
from voice_host.intent.grammar import grammar_dir
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
    CUE = "cue"
    """Only the soft listening cue (the player asked by name said something else)."""
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
               speaker: str | None) -> tuple[Answer, str]:
    """What to do with a line that was not understood as a command, and why (logged)."""
    if called:
        return Answer.HELP, "addressed"
    if typed(heard):
        return Answer.HELP, "typed"
    if near_miss(heard, understood):
        return Answer.HELP, "near_miss"
    return (Answer.CUE if asked(heard, prompt, speaker) else Answer.SILENT), \
        understood.why_not or "no_match"


def asked(heard: Heard, prompt: Prompt, speaker: str | None) -> bool:
    """The line came from the player the prompt asks (see the module's rule for the cue)."""
    if prompt.discussion or not prompt.expected:
        return False
    if heard.speaker is not None:  # who spoke is known: the one named first is asked
        return speaker == prompt.expected[0]
    return len(prompt.expected) == 1


def not_a_command(s: Session, prompt: Prompt, heard: Heard, understood: Understood,
                  speaker: str | None, called: bool) -> None:
    """A line not understood as a command: help when it was meant for the host, else
    ignore it (logged, with the soft cue where the module's rule gives one)."""
    if not prompt.discussion and lone_answer(s, prompt, heard):
        # "yes", "miss" to a question that is not yes-or-no: that question, again
        s.log.write("ignored", transcript=heard.text, speaker=heard.speaker,
                    why="answer_not_asked", source=heard.source, cue=False)
        s.say([s.narrator.line("common.answer_not_asked"), *s.reminder(prompt)])
        return
    refusal = unknown_value_lines(s, prompt, heard, speaker, for_host=called or typed(heard)
                                  or asked(heard, prompt, speaker))
    if refusal is not None:  # "Frank yes": a command naming what the game does not have
        s.log.write("refused", reason=" ".join(line.text for line in refusal),
                    transcript=heard.text, speaker=speaker)
        s.say(refusal)
        return
    answer, why = answer_for(heard, understood, prompt, called=called, speaker=speaker)
    if answer is Answer.HELP:
        s.say([s.narrator.line("common.not_understood")])
        return
    s.log.write("ignored", transcript=heard.text, speaker=heard.speaker, why=why,
                source=heard.source, cue=answer is Answer.CUE)
    if answer is Answer.CUE:
        s.output.emit([Line("", lang=s.narrator.lang, cue="listening")])


def lone_answer(s: Session, prompt: Prompt, heard: Heard) -> bool:
    """Whether ``heard`` is only an answer word ("yes", "miss", "touché"), perhaps with a
    word that carries nothing ("um, yes"), said where the phase asks no yes-or-no question."""
    settings = s.phase_grammar(prompt.phase)[0].settings
    text = heard.judgement.free_text if heard.judgement is not None else heard.text
    words = [w for w in tokenize(text or "") if w not in settings.discourse]
    return bool(words) and len(words) <= 2 and all(w in settings.answer_words for w in words)
