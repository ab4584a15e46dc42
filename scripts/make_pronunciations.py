"""Writes the English pronouncing dictionary the Codenames clue check reads
(voice_host/games/data/cmudict-en.txt.gz) from the CMU pronouncing dictionary as PocketSphinx
ships it (``cmudict-en-us.dict``), so that the rule has the same data with or without the
speech extra.

One line a word: the word, a tab, then its pronunciations (phones without stress marks)
separated by " | ", the words sorted. Run it again when PocketSphinx's dictionary changes:

    .venv/bin/python scripts/make_pronunciations.py [path/to/cmudict-en-us.dict]

tests/games/test_lexicon.py checks that the shipped file matches the installed dictionary.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "voice_host" / "games" / "data" / "cmudict-en.txt.gz"


def source() -> Path:
    if len(sys.argv) > 1:
        return Path(sys.argv[1])
    import pocketsphinx

    return Path(pocketsphinx.get_model_path()) / "en-us" / "cmudict-en-us.dict"


def main() -> None:
    from voice_host.games.lexicon import parse_cmudict, serialize

    table = parse_cmudict(source().read_text(encoding="utf-8", errors="replace"))
    # mtime=0: the same dictionary gives the same bytes
    OUT.write_bytes(gzip.compress(serialize(table).encode("utf-8"), compresslevel=9, mtime=0))
    print(f"{len(table)} words written to {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
