"""Codenames told aloud: the opening, every event in words, and the key delivered to the two
spymasters only (host deal)."""

from __future__ import annotations

from collections.abc import Sequence

from voice_host.games import Event, GameState
from voice_host.games.codenames import (
    ClueGiven,
    CodenamesState,
    Colour,
    GameOver,
    GridDealt,
    GuessResolved,
    InvalidClue,
    KeyDealt,
    PenaltyCovered,
    Team,
    TileTouched,
    TurnEnded,
    TurnStarted,
    team_colour,
)
from voice_host.host.adapters.codenames.words import CodenamesWords, per_team
from voice_host.host.core.adapter import narrow
from voice_host.host.core.narration import capitalized
from voice_host.host.core.secrets import SecretSink, Via, deliver
from voice_host.host.core.values import Line, Style

TURN_ENDS = {"passed": "turn_passed", "guesses_used": "turn_used", "neutral": "turn_miss",
             "opponent": "turn_miss"}
"""Why a turn ended -> what is said (an invalid clue was said already, with its reason)."""


def opening(w: CodenamesWords, state: GameState) -> list[Line]:
    s = narrow(state, CodenamesState)
    red, blue = s.team_players(Team.RED), s.team_players(Team.BLUE)
    mode = "mode_table"
    if s.deal.value == "host":
        mode = "mode_companion" if w.options.get("companion") else "mode_host"
    return [
        w.line("welcome"),
        w.line("teams", red_spymaster=red[0], red_operatives=w.names(red[1:]),
               blue_spymaster=blue[0], blue_operatives=w.names(blue[1:])),
        w.line(mode),
        w.line("how_to_talk"),
    ]


def narrate(w: CodenamesWords, state: GameState, events: Sequence[Event]) -> list[Line]:
    s = narrow(state, CodenamesState)
    lines: list[Line] = []
    last_guesser: Team | None = None
    by_penalty = False
    for event in events:
        if isinstance(event, GridDealt):
            lines.extend(_grid_lines(w, s, event))
        elif isinstance(event, KeyDealt):
            lines.extend(_deliver_key(w, s, event, w.secret_sink))
        elif isinstance(event, TurnStarted):
            tn = w.team(event.team)
            lines.append(w.line("turn", cue="turn", team=tn, Team=capitalized(tn),
                                spymaster=event.spymaster))
        elif isinstance(event, ClueGiven):
            pass  # the guess prompt that follows says the clue and the guesses allowed
        elif isinstance(event, InvalidClue):
            lines.append(w.line("invalid_clue", cue="miss", word=capitalized(event.word),
                                reason=w.refusal(event.refusal()), team=w.team(event.team)))
        elif isinstance(event, TileTouched):
            lines.append(w.line("touched", team=w.team(event.team), word=event.word))
        elif isinstance(event, GuessResolved):
            last_guesser = event.team
            lines.extend(_resolved_lines(w, event))
        elif isinstance(event, PenaltyCovered):
            by_penalty = True
            lines.append(w.line("penalty_covered", spymaster=event.spymaster, word=event.word,
                                team=w.team(event.team)))
            lines.append(w.line("left", **per_team(event.remaining)))
        elif isinstance(event, TurnEnded):
            if event.why in TURN_ENDS:
                lines.append(w.line(TURN_ENDS[event.why], team=w.team(event.team)))
        elif isinstance(event, GameOver):
            lines.extend(_game_over_lines(w, event, last_guesser, by_penalty))
    return lines


def _grid_lines(w: CodenamesWords, s: CodenamesState, event: GridDealt) -> list[Line]:
    table = s.deal.value != "host"
    lines = [w.line("grid_intro_table" if table else "grid_intro")]
    lines.extend(w.line("row", ordinal=w.ordinal(i), words=", ".join(row))
                 for i, row in enumerate(s.rows(), 1))
    first = event.first
    lines.append(w.line("first_table" if table else "first_host", team=w.team(first),
                        other=w.team(first.other)))
    return lines


def _deliver_key(w: CodenamesWords, s: CodenamesState, event: KeyDealt,
                 secret_sink: SecretSink | None) -> list[Line]:
    """The key as one PRIVATE line per spymaster (several sentences, one per line), sent
    to the secret sink; the table hears where it went."""
    lines: list[Line] = []
    unsent: list[str] = []
    for spymaster in event.audience:
        team = s.team_of(spymaster)
        assert team is not None
        secret = Line("\n".join(_key_texts(w, s, event, spymaster, team)), lang=w.lang,
                      style=Style.PRIVATE, to=spymaster)
        said, delivery = deliver(w.narrator, secret_sink, secret,
                                 elsewhere="codenames.key_elsewhere", spymaster=spymaster)
        lines.extend(said)
        if delivery.via is Via.SPOKEN:  # one "given privately" for all of them
            unsent.append(spymaster)
    if unsent:
        lines.append(w.line("key_sent", spymasters=w.names(unsent)))
    lines.append(w.line("key_ready"))
    return lines


def _key_texts(w: CodenamesWords, s: CodenamesState, event: KeyDealt, spymaster: str,
               team: Team) -> list[str]:
    words = s.words
    texts = [w.t("key.title", spymaster=spymaster, team=w.team(team),
                 first=w.team(event.first))]
    for colour in (team_colour(event.first), team_colour(event.first.other), Colour.NEUTRAL,
                   Colour.ASSASSIN):
        chosen = [word for word, c in zip(words, event.key, strict=True) if c is colour]
        texts.append(w.t(f"key.{colour.value}", count=len(chosen), words=", ".join(chosen)))
    texts.append(w.t("key.grid"))
    for i, start in enumerate(range(0, len(words), 5), 1):
        cells = [w.t("key.cell", word=word, colour=w.t(f"key.colour.{c.value}"))
                 for word, c in zip(words[start:start + 5], event.key[start:start + 5],
                                    strict=True)]
        texts.append(w.t("key.row", ordinal=i, words=", ".join(cells)))
    return texts


def _resolved_lines(w: CodenamesWords, event: GuessResolved) -> list[Line]:
    word = capitalized(event.word)
    team = w.team(event.team)
    colour = event.colour
    if colour is team_colour(event.team):
        line = w.line("hit", cue="hit", word=word, team=team)
    elif colour is Colour.ASSASSIN:
        return [w.line("miss_assassin", cue="miss", word=word)]
    elif colour is Colour.NEUTRAL:  # nothing changed for the teams
        return [w.line("miss_neutral", cue="miss", word=word)]
    else:
        line = w.line("miss_other", cue="miss", word=word, other=w.team(event.team.other))
    if not _changes_the_picture(event.remaining):
        return [line]
    return [line, w.line("left", **per_team(event.remaining))]


LEFT_EVERY = 3
"""Agents found between two "Agents left" lines, while no team is near the end."""


def _changes_the_picture(remaining: Sequence[tuple[str, int]]) -> bool:
    """Whether "Agents left: ..." is worth saying after an agent was found: when a team is
    three agents or fewer from winning, and otherwise every ``LEFT_EVERY`` agents found (the
    score is there on request)."""
    counts = dict(remaining)
    left = sorted(counts.values())
    found = 17 - sum(left)
    return left[0] <= 3 or found % LEFT_EVERY == 0


def _game_over_lines(w: CodenamesWords, event: GameOver, guesser: Team | None,
                     by_penalty: bool) -> list[Line]:
    winner = Team(event.winners[0])
    tn = w.team(winner)
    if event.reason == "assassin":
        first = w.line("win_assassin", cue="game_over", team=tn, loser=w.team(winner.other))
    elif by_penalty:
        first = w.line("win_penalty", cue="game_over", team=tn)
    elif guesser is not None and guesser is not winner:
        first = w.line("win_gift", cue="game_over", team=tn, guesser=w.team(guesser))
    else:
        first = w.line("win_found", cue="game_over", team=tn, Team=capitalized(tn))
    return [first, w.line("final_score", **per_team(event.scores))]
