"""Demo players for Codenames (``demo``, the whole-game benchmark and the tests): each says a
legal move as a person would, in the game's language and in words its grammar understands
(the phrasings are the catalogue's ``codenames.bot``). Not part of the host's protocol."""

from __future__ import annotations

import random
from collections.abc import Sequence

from voice_host.games import GameState
from voice_host.games.codenames import CodenamesState, Colour, StateColour, Team, team_colour
from voice_host.games.codenames_words import WORD_LISTS
from voice_host.host.adapters.codenames.words import CodenamesWords
from voice_host.host.core.adapter import GameAdapter, Prompt, narrow
from voice_host.host.core.narration import catalogue

DEMO_CLUES: dict[str, tuple[str, ...]] = {
    "en": ("money", "hospital", "market", "travel", "football", "problem", "season",
           "chocolate", "house", "love", "garden", "island", "history", "gold"),
    "fr": ("musique", "hiver", "argent", "animal", "jardin", "voyage", "nature", "histoire",
           "cuisine", "montagne", "couleur", "famille"),
}
"""Common clue words the demo spymasters try first, in each language (the game's word list is
the fallback). The English ones are words an open-vocabulary recognizer hears reliably from
synthetic voices."""

UNHEARD_CLUES: dict[str, frozenset[str]] = {"fr": frozenset({"maïs", "dé"})}
"""Words of the game's list the grammar cannot read as a clue ("maïs" is heard as "mais",
"dé" as "de"): never given by the demo spymasters."""

BOT_WRONG_GUESS = 0.2
"""How often a demo operative touches a word that is not its team's."""
BOT_PASS = 0.3
"""How often demo operatives stop after a right guess when they may go on."""


def bot_utterance(adapter: GameAdapter, state: GameState, prompt: Prompt,
                  rng: random.Random) -> tuple[str, str]:
    """(speaker, what they say) for ``prompt``: a legal move phrased naturally, in the
    game's language."""
    assert isinstance(adapter, CodenamesWords)
    s = narrow(state, CodenamesState)
    phase = s.phase()
    team = s.current_team
    spymaster = s.spymaster(team)
    key = _key(s)
    if phase == "clue":
        word = _clue_word(s, rng)
        number = rng.choice((1, 1, 2, 2, 2)) if s.remaining(team) > 1 else 1
        return spymaster, _said(adapter, "clue", rng, word=word,
                                number=adapter.t(f"bot.number.{number}"))
    if phase == "guess":
        operatives = prompt.expected or s.operatives(team)
        speaker = rng.choice(operatives)
        if s.guesses_made > 0 and rng.random() < BOT_PASS:
            return speaker, _said(adapter, "pass", rng)
        return speaker, _said(adapter, "guess", rng, word=_spoken_word(_guess(s, key, rng)))
    if phase == "colour":
        action = s.random_action(rng)
        assert isinstance(action, StateColour)
        return spymaster, _said(adapter, "colour", rng, colour=adapter.t(
            f"bot.colour_name.{Colour(action.colour).value}"))
    if phase == "penalty":
        own = [w for w in s.uncovered_words()
               if key is None or key[s.words.index(w)] is team_colour(team)]
        return spymaster, _said(adapter, "guess", rng, first=PENALTY_PHRASES,
                                word=_spoken_word(rng.choice(own)))
    expected = prompt.expected or s.players
    return expected[0], adapter.t("bot.status")


PENALTY_PHRASES = 3
"""A penalty word is named with one of the first guess phrasings (the plainest)."""


def _said(words: CodenamesWords, key: str, rng: random.Random, *, first: int | None = None,
          **params: str) -> str:
    """One of the phrasings of ``codenames.bot.<key>`` (among the first ``first`` when
    given), picked at random."""
    return words.t(f"bot.{key}", variant=rng.randrange(min(_variants(words, key),
                                                            first or 1_000)), **params)


def _variants(words: CodenamesWords, key: str) -> int:
    value = catalogue(words.lang, "codenames").get(f"codenames.bot.{key}")
    return len(value) if isinstance(value, list) else 1


def _clue_word(s: CodenamesState, rng: random.Random) -> str:
    used = {w for _t, w, _n in s.clues}
    preferred = [w for w in DEMO_CLUES.get(s.language, ()) if w not in used]
    rng.shuffle(preferred)
    for word in preferred:
        if s.clue_problem(word) is None:
            return word
    unheard = UNHEARD_CLUES.get(s.language, frozenset())
    fallback = [w for w in WORD_LISTS[s.language] if " " not in w and "-" not in w
                and w not in used and w not in unheard]
    rng.shuffle(fallback)
    for word in fallback:
        if s.clue_problem(word) is None:
            return word
    return "secret"


def _guess(s: CodenamesState, key: Sequence[Colour] | None, rng: random.Random) -> str:
    visible = list(s.uncovered_words())
    if key is None:
        return rng.choice(visible)
    own_colour = team_colour(s.current_team)
    own = [w for w in visible if key[s.words.index(w)] is own_colour]
    # a demo cheat: the operatives know their words, and sometimes get one wrong (never
    # the assassin, so demo games reach a proper finish)
    wrong = [w for w in visible if key[s.words.index(w)] not in (own_colour, Colour.ASSASSIN)]
    if own and (not wrong or rng.random() >= BOT_WRONG_GUESS):
        return rng.choice(own)
    return rng.choice(wrong or visible)


def _key(s: CodenamesState) -> tuple[Colour, ...] | None:
    """The key as the engine holds it (host mode), read through a spymaster's view: the demo
    players cheat."""
    if s.deal.value != "host" or not s.words:
        return None
    raw = s.player_view(s.spymaster(Team.RED)).get("key")
    return None if raw is None else tuple(Colour(c) for c in raw)


def _spoken_word(word: str) -> str:
    return word.replace("-", " ").lower()
