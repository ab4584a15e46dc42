"""Demo players for Resistance: a legal move for the prompt, phrased as a player would say it
(used by ``demo``, ``simulate`` and the tests through the game's registration; not part of
the host a table plays with)."""

from __future__ import annotations

import random
from typing import Any

from voice_host.games import GameState
from voice_host.games.base import Deal
from voice_host.games.resistance import Phase, ResistanceState, Role
from voice_host.host.adapters.resistance.words import ResistanceWords
from voice_host.host.core.adapter import GameAdapter, Prompt, narrow


def bot_utterance(adapter: GameAdapter, state: GameState, prompt: Prompt,
                  rng: random.Random) -> tuple[str, str]:
    """(speaker, what they say) for ``prompt``."""
    assert isinstance(adapter, ResistanceWords)
    s = narrow(state, ResistanceState)
    phase = s.phase()
    leader = s.leader or s.players[0]
    if phase == Phase.TEAM:
        return leader, _team(adapter, s, leader, rng)
    if phase == Phase.VOTE and adapter.count_votes:
        n = min(len(s.players), 9)  # the grammar's numbers stop at nine
        yes = rng.randint(n // 2, n) if rng.random() < 0.7 or s.rejections >= 3 \
            else rng.randint(0, n // 2)
        return leader, _said(adapter, "count", rng,
                             number=_said(adapter, "number." + str(yes), rng))
    if phase == Phase.VOTE:
        voter = prompt.expected[0] if prompt.expected else adapter.voting_order(s)[0]
        approve = rng.random() < (0.9 if s.rejections >= 3 else 0.65)
        return voter, _said(adapter, "vote_yes" if approve else "vote_no", rng)
    if phase == Phase.MISSION:
        return leader, _sabotages(adapter, s, rng)
    if phase == Phase.ACCUSE:
        spies = s.spies()
        candidates = [p for p in s.players if p not in (spies or ())]
        speaker = spies[0] if spies else (prompt.expected[0] if prompt.expected
                                          else s.players[0])
        return speaker, _said(adapter, "accuse", rng, player=rng.choice(candidates))
    if phase == Phase.ANSWER:
        accused = s.accused or s.players[0]
        return accused, _said(adapter, "answer_yes" if rng.random() < 0.3 else "answer_no", rng)
    return (prompt.expected[0] if prompt.expected else s.players[0]), "status"


def _said(voice: ResistanceWords, key: str, rng: random.Random, **params: Any) -> str:
    """A player's phrase; among variants one is picked at random (modulo the list)."""
    return voice.narrator.text(f"resistance.bot.{key}", variant=rng.randrange(720), **params)


def _team(voice: ResistanceWords, s: ResistanceState, leader: str, rng: random.Random) -> str:
    size = s.team_size()
    with_leader = rng.random() < 0.6
    others = [p for p in s.players if p != leader]
    chosen = rng.sample(others, size - 1) + [leader] if with_leader \
        else rng.sample(others, size)
    team = [p for p in s.players if p in chosen]
    if with_leader and rng.random() < 0.5:
        team = [p for p in team if p != leader] + [voice.text("bot.me")]
    return _said(voice, "team", rng, team=voice.names(team))


def _sabotages(voice: ResistanceWords, s: ResistanceState, rng: random.Random) -> str:
    team = s.proposed_team or ()
    if s.deal is Deal.HOST:
        count = sum(1 for p in team if s.role_of(p) is Role.SPY and rng.random() < 0.6)
    else:
        top = min(len(team), s.role_counts().spies)
        count = min(top, rng.choices([0, 1, 2], weights=[5, 4, 1])[0])
    if count == 0:
        return _said(voice, "sabotages_0", rng)
    if count == 1:
        return _said(voice, "sabotages_1", rng)
    return _said(voice, "sabotages_n", rng, number=voice.text(f"bot.number.{count}"))
