"""French icon names take articles in their own gender, in the grammar's list and so in
every sentence generated from it ("le lapin", never "la lapin")."""

from __future__ import annotations

import random

from voice_host.games.icons import FRENCH_FEMININE, ICONS
from voice_host.host.adapters.ici_londres.interpret import french_forms, icon_list
from voice_host.intent import SlotValues, load_grammar
from voice_host.text import fold


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
    assert FRENCH_FEMININE <= names


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
