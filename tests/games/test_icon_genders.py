"""French icon names take articles in their own gender, in the grammar's list and so in
every sentence generated from it ("le lapin", never "la lapin"). The articles and the genders
are the French grammar's data (``[articles]`` in ``fr/common.toml``, ``[genders]`` in
``fr/ici-londres.toml``), not Python."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from voice_host.games.icons import ICONS
from voice_host.host.adapters.ici_londres.interpret import icon_list
from voice_host.intent import SlotValues, load_grammar
from voice_host.intent.grammar import GRAMMARS_ENV, forget_loaded
from voice_host.text import fold

FRENCH_FEMININE = frozenset(
    w for i in ICONS for w in (i.french, *i.french_synonyms)
    if load_grammar("ici-londres", "fr").nouns.gender(w) == "feminine")


def french_forms(word: str) -> tuple[str, ...]:
    """How a French player names an icon, as the icon list reads it."""
    return load_grammar("ici-londres", "fr").nouns.forms(word)


def test_french_forms_agree_with_the_noun() -> None:
    assert french_forms("lapin") == ("lapin", "le lapin", "un lapin")
    assert french_forms("cloche") == ("cloche", "la cloche", "une cloche")
    assert french_forms("ancre") == ("ancre", "l'ancre", "une ancre")
    assert french_forms("horloge") == ("horloge", "l'horloge", "une horloge")
    assert french_forms("hibou") == ("hibou", "le hibou", "un hibou")  # an h aspiré
    assert french_forms("tête de mort") == ("tête de mort", "la tête de mort",
                                            "une tête de mort")


def test_every_feminine_name_is_an_icon_name() -> None:
    names = {w for i in ICONS for w in (i.french, *i.french_synonyms)}
    listed = set(load_grammar("ici-londres", "fr").nouns.genders)
    assert listed <= names
    assert len(FRENCH_FEMININE) == len(listed) == 27


def test_the_genders_and_articles_are_the_grammar_s_data(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Edit the grammar's tables, and the icon list follows (no Python to change)."""
    folder = tmp_path / "grammars"
    shutil.copytree(Path(__file__).resolve().parents[2] / "grammars", folder)
    game = folder / "fr" / "ici-londres.toml"
    game.write_text(game.read_text(encoding="utf-8").replace('"cloche", ', ""),
                    encoding="utf-8")
    common = folder / "fr" / "common.toml"
    common.write_text(common.read_text(encoding="utf-8").replace(
        'h_muet = ["horloge"]', 'h_muet = ["horloge", "hibou"]'), encoding="utf-8")
    monkeypatch.setenv(GRAMMARS_ENV, str(folder))
    forget_loaded()
    try:
        assert french_forms("cloche") == ("cloche", "le cloche", "un cloche")
        assert french_forms("hibou") == ("hibou", "l'hibou", "un hibou")
        assert french_forms("lune") == ("lune", "la lune", "une lune")
    finally:
        monkeypatch.delenv(GRAMMARS_ENV)
        forget_loaded()
    assert french_forms("cloche") == ("cloche", "la cloche", "une cloche")


def test_english_names_its_icons_bare() -> None:
    assert load_grammar("ici-londres", "en").nouns.forms("bell") == ("bell",)


def test_generated_french_picks_make_the_article_agree() -> None:
    forms = {w: french_forms(w) for i in ICONS for w in (i.french, *i.french_synonyms)}
    wrong = {f"{'le' if w in FRENCH_FEMININE else 'la'} {w}" for w in forms} | \
        {f"{'un' if w in FRENCH_FEMININE else 'une'} {w}" for w in forms}
    wrong -= {form for f in forms.values() for form in f}
    players = ("Ada", "Ben", "Cleo", "Dan")
    phase = load_grammar("ici-londres", "fr").phase(
        "guess", SlotValues(players=players, lists=(icon_list("fr"),)))
    picks = [s.text for s in phase.sample(random.Random(3), 300) if s.intent == "pick"]
    assert len(picks) > 50
    folded_wrong = {fold(w) for w in wrong}
    bad = [p for p in picks if any(f" {w} " in f" {p} " for w in folded_wrong)]
    assert bad == []
