"""The French test sentences as a French speaker writes them (``benchmarks/french_text.py``):
the grammars are written without accents, and the synthesizers read what is written."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("wordfreq", reason="wordfreq is not installed")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from french_text import with_accents  # noqa: E402


@pytest.mark.parametrize(("folded", "written"), [
    ("il y a 4 oui", "il y a 4 oui"),                      # the verb, not the preposition
    ("personne n'a vote oui", "personne n'a voté oui"),    # ... and its participle
    ("la mission a echoue", "la mission a échoué"),
    ("olivia a besoin d'aide", "olivia a besoin d'aide"),
    ("c'est a qui", "c'est à qui"),                         # the preposition
    ("tout a fait", "tout à fait"),
    ("a l'unanimite", "à l'unanimité"),
    ("j'ai mal au dos a force d'etre assis", "j'ai mal au dos à force d'être assis"),
    ("j'approuve", "j'approuve"),                           # a verb after its subject
    ("je me suis trompe", "je me suis trompé"),             # a participle after suis
    ("c'est touche", "c'est touché"),
    ("on touche la pomme", "on touche la pomme"),
    ("s'est tres mal passee", "s'est très mal passée"),     # no participle where none is
    ("on a 3 votes pour", "on a 3 votes pour"),
    ("je pense que on en compte 7", "je pense qu'on en compte 7"),  # elisions
    ("combien de agents", "combien d'agents"),
    ("le oui", "le oui"),
    ("revenez en arriere", "revenez en arrière"),
])
def test_french_is_written_as_a_french_speaker_writes_it(folded: str, written: str) -> None:
    assert with_accents(folded) == written
