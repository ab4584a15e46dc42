"""What every part of the Resistance host shares: the session's options, its narrator and the
small facts about the table that prompts, interpretation, narration and queries all need."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from voice_host.games.resistance import Phase, ResistanceState
from voice_host.host.core.adapter import BaseAdapter
from voice_host.host.core.secrets import SecretSink
from voice_host.host.core.values import Line

GAME = "resistance"


class ResistanceWords(BaseAdapter):
    """The options of one session and the narrator's helpers."""

    game = GAME

    def __init__(self, options: dict[str, Any], *, secret_sink: SecretSink | None = None
                 ) -> None:
        super().__init__(options, secret_sink=secret_sink)
        self.count_votes = options.get("votes") == "count"
        # host deal with the companion pages: mission cards are chosen on the phones
        self.companion = bool(options.get("companion")) and options.get("deal") == "host"
        self.look_pause = float(options.get("night_pause", 5.0))

    def line(self, key: str, /, **params: Any) -> Line:
        return self.narrator.line(f"resistance.{key}", **params)

    def text(self, key: str, /, **params: Any) -> str:
        return self.narrator.text(f"resistance.{key}", **params)

    def names(self, names: Sequence[str]) -> str:
        return self.narrator.names(list(names))

    def variant(self, state: ResistanceState) -> int:
        """A variant index that depends only on the game (so a resumed game says the same)."""
        return len(state.vote_history) + state.mission - 1

    def companion_votes(self) -> bool:
        """Players have the companion page open and may vote on it."""
        return bool(self.options.get("companion")) and not self.count_votes

    def count_phase(self) -> str:
        """The grammar phase of count mode: the leader says how many voted yes. It is a
        phase of its own so that, in ordinary votes, "I vote yes" cannot be heard as a
        count ("we got two yes")."""
        return "count"

    def voting_order(self, state: ResistanceState) -> list[str]:
        """Players still to vote, in seating order starting with the leader."""
        players = list(state.players)
        start = players.index(state.leader) if state.leader in players else 0
        votes = state.votes
        return [p for p in players[start:] + players[:start] if p not in votes]

    def night_pending(self, state: ResistanceState) -> bool:
        return (state.phase() == Phase.TEAM and state.mission == 1
                and not state.vote_history and not self.host_state.get("night_done"))
