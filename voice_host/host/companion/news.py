"""What the host says about the seats, and the host's part in moving one.

* Seat news is merged: the events of one seat since the last sentence become one sentence
  ("Eve's seat changed phones several times"), and the host speaks about seats at most every
  :data:`NEWS_GAP` seconds, so claiming and leaving in a loop cannot flood the room.
* A seat moved before the lock: the host says who must tap "That's me" again (the deal waits
  for them).
* A new phone asks for a held seat (or, once the seats are locked, for any seat): the host
  asks the table aloud, as a yes/no question of the session's loop, and gives the seat only
  on a yes.
* Move codes reach the host's screen only when typed at the host's keyboard, on a terminal,
  and are wiped from it (the terminal's alternate screen keeps no scrollback).

The session calls :func:`seat_news` and :func:`show_move_code` through the channel's
``say_seat_news`` and ``show_move_code`` (the ``Companion`` protocol of ``host/core/phones``);
everything said is a key of ``host/lang/<lang>/common.toml`` (``[companion]``)."""

from __future__ import annotations

import select
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from voice_host.games.base import find_player
from voice_host.host.companion.seats import SeatEvent
from voice_host.host.core.adapter import Prompt
from voice_host.host.core.questions import ask

if TYPE_CHECKING:
    from voice_host.host.companion.seat_room import SeatRoom
    from voice_host.host.core.session import Session

NEWS_GAP = 4.0
"""Seconds between two sentences about seats, at least."""
CODE_ON_SCREEN = 60.0
"""Seconds a move code stays on the host's screen at most (Enter hides it sooner)."""
ALT_SCREEN_ON = "\x1b[?1049h\x1b[H\x1b[2J"
ALT_SCREEN_OFF = "\x1b[2J\x1b[?1049l"
CHANGES = ("claimed", "moved", "released")


class SeatNews:
    """Seat events waiting to be said, merged per seat, at most every ``gap`` seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 gap: float = NEWS_GAP) -> None:
        self.clock = clock
        self.gap = gap
        self.pending: list[SeatEvent] = []
        self.last = float("-inf")

    def add(self, events: list[SeatEvent]) -> None:
        self.pending += [e for e in events if e.kind in (*CHANGES, "rotated")]

    def due(self, *, now_anyway: bool = False) -> tuple[list[tuple[str, dict[str, Any]]], bool]:
        """The sentences to say now (key, fields) and whether a seat moved among them;
        nothing while the last sentence is less than ``gap`` seconds old (unless
        ``now_anyway``: the host is about to lock the seats)."""
        now = self.clock()
        if not self.pending or (now - self.last < self.gap and not now_anyway):
            return [], False
        self.last = now
        by_seat: dict[str, list[str]] = {}
        for event in self.pending:
            by_seat.setdefault(event.seat, []).append(event.kind)
        self.pending = []
        said: list[tuple[str, dict[str, Any]]] = []
        moved = False
        for seat, kinds in by_seat.items():
            changes = [k for k in kinds if k in CHANGES]
            if len(changes) > 1:
                said.append(("companion.changed_many", {"name": seat}))
                moved = True
            elif changes:
                said.append((f"companion.{changes[0]}", {"name": seat}))
                moved = moved or changes[0] == "moved"
            if "rotated" in kinds:
                said.append(("companion.rotated", {"name": seat}))
        return said, moved


def seat_news(channel: SeatRoom, session: Session) -> bool:
    """Say what changed on the seats (merged), who must confirm again after a move, and ask
    the table about a phone that asks for a seat. True when anything was said."""
    news: SeatNews = channel.news
    news.add(channel.take_seat_events())
    seats = channel.seats
    sentences, moved = news.due(now_anyway=not seats.locked and seats.all_confirmed())
    lines = [session.narrator.line(key, **fields) for key, fields in sentences]
    if moved and not seats.locked and channel.wait_for_everyone:
        again = [s.name for s in seats.seats() if s.claimed and not s.confirmed]
        if again:
            lines.append(session.narrator.line("companion.confirm_again",
                                               names=session.narrator.names(again)))
    session.say(lines)
    asked = ask_table(channel, session)
    return bool(lines) or asked


def ask_table(channel: SeatRoom, session: Session) -> bool:
    """A new phone asks for a seat: ask the table aloud, as a question of the session's
    loop (its next listen is for the answer, :func:`seat_answered`); only a yes gives the
    phone the seat. False when no phone asks, or a question already waits."""
    request = channel.seats.pending_request()
    if request is None or session.question is not None:
        return False
    name = request.seat
    held = any(s.name == name and s.claimed for s in channel.seats.seats())
    question = [session.narrator.line("companion.asked" if held else "companion.asked_free",
                                      name=name)]
    prompt = Prompt(lines=tuple(question), phase="answer", expected=(),
                    key="companion.asked")
    ask(session, prompt, question, lambda yes: seat_answered(channel, session, name, yes))
    return True


def seat_answered(channel: SeatRoom, session: Session, name: str, yes: bool | None) -> None:
    """The table's answer about ``name``'s seat: a yes moves it to the new phone; a no, or
    no answer, keeps it where it was. The game goes on either way (no stop)."""
    channel.seats.answer(name, yes is True)
    if yes is not True:
        session.say_key("companion.move_refused", name=name)
    # the move itself ("moved") and who must confirm again follow as seat news
    channel.news.last = float("-inf")


def show_move_code(channel: SeatRoom, session: Session, name: str) -> None:
    """The host typed "move code for Ada" at the keyboard: the code shows on the host's
    terminal until Enter (or :data:`CODE_ON_SCREEN` s), then is wiped. Said aloud, or with
    no terminal to wipe, it is refused: the player's own phone shows its code."""
    heard = session.last_heard
    screen = session.screen
    if heard is not None and heard.spoken:
        session.say_key("companion.move_code_typed_only")
        return
    seat = find_player(session.state.players, name)
    code = channel.move_code(seat) if seat else None
    if seat is None or code is None:
        session.say_key("companion.move_code_none", name=seat or name)
        return
    if not _is_terminal(screen):
        session.say_key("companion.move_code_no_screen", name=seat)
        return
    line = session.narrator.line("companion.move_code_screen", name=seat,
                                 code=f"{code[:3]} {code[3:]}")
    hint = session.narrator.line("companion.move_code_hide")
    screen.write(f"{ALT_SCREEN_ON}{line.text}\n\n{hint.text}\n")
    screen.flush()
    try:
        wait_for_enter(getattr(session, "keyboard", None) or sys.stdin, CODE_ON_SCREEN)
    finally:
        screen.write(ALT_SCREEN_OFF)
        screen.flush()
    session.say_key("companion.move_code_shown", name=seat)


def _is_terminal(screen: Any) -> bool:
    try:
        return bool(screen.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def wait_for_enter(keyboard: Any, timeout: float) -> None:
    """Until a line is typed on ``keyboard`` or ``timeout`` seconds pass."""
    try:
        ready, _, _ = select.select([keyboard.fileno()], [], [], timeout)
    except (AttributeError, ValueError, OSError):
        ready = [keyboard]
    if ready:
        keyboard.readline()
