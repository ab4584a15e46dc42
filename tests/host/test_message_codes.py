"""Refusals by code: every code the program uses has its sentence in every language, with
the same fields, and a look-up never fails (a missing code or value still gives a sentence)."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

import voice_host
from voice_host.games import SetupError
from voice_host.games.base import SETUP_MESSAGES, check_player_names
from voice_host.games.resistance import ResistanceState
from voice_host.host.core import messages
from voice_host.host.core.langs import LANGS
from voice_host.host.core.messages import catalogue, error_line, said, say
from voice_host.host.core.narration import Narrator
from voice_host.host.core.options import ORDINALS
from voice_host.host.core.registry import game_names
from voice_host.host.core.values import Heard, HeardKind
from voice_host.speech.types import SPEECH_MESSAGES, AudioFormatError, SpeechError
from voice_host.wording import MISSING, OneOf, Term, fields

PACKAGE = Path(voice_host.__file__).parent
NAMESPACES = ("setup", "options", "help", "save", "wiring", "companion_page", "output",
              "input", "cli", "sound", "wav", "asr", "model")
"""The first part of every sentence code (narration keys start with a game or "common")."""
CODE = re.compile(rf"^(?:{'|'.join(NAMESPACES)})\.(?!(?:sh|bin|conf|json|txt)$)[a-z_0-9]+$")
"""A sentence code (not a file name such as "model.bin")."""


def _constants() -> tuple[set[str], set[str]]:
    """The code-like string constants of the program, and the first argument of every
    ``Term(...)`` with a constant code."""
    codes: set[str] = set()
    terms: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and CODE.match(node.value):
                codes.add(node.value)
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Term" \
                    and node.args and isinstance(node.args[0], ast.Constant):
                terms.add(str(node.args[0].value))
    return codes, terms


USED, TERMS = _constants()


def test_the_program_uses_codes() -> None:
    """The scan finds the codes (a broken scan would pass every test below)."""
    assert {"setup.players_count", "sound.no_microphone", "wav.empty", "save.missing",
            "wiring.no_script", "options.range", "cli.seconds"} <= USED
    assert {"red", "blue", "number", "whole_number", "game.resistance"} <= TERMS


@pytest.mark.parametrize("lang", LANGS)
def test_every_code_used_has_a_sentence_in_every_language(lang: str) -> None:
    table = catalogue(lang)
    missing = sorted(code for code in USED if code not in table)
    assert not missing, f"{lang} has no sentence for {missing}"


def test_every_code_has_the_same_fields_in_every_language() -> None:
    english = {k: v for k, v in catalogue("en").items() if not k.startswith("term.")}
    for lang in LANGS:
        table = {k: v for k, v in catalogue(lang).items() if not k.startswith("term.")}
        assert set(table) == set(english), (lang, set(table) ^ set(english))
        different = [code for code in english if fields(table[code]) != fields(english[code])]
        assert not different, (lang, different)


def test_the_lower_layers_codes_have_one_english_sentence() -> None:
    """The rules' and the speech layer's English is theirs only: the host's English file
    does not repeat a code of theirs."""
    data = tomllib.loads((PACKAGE / "host" / "lang" / "en" / "messages.toml").read_text("utf-8"))
    own = {f"{table}.{key}" for table, entries in data.items() if isinstance(entries, dict)
           for key in entries}
    assert own and not own & (set(SETUP_MESSAGES) | set(SPEECH_MESSAGES))


def test_every_word_a_value_may_be_is_in_every_language() -> None:
    words = set(TERMS) | {f"title.{game}" for game in game_names()} | \
        {f"ordinal.{i}" for i in range(1, len(ORDINALS) + 1)} | \
        {f"language.{lang}" for lang in LANGS} | {"or", "and"}
    for lang in LANGS:
        if lang == "en":
            continue
        missing = sorted(w for w in words if f"term.{w}" not in catalogue(lang))
        assert not missing, (lang, missing)


# ------------------------------------------------------------------------- the look-up


def test_a_code_is_said_in_the_language_with_its_values_in_words() -> None:
    error = SetupError("setup.teams_too_small", red=1, blue=5, big=Term("blue", "blue"),
                       small=Term("red", "red"))
    assert str(error).endswith("move a player from the blue team to the red team.")
    assert said(error, "fr").endswith("faites passer un joueur de l'équipe bleue à l'équipe "
                                      "rouge.")
    assert say("options.choice", "fr", flag="--deal", choices=OneOf(("table", "host")),
               value="x") == "--deal doit être table ou host, pas x."


def test_the_rules_refuse_a_table_by_code_in_english_and_the_host_in_french() -> None:
    with pytest.raises(SetupError) as caught:
        check_player_names(["Ada", "Ben"], ResistanceState.description)
    assert caught.value.code == "setup.players_count"
    assert str(caught.value) == \
        "Resistance with a double agent needs 5 to 10 players, you named 2."
    assert said(caught.value, "fr") == \
        "La Résistance avec agent double se joue de 5 à 10 joueurs ; vous en avez nommé 2."


def test_a_code_nobody_wrote_is_still_a_sentence() -> None:
    assert "setup.nothing_like_this" in say("setup.nothing_like_this", "fr")
    assert say("setup.nothing_like_this", "fr").startswith("Une erreur")
    error = SetupError("setup.nothing_like_this", n=3)
    assert str(error) == "(setup.nothing_like_this)"
    assert said(error, "fr") == "(setup.nothing_like_this)"  # its English: no sentence to say


def test_a_value_not_given_shows_as_a_mark_not_a_traceback() -> None:
    english = str(SetupError("setup.players_count", title="Resistance", low=5))
    assert english == f"Resistance needs 5 to {MISSING} players, you named {MISSING}."
    assert say("wav.rate", "fr") == \
        f"Ce fichier WAV a une fréquence d'échantillonnage impossible de {MISSING} hertz."


def test_a_code_the_language_lacks_is_said_in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    french = dict(catalogue("fr"))
    del french["wav.empty"]
    monkeypatch.setattr(messages, "catalogue",
                        lambda lang: french if lang == "fr" else catalogue(lang))
    assert say("wav.empty", "fr") == "That WAV file is empty."


def test_an_error_without_a_code_is_said_as_written() -> None:
    assert said(ValueError("plain words"), "fr") == "plain words"
    engine = SpeechError("The speech engine failed: no driver")
    assert engine.code == "" and said(engine, "fr") == "The speech engine failed: no driver"


def test_what_a_command_line_value_quotes_is_escaped() -> None:
    error = SetupError("setup.first_speaker", speaker="Ada\x1b[2J")
    assert "\x1b" not in str(error) and "\x1b" not in said(error, "fr")


def test_an_input_error_is_said_in_the_games_language() -> None:
    error = AudioFormatError("wav.bits", bits=12)
    heard = Heard(HeardKind.ERROR, error=str(error), error_code=error.code,
                  error_params=tuple(error.params.items()))
    assert error_line(Narrator("resistance", "fr"), heard).text == \
        "Ce fichier WAV utilise des échantillons de 12 bits, que je ne sais pas lire."
    assert error_line(Narrator("resistance", "en"), heard).text == \
        "That WAV file uses 12-bit samples, which I cannot read."
    plain = Heard(HeardKind.ERROR, error="Words without a code.")
    assert error_line(Narrator("resistance", "fr"), plain).text == "Words without a code."
