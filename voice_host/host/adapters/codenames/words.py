"""How Codenames is said in the game's language: teams, colours, numbers, guesses left and
refusals, shared by the prompts, the interpretation, the narration and the queries."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from voice_host.games import IllegalAction
from voice_host.games.codenames import CodenamesState, Colour, Team
from voice_host.host.core.adapter import BaseAdapter
from voice_host.host.core.narration import Narrator, capitalized
from voice_host.host.core.refusals import refusal_text
from voice_host.host.core.values import Line

GAME = "codenames"


def refusal_words(narrator: Narrator, error: IllegalAction) -> dict[str, Any]:
    """A refusal's teams and colours in the game's words: a team by its name ("bleue"), a
    covered tile's colour as the board says it ("un passant"), a key colour (``tile``) as
    the key names it ("neutre"). Names, numbers and words need none."""
    said: dict[str, Any] = {}
    for name, value in error.params.items():
        if isinstance(value, Team):
            said[name] = narrator.text(f"codenames.team_name.{value.value}")
        elif isinstance(value, Colour):
            table = "key.colour" if name == "tile" else "colour_name"
            said[name] = narrator.text(f"codenames.{table}.{value.value}")
    return said


def per_team(pairs: Sequence[tuple[str, int]]) -> dict[str, Any]:
    """(("red", 3), ("blue", 5)) as narration fields red=3, blue=5."""
    return {team: count for team, count in pairs}


class CodenamesWords(BaseAdapter):
    """The session's options, narrator and secret sink (:class:`BaseAdapter`), with
    Codenames' own ways of saying things."""

    game = GAME

    @property
    def lang(self) -> str:
        return self.narrator.lang

    def t(self, key: str, **params: Any) -> str:
        return self.narrator.text(f"codenames.{key}", **params)

    def line(self, key: str, *, cue: str | None = None, **params: Any) -> Line:
        return self.narrator.line(f"codenames.{key}", cue=cue, **params)

    def team(self, team: Team) -> str:
        return self.t(f"team_name.{team.value}")

    def colour(self, colour: Colour) -> str:
        return self.t(f"colour_name.{colour.value}")

    def number(self, n: int | None) -> str:
        if n is None:
            return self.t("unlimited")
        key = f"codenames.number.{n}"
        return self.narrator.text(key) if self.narrator.has(key) else str(n)

    def ordinal(self, n: int) -> str:
        key = f"codenames.ordinal.{n}"
        return self.narrator.text(key) if self.narrator.has(key) else str(n)

    def guesses(self, n: int) -> str:
        if n == 1:
            return self.t("guesses_one")
        return self.t("guesses_many", n=self.number(n))

    def names(self, names: Sequence[str]) -> str:
        return self.narrator.names(names)

    def left_params(self, s: CodenamesState) -> dict[str, Any]:
        return {"red": s.remaining(Team.RED), "blue": s.remaining(Team.BLUE)}

    def guesses_left(self, s: CodenamesState) -> str:
        left = s.guesses_left
        if left is None:
            return self.t("guess_more_unlimited")
        return capitalized(self.t("guess_more", count=self.guesses(left)))

    def refusal(self, error: IllegalAction) -> str:
        """A rule's refusal (the engine's code) as a sentence of the game's language."""
        return refusal_text(self.narrator, error, refusal_words)
