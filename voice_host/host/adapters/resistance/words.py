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
        night = options.get("night") or "auto"
        # the phones show each player their role and who the spies are: the night keeps
        # its eyes-closed ritual but not the looks the phones already told
        self.short_night = night == "short" or (night == "auto" and self.companion)

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

    def echoed_votes(self, state: ResistanceState) -> list[tuple[str, bool]]:
        """The votes the last spoken vote sentence recorded, to repeat back, when they are
        the last votes taken (none when a phone's vote came after them, or the sentence
        was not applied: a refusal, a "no" to its confirmation, an undo)."""
        count, votes = self._echo()
        if count != len(state.votes) or any(state.votes.get(p) is not v for p, v in votes):
            return []
        return votes

    def sentence_of(self, state: ResistanceState, first: tuple[str, bool]
                    ) -> list[tuple[str, bool]]:
        """The votes of the spoken sentence that ``first`` opens, while none of them is taken
        yet (being confirmed, or just taken back by an undo): to say the whole sentence, not
        its first vote. Empty when ``first`` opens no such sentence."""
        count, votes = self._echo()
        if (not votes or votes[0] != first or count != len(state.votes) + len(votes)
                or any(p in state.votes for p, _ in votes)):
            return []
        return votes

    def _echo(self) -> tuple[int | None, list[tuple[str, bool]]]:
        """What :meth:`remember_echo` kept: the number of votes taken once the sentence is
        recorded, and its votes (None and none when nothing was kept)."""
        echo = self.host_state.get("vote_echo")
        if not isinstance(echo, dict):
            return None, []
        return echo.get("count"), [(str(p), bool(v)) for p, v in echo.get("votes", ())]

    def addressed(self, state: ResistanceState) -> str | None:
        """The player a plain "yes" (nobody named, speaker unknown) is the vote of: the first
        still to vote, whom the vote prompt asks by name. None while no vote has been taken:
        the first prompt, right after the count-in, asks the whole table, so a "yes" that
        answers something else (the proposal just made) is never a vote."""
        if not state.votes:
            return None
        order = self.voting_order(state)
        return order[0] if order else None

    def remember_echo(self, state: ResistanceState, votes: Sequence[tuple[str, bool]]
                      ) -> None:
        """Keep what a spoken vote sentence is about to record, for the next prompt to
        repeat back (see :meth:`echoed_votes`)."""
        self.host_state["vote_echo"] = {"count": len(state.votes) + len(votes),
                                        "votes": [[p, v] for p, v in votes]}

    def night_pending(self, state: ResistanceState) -> bool:
        return (state.phase() == Phase.TEAM and state.mission == 1
                and not state.vote_history and not self.host_state.get("night_done"))
