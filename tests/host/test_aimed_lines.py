"""A short line of the awaited player that holds a piece of the move -- a value of the
phase's moves, one of its keywords, a clue's number beside a word -- is an attempt misheard
("white bone please", "well our guest is charged", "ok season 42") and gets the re-ask; talk
that only resembles one stays talk. Exact cases on made-up transcripts (``aimed``,
``attention.clearly_talk``), then through the real Session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codenames_game import dealt, options, valid_clues
from tests.support.table_talk import play
from voice_host.host.core.aimed import aimed_at, holds_clue, keywords
from voice_host.host.core.attention import clearly_talk
from voice_host.host.core.registry import registration
from voice_host.host.core.values import Heard, HeardKind
from voice_host.intent import SlotValues, load_grammar
from voice_host.text import tokenize

PLAYERS = ("Ada", "Ben", "Cleo", "Dan")
BOARD = ("bone", "station", "deer", "judge", "skull", "mask", "penguin", "laser", "season")


def phase(game: str, name: str, lang: str = "en", **given: tuple[str, ...]):  # type: ignore[no-untyped-def]
    lists = registration(game).example_lists(lang, **given)
    return load_grammar(game, lang).phase(name, SlotValues(players=PLAYERS, lists=lists))


def spoken(text: str) -> Heard:
    return Heard(HeardKind.SPEECH, text=text, spoken=True)


def test_a_guess_phases_keywords_are_its_example_words() -> None:
    words = keywords(phase("codenames", "guess"))
    assert {"guess", "pass"} <= words
    assert not words & {"the", "we", "okay", "please"}  # words that carry nothing
    assert "ocean" not in keywords(phase("codenames", "clue"))  # an example clue, no keyword


@pytest.mark.parametrize("text", [
    "white bone please",  # a board word with a word misheard before it
    "whitebone please",  # ... written as one word with it
    "will you go in station",
    "well our guest is charged",  # "guest" is the grammar's confusion for "guess"
    "so we pass them all",  # the keyword with words the grammar does not take
])
def test_a_short_line_holding_a_piece_of_a_guess_is_no_talk(text: str) -> None:
    pg = phase("codenames", "guess", board_word=BOARD)
    assert pg.matcher.match(text).best is None  # the host cannot read it as a move ...
    assert aimed_at(tokenize(text), pg)  # ... but it holds a piece of one
    assert not clearly_talk(spoken(text), pg, "Ada")


@pytest.mark.parametrize(("game", "name", "text"), [
    ("codenames", "guess", "that was a lucky guess"),  # the keyword in talk about it
    ("codenames", "guess", "can you pass the salt"),
    ("codenames", "guess", "is it raining outside"),
    ("resistance", "vote", "i lost my keys again"),  # "keys" is spelled like no value
    ("resistance", "vote", "nobody ever believes me"),
    ("codenames", "clue", "tell me a story"),
])
def test_talk_that_only_resembles_a_move_stays_talk(game: str, name: str, text: str) -> None:
    pg = phase(game, name, board_word=BOARD) if game == "codenames" else phase(game, name)
    assert not aimed_at(tokenize(text), pg)
    assert clearly_talk(spoken(text), pg, "Ada")


@pytest.mark.parametrize(("text", "talk"), [
    ("zopan l'orloge et la tou", False),  # "Zoé prend l'horloge et la tour", misheard
    ("olivier choisit le cas et le poisson", False),
    ("tu as vu le match hier soir", True),
    ("on mange quoi ce soir", True),
])
def test_french_articles_do_not_make_a_misheard_pick_long_enough_for_talk(
        text: str, talk: bool) -> None:
    pg = phase("ici-londres", "guess", "fr")
    assert pg.matcher.match(text).best is None
    assert clearly_talk(spoken(text), pg, "Ada") is talk


@pytest.mark.parametrize(("text", "clue"), [
    ("ok season 42", True),  # "for two" written as digits
    ("okay mike lewis monif or two", True),
    ("it was love too", True),  # "too": the grammar's confusion for "two"
    ("my clue is winning for two", True),  # longer, but it says "clue"
    ("like two", False),  # "like" carries nothing: no word beside the number
    ("two missions in a row failed", False),  # talk: long, and no word of a clue
    ("that clue could mean three different things", False),  # long, and words of talk
    ("i'm so tired today", False),
])
def test_a_number_beside_a_word_is_an_attempt_at_a_clue(text: str, clue: bool) -> None:
    assert holds_clue(tokenize(text), phase("codenames", "clue")) is clue


def test_only_a_phase_whose_move_takes_any_word_has_clues() -> None:
    assert not holds_clue(tokenize("ok ben 2"), phase("resistance", "team"))


def test_the_spymaster_is_reasked_for_a_misheard_clue_amid_the_discussion(
        tmp_path: Path) -> None:
    opts = options()
    state = dealt(opts)
    spymaster = state.spymaster(state.current_team)
    other = next(p for p in state.players if p != spymaster)
    run = play(tmp_path, [f"{other}: ok season 42", f"{spymaster}: i'm so tired today",
                          f"{spymaster}: ok season 42"], game="codenames", opts=opts)
    assert [e["speaker"] for e in run.events("reask")] == [spymaster]
    assert [e["speaker"] for e in run.events("ignored")] == [other, spymaster]
    assert not run.events("action")[1:]  # the deal only: nothing was taken


def test_the_operative_is_reasked_for_a_misheard_guess(tmp_path: Path) -> None:
    opts = options()
    state = dealt(opts)
    team = state.current_team
    operative = state.operatives(team)[0]
    word = next(w for w in state.words if w.isalpha() and len(w) >= 4)
    clue = valid_clues(state)[0]
    run = play(tmp_path, [f"{state.spymaster(team)}: {clue} two",
                          f"{operative}: that was a lucky guess",
                          f"{operative}: white {word} please"], game="codenames", opts=opts)
    assert [e["speaker"] for e in run.events("reask")] == [operative]
    assert [(e["speaker"], e["cue"]) for e in run.events("ignored")] == [(operative, True)]
