"""Table talk for ``voice-host demo``: the scripted players chat between moves, as a real
table does -- about the snacks, about each other, about the game (a player's name, "the
team", "that clue") -- and every line goes through the real recognizer like a move. The host
must answer none of them and none may change the game; :class:`ChatterTally` counts both.

The lines are everyday talk, not commands: none is a vote, a number, a pick or one of the
universal commands said in passing; "yes" and "no" are left out too (whether a stray "yes"
is taken as a vote is the vote's own question, not table talk's)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from voice_host.host.core.values import Line, Output, Style

COMMON = (
    "Can someone pass the crisps?",
    "Whose turn is it to get the drinks?",
    "Hang on, I need a second to think.",
    "Ha, I knew that would happen.",
    "Honestly, I have no idea what is going on.",
    "Did anyone see where I put my glass?",
    "This is getting really tense.",
    "Okay, okay, give me a moment.",
    "{name}, you have been awfully quiet tonight.",
    "I'm watching you, {name}.",
    "{name} has that look on their face again.",
    "We should have listened to {name} earlier.",
    "Is it just me or is it cold in here?",
    "That was a clever move, I have to admit.",
    "Let's not take forever this time.",
)
"""Talk any table has."""

BY_GAME = {
    "resistance": (
        "I really don't trust {name} right now.",
        "This team feels a bit risky to me.",
        "Who went on the last mission again?",
        "If {name} is a spy I am going to be so annoyed.",
        "The leader always picks their friends.",
        "Somebody on that mission is lying.",
        "I'd rather not see {name} on the team this time.",
        "Trust me, I am the most loyal person here.",
    ),
    "codenames": (
        "That clue could mean three different things.",
        "I think our spymaster is overthinking it.",
        "{name}, what were you thinking with that word?",
        "Whatever you do, stay away from the assassin.",
        "I'm sure it's the one in the corner.",
    ),
    "ici-londres": (
        "That message made no sense at all.",
        "I think I heard something about a cat.",
        "{name}, your radio voice is amazing.",
        "The Speaker is enjoying this far too much.",
    ),
}
"""Talk about the game being played (names, "team", "mission", "clue")."""


def chatter_line(game: str, speaker: str, players: Sequence[str], rng: random.Random) -> str:
    """One line of table talk by ``speaker``, about another player when it names one."""
    line = rng.choice(COMMON + BY_GAME.get(game, ()))
    others = [p for p in players if p != speaker] or list(players)
    return line.format(name=rng.choice(others))


class CountingOutput:
    """An Output that passes every line on and counts the host's spoken ones (words said
    aloud; a cue alone and a private secret are not speech)."""

    def __init__(self, inner: Output) -> None:
        self.inner = inner
        self.spoken = 0
        self.cues = 0
        self.said: list[str] = []

    def emit(self, lines: Sequence[Line]) -> None:
        for line in lines:
            if line.style is Style.PRIVATE:
                continue
            if line.text.strip():
                self.spoken += 1
                self.said.append(line.text)
            elif line.cue:
                self.cues += 1
        self.inner.emit(lines)

    def adjust(self, *, rate: int = 0, volume: float = 0.0) -> str:
        return self.inner.adjust(rate=rate, volume=volume)

    def tick(self, remaining: int) -> None:
        self.inner.tick(remaining)

    def close(self) -> None:
        self.inner.close()


@dataclass
class ChatterTally:
    """What the host did with the demo's table talk."""

    lines: int = 0
    """Chatter lines said."""
    answered: int = 0
    """Lines the host said something aloud to (before it next listened)."""
    cued: int = 0
    """Lines that got only the soft listening cue."""
    changed: int = 0
    """Lines after which the game was not the same (a move was taken from talk)."""
    answers: list[str] = field(default_factory=list)
    """What the host said to chatter (empty when it kept quiet, as it should)."""
    _pending: tuple[int, int, str] | None = None

    def said(self, output: CountingOutput, state: Any) -> None:
        """A chatter line is about to be handed to the host."""
        self.lines += 1
        self._pending = (output.spoken, output.cues, _fingerprint(state))

    def next_listen(self, output: CountingOutput, state: Any) -> None:
        """The host listens again: what it did with the last chatter line is known."""
        if self._pending is None:
            return
        spoken, cues, before = self._pending
        self._pending = None
        if output.spoken > spoken:
            self.answered += 1
            self.answers.extend(output.said[spoken:])
        elif output.cues > cues:
            self.cued += 1
        if _fingerprint(state) != before:
            self.changed += 1

    def summary(self) -> str:
        return (f"Table talk: {self.lines} chatter lines; the host answered {self.answered} "
                f"(target 0), {self.cued} got only the listening cue, {self.changed} changed "
                f"the game (target 0).")


def _fingerprint(state: Any) -> str:
    return json.dumps(state.to_json(), sort_keys=True, default=str)
