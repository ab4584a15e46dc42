"""Codenames' answers to the universal commands (score, board, status, the clues so far),
actions in words for confirmations and undo, and the winners for the log."""

from __future__ import annotations

from voice_host.games import Action, GameState
from voice_host.games.codenames import (
    CodenamesState,
    Colour,
    CoverPenalty,
    EndTurn,
    GiveClue,
    Guess,
    StateColour,
)
from voice_host.host.adapters.codenames.words import CodenamesWords
from voice_host.host.core.adapter import narrow
from voice_host.host.core.values import Line


def describe(w: CodenamesWords, state: GameState, action: Action) -> str:
    s = narrow(state, CodenamesState)
    if isinstance(action, GiveClue):
        return w.t("describe_clue", spymaster=action.player, word=action.word,
                   number=w.number(action.number))
    if isinstance(action, Guess):
        return w.t("describe_guess", team=w.team(s.team_of(action.player) or s.current_team),
                   word=action.word)
    if isinstance(action, EndTurn):
        return w.t("describe_pass", team=w.team(s.team_of(action.player) or s.current_team))
    if isinstance(action, StateColour):
        return w.t("describe_colour", word=action.word, colour=w.colour(Colour(action.colour)))
    if isinstance(action, CoverPenalty):
        return w.t("describe_penalty", spymaster=action.player, word=action.word)
    return type(action).__name__


def score(w: CodenamesWords, state: GameState) -> list[Line]:
    s = narrow(state, CodenamesState)
    if not s.words:
        return [w.line("board_empty")]
    return [w.line("score", red_found=s.covered_count(Colour.RED),
                   blue_found=s.covered_count(Colour.BLUE), **w.left_params(s))]


def board(w: CodenamesWords, state: GameState) -> list[Line]:
    s = narrow(state, CodenamesState)
    if not s.words:
        return [w.line("board_empty")]
    lines = []
    for i, row in enumerate(s.rows(), 1):
        said = []
        for word in row:
            colour = s.covered_colour(word)
            said.append(word if colour is None else w.t(
                "board_word_covered", word=word, colour=w.colour(colour)))
        lines.append(w.line("row", ordinal=w.ordinal(i), words=", ".join(said)))
    lines.append(w.line("board_left", uncovered=len(s.uncovered_words()), **w.left_params(s)))
    return lines


def status(w: CodenamesWords, state: GameState) -> list[Line]:
    s = narrow(state, CodenamesState)
    phase = s.phase()
    team = s.current_team
    tn = w.team(team)
    spymaster = s.spymaster(team)
    if phase == "deal":
        return [w.line("status_deal")]
    if phase == "over":
        return [w.line("status_over", team=w.team(s.winner or team))]
    if phase == "clue":
        lines = [w.line("status_clue", team=tn, spymaster=spymaster)]
    elif phase == "guess":
        clue = s.clue
        assert clue is not None
        lines = [w.line("status_guess", team=tn, word=clue[0], number=w.number(clue[1]),
                        left=w.guesses_left(s))]
    elif phase == "colour":
        lines = [w.line("status_colour", spymaster=spymaster, word=s.pending_word)]
    else:
        lines = [w.line("status_penalty", spymaster=spymaster, team=tn)]
    lines.append(w.line("left", **w.left_params(s)))
    return lines


def tried(w: CodenamesWords, state: GameState) -> list[Line]:
    """The clues given so far."""
    s = narrow(state, CodenamesState)
    if not s.clues:
        return [w.line("clues_none")]
    items = [w.t("clue_item", team=w.team(t), word=word, number=w.number(n))
             for t, word, n in s.clues]
    return [w.line("clues_list", clues="; ".join(items))]

