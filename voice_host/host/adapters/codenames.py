"""Codenames' voice: set-up, clue and guess prompts, narration of every result, and demo
players.

Two ways to play (option ``deal``):

* ``table`` (default) — the group uses a physical key card. The host deals and reads the 25
  words (the players lay them out in the order read) and names the starting team: the
  ``first`` option when given, otherwise the host draws it and says so, and the spymasters
  pick a key card whose edge lights show that colour. After each touched word the host asks
  the active spymaster for its colour.
* ``host`` — the host deals the grid *and* the key. The key goes to the two spymasters only,
  as private lines (a file per spymaster until a private channel exists), listing the words
  of each colour and the grid with its colours.

The clue is open vocabulary: the matcher returns the word as heard and the engine's
``clue_problem`` decides; a refused clue is answered with the reason and changes nothing
(with ``invalid_clue="penalty"`` it is played with the official penalty after a
confirmation). Operatives may guess any uncovered word or pass after one guess; a covered or
unknown word is refused with a reason.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from voice_host.games import Action, Event, GameState, IllegalAction, Outcome, SetupError
from voice_host.games.codenames import (
    ClueGiven,
    CodenamesState,
    Colour,
    CoverPenalty,
    EndTurn,
    GameOver,
    GiveClue,
    GridDealt,
    Guess,
    GuessResolved,
    InvalidClue,
    KeyDealt,
    PenaltyCovered,
    StateColour,
    Team,
    TileTouched,
    TurnEnded,
    TurnStarted,
    guesses_allowed,
    number_problem,
    team_colour,
)
from voice_host.games.codenames_words import WORD_LISTS
from voice_host.host.adapter import Decision, GameAdapter, Prompt
from voice_host.host.adapters import codenames_phone
from voice_host.host.io import Heard, Line, Style
from voice_host.host.narration import Narrator
from voice_host.host.registry import GameOption, GameRegistration
from voice_host.host.secrets import SecretSink, Via, deliver
from voice_host.intent import IntentMatch, SlotValues

GAME = "codenames"
DEMO_CLUES: dict[str, tuple[str, ...]] = {
    "en": ("money", "hospital", "market", "travel", "football", "problem", "season",
           "chocolate", "house", "love", "garden", "island", "history", "gold"),
    "fr": ("musique", "hiver", "argent", "animal", "jardin", "voyage", "nature", "histoire",
           "cuisine", "montagne", "couleur", "famille"),
}
"""Common clue words the demo spymasters try first. They go through an open-vocabulary
recognizer, so the English ones are those PocketSphinx's general model recognized at least
once from espeak-ng voices in a trial; the word list is the fallback."""

CLUE_PHRASES = ("{word} for {number}", "the clue is {word}, {number}", "{word} for {number}",
                "my clue is {word} for {number}", "the clue is {word}, {number}",
                "{word} {number}")
"""Demo clue phrasings (repeats weight the ones the recognizer hears best)."""
GUESS_PHRASES = ("guess {word}", "we'll go with {word}", "{word}", "let's go with {word}",
                 "touch {word}", "{word} please", "our guess is {word}")
PASS_PHRASES = ("we're done", "end turn", "we pass", "stop guessing", "we're done")
"""Demo passes (a bare "pass" is often heard as "pause")."""
COLOUR_PHRASES = ("{colour}", "it's {colour}", "that one is {colour}")
SPOKEN_COLOUR = {Colour.RED: "red", Colour.BLUE: "blue", Colour.NEUTRAL: "neutral",
                 Colour.ASSASSIN: "assassin"}
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
BOT_WRONG_GUESS = 0.2
"""How often a demo operative touches a word that is not its team's."""
BOT_PASS = 0.3
"""How often demo operatives stop after a right guess when they may go on."""


def _state(state: GameState) -> CodenamesState:
    assert isinstance(state, CodenamesState)
    return state


def new_game(options: dict[str, Any]) -> GameState:
    """A fresh game from ``play``'s options (red, blue, deal, first, words, invalid_clue)."""
    red = list(options.get("red") or [])
    blue = list(options.get("blue") or [])
    if len(red) + len(blue) >= 4 and min(len(red), len(blue)) < 2:
        small, big = (red, blue) if len(red) < 2 else (blue, red)
        moved = big[-1]
        fixed_red = [*red, moved] if small is red else red[:-1]
        fixed_blue = blue[:-1] if small is red else [*blue, moved]
        which = "red" if small is red else "blue"
        raise SetupError(
            f"Each team needs at least 2 players, a spymaster and an operative; the {which} "
            f"team has {len(small)}. Move a player to it, for example --red "
            f"{','.join(fixed_red)} --blue {','.join(fixed_blue)}.")
    return CodenamesState.new(
        [*red, *blue], deal=options.get("deal") or "table", red_size=len(red) or None,
        first=options.get("first"), words=options.get("words") or "en",
        invalid_clue=options.get("invalid_clue") or "refuse")


class Adapter:
    """The Codenames adapter (see :class:`voice_host.host.adapter.GameAdapter`)."""

    game = GAME

    def __init__(self, options: dict[str, Any], *, secret_sink: SecretSink | None = None) -> None:
        self.options = dict(options)
        self.narrator = Narrator(GAME, options.get("lang") or "en")
        self.secret_sink = secret_sink
        self.host_state: dict[str, Any] = {}

    # ------------------------------------------------------------------ words

    def _t(self, key: str, **params: Any) -> str:
        return self.narrator.text(f"codenames.{key}", **params)

    def _line(self, key: str, *, cue: str | None = None, **params: Any) -> Line:
        return self.narrator.line(f"codenames.{key}", cue=cue, **params)

    def _team(self, team: Team) -> str:
        return self._t(f"team_name.{team.value}")

    def _colour(self, colour: Colour) -> str:
        return self._t(f"colour_name.{colour.value}")

    def _number(self, n: int | None) -> str:
        if n is None:
            return self._t("unlimited")
        key = f"codenames.number.{n}"
        return self.narrator.text(key) if self.narrator.has(key) else str(n)

    def _ordinal(self, n: int) -> str:
        key = f"codenames.ordinal.{n}"
        return self.narrator.text(key) if self.narrator.has(key) else str(n)

    def _guesses(self, n: int) -> str:
        if n == 1:
            return self._t("guesses_one")
        return self._t("guesses_many", n=self._number(n))

    def _names(self, names: Sequence[str]) -> str:
        return self.narrator.names(names)

    def _left_params(self, s: CodenamesState) -> dict[str, Any]:
        return {"red": s.remaining(Team.RED), "blue": s.remaining(Team.BLUE)}

    def _guesses_left_text(self, s: CodenamesState) -> str:
        left = s.guesses_left
        if left is None:
            return self._t("guess_more_unlimited")
        return _cap(self._t("guess_more", count=self._guesses(left)))

    # ------------------------------------------------------------------ set-up

    def opening(self, state: GameState) -> list[Line]:
        s = _state(state)
        red, blue = s.team_players(Team.RED), s.team_players(Team.BLUE)
        mode = "mode_table"
        if s.deal.value == "host":
            mode = "mode_companion" if self.options.get("companion") else "mode_host"
        return [
            self._line("welcome"),
            self._line("teams", red_spymaster=red[0], red_operatives=self._names(red[1:]),
                       blue_spymaster=blue[0], blue_operatives=self._names(blue[1:])),
            self._line(mode),
            self._line("how_to_talk"),
        ]

    def chance(self, state: GameState, rng: random.Random) -> Action:
        return _state(state).chance_action(rng)

    # ------------------------------------------------------------------ prompts

    def prompt(self, state: GameState) -> Prompt | None:
        s = _state(state)
        phase = s.phase()
        team = s.current_team
        key = (f"{phase}|{team.value}|{len(s.clues)}|{len(s.uncovered_words())}|"
               f"{s.guesses_made}")
        spymaster = s.spymaster(team)
        tn = self._team(team)
        if phase == "clue":
            return Prompt(lines=(self._line("clue_prompt", spymaster=spymaster, team=tn),),
                          reminder=(self._line("clue_reminder", spymaster=spymaster),),
                          phase="clue", expected=(spymaster,), key=key)
        if phase == "guess":
            clue = s.clue
            assert clue is not None
            word, number = clue[0], self._number(clue[1])
            operatives = s.operatives(team)
            left = self._guesses_left_text(s)
            if s.guesses_made == 0:
                allowed = guesses_allowed(clue[1])
                if allowed is None:
                    first = self._line("guess_first_unlimited", operatives=self._names(operatives),
                                       team=tn, word=word, number=number)
                else:
                    first = self._line("guess_first", operatives=self._names(operatives),
                                       team=tn, word=word, number=number,
                                       guesses=self._guesses(allowed))
                lines: tuple[Line, ...] = (first,)
            else:
                lines = (Line(left, lang=self.narrator.lang),)
            reminder = (self._line("guess_reminder", word=word, number=number, left=left),)
            return Prompt(lines=lines, reminder=reminder, phase="guess", expected=operatives,
                          key=key)
        if phase == "colour":
            word = s.pending_word or ""
            return Prompt(lines=(self._line("colour_prompt", spymaster=spymaster, word=word),),
                          reminder=(self._line("colour_reminder", spymaster=spymaster,
                                               word=word),),
                          phase="colour", expected=(spymaster,), key=key)
        if phase == "penalty":
            return Prompt(lines=(self._line("penalty_prompt", spymaster=spymaster, team=tn),),
                          reminder=(self._line("penalty_reminder", spymaster=spymaster,
                                               team=tn),),
                          phase="guess", expected=(spymaster,), key=key)
        return None

    def host_step(self, state: GameState) -> list[Line]:
        return []

    def slot_values(self, state: GameState) -> SlotValues:
        s = _state(state)
        # every grid word, covered ones too: "piano" when piano is covered is then refused
        # with its reason instead of being misunderstood
        if s.phase() == "clue":
            # the recognizer listens for likely clue words first: the game's word list, less
            # what is on the board (those are never valid clues)
            on_board = set(s.words)
            likely = tuple(w for w in WORD_LISTS.get(s.language, ()) if w not in on_board)
            return SlotValues(players=s.players, board_words=s.words, open_words=likely)
        return SlotValues(players=s.players, board_words=s.words)

    # ------------------------------------------------------------------ understanding

    def interpret(self, state: GameState, match: IntentMatch, speaker: str | None) -> Decision:
        s = _state(state)
        phase = s.phase()
        intent = match.intent
        if phase == "clue":
            if intent in ("clue_two_words", "clue_number_word", "clue_no_number"):
                return self._malformed_clue(s, match, speaker)
            if intent != "clue":
                return self._reply("not_now")
            return self._clue(s, match, speaker)
        if phase == "guess":
            if intent == "guess":
                return self._guess(s, str(match.slots.get("word", "")), speaker)
            if intent == "pass":
                return self._pass(s, speaker)
            if intent == "clue":
                return self._reply("clue_not_now")
            return self._reply("not_now")
        if phase == "colour":
            spymaster = s.spymaster(s.current_team)
            word = s.pending_word or ""
            if speaker is not None and speaker != spymaster:
                return self._reply("colour_wrong_speaker", speaker=speaker,
                                   spymaster=spymaster, word=word)
            if intent != "colour":
                return self._reply("colour_first", spymaster=spymaster, word=word)
            colour = Colour(str(match.slots.get("colour")))
            confirm = None
            if colour is Colour.ASSASSIN:
                confirm = self._t("confirm_assassin", word=word)
            return Decision(action=StateColour(word, colour), confirm=confirm)
        if phase == "penalty":
            return self._penalty(s, match, speaker)
        return self._reply("not_now")

    def _reply(self, key: str, **params: Any) -> Decision:
        return Decision(reply=(self._line(key, **params),))

    def _malformed_clue(self, s: CodenamesState, match: IntentMatch,
                        speaker: str | None) -> Decision:
        """A clue of two words, a number word, or no number: say what is wrong with it."""
        team = s.current_team
        spymaster = s.spymaster(team)
        if speaker is not None and speaker != spymaster:
            return self._reply("clue_wrong_speaker", speaker=speaker, spymaster=spymaster,
                               team=self._team(team))
        if match.intent == "clue_two_words":
            words = f"{match.slots.get('word', '')} {match.slots.get('word2', '')}".strip()
            return self._reply("clue_one_word", words=words, spymaster=spymaster)
        if match.intent == "clue_number_word":
            said = match.slots.get("number_word")
            return self._reply("clue_number_word", spymaster=spymaster,
                               word=self._number(None if said == "unlimited" else _as_int(said)))
        return self._reply("clue_say_number", spymaster=spymaster,
                           word=str(match.slots.get("word", "")))

    def _clue(self, s: CodenamesState, match: IntentMatch, speaker: str | None) -> Decision:
        team = s.current_team
        spymaster = s.spymaster(team)
        if speaker is not None and speaker != spymaster:
            return self._reply("clue_wrong_speaker", speaker=speaker, spymaster=spymaster,
                               team=self._team(team))
        word = str(match.slots.get("word", "")).strip()
        raw = match.slots.get("number")
        number: int | None = None if raw in (None, "unlimited") else _as_int(raw)
        if raw not in (None, "unlimited") and number is None:
            return self._reply("clue_number_refused", spymaster=spymaster,
                               reason=str(number_problem(raw) or ""))
        problem = number_problem(number)
        if problem:
            return self._reply("clue_number_refused", reason=problem, spymaster=spymaster)
        problem = s.clue_problem(word)
        action = GiveClue(team, word, number)
        if problem is None:
            # a spoken clue word is open vocabulary, the easiest thing to mishear, and it
            # cannot be taken back once the operatives have heard it
            return Decision(action=action, confirm_spoken=self._t(
                "describe_clue", spymaster=spymaster, word=word, number=self._number(number)))
        if s.invalid_clue == "penalty" and word:
            return Decision(action=action, confirm=self._t(
                "confirm_invalid_clue", spymaster=spymaster, word=word,
                number=self._number(number), team=self._team(team)))
        return self._reply("clue_refused", reason=problem, spymaster=spymaster)

    def _guess(self, s: CodenamesState, word: str, speaker: str | None) -> Decision:
        team = s.current_team
        refusal = self._guesser_refusal(s, speaker)
        if refusal is not None:
            return refusal
        colour = s.covered_colour(word)
        if colour is not None:
            return self._reply("already_covered", word=_cap(s.find_word(word) or word),
                               colour=self._colour(colour))
        return Decision(action=Guess(team, s.find_word(word) or word))

    def _pass(self, s: CodenamesState, speaker: str | None) -> Decision:
        refusal = self._guesser_refusal(s, speaker)
        if refusal is not None:
            return refusal
        if s.guesses_made == 0:
            return self._reply("pass_too_early")
        return Decision(action=EndTurn(s.current_team))

    def _guesser_refusal(self, s: CodenamesState, speaker: str | None) -> Decision | None:
        team = s.current_team
        if speaker is None or speaker in s.operatives(team):
            return None
        if speaker == s.spymaster(team):
            return self._reply("guess_wrong_speaker_spymaster", speaker=speaker,
                               operatives=self._names(s.operatives(team)))
        return self._reply("guess_wrong_speaker_other", speaker=speaker, team=self._team(team))

    def _penalty(self, s: CodenamesState, match: IntentMatch, speaker: str | None) -> Decision:
        team = s.current_team
        spymaster = s.spymaster(team)
        tn = self._team(team)
        if speaker is not None and speaker != spymaster:
            return self._reply("penalty_wrong_speaker", speaker=speaker, spymaster=spymaster)
        if match.intent != "guess":
            return self._reply("penalty_pass", spymaster=spymaster, team=tn)
        word = str(match.slots.get("word", ""))
        colour = s.covered_colour(word)
        if colour is not None:
            return self._reply("already_covered", word=_cap(s.find_word(word) or word),
                               colour=self._colour(colour))
        grid_word = s.find_word(word) or word
        key = _key(s)
        if key is not None and grid_word in s.words and \
                key[s.words.index(grid_word)] is not team_colour(team):
            return self._reply("penalty_not_own", spymaster=spymaster, team=tn)
        return Decision(action=CoverPenalty(grid_word))

    def on_recording(self, state: GameState, heard: Heard) -> list[Line]:
        return []

    def on_timeout(self, state: GameState) -> Action | None:
        return None

    # ------------------------------------------------------------------ narration

    def narrate(self, state: GameState, events: Sequence[Event]) -> list[Line]:
        s = _state(state)
        lines: list[Line] = []
        last_guesser: Team | None = None
        by_penalty = False
        for event in events:
            if isinstance(event, GridDealt):
                lines.extend(self._grid_lines(s, event))
            elif isinstance(event, KeyDealt):
                lines.extend(self._deliver_key(s, event))
            elif isinstance(event, TurnStarted):
                tn = self._team(event.team)
                lines.append(self._line("turn", cue="turn", team=tn, Team=_cap(tn),
                                        spymaster=event.spymaster))
            elif isinstance(event, ClueGiven):
                pass  # the guess prompt that follows says the clue and the guesses allowed
            elif isinstance(event, InvalidClue):
                lines.append(self._line("invalid_clue", cue="miss", word=_cap(event.word),
                                        reason=event.reason, team=self._team(event.team)))
            elif isinstance(event, TileTouched):
                lines.append(self._line("touched", team=self._team(event.team),
                                        word=event.word))
            elif isinstance(event, GuessResolved):
                last_guesser = event.team
                lines.extend(self._resolved_lines(event))
            elif isinstance(event, PenaltyCovered):
                by_penalty = True
                lines.append(self._line("penalty_covered", spymaster=event.spymaster,
                                        word=event.word, team=self._team(event.team)))
                lines.append(self._line("left", **_per_team(event.remaining)))
            elif isinstance(event, TurnEnded):
                if event.why == "passed":
                    lines.append(self._line("turn_passed", team=self._team(event.team)))
                elif event.why == "guesses_used":
                    lines.append(self._line("turn_used", team=self._team(event.team)))
                elif event.why in ("neutral", "opponent"):
                    lines.append(self._line("turn_miss", team=self._team(event.team)))
            elif isinstance(event, GameOver):
                lines.extend(self._game_over_lines(event, last_guesser, by_penalty))
        return lines

    def _grid_lines(self, s: CodenamesState, event: GridDealt) -> list[Line]:
        table = s.deal.value != "host"
        lines = [self._line("grid_intro_table" if table else "grid_intro")]
        lines.extend(self._line("row", ordinal=self._ordinal(i), words=", ".join(row))
                     for i, row in enumerate(s.rows(), 1))
        first = event.first
        lines.append(self._line("first_table" if table else "first_host",
                                team=self._team(first), other=self._team(first.other)))
        return lines

    def _deliver_key(self, s: CodenamesState, event: KeyDealt) -> list[Line]:
        """The key as one PRIVATE line per spymaster (several sentences, one per line), sent
        to the secret sink; the table hears where it went."""
        lines: list[Line] = []
        unsent: list[str] = []
        for spymaster in event.audience:
            team = s.team_of(spymaster)
            assert team is not None
            secret = Line("\n".join(self._key_texts(s, event, spymaster, team)),
                          lang=self.narrator.lang, style=Style.PRIVATE, to=spymaster)
            said, delivery = deliver(self.narrator, self.secret_sink, secret,
                                     elsewhere="codenames.key_elsewhere", spymaster=spymaster)
            lines.extend(said)
            if delivery.via is Via.SPOKEN:  # one "given privately" for all of them
                unsent.append(spymaster)
        if unsent:
            lines.append(self._line("key_sent", spymasters=self._names(unsent)))
        lines.append(self._line("key_ready"))
        return lines

    def _key_texts(self, s: CodenamesState, event: KeyDealt, spymaster: str,
                   team: Team) -> list[str]:
        words = s.words
        texts = [self._t("key.title", spymaster=spymaster, team=self._team(team),
                         first=self._team(event.first))]
        for colour in (team_colour(event.first), team_colour(event.first.other),
                       Colour.NEUTRAL, Colour.ASSASSIN):
            chosen = [w for w, c in zip(words, event.key, strict=True) if c is colour]
            texts.append(self._t(f"key.{colour.value}", count=len(chosen),
                                 words=", ".join(chosen)))
        texts.append(self._t("key.grid"))
        for i, start in enumerate(range(0, len(words), 5), 1):
            cells = [self._t("key.cell", word=w, colour=self._t(f"key.colour.{c.value}"))
                     for w, c in zip(words[start:start + 5], event.key[start:start + 5],
                                     strict=True)]
            texts.append(self._t("key.row", ordinal=i, words=", ".join(cells)))
        return texts

    def _resolved_lines(self, event: GuessResolved) -> list[Line]:
        word = _cap(event.word)
        team = self._team(event.team)
        colour = event.colour
        if colour is team_colour(event.team):
            line = self._line("hit", cue="hit", word=word, team=team)
        elif colour is Colour.ASSASSIN:
            return [self._line("miss_assassin", cue="miss", word=word)]
        elif colour is Colour.NEUTRAL:  # nothing changed for the teams
            return [self._line("miss_neutral", cue="miss", word=word)]
        else:
            line = self._line("miss_other", cue="miss", word=word,
                              other=self._team(event.team.other))
        return [line, self._line("left", **_per_team(event.remaining))]

    def _game_over_lines(self, event: GameOver, guesser: Team | None,
                         by_penalty: bool) -> list[Line]:
        winner = Team(event.winners[0])
        tn = self._team(winner)
        if event.reason == "assassin":
            first = self._line("win_assassin", cue="game_over", team=tn,
                               loser=self._team(winner.other))
        elif by_penalty:
            first = self._line("win_penalty", cue="game_over", team=tn)
        elif guesser is not None and guesser is not winner:
            first = self._line("win_gift", cue="game_over", team=tn,
                               guesser=self._team(guesser))
        else:
            first = self._line("win_found", cue="game_over", team=tn, Team=_cap(tn))
        return [first, self._line("final_score", **_per_team(event.scores))]

    def describe(self, state: GameState, action: Action) -> str:
        s = _state(state)
        if isinstance(action, GiveClue):
            return self._t("describe_clue", spymaster=s.spymaster(Team(action.team)),
                           word=action.word, number=self._number(action.number))
        if isinstance(action, Guess):
            return self._t("describe_guess", team=self._team(Team(action.team)),
                           word=action.word)
        if isinstance(action, EndTurn):
            return self._t("describe_pass", team=self._team(Team(action.team)))
        if isinstance(action, StateColour):
            return self._t("describe_colour", word=action.word,
                           colour=self._colour(Colour(action.colour)))
        if isinstance(action, CoverPenalty):
            return self._t("describe_penalty", spymaster=s.spymaster(s.current_team),
                           word=action.word)
        return type(action).__name__

    # ------------------------------------------------------------------ universal commands

    def score(self, state: GameState) -> list[Line]:
        s = _state(state)
        if not s.words:
            return [self._line("board_empty")]
        return [self._line("score", red_found=s.covered_count(Colour.RED),
                           blue_found=s.covered_count(Colour.BLUE), **self._left_params(s))]

    def board(self, state: GameState) -> list[Line]:
        s = _state(state)
        if not s.words:
            return [self._line("board_empty")]
        lines = []
        for i, row in enumerate(s.rows(), 1):
            said = []
            for word in row:
                colour = s.covered_colour(word)
                said.append(word if colour is None else self._t(
                    "board_word_covered", word=word, colour=self._colour(colour)))
            lines.append(self._line("row", ordinal=self._ordinal(i), words=", ".join(said)))
        lines.append(self._line("board_left", uncovered=len(s.uncovered_words()),
                                **self._left_params(s)))
        return lines

    def status(self, state: GameState) -> list[Line]:
        s = _state(state)
        phase = s.phase()
        team = s.current_team
        tn = self._team(team)
        spymaster = s.spymaster(team)
        if phase == "deal":
            return [self._line("status_deal")]
        if phase == "over":
            winner = s.winner
            return [self._line("status_over", team=self._team(winner or team))]
        if phase == "clue":
            lines = [self._line("status_clue", team=tn, spymaster=spymaster)]
        elif phase == "guess":
            clue = s.clue
            assert clue is not None
            lines = [self._line("status_guess", team=tn, word=clue[0],
                                number=self._number(clue[1]),
                                left=self._guesses_left_text(s))]
        elif phase == "colour":
            lines = [self._line("status_colour", spymaster=spymaster, word=s.pending_word)]
        else:
            lines = [self._line("status_penalty", spymaster=spymaster, team=tn)]
        lines.append(self._line("left", **self._left_params(s)))
        return lines

    def tried(self, state: GameState) -> list[Line]:
        """The clues given so far."""
        s = _state(state)
        if not s.clues:
            return [self._line("clues_none")]
        items = [self._t("clue_item", team=self._team(t), word=w, number=self._number(n))
                 for t, w, n in s.clues]
        return [self._line("clues_list", clues="; ".join(items))]

    def winner_json(self, outcome: Outcome) -> list[str]:
        return list(outcome.winners)

    # ------------------------------------------------------------------ demo players

    def bot_utterance(self, state: GameState, prompt: Prompt,
                      rng: random.Random) -> tuple[str, str]:
        s = _state(state)
        phase = s.phase()
        team = s.current_team
        spymaster = s.spymaster(team)
        key = _key(s)
        if phase == "clue":
            word = self._bot_clue_word(s, rng)
            number = NUMBER_WORDS[rng.choice((1, 1, 2, 2, 2)) if s.remaining(team) > 1 else 1]
            return spymaster, rng.choice(CLUE_PHRASES).format(word=word, number=number)
        if phase == "guess":
            operatives = prompt.expected or s.operatives(team)
            speaker = rng.choice(operatives)
            if s.guesses_made > 0 and rng.random() < BOT_PASS:
                return speaker, rng.choice(PASS_PHRASES)
            return speaker, rng.choice(GUESS_PHRASES).format(
                word=_spoken_word(self._bot_guess(s, key, rng)))
        if phase == "colour":
            action = s.random_action(rng)
            assert isinstance(action, StateColour)
            return spymaster, rng.choice(COLOUR_PHRASES).format(
                colour=SPOKEN_COLOUR[Colour(action.colour)])
        if phase == "penalty":
            own = [w for w in s.uncovered_words()
                   if key is None or key[s.words.index(w)] is team_colour(team)]
            return spymaster, rng.choice(GUESS_PHRASES[:3]).format(
                word=_spoken_word(rng.choice(own)))
        expected = prompt.expected or s.players
        return expected[0], "status"

    def _bot_clue_word(self, s: CodenamesState, rng: random.Random) -> str:
        used = {w for _t, w, _n in s.clues}
        preferred = [w for w in DEMO_CLUES.get(s.language, ()) if w not in used]
        rng.shuffle(preferred)
        for word in preferred:
            if s.clue_problem(word) is None:
                return word
        fallback = [w for w in WORD_LISTS[s.language] if " " not in w and "-" not in w
                    and w not in used]
        rng.shuffle(fallback)
        for word in fallback:
            if s.clue_problem(word) is None:
                return word
        return "secret"

    def _bot_guess(self, s: CodenamesState, key: Sequence[Colour] | None,
                   rng: random.Random) -> str:
        visible = list(s.uncovered_words())
        if key is None:
            return rng.choice(visible)
        own_colour = team_colour(s.current_team)
        own = [w for w in visible if key[s.words.index(w)] is own_colour]
        # a demo cheat: the operatives know their words, and sometimes get one wrong (never
        # the assassin, so demo games reach a proper finish)
        wrong = [w for w in visible if key[s.words.index(w)] not in (own_colour,
                                                                    Colour.ASSASSIN)]
        if own and (not wrong or rng.random() >= BOT_WRONG_GUESS):
            return rng.choice(own)
        return rng.choice(wrong or visible)


def _key(s: CodenamesState) -> tuple[Colour, ...] | None:
    """The key as the engine holds it (host mode), read through a spymaster's view."""
    if s.deal.value != "host" or not s.words:
        return None
    view = s.player_view(s.spymaster(Team.RED))
    raw = view.get("key")
    return None if raw is None else tuple(Colour(c) for c in raw)


def _per_team(pairs: Sequence[tuple[str, int]]) -> dict[str, Any]:
    """(("red", 3), ("blue", 5)) as narration fields red=3, blue=5."""
    return {team: count for team, count in pairs}


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _spoken_word(word: str) -> str:
    return word.replace("-", " ").lower()


def _as_int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def refusal_words(narrator: Narrator, error: IllegalAction) -> dict[str, Any]:
    """This game's refusal parameters in words (the names and numbers need none)."""
    return {}


def bot_utterance(adapter: GameAdapter, state: GameState, prompt: Prompt,
                  rng: random.Random) -> tuple[str, str]:
    assert isinstance(adapter, Adapter)
    return adapter.bot_utterance(state, prompt, rng)


def seat_teams(names: Sequence[str]) -> dict[str, Any]:
    """Two teams from a seating list: the first half (rounded up) red, spymasters first."""
    half = (len(names) + 1) // 2
    return {"red": list(names[:half]), "blue": list(names[half:])}


REGISTRATION = GameRegistration(
    state_class=CodenamesState, new_game=new_game, adapter=Adapter,
    refusal_words=refusal_words, bots=bot_utterance, companion=codenames_phone,
    options=(
        GameOption("red", "red team, spymaster first: A,B", kind="names", required=True),
        GameOption("blue", "blue team, spymaster first: C,D", kind="names", required=True),
        GameOption("first", "starting team (table mode: as the key card shows)",
                   choices=("red", "blue")),
        GameOption("words", "word list", default="en", choices=("en", "fr")),
        GameOption("invalid_clue", "refuse an invalid clue (default) or apply the official "
                   "penalty", default="refuse", choices=("refuse", "penalty")),
    ),
    seat=seat_teams,
    demo_seats={"red": ["Hannah", "Thomas"], "blue": ["Sophie", "Oliver"]},
)
