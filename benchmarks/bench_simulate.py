"""How long `voice-host simulate` takes to play 1000 complete random
games of each game (the target is under 10 s each on a 2-core machine).

    .venv/bin/python benchmarks/bench_simulate.py [--games 1000] [--repeat 3]

Prints a Markdown table with the median of --repeat runs (each run a fresh seed)."""

from __future__ import annotations

import argparse
import statistics

from voice_host.host.cli.simulate import simulate
from voice_host.host.core.registry import game_names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"| game | players | games | median seconds (of {args.repeat}) | ms per game | "
          "actions per game |")
    print("|---|---|---|---|---|---|")
    for game in game_names():
        runs = [simulate(game, games=args.games, seed=seed) for seed in range(args.repeat)]
        secs = statistics.median(r.seconds for r in runs)
        actions = statistics.fmean(statistics.fmean(r.lengths) for r in runs)
        print(f"| {game} | {runs[0].players} | {args.games} | {secs:.2f} | "
              f"{secs / args.games * 1000:.2f} | {actions:.1f} |")


if __name__ == "__main__":
    main()
