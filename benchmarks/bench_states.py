"""The game the recognition benchmark's commands are said in: one real state per (Setup,
phase), as the host would be in when it listens there.

The host reads an utterance against the game as it is: two readings that make the same move
are one (:func:`~voice_host.host.core.adapter.move_key`), a rare open word yields to a likely
one (:func:`~voice_host.host.core.adapter.reading_prior`), and "Did you mean X, or Y?" is
asked only about two readings that make different moves
(:func:`~voice_host.host.core.choice.would_ask`). All three need the game. So each
(Setup, phase) of ``bench_recognition`` gets a :class:`Listening`: a new game of the setup's
players (its board and language), driven by the engines' own legal moves, and by the
adapter's chance steps, host steps and free recordings as a session drives it, to the prompt
of the phase the benchmark listens in, with the setup's speaker one who may make the
phase's moves there (:data:`BUILDERS`). No rule is copied here: who leads, who guesses and
what follows a move are the engines'.

Codenames' ``answer`` phase is no phase of the game: it is the answer to the host's yes/no
question (:func:`~voice_host.host.core.questions.answer_question`, here about a clue), which the
host reads by its words (no move key, no prior) and never asks about.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from voice_host.games import Action, GameState
from voice_host.host.core.adapter import (
    GameAdapter,
    Prompt,
    PromptKind,
    move_key,
    reading_prior,
    same_move,
)
from voice_host.host.core.choice import would_ask
from voice_host.host.core.registry import make_adapter, new_game, registration
from voice_host.host.core.values import Heard, HeardKind
from voice_host.intent import IntentMatch, MatchResult, PhaseGrammar, load_grammar


class SetupLike(Hashable, Protocol):
    """What a state is built from (``bench_recognition.Setup``)."""

    @property
    def game(self) -> str: ...
    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def speaker(self) -> str: ...
    @property
    def board(self) -> tuple[str, ...]: ...
    @property
    def lang(self) -> str: ...


class NoState(Exception):
    """No state could be built for a (Setup, phase): a sentence saying why."""


@dataclass(frozen=True)
class Listening:
    """The host listening for one (Setup, phase) of the benchmark."""

    adapter: GameAdapter
    state: GameState
    """The game as it is when the phase's commands are said (never changed afterwards:
    interpreting a reading has no effect on the game)."""
    prompt: Prompt
    """What the host asks there (for a yes/no question, the prompt it is asked at)."""
    speaker: str
    """The setup's speaker, one of ``prompt.expected``."""
    confirming: bool = False
    """The phase is heard as the answer to the host's yes/no question
    (:func:`~voice_host.host.core.questions.answer_question`): read by its words, never asked
    about."""

    @functools.cached_property
    def phase_grammar(self) -> PhaseGrammar:
        """The host's grammar of the prompt's phase for this state (the game's own slot
        values: a clue's likely words included), which the host's prior reads."""
        name = registration(self.adapter.game).grammar_name
        return load_grammar(name, self.adapter.narrator.lang).phase(
            self.prompt.phase, self.adapter.slot_values(self.state))

    def key(self) -> Callable[[IntentMatch], Hashable] | None:
        """What matters of a reading, as the host decides two readings (None: its intent
        and slots, ``understand``'s default)."""
        if self.confirming:
            return None
        return move_key(self.adapter, self.state, self.speaker)

    def prior(self) -> Callable[[IntentMatch], int] | None:
        """How likely a reading is meant, as the host ranks two readings of an open slot."""
        if self.confirming:
            return None
        return reading_prior(self.adapter, self.state, self.phase_grammar)

    def asks(self, result: MatchResult | None) -> bool:
        """Whether the host asks "Did you mean X, or Y?" about ``result`` (the understood
        reading's full answer) instead of acting on it."""
        if self.confirming or result is None or result.best is None:
            return False
        return would_ask(self.adapter, self.state, result, self.speaker)

    def same_move(self, expected: IntentMatch, reading: IntentMatch) -> bool:
        """Whether ``reading``, said by the speaker, makes the move ``expected`` makes
        here (both make one, the same: "rose" and "rose from me" said by Hugo), as the
        host would carry it out. Never for the answer to a yes/no question: it is read by
        its words."""
        return not self.confirming and same_move(self.adapter, self.state, expected,
                                                 reading, self.speaker)


# --------------------------------------------------------------------------- driving

SEED = 0
"""The chance steps' seed (table mode draws no secret, so it changes little)."""
CODED_SENTENCE = "The heart beats under the old bridge"
"""The Ici Londres Speaker's recorded sentence (its words do not matter)."""


def _apply(adapter: GameAdapter, state: GameState, action: Action) -> None:
    """One move, as the session applies it: the engine's (a refusal is a bug here), then
    the adapter's narration of it (which keeps the adapter's own facts)."""
    events = state.apply(action)
    adapter.narrate(state, events)


def _next_prompt(adapter: GameAdapter, state: GameState, rng: random.Random) -> Prompt:
    """Chance steps, host steps (the night, the broadcast) and free recordings, as the
    session takes them, up to the next command prompt."""
    for _ in range(64):
        if state.is_terminal():
            raise NoState("the game ended before the phase was reached")
        if state.is_chance_node():
            _apply(adapter, state, adapter.chance(state, rng))
            continue
        prompt = adapter.prompt(state)
        if prompt is None:
            adapter.host_step(state)
            continue
        if prompt.kind is PromptKind.RECORD:
            recorded = adapter.on_recording(state, Heard(
                HeardKind.SPEECH, text=CODED_SENTENCE, speaker=prompt.expected[0]))
            if not recorded.taken:
                raise NoState("the recording was refused")
            continue
        return prompt
    raise NoState("no prompt after 64 host steps")


Move = Callable[[Any, Prompt], Action]
"""A player's move, made from the game (its engine's own state class) and the prompt."""


def _play(adapter: GameAdapter, state: GameState, moves: Sequence[Move]) -> Prompt:
    """Each move (made from the state and its prompt) applied at the next prompt; the
    prompt after the last."""
    rng = random.Random(SEED)
    prompt = _next_prompt(adapter, state, rng)
    for move in moves:
        _apply(adapter, state, move(state, prompt))
        prompt = _next_prompt(adapter, state, rng)
    return prompt


def _moves(setup: SetupLike, phase: str,
           per_phase: dict[str, Sequence[Move]]) -> Sequence[Move]:
    """The moves that lead to ``phase``; :class:`NoState` for a phase the game's builder
    does not know."""
    if phase not in per_phase:
        raise NoState(f"no benchmark state for {setup.game}.{phase}: add it to the game's "
                      "builder")
    return per_phase[phase]


def _after(players: Sequence[str], player: str, k: int = 1) -> str:
    """The player ``k`` seats after ``player``."""
    return players[(list(players).index(player) + k) % len(players)]


def seated(setup: SetupLike) -> tuple[str, ...]:
    """The setup's players the game seats: all of them, or, when the setup has more than
    the game allows (the benchmark draws 5 to 8 players for every game; Ici Londres seats
    at most 6), the speaker and the players after them, in seating order, up to the
    game's most (a command naming another player names nobody at this table)."""
    most = registration(setup.game).description.max_players
    players = setup.players
    if len(players) <= most:
        return players
    start = players.index(setup.speaker)
    kept = {players[(start + k) % len(players)] for k in range(most)}
    return tuple(p for p in players if p in kept)


# --------------------------------------------------------------------------- Resistance


def _resistance(setup: SetupLike, phase: str) -> Listening:
    """The speaker leads the first mission (team, vote, count, mission): proposes a team
    of the mission's size from themself on, which everyone approves for the mission (the
    leader reports the cards: table mode). For the spies' accusation, three missions
    succeed first; the speaker is then accused by the next player for ``answer``."""
    from voice_host.games.resistance import Accuse, CastVote, ProposeTeam, ReportSabotages

    speaker, players = setup.speaker, seated(setup)
    options: dict[str, Any] = {"players": list(players), "first": speaker,
                               "lang": setup.lang}
    if phase == "count":
        options["votes"] = "count"
    adapter = make_adapter(setup.game, options)
    state = new_game(setup.game, options)

    def propose(s: Any, _: Prompt) -> Action:
        return ProposeTeam(s.leader, tuple(_after(s.players, s.leader, k)
                                           for k in range(s.team_size())))

    def everyone_yes(s: Any, _: Prompt) -> Action:
        return CastVote(s.current_players()[0], True)

    def succeeded(s: Any, _: Prompt) -> Action:
        return ReportSabotages(s.leader, 0)

    approve = [everyone_yes] * len(players)
    mission = [propose, *approve]
    moves = _moves(setup, phase, {
        "team": [], "vote": [propose], "count": [propose], "mission": mission,
        "accuse": [*mission, succeeded] * 3,
        "answer": [*mission, succeeded] * 3 + [
            lambda s, _: Accuse(_after(s.players, speaker), speaker)],
    })
    return _listening(adapter, state, _play(adapter, state, moves), speaker, phase)


# --------------------------------------------------------------------------- Ici Londres


def _ici_londres(setup: SetupLike, phase: str) -> Listening:
    """Réseaux concurrents (every receiver may name one icon or two at any time, so every
    pick of the benchmark is one the speaker may make), after the broadcast and the coded
    sentence, at a table of the :func:`seated` players. ``guess``: the player before the
    speaker is the Speaker (the speaker is the Wehrmacht, first to guess); ``answer``: the
    speaker is the Speaker, and the first receiver has named an icon."""
    from voice_host.games.ici_londres import Pick

    speaker, players = setup.speaker, seated(setup)
    first = speaker if phase == "answer" else _after(players, speaker, -1)
    options = {"players": list(players), "first": first, "mode": "competing",
               "lang": setup.lang}
    adapter = make_adapter(setup.game, options)
    state = new_game(setup.game, options)
    moves = _moves(setup, phase, {
        "guess": [], "answer": [lambda s, p: Pick(p.expected[0], ("heart",))]})
    return _listening(adapter, state, _play(adapter, state, moves), speaker, phase)


# --------------------------------------------------------------------------- Codenames


def _codenames(setup: SetupLike, phase: str) -> Listening:
    """The setup's board, red to start. ``clue``: the speaker is red's spymaster;
    ``colour``: the same spymaster's clue was given and an operative touched the first
    word; ``guess``: the speaker is red's first operative, one of whose guesses (the last
    word, red) was right, so that passing is allowed; ``answer``: the speaker, red's
    spymaster, answers the host's yes/no question about their clue."""
    from voice_host.games.codenames import Colour, DealGrid, GiveClue, Guess, StateColour, Team
    from voice_host.games.codenames_words import WORD_LISTS

    speaker, players = setup.speaker, seated(setup)
    others = [_after(players, speaker, k) for k in range(1, len(players))]
    red_size = math.ceil(len(players) / 2)
    red = [speaker, *others[:red_size - 1]] if phase != "guess" \
        else [others[0], speaker, *others[1:red_size - 1]]
    options = {"red": red, "blue": others[red_size - 1:], "first": "red",
               "words": setup.lang, "lang": setup.lang}
    adapter = make_adapter(setup.game, options)
    state = new_game(setup.game, options)
    _apply(adapter, state, DealGrid(words=tuple(setup.board), key=None, first=Team.RED))
    grid: Any = state
    clue = next(w for w in WORD_LISTS[setup.lang] if grid.clue_problem(w) is None)
    spymaster, operative = red[0], red[1]
    moves = _moves(setup, phase, {
        "clue": [], "answer": [],
        "colour": [lambda s, p: GiveClue(spymaster, clue, 2),
                   lambda s, p: Guess(operative, setup.board[0])],
        "guess": [lambda s, p: GiveClue(spymaster, clue, 2),
                  lambda s, p: Guess(operative, setup.board[-1]),
                  lambda s, p: StateColour(spymaster, setup.board[-1], Colour.RED)],
    })
    prompt = _play(adapter, state, moves)
    if phase == "answer":
        return _listening(adapter, state, prompt, speaker, "clue", confirming=True)
    return _listening(adapter, state, prompt, speaker, phase)


# --------------------------------------------------------------------------- the states


BUILDERS: dict[str, Callable[[SetupLike, str], Listening]] = {
    "resistance": _resistance, "ici-londres": _ici_londres, "codenames": _codenames,
}
"""Each game's states, by the game's name: who the speaker is, and how the game got there,
in each builder's docstring."""


def _listening(adapter: GameAdapter, state: GameState, prompt: Prompt, speaker: str,
               phase: str, *, confirming: bool = False) -> Listening:
    """The Listening, checked: the host asks in ``phase``, and the speaker may answer."""
    if prompt.phase != phase:
        raise NoState(f"the host asks in phase {prompt.phase}, not {phase}")
    if speaker not in prompt.expected:
        raise NoState(f"{speaker} is not asked ({', '.join(prompt.expected)} are)")
    return Listening(adapter, state, prompt, speaker, confirming)


def listening(setup: SetupLike, phase: str) -> Listening:
    """The host listening for ``phase`` in a game of ``setup`` (built once per setup and
    phase); :class:`NoState` when none can be built (found out once too)."""
    built = _built(setup, phase)
    if isinstance(built, NoState):
        raise built
    return built


@functools.cache
def _built(setup: SetupLike, phase: str) -> Listening | NoState:
    build = BUILDERS.get(setup.game)
    if build is None:
        return NoState(f"no benchmark state for {setup.game}: add its builder to BUILDERS")
    try:
        return build(setup, phase)
    except NoState as error:
        return error
