"""The Codenames recap at the end of a game: who played which part, the best clue (the one
that found the most of its team's agents), and where the assassin was."""

from __future__ import annotations

from voice_host.games import GameState
from voice_host.games.codenames import CodenamesState, Colour, GiveClue, Guess, Team
from voice_host.host.adapters.codenames.words import CodenamesWords
from voice_host.host.core.adapter import narrow
from voice_host.host.core.values import Line


def recap(w: CodenamesWords, state: GameState) -> list[Line]:
    s = narrow(state, CodenamesState)
    if not s.is_terminal():
        return []
    lines = [w.line("recap.intro")]
    for team in (Team.RED, Team.BLUE):
        lines.append(w.line("recap.team", team=w.team(team), spymaster=s.spymaster(team),
                            operatives=w.names(s.operatives(team)),
                            guessers=len(s.operatives(team))))
    best = _best_clue(s)
    if best is not None:
        team, spymaster, word, found = best
        lines.append(w.line("recap.best_clue", spymaster=spymaster, word=word, count=found,
                            team=w.team(team)))
    assassin = next((word for word in s.words if _colour(s, word) is Colour.ASSASSIN), None)
    if assassin is not None:
        touched = next((g for g in s.history() if isinstance(g, Guess) and g.word == assassin),
                       None)
        if touched is not None:
            lines.append(w.line("recap.assassin_touched", word=assassin,
                                team=w.team(s.team_of(touched.player) or s.current_team)))
        else:
            lines.append(w.line("recap.assassin_missed", word=assassin))
    return lines


def _colour(s: CodenamesState, word: str) -> Colour | None:
    """The word's colour when the table knows it: covered, or read from the key the host
    dealt (a finished game shows every card)."""
    covered = s.covered_colour(word)
    if covered is not None:
        return covered
    key = s.to_json().get("key")
    if key:
        return Colour(key[s.words.index(word)])
    return None


def _best_clue(s: CodenamesState) -> tuple[Team, str, str, int] | None:
    """The clue under which its team found the most of its own agents (the first such)."""
    best: tuple[Team, str, str, int] | None = None
    current: tuple[Team, str, str, int] | None = None
    for action in s.history():
        if isinstance(action, GiveClue):
            team = s.team_of(action.player) or s.current_team
            current = (team, action.player, action.word, 0)
        elif isinstance(action, Guess) and current is not None:
            team = current[0]
            if _colour(s, action.word) == Colour(team.value):
                current = (*current[:3], current[3] + 1)
                if best is None or current[3] > best[3]:
                    best = current
    return best
