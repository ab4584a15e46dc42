"""Demo players for Resistance: a legal move for the prompt, phrased as a player would say it
(used by ``demo``, ``simulate`` and the tests through the game's registration; not part of
the host a table plays with)."""

from __future__ import annotations

import random
from typing import Any

from voice_host.games import GameState
from voice_host.games.base import Deal
from voice_host.games.resistance import Phase, ResistanceState, Role
from voice_host.host.adapters.resistance import prompts
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
        return _votes(adapter, s, rng)
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
    return (prompt.expected[0] if prompt.expected else s.players[0]), adapter.text("bot.status")


WHOLE_TABLE = 0.75
"""How often the first speaker after the count-in says everyone's vote in one sentence."""
THE_REST = 0.5
"""How often, once some votes are in, one player says all the others'."""


def _votes(voice: ResistanceWords, s: ResistanceState, rng: random.Random) -> tuple[str, str]:
    """A table's way of voting: usually one player (the leader, right after the count-in)
    says everyone's vote in one sentence ("Hannah, Thomas and Emma yes; Sophie and Oliver
    no", "everyone yes", "all yes except Oliver"); sometimes a few votes first, then the
    rest in one sentence or one by one."""
    order = voice.voting_order(s)
    shown = _shown_votes(voice, s)
    if not s.votes:
        speaker = s.leader or order[0]
        if rng.random() < WHOLE_TABLE or len(order) < 3:
            return speaker, _whole_table(voice, [(p, shown[p]) for p in order], rng)
        some = order[:rng.randint(1, len(order) - 2)]
        return speaker, prompts.said_votes(voice, [(p, shown[p]) for p in some])
    if len(order) > 1 and rng.random() < THE_REST:
        return order[0], prompts.said_votes(voice, [(p, shown[p]) for p in order])
    return order[0], _said(voice, "vote_yes" if shown[order[0]] else "vote_no", rng)


def _shown_votes(voice: ResistanceWords, s: ResistanceState) -> dict[str, bool]:
    """The thumbs each player showed on the count-in: drawn once per vote (from the game's
    seed, the mission and the vote's number), so what is said again after the host did not
    catch it is the same vote."""
    dice = random.Random(f"{voice.options.get('seed')}|{s.mission}|{len(s.vote_history)}")
    approve = 0.9 if s.rejections >= 3 else 0.65
    return {p: dice.random() < approve for p in s.players}


def _whole_table(voice: ResistanceWords, votes: list[tuple[str, bool]],
                 rng: random.Random) -> str:
    """Everyone's vote in one sentence, the shortest way a table would say it."""
    yes = [p for p, v in votes if v]
    no = [p for p, v in votes if not v]
    if not no or not yes:
        return _said(voice, "votes_all_yes" if yes else "votes_all_no", rng)
    if len(no) == 1 or (len(no) == 2 and len(yes) > 4):  # one or two apart from the rest
        return _said(voice, "votes_all_yes_except", rng, players=voice.names(no))
    if len(yes) == 1 or (len(yes) == 2 and len(no) > 4):
        return _said(voice, "votes_all_no_except", rng, players=voice.names(yes))
    return _said(voice, "votes_split", rng, yes=voice.names(yes), no=voice.names(no))


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
