"""How long the host waits, and when it speaks up while nobody answers.

Silence is measured in seconds (each silent listen counts what it waited, at least the
listen's timeout), and any speech at the table -- table talk included -- means people are
there: it starts the quiet time again.

* **A discussion** (``Prompt.discussion``: a team proposal, an accusation, a clue being
  thought of, a Speaker composing): silence never pauses the game. The host re-prompts
  briefly -- only the prompt's short reminder -- after :data:`DISCUSSION_FIRST` seconds of
  quiet, then after twice as long each time, up to :data:`DISCUSSION_CAP`; the first
  re-prompt also says, once, how to get help.
* **Any other prompt**: the first re-prompt ("I did not hear anything" and the reminder)
  comes after one silence timeout, the next ones twice as far apart each time, up to
  :data:`PROMPT_CAP`; the game pauses only after ``pause_after`` seconds with nobody
  speaking at all (:data:`DEFAULT_PAUSE_AFTER`, set with ``--pause-after``).
* **A countdown** (Ici Londres' transmission) keeps its clock: when it runs out the time is
  up, as before.
* **Phones answering** (votes, picks or guesses also taken on the phones, or a secret
  card only they take): no "I did not hear anything" -- a table tapping phones is quiet on
  purpose. The host says once whom it still waits for, then only when asked.
* **Paused**: nothing is said; a command, or a valid move, goes on with the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from voice_host.host.core.adapter import Prompt

if TYPE_CHECKING:
    from voice_host.host.core.session import Session

DISCUSSION_FIRST = 45.0
"""Seconds of quiet in a discussion before the first re-prompt."""
DISCUSSION_CAP = 240.0
"""Longest wait between two re-prompts in a discussion."""
PROMPT_CAP = 120.0
"""Longest wait between two re-prompts of any other prompt."""
DEFAULT_PAUSE_AFTER = 300.0
"""Seconds with nobody speaking before the host pauses (outside discussions)."""
PAUSE_AFTER_RANGE = (60.0, 3600.0)
"""The bounds of ``--pause-after``: one minute to one hour."""


class Patience:
    """The quiet time of the current prompt and when the host speaks up next."""

    def __init__(self, silence_timeout: float, pause_after: float) -> None:
        self.silence_timeout = silence_timeout
        self.pause_after = pause_after
        self.quiet = 0.0
        """Seconds since anyone spoke (or since the prompt was said)."""
        self.since_said = 0.0
        """Seconds since the host last spoke up (the prompt or a re-prompt)."""
        self.reprompts = 0
        """Re-prompts of the current prompt so far."""
        self.help_said = False
        """The discussion's one hint of how to get help was said."""
        self.misses = 0
        """Lines of the player asked that the host could not read, since the prompt (or
        the last move): the re-asks say more after two (``attention.reask``)."""

    def new_prompt(self) -> None:
        """A new prompt was said: its own schedule starts."""
        self.quiet = self.since_said = 0.0
        self.reprompts = 0
        self.help_said = False
        self.misses = 0

    def heard(self) -> None:
        """Someone spoke (a move, a command, table talk, a phone's answer)."""
        self.quiet = self.since_said = 0.0

    def interval(self, prompt: Prompt) -> float:
        """Seconds of quiet before the next re-prompt of ``prompt``."""
        first, cap = (DISCUSSION_FIRST, DISCUSSION_CAP) if prompt.discussion \
            else (self.silence_timeout, PROMPT_CAP)
        return min(cap, first * 2 ** self.reprompts)

    def on_silence(self, s: Session, prompt: Prompt, waited: float) -> None:
        """Nobody spoke for ``waited`` seconds while ``prompt`` waited."""
        if prompt.countdown and not s.paused:  # a paused game's clock does not run
            action = s.adapter.on_timeout(s.state)
            s.log.write("timeout", expected=list(prompt.expected))
            if action is not None:
                s.apply(action)
            return
        if s.paused:
            return
        self.quiet += waited
        self.since_said += waited
        if not prompt.discussion and self.quiet >= self.pause_after:
            s.paused = True
            self.heard()
            s.log.write("paused", reason="absence", seconds=round(self.pause_after))
            s.say_key("common.waiting")
            s.save()
            return
        if self.since_said < self.interval(prompt):
            return
        waiting = s.phones.waiting_line(prompt) if s.phones is not None else None
        if waiting is not None:
            # phones answer this prompt: whom the host waits for, once; then quiet (a
            # repeat or status still says it when asked)
            if self.reprompts == 0:
                self.reprompts = 1
                self.since_said = 0.0
                s.log.write("reprompt", phase=prompt.phase, discussion=prompt.discussion,
                            count=self.reprompts, phones=True)
                s.say([waiting])
            return
        self.reprompts += 1
        self.since_said = 0.0
        s.log.write("reprompt", phase=prompt.phase, discussion=prompt.discussion,
                    count=self.reprompts)
        if prompt.discussion:
            lines = list(s.reminder(prompt))
            if not self.help_said:
                self.help_said = True
                lines.append(s.narrator.line("common.discussion_help"))
            s.say(lines)
            return
        s.say([s.narrator.line("common.silence"), *s.reminder(prompt)])
