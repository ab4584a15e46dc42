"""The Codenames adapter: one object per session, the game's voice behind
:class:`voice_host.host.core.adapter.GameAdapter`, each concern in its own module."""

from __future__ import annotations

from typing import Any

from voice_host.games import GameState
from voice_host.games.codenames import CodenamesState
from voice_host.host.adapters.codenames import interpret, narrate, prompts, queries, recap
from voice_host.host.adapters.codenames.words import CodenamesWords
from voice_host.host.core.messages import OptionError
from voice_host.wording import Term


def new_game(options: dict[str, Any]) -> GameState:
    """A fresh game from the JSON-able options (red, blue, deal, first, words,
    invalid_clue), every option present: the registry fills in the registration's
    defaults."""
    red = list(options.get("red") or [])
    blue = list(options.get("blue") or [])
    if len(red) + len(blue) >= 4 and min(len(red), len(blue)) < 2:
        small, big = (red, blue) if len(red) < 2 else (blue, red)
        moved = big[-1]
        fixed_red = [*red, moved] if small is red else red[:-1]
        fixed_blue = blue[:-1] if small is red else [*blue, moved]
        which = Term("red", "red") if small is red else Term("blue", "blue")
        raise OptionError("options.team_too_small", which=which, n=len(small),
                          red=",".join(fixed_red), blue=",".join(fixed_blue))
    return CodenamesState.new(
        [*red, *blue], deal=options["deal"], red_size=len(red) or None,
        first=options.get("first"),
        # unset: the game's language's words (as CodenamesOptions completes it)
        words=options.get("words") or options.get("lang") or "en",
        invalid_clue=options["invalid_clue"])


class Adapter(CodenamesWords):
    """The Codenames adapter (see :class:`voice_host.host.core.adapter.GameAdapter`): the
    words of :class:`CodenamesWords`, and each protocol method its concern module's function."""

    plausible = interpret.plausible
    opening = narrate.opening
    narrate = narrate.narrate
    prompt = prompts.prompt
    slot_values = staticmethod(prompts.slot_values)
    interpret = interpret.interpret
    describe = queries.describe
    score = queries.score
    board = queries.board
    status = queries.status
    tried = queries.tried
    recap = recap.recap
