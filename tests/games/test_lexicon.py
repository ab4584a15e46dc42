"""The pronouncing dictionary the Codenames clue check reads ships with the rules: a clue is
judged the same with only the base dependencies as with the speech extra."""

from __future__ import annotations

import gzip
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from voice_host.games import lexicon
from voice_host.games.codenames import clue_problem

ROOT = Path(__file__).resolve().parents[2]


def test_the_dictionary_ships_in_the_package() -> None:
    table = lexicon.pronunciations()
    assert table is not None and len(table) > 100_000
    assert ("HH", "EH", "D", "EY", "K") in table["headache"]
    assert table["read"] == (("R", "EH", "D"), ("R", "IY", "D"))  # every pronunciation, in order
    assert lexicon.sounds_joined("head", "ache", "headache", "en") is True
    assert lexicon.sounds_joined("off", "ice", "office", "en") is False
    assert lexicon.sounds_joined("chat", "eau", "chateau", "fr") is None  # English only


def test_the_file_format_reads_back() -> None:
    table = lexicon.parse_cmudict("a AH\na(2) EY1\n;;; a comment\nread R EH1 D\nread(2) R IY1 D\n")
    assert table == {"a": (("AH",), ("EY",)), "read": (("R", "EH", "D"), ("R", "IY", "D"))}
    assert lexicon.parse_shipped(lexicon.serialize(table)) == table


@pytest.mark.parametrize(("clue", "visible", "refused"), [
    ("season", "sea", False), ("office", "ice", False), ("magnet", "net", False),
    ("headache", "head", True), ("hedgehog", "hog", True), ("snowman", "snow", True),
])
def test_compounds_are_judged_by_the_shipped_dictionary(clue: str, visible: str,
                                                        refused: bool) -> None:
    assert (clue_problem(clue, (visible,), language="en") is not None) is refused


def test_the_judgement_does_not_depend_on_the_speech_extra() -> None:
    """In a fresh interpreter where importing pocketsphinx fails, the same clues are judged
    the same (what a machine with only the base dependencies does)."""
    code = (
        "import sys\n"
        "sys.modules['pocketsphinx'] = None\n"
        "from voice_host.games.codenames import clue_problem\n"
        "pairs = [('season', 'sea'), ('headache', 'head'), ('office', 'ice'),"
        " ('hedgehog', 'hog'), ('fireman', 'fire'), ('magnet', 'net')]\n"
        "print([clue_problem(c, (v,), language='en') is None for c, v in pairs])\n"
    )
    alone = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, cwd=ROOT).stdout.strip()
    here = [clue_problem(c, (v,), language="en") is None for c, v in
            [("season", "sea"), ("headache", "head"), ("office", "ice"), ("hedgehog", "hog"),
             ("fireman", "fire"), ("magnet", "net")]]
    assert alone == str(here)


@pytest.mark.skipif(importlib.util.find_spec("pocketsphinx") is None,
                    reason="pocketsphinx (speech extra) is not installed: nothing to compare "
                           "the shipped dictionary with")
def test_the_shipped_dictionary_is_the_recognizers() -> None:
    """The shipped file is PocketSphinx's dictionary as scripts/make_pronunciations.py
    writes it (run the script again when this fails after a PocketSphinx update)."""
    import pocketsphinx

    path = Path(pocketsphinx.get_model_path()) / "en-us" / "cmudict-en-us.dict"
    if not path.is_file():
        pytest.skip(f"no PocketSphinx dictionary at {path}")
    theirs = lexicon.parse_cmudict(path.read_text(encoding="utf-8", errors="replace"))
    shipped = ROOT / "voice_host" / "games" / lexicon.PRONUNCIATIONS
    assert gzip.decompress(shipped.read_bytes()).decode("utf-8") == lexicon.serialize(theirs)
