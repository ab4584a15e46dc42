"""What every part of the Ici Londres host shares: the session's narrator and options, the
host's own facts about the round (``host_state``), and the game's words in the session's
language (icons, points, rounds, scores, transmission types)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from voice_host.games.base import module_name
from voice_host.games.ici_londres import GAME, IciLondresState, Transmission
from voice_host.host.core.adapter import BaseAdapter
from voice_host.host.core.values import Line

NS = module_name(GAME)
"""The game's narration table (``[ici_londres]`` in ``host/lang/<lang>/ici-londres.toml``)."""
RADIO_LANG = "fr"
"""The BBC announcer speaks French in every game."""


class IciLondresWords(BaseAdapter):
    """The game's words for one session, and the host's facts of the round.

    ``host_state`` (saved with the game) holds only ``aired`` and ``recorded`` (the round
    numbers whose broadcast and sentence are done) and ``sentence`` (the typed sentence or a
    caption, "" for raw audio): the recording itself is never saved."""

    game = GAME

    # ------------------------------------------------------------------ sentences

    def text(self, key: str, **params: Any) -> str:
        """The sentence of ``ici_londres.<key>``."""
        return self.narrator.text(f"{NS}.{key}", **params)

    def line(self, key: str, **params: Any) -> Line:
        """The narrator's line of ``ici_londres.<key>``."""
        return self.narrator.line(f"{NS}.{key}", **params)

    def bot_text(self, key: str, *, variant: int, **params: Any) -> str:
        """How a player would say it (``ici_londres.bot.<key>``): demo players, and the
        example in the competing prompt."""
        return self.narrator.text(f"{NS}.bot.{key}", variant=variant, **params)

    # ------------------------------------------------------------------ the game's words

    def icon(self, name: str) -> str:
        """An icon as the narrator says it ("the heart", "le cœur")."""
        return self.text(f"icon.{name}")

    def icons(self, names: Sequence[str]) -> str:
        return self.narrator.names([self.icon(n) for n in names])

    def say_icon(self, name: str) -> str:
        """An icon as a player says it ("heart" in English, "le cœur" in French)."""
        return self.narrator.text(f"{NS}.bot.say_icon", icon=name, the=self.icon(name))

    def points(self, n: int) -> str:
        return self.text("info.point_one" if n == 1 else "info.point_many", n=n)

    def rounds(self, n: int) -> str:
        return self.text("info.round_one" if n == 1 else "info.round_many", n=n)

    def scores(self, pairs: Sequence[tuple[str, int]], *, ranked: bool = False) -> str:
        items = list(pairs)
        if ranked:
            items.sort(key=lambda item: -item[1])
        return self.narrator.names(
            [self.text("info.score_item", player=p, points=self.points(n)) for p, n in items])

    @staticmethod
    def title(mode: Transmission) -> str:
        """A transmission type's name: the French one on the rules card, in every game."""
        return mode.french_title

    def rules(self, mode: Transmission) -> str:
        return self.text(f"mode_rules.{mode.value}")

    # ------------------------------------------------------------------ the host's facts

    def aired(self, state: IciLondresState) -> bool:
        """The round's broadcast is done."""
        return self.host_state.get("aired") == state.round_number

    def recorded(self, state: IciLondresState) -> bool:
        """The round's coded sentence is recorded."""
        return self.host_state.get("recorded") == state.round_number
