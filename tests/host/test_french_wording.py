"""French wording: the screen lines of a French game are French (where it is saved, where the
secrets are, the command that continues it), the phrasings a native reader flagged are gone,
and lengths take the decimal comma."""

from __future__ import annotations

from pathlib import Path

import pytest


def test_a_french_game_says_how_to_continue_in_french(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from voice_host.cli import main

    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    script = tmp_path / "script.txt"
    script.write_text("Hannah: aide\n", encoding="utf-8")
    save = tmp_path / "soiree.json"
    code = main(["play", "codenames", "--red", "Hannah,Thomas", "--blue", "Sophie,Oliver",
                 "--first", "red", "--deal", "host", "--lang", "fr", "--words", "fr",
                 "--input", "text", "--output", "text", "--seed", "5", "--save", str(save),
                 "--script", str(script)])
    err = capsys.readouterr().err
    assert code == 3  # the script ends before the game
    assert f"Pour reprendre cette partie : voice-host resume {save}" in err
    assert f"La partie est sauvegardée après chaque coup dans {save}" in err
    assert "Les secrets de chaque joueur sont écrits dans" in err
    for english in ("To continue this game", "Saving the game", "Each player's secrets"):
        assert english not in err


@pytest.mark.parametrize("game", ["codenames", "resistance", "ici-londres"])
def test_french_tables_avoid_the_phrasings_a_native_reader_flagged(game: str) -> None:
    from voice_host.host.core.narration import catalogue

    texts = []
    for value in catalogue("fr", game).values():
        texts.extend(value if isinstance(value, list) else [value])
    joined = "\n".join(texts)
    # "maître-espion bleue": the team's colour agrees with "équipe", so name the team
    assert "maître-espion {team}" not in joined
    assert "six au dix de" not in joined  # "les piques et les cœurs du six au dix"
    assert "et lis la grille" not in joined  # a command to say, quoted, not an order
    assert "Agent double, ouvre " not in joined and "Agent double, ferme " not in joined


def test_a_length_is_said_with_the_decimal_comma_and_agreement_in_french() -> None:
    from voice_host.host.core.narration import Narrator, Quantity

    fr, en = Narrator("resistance", "fr"), Narrator("resistance", "en")
    assert fr.quantity(Quantity(0.9, "common.seconds")) == "0,9 seconde"
    assert fr.quantity(Quantity(2.5, "common.seconds")) == "2,5 secondes"
    assert en.quantity(Quantity(0.9, "common.seconds")) == "0.9 seconds"
    assert en.quantity(Quantity(1.0, "common.seconds")) == "1.0 second"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_recognizer_line_is_in_the_games_language(lang: str) -> None:
    """The start-up line that says which recognizer listens: French in a French game (the
    speech layer's own sentence is English)."""
    from voice_host.host.core.narration import Narrator
    from voice_host.host.io.wiring import make_recognizer

    pytest.importorskip("pocketsphinx", reason="pocketsphinx is not installed (speech extra)")
    recognizer, line = make_recognizer("pocketsphinx", None, lang,
                                       screen=Narrator("resistance", lang).text)
    if lang == "fr":
        assert line.startswith("Reconnaissance vocale : PocketSphinx")
        assert "Speech recognition" not in line
    else:  # English keeps the speech layer's sentence, which says why in detail
        assert line == recognizer.description and line.startswith("Speech recognition")


def test_de_and_que_are_elided_before_a_name_with_a_vowel() -> None:
    """"l'équipe d'Eve", "qu'Ada": never "de Eve" or "que Ada"; "de Ben" stays."""
    from voice_host.host.core.narration import Narrator

    fr = Narrator("codenames", "fr")
    assert fr.text("codenames.status_colour", spymaster="Eve", word="piano") == \
        "J'attends qu'Eve me dise la couleur de piano."
    assert fr.text("codenames.colour_first", spymaster="Ben", word="orange") == \
        "Ben, dites-moi d'abord la couleur d'orange."
    resistance = Narrator("resistance", "fr")
    said = [resistance.text(key, name="Ada", leader="Ada", player="Ada", turn="Eve")
            for key in ("companion.moved", "companion.move_refused") if resistance.has(key)]
    assert said == ["La place d'Ada est passée sur un autre téléphone.",
                    "La place d'Ada reste où elle était."]
    en = Narrator("codenames", "en")
    assert en.text("codenames.status_colour", spymaster="Eve", word="apple") == \
        "I am waiting for Eve to tell me the colour of apple."


def test_the_narration_elides_by_the_grammar_s_own_letters(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host writes "d'Ada" by the letters the French grammar's ``[articles]`` name, the
    ones a player's "l'ancre" is read by: a grammar whose vowels lack "a" (made up) makes
    the narration write "de Ada", and a mute-h word it lists is elided."""
    import shutil

    from voice_host.host.core.narration import Narrator
    from voice_host.intent import grammar

    folder = tmp_path / "grammars"
    shutil.copytree(Path(grammar.grammar_dir()), folder)
    common = folder / "fr" / "common.toml"
    text = common.read_text(encoding="utf-8")
    assert 'vowels = "aeiouy' in text and 'h_muet = ["horloge"]' in text
    common.write_text(text.replace('vowels = "aeiouy', 'vowels = "eiouy').replace(
        'h_muet = ["horloge"]', 'h_muet = ["horloge", "hugo"]'), encoding="utf-8")
    monkeypatch.setenv("VOICE_HOST_GRAMMARS", str(folder))
    grammar.forget_loaded()
    try:
        fr = Narrator("codenames", "fr")
        assert fr.text("codenames.status_colour", spymaster="Ada", word="piano") == \
            "J'attends que Ada me dise la couleur de piano."
        assert fr.text("codenames.status_colour", spymaster="Hugo", word="piano") == \
            "J'attends qu'Hugo me dise la couleur de piano."
    finally:
        monkeypatch.undo()
        grammar.forget_loaded()
    assert Narrator("codenames", "fr").text(
        "codenames.status_colour", spymaster="Ada", word="piano") == \
        "J'attends qu'Ada me dise la couleur de piano."
