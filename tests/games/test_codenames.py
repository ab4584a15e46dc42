"""Codenames engine: one test per rule (shared/rules/codenames.md), plus the word lists."""

from __future__ import annotations

import collections
import itertools
import json
import random
import unicodedata

import pytest

from voice_host.games import lexicon
from voice_host.games.base import (
    Deal,
    Event,
    GameError,
    IllegalAction,
    SetupError,
    action_from_json,
    action_to_json,
    event_to_json,
)
from voice_host.games.codenames import (
    NUMBER_WORDS,
    ClueGiven,
    CodenamesRefusal,
    CodenamesState,
    Colour,
    CoverPenalty,
    DealGrid,
    EndTurn,
    GameOver,
    GiveClue,
    Guess,
    GuessResolved,
    InvalidClue,
    KeyDealt,
    PenaltyCovered,
    StateColour,
    Team,
    TileTouched,
    TurnEnded,
    clue_problem,
)
from voice_host.games.codenames_words import ENGLISH_WORDS, FRENCH_WORDS, WORD_LISTS
from voice_host.text import lookup_key

PLAYERS = ("Ada", "Ben", "Cleo", "Dan", "Eve")  # red: Ada (spymaster), Ben, Cleo; blue: Dan, Eve

RED_WORDS = ("apple", "piano", "castle", "dragon", "river", "violin", "rocket", "tiger", "candle")
BLUE_WORDS = ("church", "snow", "firetruck", "lemon", "glove", "anchor", "honey", "wizard")
NEUTRAL_WORDS = ("bridge", "cloud", "pencil", "mirror", "crown", "helmet", "owl")
ASSASSIN_WORD = "bomb"
GRID = (*RED_WORDS, *BLUE_WORDS, *NEUTRAL_WORDS, ASSASSIN_WORD)
KEY = ((Colour.RED,) * 9 + (Colour.BLUE,) * 8 + (Colour.NEUTRAL,) * 7 + (Colour.ASSASSIN,))

R, B = Team.RED, Team.BLUE


def snapshot(state: CodenamesState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def host_game(**options: object) -> CodenamesState:
    """Host mode, fixed grid: red starts with RED_WORDS, blue has BLUE_WORDS."""
    state = CodenamesState.new(PLAYERS, deal=Deal.HOST, **options)  # type: ignore[arg-type]
    state.apply(DealGrid(words=GRID, key=KEY, first=R))
    return state


def table_game(**options: object) -> CodenamesState:
    state = CodenamesState.new(PLAYERS, deal=Deal.TABLE, **options)  # type: ignore[arg-type]
    state.apply(DealGrid(words=GRID, key=None, first=R))
    return state


def refused(state: CodenamesState, action: object, code: str | None = None,
            **params: object) -> CodenamesRefusal:
    """Apply ``action``, expect a refusal that leaves the state unchanged, with ``code`` and
    ``params`` when given; return it."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(action)  # type: ignore[arg-type]
    assert snapshot(state) == before
    error = info.value
    assert isinstance(error, CodenamesRefusal)
    if code is not None:
        assert (error.code, error.params) == (code, params)
    return error


def problem(clue: str, visible: tuple[str, ...] = (), language: str = "en") -> tuple[
        str, dict[str, object]] | None:
    """The code and parameters of ``clue_problem``, or None for a valid clue."""
    found = clue_problem(clue, visible, language=language)
    return None if found is None else (found.code, found.params)


def guess_all(state: CodenamesState, team: Team, words: tuple[str, ...]) -> list[Event]:
    events: list[Event] = []
    for w in words:
        events.extend(state.apply(Guess(state.operatives(team)[0], w)))
    return events


# --------------------------------------------------------------------------- set-up


def test_four_to_twelve_players() -> None:
    with pytest.raises(SetupError):
        CodenamesState.new(PLAYERS[:3])
    names = [f"P{i}" for i in range(13)]
    with pytest.raises(SetupError):
        CodenamesState.new(names)
    assert CodenamesState.new(names[:12]).players == tuple(names[:12])
    assert CodenamesState.new(names[:4]).players == tuple(names[:4])


def test_red_team_then_blue_team_and_first_player_of_each_is_spymaster() -> None:
    state = CodenamesState.new(PLAYERS)
    assert state.team_players(R) == ("Ada", "Ben", "Cleo")
    assert state.team_players(B) == ("Dan", "Eve")
    assert state.spymaster(R) == "Ada" and state.spymaster(B) == "Dan"
    assert state.operatives(R) == ("Ben", "Cleo") and state.operatives(B) == ("Eve",)
    assert state.team_of("Eve") is B and state.team_of("Nobody") is None


def test_red_size_defaults_to_half_rounded_up_and_can_be_set() -> None:
    assert len(CodenamesState.new(PLAYERS).team_players(R)) == 3
    assert len(CodenamesState.new(PLAYERS[:4]).team_players(R)) == 2
    state = CodenamesState.new(PLAYERS, red_size=2)
    assert state.team_players(R) == ("Ada", "Ben") and state.spymaster(B) == "Cleo"


@pytest.mark.parametrize("red_size", [1, 4, 0])
def test_each_team_needs_at_least_two_players(red_size: int) -> None:
    with pytest.raises(SetupError, match="at least 2 players"):
        CodenamesState.new(PLAYERS, red_size=red_size)


@pytest.mark.parametrize("options", [{"words": "de"}, {"invalid_clue": "ignore"},
                                     {"first": "green"}, {"deal": "cards"}])
def test_unknown_options_are_refused_with_a_sentence(options: dict[str, str]) -> None:
    with pytest.raises(SetupError) as info:
        CodenamesState.new(PLAYERS, **options)  # type: ignore[arg-type]
    assert info.value.reason.endswith(".")


# --------------------------------------------------------------------------- the deal


@pytest.mark.parametrize("seed", range(20))
def test_host_key_has_9_for_starting_team_8_other_7_neutral_1_assassin(seed: int) -> None:
    state = CodenamesState.new(PLAYERS, deal=Deal.HOST)
    deal = state.chance_action(random.Random(seed))
    assert deal.key is not None and len(deal.key) == 25
    counts = collections.Counter(deal.key)
    assert counts[Colour(deal.first.value)] == 9
    assert counts[Colour(deal.first.other.value)] == 8
    assert counts[Colour.NEUTRAL] == 7 and counts[Colour.ASSASSIN] == 1
    state.apply(deal)
    assert state.current_team is deal.first
    assert state.remaining_tiles() == {deal.first.value: 9, deal.first.other.value: 8}


def test_both_teams_get_to_start_when_drawn_at_random() -> None:
    state = CodenamesState.new(PLAYERS, deal=Deal.HOST)
    firsts = {state.chance_action(random.Random(seed)).first for seed in range(40)}
    assert firsts == {R, B}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_grid_is_25_distinct_words_from_the_chosen_list(language: str) -> None:
    state = CodenamesState.new(PLAYERS, deal=Deal.TABLE, words=language)
    deal = state.chance_action(random.Random(3))
    assert len(deal.words) == 25 and len(set(deal.words)) == 25
    assert set(deal.words) <= set(WORD_LISTS[language])
    state.apply(deal)
    assert len(state.rows()) == 5 and all(len(r) == 5 for r in state.rows())
    assert tuple(itertools.chain.from_iterable(state.rows())) == deal.words


def test_table_mode_key_is_the_physical_card() -> None:
    state = CodenamesState.new(PLAYERS, deal=Deal.TABLE)
    assert state.chance_action(random.Random(1)).key is None
    refused(state, DealGrid(words=GRID, key=KEY, first=R), "key_in_table_mode")
    host = CodenamesState.new(PLAYERS, deal=Deal.HOST)
    refused(host, DealGrid(words=GRID, key=None, first=R), "key_missing")


def test_key_with_wrong_counts_is_refused() -> None:
    state = CodenamesState.new(PLAYERS, deal=Deal.HOST)
    swapped = (Colour.BLUE,) + KEY[1:]  # 8 red, 9 blue but red starts
    refused(state, DealGrid(words=GRID, key=swapped, first=R), "key_counts", count=9,
            tile=Colour.RED, found=8)
    refused(state, DealGrid(words=GRID, key=KEY[:24], first=R), "key_size", size=25, count=24)


def test_grid_words_must_be_25_and_distinct() -> None:
    state = CodenamesState.new(PLAYERS, deal=Deal.TABLE)
    refused(state, DealGrid(words=GRID[:24], key=None, first=R), "grid_size", size=25,
            count=24)
    refused(state, DealGrid(words=GRID[:24] + ("Apple",), key=None, first=R),
            "grid_word_twice", word="Apple")


def test_table_grid_may_hold_physical_card_words_with_spaces() -> None:
    state = CodenamesState.new(PLAYERS, deal=Deal.TABLE)
    state.apply(DealGrid(words=("ice cream",) + GRID[1:], key=None, first=R))
    assert "ice cream" in state.uncovered_words()
    assert problem("ice", state.uncovered_words()) == (
        "clue_part_of", {"word": "Ice", "board": "ice cream"})
    found = state.clue_problem("ice")
    assert found is not None and found.reason == "Ice is part of ice cream, which is on the board."


def test_first_option_fixes_the_starting_team() -> None:
    state = CodenamesState.new(PLAYERS, deal=Deal.HOST, first="blue")
    for seed in range(10):
        deal = state.chance_action(random.Random(seed))
        assert deal.first is B
        assert collections.Counter(deal.key)[Colour.BLUE] == 9  # type: ignore[arg-type]
    refused(state, DealGrid(words=GRID, key=KEY, first=R), "first_fixed", team=B)


def test_starting_team_spymaster_gives_the_first_clue() -> None:
    state = host_game()
    assert state.phase() == "clue"
    assert state.current_players() == ("Ada",)
    refused(state, GiveClue("Dan", "fruit", 1), "clue_by_spymaster", player="Dan",
            spymaster="Ada", team=R)
    refused(state, GiveClue("Ben", "fruit", 1), "clue_by_spymaster", player="Ben",
            spymaster="Ada", team=R)
    refused(state, GiveClue("Zed", "fruit", 1), "unknown_player", player="Zed")
    refused(state, Guess("Ben", "apple"), "clue_first", team=R)


def test_nothing_but_the_deal_before_the_deal() -> None:
    state = CodenamesState.new(PLAYERS)
    assert state.is_chance_node() and state.phase() == "deal"
    refused(state, GiveClue("Ada", "fruit", 1), "not_dealt")


# --------------------------------------------------------------------------- clue validation

VISIBLE_EN = ("apple", "church", "run", "firetruck", "snow", "piano", "berry", "wolf")
VISIBLE_FR = ("pomme", "cheval", "chat", "portefeuille", "neige", "écureuil", "cœur", "lion")


@pytest.mark.parametrize(("clue", "visible", "language"), [
    ("ice cream", VISIBLE_EN, "en"), ("pomme de", VISIBLE_FR, "fr")])
def test_clue_must_be_a_single_word(clue: str, visible: tuple[str, ...], language: str) -> None:
    assert problem(clue, visible, language) == ("clue_spaces", {})
    assert clue_problem("fruit", VISIBLE_EN, language="en") is None
    assert clue_problem("fruit", VISIBLE_FR, language="fr") is None


@pytest.mark.parametrize(("clue", "language"), [("x-ray", "en"), ("arc-en-ciel", "fr")])
def test_clue_hyphenated_compound_is_refused(clue: str, language: str) -> None:
    assert problem(clue, (), language) == ("clue_hyphen", {})


@pytest.mark.parametrize(("clue", "code"), [
    ("r2d2", "clue_digits"), ("7", "clue_digits"), ("don't", "clue_not_letters"),
    ("l'amour", "clue_not_letters"), ("", "clue_empty"),
])
def test_clue_must_be_made_of_letters(clue: str, code: str) -> None:
    assert problem(clue, VISIBLE_EN) == (code, {})
    assert clue_problem("été", VISIBLE_FR, language="fr") is None  # accents are letters


@pytest.mark.parametrize(("clue", "visible", "language", "board"), [
    ("piano", VISIBLE_EN, "en", "Piano"),
    ("PIANO", VISIBLE_EN, "en", "Piano"),
    ("Ecureuil", VISIBLE_FR, "fr", "Écureuil"),
    ("coeur", VISIBLE_FR, "fr", "Cœur"),
    ("Cheval", VISIBLE_FR, "fr", "Cheval"),
])
def test_clue_must_not_be_a_visible_word(clue: str, visible: tuple[str, ...], language: str,
                                          board: str) -> None:
    """The board word is said as on the board (accents kept), whatever the clue's spelling."""
    found = problem(clue, visible, language)
    assert found is not None and found[0] == "clue_on_board" and found[1]["board"] == board


def test_clue_may_be_a_covered_word() -> None:
    state = host_game()
    found = state.clue_problem("apple")
    assert found is not None and (found.code, found.params["board"]) == ("clue_on_board", "Apple")
    state.apply(GiveClue("Ada", "fruit", 1))
    state.apply(Guess("Ben", "apple"))
    state.apply(EndTurn("Ben"))
    state.apply(GiveClue("Dan", "apple", 1))  # apple is covered now
    assert state.clue == ("apple", 1)


@pytest.mark.parametrize(("clue", "visible", "language"), [
    ("apples", "apple", "en"), ("apple", "apples", "en"), ("churches", "church", "en"),
    ("church", "churches", "en"), ("running", "run", "en"), ("run", "running", "en"),
    ("runners", "run", "en"), ("berries", "berry", "en"), ("wolves", "wolf", "en"),
    ("baked", "bake", "en"), ("quickly", "quick", "en"), ("swimmer", "swimming", "en"),
    ("mice", "mouse", "en"), ("snowmen", "snowman", "en"),
    ("pommes", "pomme", "fr"), ("chevaux", "cheval", "fr"), ("chatte", "chat", "fr"),
    ("chats", "chat", "fr"), ("lionne", "lion", "fr"), ("Écureuils", "écureuil", "fr"),
    ("chanter", "chanteur", "fr"), ("yeux", "œil", "fr"),
])
def test_clue_must_not_be_a_visible_word_with_an_ending_added_or_removed(
        clue: str, visible: str, language: str) -> None:
    assert problem(clue, (visible,), language) == (
        "clue_other_form", {"word": clue[0].upper() + clue[1:], "board": visible})


@pytest.mark.parametrize(("clue", "visible", "language"), [
    ("bus", "bud", "en"), ("cats", "cater", "en"), ("glass", "grass", "en"),
    ("star", "start", "en"), ("plan", "planet", "en"), ("chaise", "cheval", "fr"),
    ("dé", "dent", "fr"), ("lit", "satellite", "fr"), ("pois", "poisson", "fr"),
    # both halves are words, but the whole is not said (or spelled) as the two joined
    ("office", "ice", "en"), ("ice", "office", "en"), ("season", "sea", "en"),
    ("magnet", "net", "en"), ("château", "chat", "fr"), ("grenouille", "nouille", "fr"),
    ("portail", "porte", "fr"), ("feuille", "feu", "fr"), ("banane", "âne", "fr"),
])
def test_clue_similar_but_different_word_is_allowed(clue: str, visible: str,
                                                    language: str) -> None:
    assert clue_problem(clue, (visible,), language=language) is None


@pytest.mark.parametrize(("clue", "visible", "language"), [
    ("fire", "firetruck", "en"), ("truck", "firetruck", "en"), ("sun", "sunflower", "en"),
    ("flower", "sunflower", "en"), ("room", "bedroom", "en"), ("water", "waterfall", "en"),
    ("feuille", "portefeuille", "fr"), ("porte", "portefeuille", "fr"),
    ("sol", "tournesol", "fr"), ("ice", "ice cream", "en"), ("ciel", "arc-en-ciel", "fr"),
])
def test_clue_must_not_be_part_of_a_visible_compound_word(clue: str, visible: str,
                                                          language: str) -> None:
    assert problem(clue, (visible,), language) == (
        "clue_part_of", {"word": clue[0].upper() + clue[1:], "board": visible})


@pytest.mark.parametrize(("clue", "visible", "language"), [
    ("snowman", "snow", "en"), ("snowballs", "snow", "en"), ("firetruck", "fire", "en"),
    ("waterfall", "water", "en"), ("portefeuille", "feuille", "fr"),
    ("tournesol", "sol", "fr"),
])
def test_clue_must_not_be_a_compound_of_a_visible_word(clue: str, visible: str,
                                                       language: str) -> None:
    assert problem(clue, (visible,), language) == (
        "clue_contains", {"word": clue[0].upper() + clue[1:], "board": visible})


needs_lexicon = pytest.mark.skipif(
    not lexicon.dictionary_available("en") or not lexicon.dictionary_available("fr"),
    reason="wordfreq (a core dependency) is not installed")


@needs_lexicon
@pytest.mark.parametrize(("clue", "visible", "language", "code"), [
    # a compound of a visible word, whose other half is no word of the game's list
    ("headache", "head", "en", "clue_contains"), ("wishbone", "bone", "en", "clue_contains"),
    ("milkshake", "milk", "en", "clue_contains"), ("foghorn", "horn", "en", "clue_contains"),
    ("Headaches", "head", "en", "clue_contains"), ("hedgehogs", "hog", "en", "clue_contains"),
    ("fireman", "fire", "en", "clue_contains"), ("tirebouchon", "bouchon", "fr", "clue_contains"),
    ("parapluie", "pluie", "fr", "clue_contains"),
    # a part of a visible compound word
    ("hedge", "hedgehog", "en", "clue_part_of"), ("hog", "hedgehog", "en", "clue_part_of"),
    ("lights", "flashlight", "en", "clue_part_of"), ("brush", "toothbrush", "en", "clue_part_of"),
    ("bouchons", "tirebouchon", "fr", "clue_part_of"),
])
def test_compounds_are_split_with_a_real_word_list(clue: str, visible: str, language: str,
                                                   code: str) -> None:
    assert problem(clue, (visible,), language) == (
        code, {"word": clue[0].upper() + clue[1:], "board": visible})


@needs_lexicon
def test_unknown_words_are_the_misheard_and_the_rarest() -> None:
    # Whisper's spellings of a misheard "football" and "travel" (a surname) are unknown...
    assert all(lexicon.is_unknown_word(w, "en") for w in ("futbok", "toball", "preble"))
    # ...every word of the game's own lists is known, however rare
    from voice_host.games.codenames_words import WORD_LISTS
    for language, words in WORD_LISTS.items():
        assert not [w for w in words if lexicon.is_unknown_word(w.split()[0], language)]
    assert not lexicon.is_unknown_word("walrus", "en")
    assert not lexicon.is_unknown_word("moineau", "fr")


def test_without_the_word_lists_the_engine_falls_back_to_its_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexicon, "zipf_table", lambda language: None)
    monkeypatch.setattr(lexicon, "pronunciations", lambda: None)
    assert not lexicon.dictionary_available("en")
    assert lexicon.is_unknown_word("futbok", "en") is None
    assert problem("snowman", ("snow",)) == ("clue_contains", {"word": "Snowman", "board": "snow"})
    assert problem("fire", ("firetruck",)) == ("clue_part_of",
                                               {"word": "Fire", "board": "firetruck"})
    assert clue_problem("net", ("planet",)) is None


@pytest.mark.parametrize(("clue", "visible", "language"), [
    ("net", "planet", "en"), ("ice", "office", "en"), ("ball", "balloon", "en"),
    ("chat", "château", "fr"), ("âne", "banane", "fr"), ("tour", "vautour", "fr"),
])
def test_clue_that_merely_starts_or_ends_a_visible_word_is_allowed(
        clue: str, visible: str, language: str) -> None:
    assert clue_problem(clue, (visible,), language=language) is None


@pytest.mark.parametrize(("clue", "language"), [
    ("three", "en"), ("Seven", "en"), ("zero", "en"), ("hundred", "en"),
    ("trois", "fr"), ("Sept", "fr"), ("zéro", "fr"), ("vingt", "fr")])
def test_clue_must_not_be_a_number_word(clue: str, language: str) -> None:
    assert problem(clue, (), language) == ("clue_number_word",
                                           {"word": clue[0].upper() + clue[1:]})


def test_number_words_are_checked_in_the_game_language() -> None:
    assert clue_problem("cent", (), language="en") is None  # a coin in English
    assert clue_problem("cent", (), language="fr") is not None
    assert clue_problem("neuf", (), language="fr") is not None


@pytest.mark.parametrize("number", [0, 1, 5, 9, None])
def test_clue_number_0_to_9_or_unlimited_is_accepted(number: int | None) -> None:
    state = host_game()
    events = state.apply(GiveClue("Ada", "fruit", number))
    assert isinstance(events[0], ClueGiven) and events[0].number == number


@pytest.mark.parametrize("number", [10, -1, 25, True, "2"])
def test_clue_number_outside_0_to_9_is_refused(number: object) -> None:
    error = refused(host_game(), GiveClue("Ada", "fruit", number))  # type: ignore[arg-type]
    if isinstance(number, int) and not isinstance(number, bool):
        assert (error.code, error.params) == ("clue_number_range", {"number": number})
    else:
        assert (error.code, error.params) == ("clue_number_type", {})


def test_invalid_clue_is_refused_with_its_reason_by_default() -> None:
    state = host_game()
    refused(state, GiveClue("Ada", "snowman", 2), "clue_contains", word="Snowman", board="snow")
    refused(state, GiveClue("Ada", "apples", 2), "clue_other_form", word="Apples", board="apple")
    refused(state, GiveClue("Ada", "fire", 2), "clue_part_of", word="Fire", board="firetruck")
    refused(state, GiveClue("Ada", "three", 2), "clue_number_word", word="Three")
    state.apply(GiveClue("Ada", "fruit", 2))  # the spymaster tries again
    assert state.phase() == "guess"


def test_french_game_validates_clues_with_french_rules() -> None:
    state = CodenamesState.new(PLAYERS, deal=Deal.HOST, words="fr")
    state.apply(state.chance_action(random.Random(5)))
    word = state.words[0]
    assert refused(state,
                   GiveClue(state.spymaster(state.current_team), word.upper(),
                            1)).code == "clue_on_board"
    refused(state, GiveClue(state.spymaster(state.current_team), "trois", 1), "clue_number_word",
            word="Trois")


# --------------------------------------------------------------------------- guesses


def test_guesses_up_to_number_plus_one() -> None:
    state = host_game()
    state.apply(GiveClue("Ada", "music", 2))
    assert state.guesses_left == 3
    events = guess_all(state, R, ("piano", "violin"))
    assert state.guesses_left == 1 and state.phase() == "guess"
    events = state.apply(Guess("Ben", "apple"))
    resolved = events[0]
    assert isinstance(resolved, GuessResolved) and resolved.guesses_left == 0
    ended = [e for e in events if isinstance(e, TurnEnded)]
    assert ended and ended[0].why == "guesses_used" and ended[0].next_team is B
    assert state.current_team is B and state.phase() == "clue"
    refused(state, Guess("Ben", "castle"), "clue_first", team=B)


@pytest.mark.parametrize("number", [0, None])
def test_no_guess_limit_for_zero_and_unlimited(number: int | None) -> None:
    state = host_game()
    events = state.apply(GiveClue("Ada", "fruit", number))
    assert isinstance(events[0], ClueGiven) and events[0].guesses_allowed is None
    guess_all(state, R, RED_WORDS[:8])  # far more than number + 1
    assert state.phase() == "guess" and state.current_team is R
    assert state.guesses_left is None


def test_at_least_one_guess_before_passing() -> None:
    state = host_game()
    state.apply(GiveClue("Ada", "music", 2))
    refused(state, EndTurn("Ben"), "pass_too_early")
    state.apply(Guess("Ben", "piano"))
    events = state.apply(EndTurn("Ben"))
    assert isinstance(events[0], TurnEnded) and events[0].why == "passed"
    assert state.current_team is B and state.phase() == "clue" and state.clue is None


def test_own_colour_lets_the_team_continue() -> None:
    state = host_game()
    state.apply(GiveClue("Ada", "music", 2))
    events = state.apply(Guess("Ben", "piano"))
    assert len(events) == 1 and isinstance(events[0], GuessResolved)
    assert events[0].colour is Colour.RED and events[0].guesses_left == 2
    assert state.phase() == "guess" and state.current_team is R
    assert state.covered_colour("piano") is Colour.RED


def test_neutral_ends_the_turn_at_once() -> None:
    state = host_game()
    state.apply(GiveClue("Ada", "music", 3))
    events = state.apply(Guess("Ben", "cloud"))
    assert events[0] == GuessResolved(team=R, word="cloud", colour=Colour.NEUTRAL,
                                      guesses_left=0, remaining=(("red", 9), ("blue", 8)))
    assert isinstance(events[1], TurnEnded) and events[1].why == "neutral"
    assert state.current_team is B and state.phase() == "clue"


def test_opponent_colour_ends_the_turn_at_once_and_counts_for_them() -> None:
    state = host_game()
    state.apply(GiveClue("Ada", "music", 3))
    events = state.apply(Guess("Ben", "lemon"))
    assert isinstance(events[0], GuessResolved) and events[0].colour is Colour.BLUE
    assert isinstance(events[1], TurnEnded) and events[1].why == "opponent"
    assert state.remaining(B) == 7 and state.current_team is B


def test_assassin_loses_the_game_for_the_team_that_touched_it() -> None:
    state = host_game()
    state.apply(GiveClue("Ada", "explosion", 1))
    events = state.apply(Guess("Ben", "BOMB"))
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.winners == ("blue",) and over.reason == "assassin"
    assert state.is_terminal() and state.phase() == "over"
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("blue",) and outcome.reason == "assassin"
    refused(state, Guess("Eve", "lemon"), "game_over")
    assert state.legal_actions() == []


def test_team_wins_when_all_its_tiles_are_covered() -> None:
    state = host_game()
    state.apply(GiveClue("Ada", "everything", None))
    events = guess_all(state, R, RED_WORDS)
    over = events[-1]
    assert isinstance(over, GameOver) and over.winners == ("red",)
    assert over.reason == "all_agents_found"
    assert over.scores == (("red", 9), ("blue", 0))


def test_team_wins_when_the_other_team_uncovers_its_last_tile() -> None:
    state = host_game()
    state.apply(GiveClue("Ada", "fruit", 1))
    state.apply(Guess("Ben", "apple"))
    state.apply(EndTurn("Ben"))
    state.apply(GiveClue("Dan", "everything", None))
    guess_all(state, B, BLUE_WORDS[:7])  # blue has one left: wizard
    state.apply(EndTurn("Eve"))
    state.apply(GiveClue("Ada", "magic", 1))
    events = state.apply(Guess("Ben", "wizard"))  # red's mistake covers blue's last tile
    assert not any(isinstance(e, TurnEnded) for e in events)  # checked before the switch
    over = events[-1]
    assert isinstance(over, GameOver) and over.winners == ("blue",)
    assert over.reason == "all_agents_found" and over.scores == (("red", 1), ("blue", 8))


def test_guessing_a_covered_word_is_refused() -> None:
    state = host_game(words="en")
    state.apply(GiveClue("Ada", "music", 2))
    state.apply(Guess("Ben", "piano"))
    refused(state, Guess("Ben", "piano"), "already_covered", word="Piano", colour=Colour.RED)
    refused(state, Guess("Ben", "Piano"), "already_covered", word="Piano", colour=Colour.RED)


def test_guessing_a_word_not_on_the_board_is_refused() -> None:
    state = host_game()
    state.apply(GiveClue("Ada", "music", 2))
    refused(state, Guess("Ben", "cactus"), "not_on_board", word="Cactus")
    refused(state, Guess("Ben", ""), "guess_no_word")


def test_guess_matching_ignores_case_and_accents() -> None:
    state = CodenamesState.new(PLAYERS, deal=Deal.HOST, words="fr")
    deal = state.chance_action(random.Random(11))
    words = ("écureuil",) + tuple(w for w in deal.words if w != "écureuil")[:24]
    key = deal.key
    assert key is not None
    state.apply(DealGrid(words=words, key=key, first=deal.first))
    state.apply(GiveClue(state.spymaster(deal.first), "forêt", 1))
    events = state.apply(Guess(state.operatives(deal.first)[0], "ECUREUIL"))
    assert isinstance(events[0], GuessResolved) and events[0].word == "écureuil"


def test_only_the_team_in_turn_may_guess() -> None:
    state = host_game()
    state.apply(GiveClue("Ada", "music", 2))
    refused(state, Guess("Eve", "lemon"), "other_team_guesses", player="Eve", team=R)
    refused(state, EndTurn("Eve"), "other_team_guesses", player="Eve", team=R)
    # the team speaks through any of its operatives, never through its spymaster
    refused(state, Guess("Ada", "lemon"), "spymaster_cannot_guess", player="Ada",
            operatives=("Ben", "Cleo"))
    assert {a.player for a in state.legal_actions()} == {"Ben", "Cleo"}
    assert state.legal_actions("Cleo") and not state.legal_actions("Ada")
    refused(state, GiveClue("Ada", "sound", 1), "guessing_now", team=R)
    assert set(state.current_players()) == {"Ben", "Cleo"}
    assert state.legal_actions("Ada") == [] and state.legal_actions("Ben")


# --------------------------------------------------------------------------- table mode


def test_table_mode_active_spymaster_states_the_touched_tiles_colour() -> None:
    state = table_game()
    state.apply(GiveClue("Ada", "music", 2))
    events = state.apply(Guess("Ben", "piano"))
    assert events == [TileTouched(team=R, word="piano", spymaster="Ada")]
    assert state.phase() == "colour" and state.current_players() == ("Ada",)
    assert state.pending_word == "piano"
    refused(state, Guess("Ben", "violin"), "colour_first", team=R, word="piano")
    refused(state, StateColour(state.current_players()[0], "violin", Colour.RED), "colour_of",
            word="piano")
    events = state.apply(StateColour(state.current_players()[0], "piano", Colour.RED))
    assert isinstance(events[0], GuessResolved) and events[0].guesses_left == 2
    assert state.phase() == "guess"
    events = state.apply(Guess("Ben", "lemon"))
    events = state.apply(StateColour(state.current_players()[0], "lemon", Colour.NEUTRAL))
    assert isinstance(events[1], TurnEnded) and events[1].why == "neutral"


def test_table_mode_stated_colours_stay_within_the_key_counts() -> None:
    state = table_game()
    team = R
    for word in NEUTRAL_WORDS:  # 7 bystanders, each ending a turn
        state.apply(GiveClue(state.spymaster(team), "thing", 1))
        state.apply(Guess(state.operatives(team)[0], word))
        state.apply(StateColour(state.current_players()[0], word, Colour.NEUTRAL))
        team = team.other
    state.apply(GiveClue(state.spymaster(team), "thing", 1))
    state.apply(Guess(state.operatives(team)[0], "apple"))
    refused(state, StateColour(state.current_players()[0], "apple", Colour.NEUTRAL),
            "no_bystander_left", total=7)
    assert StateColour(state.current_players()[0], "apple",
                       Colour.NEUTRAL) not in state.legal_actions()
    state.apply(StateColour(state.current_players()[0], "apple", Colour.ASSASSIN))
    assert state.outcome() is not None and state.outcome().reason == "assassin"  # type: ignore


def test_table_mode_team_wins_when_its_stated_tiles_are_all_covered() -> None:
    state = table_game(first="red")
    state.apply(GiveClue("Ada", "everything", 0))
    for word in RED_WORDS:
        state.apply(Guess("Ben", word))
        events = state.apply(StateColour(state.current_players()[0], word, Colour.RED))
    assert isinstance(events[-1], GameOver) and events[-1].winners == ("red",)


# --------------------------------------------------------------------------- penalty option


def test_penalty_option_invalid_clue_ends_turn_and_opponent_covers_own_word() -> None:
    state = host_game(invalid_clue="penalty")
    events = state.apply(GiveClue("Ada", "snowman", 2))
    assert isinstance(events[0], InvalidClue)
    assert events[0].problem == "clue_contains"
    assert events[0].refusal().params == {"word": "Snowman", "board": "snow"}
    assert isinstance(events[1], TurnEnded) and events[1].why == "invalid_clue"
    assert state.phase() == "penalty" and state.current_players() == ("Dan",)
    assert {a.word for a in state.legal_actions()} == set(BLUE_WORDS)  # type: ignore[attr-defined]
    refused(state, CoverPenalty(state.current_players()[0], "apple"), "penalty_not_own",
            word="Apple", team=B)
    refused(state, GiveClue("Dan", "fruit", 1), "penalty_first", team=B)
    events = state.apply(CoverPenalty(state.current_players()[0], "honey"))
    assert isinstance(events[0], PenaltyCovered) and events[0].remaining == (("red", 9),
                                                                           ("blue", 7))
    assert state.phase() == "clue" and state.current_team is B
    assert state.covered_colour("honey") is Colour.BLUE


def test_penalty_cover_can_win_the_game() -> None:
    state = host_game(invalid_clue="penalty")
    state.apply(GiveClue("Ada", "fruit", 1))
    state.apply(Guess("Ben", "apple"))
    state.apply(EndTurn("Ben"))
    state.apply(GiveClue("Dan", "everything", None))
    guess_all(state, B, BLUE_WORDS[:7])
    state.apply(EndTurn("Eve"))
    state.apply(GiveClue("Ada", "piano", 1))  # invalid: piano is on the board
    events = state.apply(CoverPenalty(state.current_players()[0], "wizard"))
    assert isinstance(events[-1], GameOver) and events[-1].winners == ("blue",)


def test_penalty_option_still_refuses_an_empty_clue_or_a_bad_number() -> None:
    state = host_game(invalid_clue="penalty")
    refused(state, GiveClue("Ada", " ", 1), "clue_empty")
    refused(state, GiveClue("Ada", "piano", 12), "clue_number_range", number=12)


def test_table_mode_penalty_trusts_the_spymasters_word() -> None:
    state = table_game(invalid_clue="penalty")
    state.apply(GiveClue("Ada", "apple", 1))
    state.apply(CoverPenalty(state.current_players()[0], "lemon"))
    assert state.covered_colour("lemon") is Colour.BLUE and state.remaining(B) == 7


# --------------------------------------------------------------------------- refusals


def test_refusals_say_their_english_sentence_from_the_engines_table() -> None:
    """The engine alone still speaks: each refusal's reason is its English template filled
    with its parameters (teams and colours by name, words as said)."""
    state = host_game()
    assert refused(state, GiveClue("Dan", "fruit", 1)).reason == (
        "Dan, only Ada, the red spymaster, gives the clue now.")
    assert refused(state, GiveClue("Ada", "snowman", 2)).reason == (
        "Snowman contains snow, which is on the board.")
    assert refused(state, GiveClue("Ada", "fruit", 12)).reason == (
        "The clue number must be from 0 to 9, or unlimited, not 12.")
    swapped = (Colour.BLUE,) + KEY[1:]
    fresh = CodenamesState.new(PLAYERS, deal=Deal.HOST)
    assert refused(fresh, DealGrid(words=GRID, key=swapped, first=R)).reason == (
        "The key needs 9 red tiles, not 8.")
    state.apply(GiveClue("Ada", "music", 2))
    state.apply(Guess("Ben", "piano"))
    assert refused(state, Guess("Ben", "PIANO")).reason == "Piano is already covered (red)."


def test_every_code_of_the_table_is_one_sentence() -> None:
    """Filled with any values, every English template reads as a sentence."""
    import string

    for code, template in CodenamesRefusal.messages.items():
        fields = {f for _l, f, _s, _c in string.Formatter().parse(template) if f}
        said = CodenamesRefusal(code, **{f: "Word" for f in fields}).reason
        assert said[0].isupper() and said.endswith("."), (code, said)


def test_an_invalid_clue_event_keeps_the_refusal_it_was_played_with() -> None:
    state = host_game(invalid_clue="penalty")
    event = state.apply(GiveClue("Ada", "apples", 1))[0]
    assert isinstance(event, InvalidClue)
    again = event.refusal()
    assert (again.code, again.params) == ("clue_other_form", {"word": "Apples",
                                                               "board": "apple"})
    assert json.loads(json.dumps(event_to_json(event)))["problem_params"] == [
        ["word", "Apples"], ["board", "apple"]]
    with pytest.raises(KeyError):
        CodenamesRefusal.again("no_such_rule", {})


# --------------------------------------------------------------------------- views


def test_key_is_only_in_spymaster_views_in_host_mode() -> None:
    state = CodenamesState.new(PLAYERS, deal=Deal.HOST)
    events = state.apply(DealGrid(words=GRID, key=KEY, first=R))
    secret = [e for e in events if isinstance(e, KeyDealt)]
    assert len(secret) == 1 and secret[0].audience == ("Ada", "Dan")
    assert all(not hasattr(e, "key") for e in events if not isinstance(e, KeyDealt))
    for name in ("Ada", "Dan"):
        assert state.player_view(name)["key"] == [c.value for c in KEY]
    for name in ("Ben", "Cleo", "Eve"):
        view = state.player_view(name)
        assert "key" not in view
        assert "assassin" not in json.dumps(view)
    assert "key" not in state.public_view() and "assassin" not in json.dumps(state.public_view())


def test_table_mode_views_hold_no_key() -> None:
    state = table_game()
    for name in PLAYERS:
        assert "key" not in state.player_view(name)


def test_public_view_shows_grid_turn_clue_guesses_and_remaining() -> None:
    state = host_game()
    state.apply(GiveClue("Ada", "music", 2))
    state.apply(Guess("Ben", "piano"))
    view = state.public_view()
    assert view["grid"][1] == {"word": "piano", "covered": "red"}
    assert view["grid"][0] == {"word": "apple", "covered": None}
    assert view["rows"][0] == list(GRID[:5])
    assert view["team"] == "red" and view["phase"] == "guess"
    assert view["clue"] == {"word": "music", "number": 2, "unlimited": False}
    assert view["guesses_left"] == 2
    assert view["remaining"] == {"red": 8, "blue": 8}
    assert view["spymasters"] == {"red": "Ada", "blue": "Dan"}
    json.dumps(view)
    with pytest.raises(GameError):
        state.player_view("Zed")


# --------------------------------------------------------------------------- JSON and legality


def play_random(state: CodenamesState, rng: random.Random, check: bool = False) -> int:
    steps = 0
    while not state.is_terminal():
        if check:
            copy = CodenamesState.from_json(json.loads(json.dumps(state.to_json())))
            assert copy == state and copy.public_view() == state.public_view()
        action = state.random_action(rng)
        assert action_from_json(CodenamesState, json.loads(json.dumps(
            action_to_json(action)))) == action
        for event in state.apply(action):
            json.dumps(event_to_json(event))
        steps += 1
        assert steps < 500
    return steps


@pytest.mark.parametrize("deal", [Deal.HOST, Deal.TABLE])
@pytest.mark.parametrize("invalid_clue", ["refuse", "penalty"])
def test_json_round_trip_at_every_step(deal: Deal, invalid_clue: str) -> None:
    for seed in range(3):
        state = CodenamesState.new(PLAYERS, deal=deal, invalid_clue=invalid_clue)
        play_random(state, random.Random(seed), check=True)
        assert state.outcome() is not None
        assert CodenamesState.from_json(json.loads(json.dumps(state.to_json()))) == state


def test_illegal_actions_leave_to_json_unchanged() -> None:
    state = host_game()
    bad = [
        GiveClue("Ada", "apple", 1), GiveClue("Ada", "fruit", 10), GiveClue("Dan", "fruit", 1),
        GiveClue("green", "fruit", 1),  # type: ignore[arg-type]
        Guess("Ben", "apple"), EndTurn("Ben"), StateColour(state.current_players()[0], "apple",
              Colour.RED), CoverPenalty(state.current_players()[0], "apple"),
        DealGrid(words=GRID, key=KEY, first=R),
    ]
    for action in bad:
        refused(state, action)
    state.apply(GiveClue("Ada", "fruit", 1))
    for action in [Guess("Ben", "cactus"), Guess("Eve", "apple"), EndTurn("Ben"), GiveClue("Ada",
                         "x", 1),
                   StateColour(state.current_players()[0], "apple", Colour.RED)]:
        refused(state, action)
    state.apply(Guess("Ben", "apple"))
    refused(state, Guess("Ben", "apple"))


def test_every_offered_action_is_legal() -> None:
    for deal in (Deal.HOST, Deal.TABLE):
        state = CodenamesState.new(PLAYERS, deal=deal, invalid_clue="penalty")
        rng = random.Random(4)
        while not state.is_terminal():
            if not state.is_chance_node():
                legal = state.legal_actions()
                assert legal
                for action in rng.sample(legal, min(6, len(legal))):
                    copy = CodenamesState.from_json(state.to_json())
                    copy.apply(action)
                for player in state.players:
                    mine = state.legal_actions(player)
                    assert bool(mine) == (player in state.current_players())
            state.apply(state.random_action(rng))


def test_random_clues_are_valid() -> None:
    for language in ("en", "fr"):
        state = CodenamesState.new(PLAYERS, deal=Deal.HOST, words=language)
        rng = random.Random(9)
        state.apply(state.random_action(rng))
        for _ in range(200):
            action = state.random_action(rng)
            assert isinstance(action, GiveClue)
            assert state.clue_problem(action.word) is None
            assert action.number is None or 0 <= action.number <= 9


def test_game_over_scores_are_tiles_covered_per_team() -> None:
    state = CodenamesState.new(PLAYERS, deal=Deal.HOST)
    rng = random.Random(21)
    events: list[object] = []
    while not state.is_terminal():
        events = list(state.apply(state.random_action(rng)))
    over = events[-1]
    assert isinstance(over, GameOver)
    outcome = state.outcome()
    assert outcome is not None and dict(over.scores) == dict(outcome.scores)
    for team in Team:
        assert outcome.scores[team.value] == state.covered_count(Colour(team.value))


# --------------------------------------------------------------------------- word lists


def _cmudict() -> dict[str, set[tuple[str, ...]]]:
    """The English pronouncing dictionary shipped with the rules (the copy the speech
    recognizer's dictionary is made from)."""
    table = lexicon.pronunciations()
    assert table is not None, "the package's pronouncing dictionary is missing"
    return {word: set(phones) for word, phones in table.items()}


def test_word_lists_have_at_least_400_words_each() -> None:
    assert len(ENGLISH_WORDS) >= 400
    assert len(FRENCH_WORDS) >= 400


@pytest.mark.parametrize("words", [ENGLISH_WORDS, FRENCH_WORDS])
def test_word_lists_are_deduplicated(words: tuple[str, ...]) -> None:
    assert len({lookup_key(w) for w in words}) == len(words)


def test_english_words_are_plain_lowercase_ascii() -> None:
    for w in ENGLISH_WORDS:
        assert w.isascii() and w.isalpha() and w == w.lower(), w


def test_french_words_are_lowercase_single_words_with_accents() -> None:
    for w in FRENCH_WORDS:
        assert w == w.lower() and all(c.isalpha() for c in w), w
        assert unicodedata.is_normalized("NFC", w), w
    assert any(not w.isascii() for w in FRENCH_WORDS)  # accents are kept


@pytest.mark.parametrize(("words", "language"), [(ENGLISH_WORDS, "en"), (FRENCH_WORDS, "fr")])
def test_word_lists_hold_no_number_words(words: tuple[str, ...], language: str) -> None:
    assert not {lookup_key(w) for w in words} & NUMBER_WORDS[language]


def test_english_words_are_in_the_pronunciation_dictionary() -> None:
    cmudict = _cmudict()
    assert [w for w in ENGLISH_WORDS if w not in cmudict] == []


# phoneme pairs a recognizer easily confuses (voicing, place, close vowels)
CONFUSABLE = [frozenset(p.split()) for p in (
    "P B", "T D", "K G", "F V", "S Z", "TH DH", "SH ZH", "CH JH", "M N", "N NG", "TH F",
    "TH S", "IH IY", "EH AE", "AH AA", "UH UW", "AO AA", "ER AH", "AH AO", "EH IH")]


def _sound_alike(p: tuple[str, ...], q: tuple[str, ...]) -> bool:
    if p == q:
        return True
    if len(p) != len(q):
        return False
    diff = [frozenset((a, b)) for a, b in zip(p, q, strict=True) if a != b]
    return len(diff) == 1 and diff[0] in CONFUSABLE


def test_english_words_hold_no_homophones_or_near_homophones() -> None:
    cmudict = _cmudict()
    pairs = [(a, b) for a, b in itertools.combinations(ENGLISH_WORDS, 2)
             if any(_sound_alike(p, q) for p in cmudict[a] for q in cmudict[b])]
    assert pairs == []


def test_sound_alike_check_catches_homophones() -> None:
    cmudict = _cmudict()
    for a, b in (("knight", "night"), ("pair", "pear"), ("sheep", "ship")):
        assert any(_sound_alike(p, q) for p in cmudict[a] for q in cmudict[b]), (a, b)


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_list_word_is_a_valid_clue_next_to_any_other(language: str) -> None:
    """No list word is another with an ending, or a part of another: so the grid never holds
    such a pair and any list word off the board is a valid clue (random play relies on it)."""
    words = WORD_LISTS[language]
    problems = [(a, b) for a in words for b in words
                if a != b and clue_problem(a, (b,), language=language) is not None]
    assert problems == []
