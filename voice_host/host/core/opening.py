"""The start of the session's loop: the game's opening (or, for a resumed game, where it
stands), then, with phones that must all be seated first, the wait for the seats."""

from __future__ import annotations

from typing import TYPE_CHECKING

from voice_host.host.core.values import Stop

if TYPE_CHECKING:
    from voice_host.host.core.session import Session


def begin(s: Session, *, fresh: bool) -> Stop | None:
    """Say the opening (a new game, saved at once) or that the game resumes, whose turn it
    is and whether it is paused; then wait for the phones' seats when the page asks for
    every seat before anything secret. A stop when the input ended meanwhile."""
    if s.companion is not None:
        s.companion.publish(s.state)
    if fresh:
        s.say(s.adapter.opening(s.state))
        s.save()
    else:
        s.say_key("common.resumed")
        if not s.state.is_terminal():  # whose turn it is, and what they are at
            s.say(s.adapter.status(s.state))
        if s.paused:  # paused before the stop: still paused
            s.say_key("common.paused_reminder")
    phones = s.phones
    if phones is not None and not phones.companion.seats.locked \
            and phones.companion.wait_for_everyone:
        return phones.wait_for_seats()
    return None
