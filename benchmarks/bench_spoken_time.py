"""How long does the host talk? A whole game played by scripted players, its narration timed.

    python benchmarks/bench_spoken_time.py [--game resistance] [--seeds 1,2,3] [--lang en]
        [--option NAME=VALUE] [--transcript]

Plays each seed's game to the end through the real session loop (text in, text out; the
players are the games' own bots, so the same seed makes the same moves whatever the host
says), with the host dealing, and times every line the table hears: each line is spoken by
espeak-ng to a WAV at the narrator's rate and its length measured (espeak-ng stands in for
the narrator: it is fast and its length follows the words, which is what is compared here),
and the silences the host keeps after a line (the night's looks) are added.
``--option night=short`` sets a game option (the short night is the default when the host
deals to the phones). Prints per game: the lines, the spoken minutes, the identical lines said
twice in a row, and the lines said most often. Compare two versions of the host by running
this script in each.
"""

from __future__ import annotations

import argparse
import functools
import io
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import wave
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from voice_host.host.adapters import make_adapter, new_game
from voice_host.host.core.registry import registration
from voice_host.host.core.secrets import Delivery, Via
from voice_host.host.core.session import Session, SessionOptions, Stop
from voice_host.host.core.store import EventLog
from voice_host.host.core.values import Line, Style
from voice_host.host.io.bots import TextBots
from voice_host.host.io.terminal import TextOutput

SEATS: dict[str, dict[str, Any]] = {
    "resistance": {"players": ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn"],
                   "double_agent": True},
    "ici-londres": {"players": ["Ada", "Ben", "Cleo", "Dan"], "rounds": 4},
    "codenames": {"red": ["Ada", "Ben"], "blue": ["Cleo", "Dan"]},
}
WORDS_PER_MINUTE = 165
"""espeak-ng's rate for the timing: about a narrator's pace."""


class Said(TextOutput):
    """The text output, keeping every public line in order."""

    def __init__(self, lang: str) -> None:
        super().__init__(io.StringIO(), lang=lang, private_sink=lambda line: Delivery(
            Via.FILE, "secret.txt"))
        self.said: list[Line] = []

    def emit(self, lines: Sequence[Line]) -> None:
        self.said.extend(line for line in lines if line.style is not Style.PRIVATE)
        super().emit(lines)


def play(game: str, seed: int, lang: str,
         extra: dict[str, Any] | None = None) -> tuple[list[Line], Any]:
    """Every line the table hears in one game, and the game's final state."""
    options = {"deal": "host", "lang": lang, "seed": seed, **SEATS[game], **(extra or {})}
    options = registration(game).complete(options)
    adapter = make_adapter(game, options)
    output = Said(lang)
    bots = TextBots(random.Random(seed))
    with tempfile.TemporaryDirectory() as folder:
        session = Session(adapter=adapter, state=new_game(game, options),
                          rng=random.Random(seed), output=output, listener=bots,
                          log=EventLog(None), game_options=options,
                          options=SessionOptions(confirm="never",
                                                 save_path=Path(folder) / "game.json"))
        bots.session = session
        stop = session.run(fresh=True)
    if stop is not Stop.FINISHED:
        print(f"  (seed {seed}: the game stopped before its end: {stop})", file=sys.stderr)
    return output.said, session.state


@functools.cache
def seconds(text: str, lang: str) -> float:
    """How long espeak-ng takes to say ``text``."""
    with tempfile.NamedTemporaryFile(suffix=".wav") as wav:
        subprocess.run(["espeak-ng", "-v", lang, "-s", str(WORDS_PER_MINUTE), "-w", wav.name,
                        text], check=True, capture_output=True)
        with wave.open(wav.name) as w:
            return w.getnframes() / w.getframerate()


def repeats(lines: Sequence[Line]) -> int:
    """Lines said right after the very same line."""
    return sum(1 for a, b in zip(lines, lines[1:], strict=False) if a.text == b.text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="resistance", choices=sorted(SEATS))
    parser.add_argument("--seeds", default="1,2,3,4,5")
    parser.add_argument("--lang", default="en", choices=("en", "fr"))
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option, e.g. night=short")
    parser.add_argument("--transcript", action="store_true", help="print every line said")
    args = parser.parse_args(argv)
    if shutil.which("espeak-ng") is None:
        print("espeak-ng is needed to time the lines (apt-get install espeak-ng)",
              file=sys.stderr)
        return 2
    extra: dict[str, Any] = dict(item.split("=", 1) for item in args.option)
    rows: list[dict[str, Any]] = []
    common: Counter[str] = Counter()
    for seed in (int(s) for s in args.seeds.split(",")):
        said, _ = play(args.game, seed, args.lang, extra=extra)
        if args.transcript:
            print(f"--- seed {seed}")
            for line in said:
                print(f"  {line.text}")
        total = sum(seconds(line.text, args.lang) + line.pause_after for line in said)
        common.update(line.text for line in said)
        rows.append({"seed": seed, "lines": len(said), "minutes": total / 60,
                     "repeats": repeats(said)})
    variant = "".join(f", {item}" for item in args.option)
    print(f"{args.game} ({args.lang}, host deals{variant}), "
          f"espeak-ng at {WORDS_PER_MINUTE} words a minute")
    print(f"{'seed':>5} {'lines':>6} {'minutes':>8} {'twice in a row':>15}")
    for row in rows:
        print(f"{row['seed']:>5} {row['lines']:>6} {row['minutes']:>8.2f} "
              f"{row['repeats']:>15}")
    print(f"{'median':>5} {statistics.median(r['lines'] for r in rows):>6} "
          f"{statistics.median(r['minutes'] for r in rows):>8.2f} "
          f"{statistics.median(r['repeats'] for r in rows):>15}")
    print(f"{'total':>5} {sum(r['lines'] for r in rows):>6} "
          f"{sum(r['minutes'] for r in rows):>8.2f} {sum(r['repeats'] for r in rows):>15}")
    print("said most often:")
    for text, n in common.most_common(8):
        print(f"  {n:>3} x {text[:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
