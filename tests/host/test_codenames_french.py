"""A French Codenames game speaks only French: every refusal the host can reach (the wrong
player, an invalid clue, a covered word, passing too early, the penalty word, a colour
beyond the key's counts, an unknown name...) is said from the French tables, and no English
sentence of the engine or of the host is heard."""

from __future__ import annotations

import random
import string
from pathlib import Path
from typing import Any

import pytest

from tests.support.scripted import Run, run_script
from voice_host.games.codenames import (
    CodenamesRefusal,
    CodenamesState,
    Colour,
    DealGrid,
    Team,
)
from voice_host.host.adapters.codenames import refusal_words
from voice_host.host.core.narration import Narrator, catalogue
from voice_host.host.core.refusals import refusal_text

RED_WORDS = ("voleur", "cheval", "neige", "pomme", "lion", "chat", "porte", "volcan",
             "portefeuille")
BLUE_WORDS = ("lune", "piano", "bateau", "soleil", "train", "fromage", "robot", "vague")
NEUTRAL_WORDS = ("nuage", "crayon", "miroir", "couronne", "casque", "hibou", "pont")
GRID = (*RED_WORDS, *BLUE_WORDS, *NEUTRAL_WORDS, "bombe")
KEY = (Colour.RED,) * 9 + (Colour.BLUE,) * 8 + (Colour.NEUTRAL,) * 7 + (Colour.ASSASSIN,)
R, B = Team.RED, Team.BLUE


def options(**over: Any) -> dict[str, Any]:
    opts: dict[str, Any] = {"deal": "host", "lang": "fr", "red": ["Hannah", "Thomas"],
                            "blue": ["Sophie", "Oliver"], "first": "red", "words": "fr",
                            "invalid_clue": "refuse", "seed": 5}
    opts.update(over)
    return opts


def fixed_game(opts: dict[str, Any]) -> CodenamesState:
    """Red starts with RED_WORDS (voleur first), blue has BLUE_WORDS; table mode has no key."""
    state = CodenamesState.new(["Hannah", "Thomas", "Sophie", "Oliver"], deal=opts["deal"],
                               words="fr", invalid_clue=opts["invalid_clue"], first="red")
    state.apply(DealGrid(words=GRID, key=KEY if opts["deal"] == "host" else None, first=R))
    return state


def french(code: str, **params: Any) -> str:
    """The refusal as the French host says it."""
    return refusal_text(Narrator("codenames", "fr"), CodenamesRefusal(code, **params),
                        refusal_words)


def english_fragments() -> set[str]:
    """Pieces of every English sentence the engine or the host can say in a Codenames game
    (the literal text between fields, long enough to be a phrase), less those French shares."""
    templates: list[str] = list(CodenamesRefusal.messages.values())
    for table in (catalogue("en", "codenames"),):
        for value in table.values():
            templates.extend(value if isinstance(value, list) else [value])
    fr_text = " ".join(t for v in catalogue("fr", "codenames").values()
                       for t in (v if isinstance(v, list) else [v]))
    pieces = set()
    for template in templates:
        for literal, *_rest in string.Formatter().parse(template):
            for piece in literal.split(":"):
                piece = piece.strip(" .,;!?")
                if len(piece) >= 10 and " " in piece and piece not in fr_text:
                    pieces.add(piece)
    return pieces


def assert_only_french(run: Run) -> None:
    said = [line for line in run.text.splitlines() if line.strip()]
    english = sorted({p for p in english_fragments() for line in said if p in line})
    assert not english, f"English heard in a French game: {english}"
    for refusal in ("is on the board", "with a different ending", "You named",
                    "Not allowed", "already covered", "before passing"):
        assert refusal not in run.text


def codes(run: Run) -> list[str]:
    return [e["code"] for e in run.events("refused") if e["code"] is not None]


def play(tmp_path: Path, opts: dict[str, Any], script: list[str], state: Any = None,
         confirm: str = "never", name: str = "fr") -> Run:
    return run_script(tmp_path, "codenames", opts, script, confirm=confirm, name=name,
                      state=state, rng=random.Random(opts["seed"]))


def test_a_french_game_deals_french_words_unless_told_otherwise() -> None:
    from voice_host.host.adapters.codenames import CodenamesOptions

    seats = {"red": ["Ada", "Ben"], "blue": ["Cleo", "Dan"]}
    assert CodenamesOptions.from_json({**seats, "lang": "fr"}).words == "fr"
    assert CodenamesOptions.from_json({**seats, "lang": "en"}).words == "en"
    assert CodenamesOptions.from_json({**seats, "lang": "fr", "words": "en"}).words == "en"


def test_a_french_clue_keeps_its_accents(tmp_path: Path) -> None:
    opts = options()
    run = play(tmp_path, opts, ["Hannah: etoile deux"], state=fixed_game(opts))
    assert run.state.clues == ((R, "étoile", 2),)
    assert "étoile" in run.text


def test_clue_and_guess_refusals_are_said_in_french(tmp_path: Path) -> None:
    opts = options()
    script = [
        "Thomas: musique deux",          # not the spymaster
        "Hannah: voleurs deux",          # a grid word with an ending
        "Hannah: voleur un",             # a grid word
        "Hannah: feuille deux",          # a part of a grid word
        "Hannah: glace vanille deux",    # two words
        "Hannah: océan",                 # no number
        "Hannah: musique deux",
        "Thomas: passe",                 # before any guess
        "Hannah: voleur",                # the spymaster guesses
        "Sophie: cheval",                # the other team guesses
        "Thomas: voleur",
        "Thomas: voleur",                # covered now
        "Zed: passe",                    # nobody of that name
    ]
    run = play(tmp_path, opts, script, state=fixed_game(opts))
    text = run.text
    for sentence in (
        "Thomas, seul Hannah, maître-espion de l'équipe rouge, donne l'indice maintenant.",
        "Refusé : Voleurs, c'est simplement voleur avec une autre terminaison. Hannah, un "
        "autre indice, s'il vous plaît.",
        "Refusé : Voleur est sur la grille. Hannah, un autre indice, s'il vous plaît.",
        "Refusé : Feuille fait partie de portefeuille, qui est sur la grille.",
        "Un indice, c'est un seul mot, et glace vanille en fait deux.",
        "Dites aussi un nombre, Hannah : océan, pour combien de mots ?",
        "Touchez au moins un mot avant de passer.",
        "Hannah, les maîtres-espions ne devinent pas. Thomas, quel mot ?",
        "Sophie, c'est à l'équipe rouge de deviner.",
        "Le mot Voleur est déjà couvert : c'est rouge.",
        "Je ne connais personne qui s'appelle Zed dans cette partie.",
    ):
        assert sentence in text, sentence
    assert french("pass_too_early") in text
    assert french("already_covered", word="Voleur", colour=Colour.RED) in text
    assert {"pass_too_early", "already_covered"} <= set(codes(run))
    assert_only_french(run)
    s = run.state
    assert s.phase() == "guess" and s.guesses_made == 1 and s.clues == ((R, "musique", 2),)


def test_penalty_refusals_are_said_in_french(tmp_path: Path) -> None:
    opts = options(invalid_clue="penalty")
    script = [
        "Hannah: voleur deux",           # played with the penalty: blue covers a word
        "Hannah: lune",                  # not the spymaster who covers
        "Sophie: voleur",                # not a blue word
        "Sophie: passe",                 # the penalty needs a word
        "Sophie: lune",
        "Sophie: musique un",
        "Oliver: lune",                  # covered by the penalty
    ]
    run = play(tmp_path, opts, script, state=fixed_game(opts))
    text = run.text
    for sentence in (
        "Voleur n'est pas un indice permis : Voleur est sur la grille. Le tour de l'équipe "
        "rouge s'arrête aussitôt.",
        "Hannah, c'est Sophie qui choisit le mot à couvrir.",
        "Voleur n'est pas un mot de l'équipe bleue : nommez un de vos propres mots.",
        "Sophie, la pénalité demande un mot de votre équipe.",
        "Sophie couvre lune avec un agent de l'équipe bleue.",
        "Le mot Lune est déjà couvert : c'est bleu.",
    ):
        assert sentence in text, sentence
    assert french("penalty_not_own", word="Voleur", team=B) in text
    assert {"penalty_not_own", "already_covered"} <= set(codes(run))
    assert_only_french(run)
    assert run.state.remaining(B) == 7 and run.state.phase() == "guess"


def test_table_mode_colour_refusals_are_said_in_french(tmp_path: Path) -> None:
    opts = options(deal="table")
    seats = {R: ("Hannah", "Thomas"), B: ("Sophie", "Oliver")}
    script: list[str] = []
    for turn, word in enumerate(NEUTRAL_WORDS):  # the seven bystanders, each ending a turn
        spymaster, operative = seats[R if turn % 2 == 0 else B]
        script += [f"{spymaster}: chose un", f"{operative}: {word}", f"{spymaster}: neutre"]
    spymaster, operative = seats[B]  # blue's turn after seven
    other = seats[R][0]
    script += [f"{spymaster}: chose un", f"{operative}: voleur",
               f"{other}: rouge",            # only the active spymaster sees the key
               f"{spymaster}: neutre",       # all seven bystanders are covered already
               f"{spymaster}: rouge"]
    run = play(tmp_path, opts, script, state=fixed_game(opts), name="table")
    text = run.text
    assert text.count("passant.") == 7  # each bystander, in one of its wordings
    assert f"{other}, seul {spymaster} voit la clé." in text
    assert "Les 7 passants sont déjà couverts." in text
    assert french("no_bystander_left", total=7) in text
    assert codes(run) == ["colour_by_spymaster", "no_bystander_left"]
    assert_only_french(run)
    assert run.state.covered_colour("voleur") is Colour.RED


@pytest.mark.parametrize("code", sorted(CodenamesRefusal.messages))
def test_every_refusal_reads_differently_in_french(code: str) -> None:
    """No French sentence is an English one left untranslated."""
    template = CodenamesRefusal.messages[code]
    fields = {f for _l, f, _s, _c in string.Formatter().parse(template) if f}
    error = CodenamesRefusal(code, **{f: "Mot" for f in fields})
    fr = refusal_text(Narrator("codenames", "fr"), error, refusal_words)
    en = refusal_text(Narrator("codenames", "en"), error, refusal_words)
    assert fr != en and fr != error.reason
