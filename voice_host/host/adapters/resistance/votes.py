"""Everyone's vote in one sentence: the ``votes`` intent's slots as the votes they give.

The grammar (``grammars/<lang>/resistance.toml``) reads a sentence as groups: runs of names
with their vote (``p1``/``v1`` ... ``p6``/``v6``: "Ada and Ben yes, Cleo no", "yes: Ada, Ben,
Eve"), the vote of "the rest" (``vr``), of "everyone" (``va``) and the players "except"
whom (``px``, voting the other way or as ``vx`` says). "The rest" and "everyone" are the
players who have not voted yet (by voice or on their phone) and are not named.

A player named twice with the same vote is taken, but only after a yes to the question
(:func:`named_twice`): nobody says a name twice in a sentence of votes, a recognizer looping
over the names does ("no Thomas, Hannah, Oliver and Emma, no Thomas, Hannah, Sophie" for
"yes Hannah, Oliver and Emma, no Thomas and Sophie").

A named player who already voted the same way is left out without a word (the table is
only saying again what was shown); one who already voted the other way makes the sentence
refused as a whole, and so does a player given both votes: nothing of it is taken, and the
reason is said.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from voice_host.games.resistance import ResistanceState

GROUPS = 6
"""Most groups of names the grammar reads in one sentence (p1/v1 ... p6/v6)."""
CHOICES = ("yes", "no")


@dataclass(frozen=True)
class Problem:
    """Why a vote sentence cannot be taken: the narration key under ``resistance.`` and its
    parameters (a ``vote`` parameter is True for yes)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


def read(state: ResistanceState, slots: Mapping[str, Any], order: Sequence[str]
         ) -> list[tuple[str, bool]] | Problem:
    """The new votes a sentence gives, in the order said ("the rest" in ``order``, the
    players still to vote from the leader), or the Problem that refuses it."""
    said: dict[str, bool] = {}
    named: list[tuple[str, bool]] = []
    for index in range(1, GROUPS + 1):
        choice = slots.get(f"v{index}")
        if choice in CHOICES:
            named.extend((player, choice == "yes") for player in _names(slots, f"p{index}"))
    everyone = slots.get("va")
    rest = slots.get("vr")
    if everyone in CHOICES:
        other = slots.get("vx")
        vote = other == "yes" if other in CHOICES else everyone != "yes"
        named.extend((player, vote) for player in _names(slots, "px"))
        rest = everyone
    for player, approve in named:
        if said.get(player, approve) is not approve:
            return Problem("votes_both", {"player": player})
        said[player] = approve
    already = state.votes
    for player, approve in said.items():
        if player in already and already[player] is not approve:
            return Problem("votes_already", {"player": player, "vote": already[player]})
    new = [(player, approve) for player, approve in said.items() if player not in already]
    if rest in CHOICES:
        new.extend((player, rest == "yes") for player in order
                   if player not in already and player not in said)
    if not new:
        return Problem("votes_nothing_new", {"players": tuple(order)})
    return new


def named_twice(slots: Mapping[str, Any]) -> bool:
    """True when the sentence names a player in two of its groups."""
    seen: set[str] = set()
    for slot in [f"p{index}" for index in range(1, GROUPS + 1)] + ["px"]:
        for player in _names(slots, slot):
            if player in seen:
                return True
            seen.add(player)
    return False


def _names(slots: Mapping[str, Any], slot: str) -> tuple[str, ...]:
    """A group's names: a run is a tuple, a single name (the long sentences) a string."""
    value = slots.get(slot, ())
    return (value,) if isinstance(value, str) else tuple(value)
