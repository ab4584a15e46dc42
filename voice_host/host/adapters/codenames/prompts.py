"""What Codenames asks now (the clue, a guess, a touched tile's colour, the penalty word),
and the words the recognizer should expect for it."""

from __future__ import annotations

from voice_host.games import GameState
from voice_host.games.codenames import CodenamesState, guesses_allowed
from voice_host.games.codenames_words import WORD_LISTS
from voice_host.host.adapters.codenames.words import CodenamesWords
from voice_host.host.core.adapter import Prompt, narrow
from voice_host.host.core.values import Line, Wants
from voice_host.intent import SlotList, SlotValues, as_spoken


def prompt(w: CodenamesWords, state: GameState) -> Prompt | None:
    s = narrow(state, CodenamesState)
    phase = s.phase()
    team = s.current_team
    key = (f"{phase}|{team.value}|{len(s.clues)}|{len(s.uncovered_words())}|"
           f"{s.guesses_made}")
    spymaster = s.spymaster(team)
    tn = w.team(team)
    if phase == "clue":
        return Prompt(lines=(w.line("clue_prompt", spymaster=spymaster, team=tn),),
                      reminder=(w.line("clue_reminder", spymaster=spymaster),),
                      phase="clue", expected=(spymaster,), key=key, discussion=True,
                      # "ocean ... two": the word alone may be followed by its number
                      wants=Wants("clue_no_number"))
    if phase == "guess":
        return _guess_prompt(w, s, key)
    if phase == "colour":
        word = s.pending_word or ""
        return Prompt(lines=(w.line("colour_prompt", spymaster=spymaster, word=word),),
                      reminder=(w.line("colour_reminder", spymaster=spymaster, word=word),),
                      phase="colour", expected=(spymaster,), key=key)
    if phase == "penalty":
        return Prompt(lines=(w.line("penalty_prompt", spymaster=spymaster, team=tn),),
                      reminder=(w.line("penalty_reminder", spymaster=spymaster, team=tn),),
                      phase="guess", expected=(spymaster,), key=key)
    return None


def _guess_prompt(w: CodenamesWords, s: CodenamesState, key: str) -> Prompt:
    team = s.current_team
    tn = w.team(team)
    clue = s.clue
    assert clue is not None
    word, number = clue[0], w.number(clue[1])
    operatives = s.operatives(team)
    left = w.guesses_left(s)
    if s.guesses_made == 0:
        allowed = guesses_allowed(clue[1])
        if allowed is None:
            first = w.line("guess_first_unlimited", operatives=w.names(operatives), team=tn,
                           word=word, number=number)
        else:
            first = w.line("guess_first", operatives=w.names(operatives), team=tn, word=word,
                           number=number, guesses=w.guesses(allowed))
        lines: tuple[Line, ...] = (first,)
    else:
        lines = (Line(left, lang=w.lang),)
    reminder = (w.line("guess_reminder", word=word, number=number, left=left),)
    return Prompt(lines=lines, reminder=reminder, phase="guess", expected=operatives, key=key)


def slot_values(state: GameState) -> SlotValues:
    s = narrow(state, CodenamesState)
    # every grid word, covered ones too: "piano" when piano is covered is then refused
    # with its reason instead of being misunderstood
    if s.phase() == "clue":
        # the recognizer listens for likely clue words first: the game's word list, less
        # what is on the board (those are never valid clues)
        on_board = set(s.words)
        likely = tuple(w for w in WORD_LISTS.get(s.language, ()) if w not in on_board)
        return SlotValues(players=s.players, lists=slot_lists(s.language, s),
                          open_words=likely)
    return SlotValues(players=s.players, lists=slot_lists(s.language, s))


def slot_lists(lang: str, state: GameState | None = None) -> tuple[SlotList, ...]:
    """The ``{board_word}`` list: every grid word (for no state: the first 25 of the word
    list, as examples)."""
    words = state.words if isinstance(state, CodenamesState) \
        else tuple(WORD_LISTS.get(lang, WORD_LISTS["en"])[:25])
    return (as_spoken("board_word", words),)
