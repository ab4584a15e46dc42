"""What a Codenames utterance means now: the action it stands for, or what to answer.

The rules are the engine's, who may act included: an action is handed over as said, by the
player who said it, and the session tries it on a copy of the game, saying the engine's
refusal in the game's language. A voice that did not say who it is speaks for the player the
host asked: the spymaster, or during a guess the team (its first operative). What stays here
is what the engine cannot know: an utterance that is no move of this phase (a clue of two
words, no number), and what to confirm (an invalid clue played with the penalty)."""

from __future__ import annotations

from typing import Any

from voice_host.games import GameState, lexicon
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
from voice_host.host.core.adapter import Decision, narrow
from voice_host.intent import IntentMatch

MALFORMED_CLUES = ("clue_two_words", "clue_number_word", "clue_no_number")
"""Intents of a clue said wrong, answered with what is wrong with it."""


def interpret(w: CodenamesWords, state: GameState, match: IntentMatch,
              speaker: str | None) -> Decision:
    s = narrow(state, CodenamesState)
    phase = s.phase()
    intent = match.intent
    if phase == "clue":
        if intent in MALFORMED_CLUES:
            return _malformed_clue(w, s, match, speaker)
        if intent != "clue":
            return reply(w, "not_now")
        return _clue(w, s, match, speaker)
    if phase == "guess":
        if intent == "guess":
            return _guess(w, s, str(match.slots.get("word", "")), speaker)
        if intent == "pass":
            return _pass(w, s, speaker)
        if intent == "clue":
            return reply(w, "clue_not_now")
        return reply(w, "not_now")
    if phase == "colour":
        return _colour(w, s, match, speaker)
    if phase == "penalty":
        return _penalty(w, s, match, speaker)
    return reply(w, "not_now")


def plausible(w: CodenamesWords, state: GameState, match: IntentMatch) -> bool:
    """A clue whose word no dictionary of the game's language knows ("marikit", Whisper's
    spelling of "market"; :func:`lexicon.is_unknown_word`, the bar a clue is asked about
    at) is no clue a spymaster could mean; anything else may be, rare words too ("walrus").
    Without a dictionary installed, every reading may be meant."""
    if match.intent != "clue" or not isinstance(match.slots.get("word"), str):
        return True
    s = narrow(state, CodenamesState)
    return not lexicon.is_unknown_word(str(match.slots["word"]), s.language)


def reply(w: CodenamesWords, key: str, **params: Any) -> Decision:
    return Decision(reply=(w.line(key, **params),))


def _not_the_spymaster(s: CodenamesState, speaker: str | None) -> Decision | None:
    """A clue from someone who may not give one now: the clue as they said it, for the
    engine to refuse by who said it (whatever else is wrong with the words)."""
    if speaker is None or speaker in s.current_players():
        return None
    return Decision(action=GiveClue(speaker, "", None))


def _malformed_clue(w: CodenamesWords, s: CodenamesState, match: IntentMatch,
                    speaker: str | None) -> Decision:
    """A clue of two words, a number word, or no number: say what is wrong with it."""
    wrong = _not_the_spymaster(s, speaker)
    if wrong is not None:
        return wrong
    spymaster = s.spymaster(s.current_team)
    if match.intent == "clue_two_words":
        # "pomme de terre": the little word between is said back too, and counted
        pieces = (match.slots.get(k) for k in ("word", "link", "word2"))
        words = " ".join(lexicon.written(str(x), s.language) for x in pieces if x)
        return reply(w, "clue_one_word", words=words, spymaster=spymaster,
                     count=w.number(len(words.split())))
    if match.intent == "clue_number_word":
        said = match.slots.get("number_word")
        return reply(w, "clue_number_word", spymaster=spymaster,
                     word=w.number(None if said == "unlimited" else as_int(said)))
    return reply(w, "clue_say_number", spymaster=spymaster,
                 word=lexicon.written(str(match.slots.get("word", "")), s.language))


def _clue(w: CodenamesWords, s: CodenamesState, match: IntentMatch,
          speaker: str | None) -> Decision:
    wrong = _not_the_spymaster(s, speaker)
    if wrong is not None:
        return wrong
    team = s.current_team
    spymaster = s.spymaster(team)
    # the matcher folds what it hears ("etoile"): the clue is shown and said as written
    word = lexicon.written(str(match.slots.get("word", "")).strip(), s.language)
    raw = match.slots.get("number")
    number: int | None = None if raw in (None, "unlimited") else as_int(raw)
    if raw not in (None, "unlimited") and number is None:  # no number this host can read
        return reply(w, "clue_say_number", spymaster=spymaster, word=word)
    action = GiveClue(spymaster, word, number)
    # the engine's verdict on the word, asked before anything is said: a refused clue is
    # answered to the spymaster by name, an invalid one played with the penalty is confirmed
    problem = s.clue_problem(word)
    if problem is None:
        described = w.t("describe_clue", spymaster=spymaster, word=word,
                        number=w.number(number))
        if lexicon.is_function_word(word, s.language) \
                or lexicon.is_unknown_word(word, s.language):
            # "as for two", however plainly heard, was a demo game's "house for two": a
            # word as common as "as" or "is" is hardly a clue, and is confirmed first; so
            # is a word no dictionary knows ("preble for one", both of Whisper's readings
            # of a demo's "travel for one", would have been played unasked)
            return Decision(action=action, confirm=described)
        # a clue cannot be taken back once the operatives have heard it: confirmed when it
        # was not said plainly (a spoken open word is the easiest thing to mishear)
        return Decision(action=action, irreversible=described)
    if s.invalid_clue == "penalty" and word:
        return Decision(action=action, confirm=w.t(
            "confirm_invalid_clue", spymaster=spymaster, word=word, number=w.number(number),
            team=w.team(team)))
    return reply(w, "clue_refused", reason=w.refusal(problem), spymaster=spymaster)


def _guesser(s: CodenamesState, speaker: str | None) -> str:
    """Who guesses: the operative who spoke, or the team (its first operative)."""
    return speaker or s.operatives(s.current_team)[0]


def _guess(w: CodenamesWords, s: CodenamesState, word: str, speaker: str | None) -> Decision:
    # a card touched is turned over: the guess cannot be taken back once the table saw it
    action = Guess(_guesser(s, speaker), s.find_word(word) or word)
    return Decision(action=action, irreversible=w.t(
        "describe_guess", team=w.team(s.team_of(action.player) or s.current_team),
        word=action.word))


def _pass(w: CodenamesWords, s: CodenamesState, speaker: str | None) -> Decision:
    return Decision(action=EndTurn(_guesser(s, speaker)))


def _colour(w: CodenamesWords, s: CodenamesState, match: IntentMatch,
            speaker: str | None) -> Decision:
    spymaster = s.spymaster(s.current_team)
    word = s.pending_word or ""
    if match.intent != "colour":
        return reply(w, "colour_first", spymaster=spymaster, word=word)
    colour = Colour(str(match.slots.get("colour")))
    confirm = w.t("confirm_assassin", word=word) if colour is Colour.ASSASSIN else None
    return Decision(action=StateColour(speaker or spymaster, word, colour), confirm=confirm)


def _penalty(w: CodenamesWords, s: CodenamesState, match: IntentMatch,
             speaker: str | None) -> Decision:
    team = s.current_team
    spymaster = s.spymaster(team)
    if match.intent != "guess":
        return reply(w, "penalty_pass", spymaster=spymaster, team=w.team(team))
    word = str(match.slots.get("word", ""))
    return Decision(action=CoverPenalty(speaker or spymaster, s.find_word(word) or word))


def as_int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None
