"""Games at a chosen moment, for the television's browser tests and the README screenshots
(scripts/tv_screenshots.py): each built by playing the engine's own legal moves from a seed,
so the boards show real states."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from voice_host.games import Deal, GameState
from voice_host.games.codenames import CodenamesState, EndTurn, GiveClue, Guess
from voice_host.games.ici_londres import IciLondresState, JudgePick, Pick
from voice_host.games.resistance import CastVote, PlayMissionCard, ProposeTeam, ResistanceState

CODENAMES_PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn"]
RESISTANCE_PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve"]
ICI_PLAYERS = ["Ada", "Ben", "Cleo", "Dan"]


def _key(state: CodenamesState) -> list[str]:
    return list(state.player_view(state.spymaster(state.current_team))["key"])


def _guess(state: CodenamesState, colour: str) -> None:
    """The team's first operative touches an uncovered word of ``colour``."""
    key = _key(state)
    word = next(w for w, c in zip(state.words, key, strict=True)
                if c == colour and w in state.uncovered_words())
    state.apply(Guess(state.operatives(state.current_team)[0], word))


def codenames_midgame(lang: str = "en") -> CodenamesState:
    """Red has covered two agents and a bystander, blue one agent and touched a red word;
    red's operatives are guessing on their second clue."""
    state = CodenamesState.new(CODENAMES_PLAYERS, deal=Deal.HOST, first="red", words=lang)
    state.apply(state.chance_action(random.Random(4)))
    clue = "mer" if lang == "fr" else "ocean"
    state.apply(GiveClue(state.spymaster(state.current_team), clue, 2))
    _guess(state, "red")
    _guess(state, "red")
    _guess(state, "neutral")  # the turn passes to blue
    state.apply(GiveClue(state.spymaster(state.current_team), "metal" if lang == "en"
                         else "métal", 3))
    _guess(state, "blue")
    _guess(state, "red")  # blue touched a red agent: red plays
    state.apply(GiveClue(state.spymaster(state.current_team), "music" if lang == "en"
                         else "musique", 2))
    return state


def codenames_assassin(lang: str = "en") -> CodenamesState:
    """Red covers an agent, then touches the assassin: blue wins."""
    state = CodenamesState.new(CODENAMES_PLAYERS, deal=Deal.HOST, first="red", words=lang)
    state.apply(state.chance_action(random.Random(4)))
    state.apply(GiveClue(state.spymaster(state.current_team), "ocean", 2))
    _guess(state, "red")
    _guess(state, "blue")
    state.apply(GiveClue(state.spymaster(state.current_team), "metal", 1))
    _guess(state, "blue")
    state.apply(EndTurn(state.operatives(state.current_team)[0]))
    state.apply(GiveClue(state.spymaster(state.current_team), "night", 2))
    _guess(state, "assassin")
    assert state.is_terminal()
    return state


def _resistance(rng_seed: int = 8) -> ResistanceState:
    state = ResistanceState.new(RESISTANCE_PLAYERS, deal=Deal.HOST)
    state.apply(state.setup_action(random.Random(rng_seed), first_leader="Ada"))
    return state


def _spies(state: ResistanceState) -> list[str]:
    return list(state.spies() or ())


def _mission(state: ResistanceState, team: tuple[str, ...], sabotage: bool,
             approve: bool = True) -> None:
    state.apply(ProposeTeam(state.leader, team))
    for p in state.players:
        state.apply(CastVote(p, approve or p in team))
    if not state.phase() == "mission":
        return
    spies = _spies(state)
    for p in team:
        state.apply(PlayMissionCard(p, sabotage=sabotage and p in spies))


def resistance_midgame() -> ResistanceState:
    """Mission 1 succeeded, mission 2 failed with one sabotage, a team was rejected, and the
    table votes on the team of mission 3 (two votes in)."""
    state = _resistance()
    spies = _spies(state)
    heroes = [p for p in state.players if p not in spies]
    _mission(state, tuple(heroes[:2]), sabotage=False)
    _mission(state, (heroes[0], spies[0], heroes[1]), sabotage=True)
    state.apply(ProposeTeam(state.leader, (heroes[0], spies[1])))
    for p in state.players:
        state.apply(CastVote(p, p in (heroes[0], spies[1])))
    state.apply(ProposeTeam(state.leader, tuple(heroes[:2])))
    for p in state.players[:2]:
        state.apply(CastVote(p, True))
    return state


def resistance_over() -> ResistanceState:
    """The spies sabotage three missions."""
    state = _resistance()
    spies = _spies(state)
    heroes = [p for p in state.players if p not in spies]
    _mission(state, tuple(heroes[:2]), sabotage=False)
    for _ in range(3):
        size = state.team_size()
        _mission(state, tuple([spies[0], *heroes][:size]), sabotage=True)
    assert state.is_terminal()
    return state


def ici_midgame() -> IciLondresState:
    """Round 2: a receiver found one icon, another named a miss."""
    state = IciLondresState.new(ICI_PLAYERS, deal=Deal.HOST)
    rng = random.Random(5)
    _ici_round(state, rng, hits=1)
    state.apply(state.chance_action(rng))
    message = state.player_view(state.speaker)["message"]
    guessers = list(state.current_players())
    state.apply(Pick(guessers[0], (_other_icon(state, message),)))
    state.apply(Pick(state.current_players()[0], (message[0],)))
    return state


def _other_icon(state: IciLondresState, message: list[str]) -> str:
    from voice_host.games.icons import ICON_NAMES

    return next(i for i in reversed(ICON_NAMES)
                if i not in message and i not in state.named_icons)


def _ici_round(state: IciLondresState, rng: random.Random, hits: int) -> None:
    """Play one round: ``hits`` icons of the message found, then misses until it ends."""
    state.apply(state.chance_action(rng))
    message = state.player_view(state.speaker)["message"]
    found = 0
    round_now = state.public_view()["round"]
    while not state.is_terminal() and state.public_view()["round"] == round_now \
            and not state.is_chance_node():
        player = state.current_players()[0]
        legal = state.legal_actions(player)
        if any(isinstance(a, JudgePick) for a in legal):
            state.apply(legal[0])
            continue
        if found < hits:
            icon = next(i for i in message if i not in state.named_icons)
            found += 1
        else:
            icon = _other_icon(state, message)
        state.apply(Pick(player, (icon,)))


def ici_over() -> IciLondresState:
    state = IciLondresState.new(ICI_PLAYERS, deal=Deal.HOST, rounds=4)
    rng = random.Random(6)
    for hits in (2, 0, 1, 1):
        _ici_round(state, rng, hits)
    assert state.is_terminal()
    return state


SCENES: dict[str, dict[str, Callable[..., GameState]]] = {
    "codenames": {"board": codenames_midgame, "end": codenames_assassin},
    "resistance": {"board": resistance_midgame, "end": resistance_over},
    "ici-londres": {"board": ici_midgame, "end": ici_over},
}


def scene(game: str, moment: str, lang: str = "en") -> GameState:
    make = SCENES[game][moment]
    return make(lang) if game == "codenames" else make()


def fresh(game: str, lang: str = "en") -> Any:
    """The game before it starts (for the join panel)."""
    if game == "codenames":
        return CodenamesState.new(CODENAMES_PLAYERS, deal=Deal.HOST, words=lang)
    if game == "resistance":
        return ResistanceState.new(RESISTANCE_PLAYERS, deal=Deal.HOST)
    return IciLondresState.new(ICI_PLAYERS, deal=Deal.HOST)


CROWD = ["Maximilienne", "Jean-Baptiste", "Anne-Sophie", "Bartholomew", "Guillaume",
         "Christabel", "Marie-Claire", "Konstantin", "Evangeline", "Théophile",
         "Wilhelmina", "Jacqueline"]
"""The largest tables, with long names, for the boards' worst case."""


def crowd(game: str, lang: str = "en") -> GameState:
    """Each game mid-way at its largest table."""
    if game == "codenames":
        state = CodenamesState.new(CROWD[:12], deal=Deal.HOST, first="red", words=lang)
        state.apply(state.chance_action(random.Random(4)))
        state.apply(GiveClue(state.spymaster(state.current_team), "ocean", 2))
        _guess(state, "red")
        return state
    if game == "resistance":
        state = ResistanceState.new(CROWD[:10], deal=Deal.HOST)
        state.apply(state.setup_action(random.Random(8), first_leader=CROWD[0]))
        spies = _spies(state)
        heroes = [p for p in state.players if p not in spies]
        _mission(state, tuple(heroes[:state.team_size()]), sabotage=False)
        state.apply(ProposeTeam(state.leader, tuple(heroes[:state.team_size()])))
        for p in state.players[:4]:
            state.apply(CastVote(p, True))
        return state
    state = IciLondresState.new(CROWD[:6], deal=Deal.HOST)
    rng = random.Random(5)
    _ici_round(state, rng, hits=1)
    state.apply(state.chance_action(rng))
    message = state.player_view(state.speaker)["message"]
    for _ in range(5):  # misses: the round goes on, each named icon on the board
        state.apply(Pick(state.current_players()[0], (_other_icon(state, message),)))
    return state
