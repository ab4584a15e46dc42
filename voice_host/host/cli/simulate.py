"""``voice-host simulate``: play many complete games with random legal actions and report
outcome statistics. A check that the engines always finish, and a quick feel for balance."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from voice_host.games import GameState, SetupError
from voice_host.host.core.messages import OptionError
from voice_host.host.core.registry import game_names, registration

SEAT_NAMES = ("Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo", "Kai", "Lou")
MAX_STEPS = 10_000


@dataclass
class SimulationStats:
    """What ``simulate`` measured over K games."""

    game: str
    players: int
    games: int = 0
    winners: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    lengths: list[int] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "winners": dict(self.winners.most_common()),
            "end_reasons": dict(self.reasons.most_common()),
            "actions_per_game": {
                "mean": round(statistics.fmean(self.lengths), 2) if self.lengths else 0,
                "min": min(self.lengths, default=0),
                "max": max(self.lengths, default=0),
            },
            "events": dict(sorted(self.events.items())),
            "seconds": round(self.seconds, 3),
        }


def play_random_game(state: GameState, rng: random.Random, stats: SimulationStats) -> None:
    """Play ``state`` to the end with random legal actions, counting into ``stats``."""
    steps = 0
    while not state.is_terminal():
        if steps >= MAX_STEPS:
            raise RuntimeError(f"{stats.game} did not finish in {MAX_STEPS} actions")
        for event in state.apply(state.random_action(rng)):
            stats.events[type(event).__name__] += 1
        steps += 1
    outcome = state.outcome()
    assert outcome is not None
    stats.games += 1
    stats.lengths.append(steps)
    stats.winners[" + ".join(outcome.winners) if len(outcome.winners) < 3 else "3+ tied"] += 1
    stats.reasons[outcome.reason] += 1


def simulate(game: str, *, players: int | None = None, games: int = 100, seed: int = 0,
             deal: str = "host") -> SimulationStats:
    reg = registration(game)
    n = players or reg.table_size
    if n > len(SEAT_NAMES):
        raise OptionError("options.simulate_most", n=len(SEAT_NAMES))
    options = {**reg.defaults(), **reg.seat(SEAT_NAMES[:n]), "deal": deal}
    rng = random.Random(seed)
    stats = SimulationStats(game=game, players=n)
    start = time.perf_counter()
    for _ in range(games):
        play_random_game(reg.new_game(options), rng, stats)
    stats.seconds = time.perf_counter() - start
    return stats


def format_stats(stats: SimulationStats) -> str:
    data = stats.to_json()
    lines = [
        f"{stats.game}: {stats.games} games, {stats.players} players, "
        f"{stats.seconds:.2f} s ({stats.seconds / max(stats.games, 1) * 1000:.2f} ms a game)",
        "  winners:      " + ", ".join(f"{k} {v}" for k, v in stats.winners.most_common()),
        "  end reasons:  " + ", ".join(f"{k} {v}" for k, v in stats.reasons.most_common()),
        "  actions/game: mean {mean}, min {min}, max {max}".format(**data["actions_per_game"]),  # type: ignore[arg-type]
        "  rule events:  " + ", ".join(f"{k} {v}" for k, v in sorted(stats.events.items())),
    ]
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=[*game_names(), "all"], help="which game to simulate")
    parser.add_argument("--players", type=int, default=None, help="number of players")
    parser.add_argument("--games", type=int, default=100,
                        help="number of games (default %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default %(default)s)")
    parser.add_argument("--deal", choices=["host", "table"], default="host",
                        help="who holds the secrets (default host: the engine deals)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def run(args: argparse.Namespace) -> int:
    games: Sequence[str] = game_names() if args.game == "all" else (args.game,)
    if args.games < 1:
        print("The number of games must be at least 1.")
        return 2
    for game in games:
        try:
            stats = simulate(game, players=args.players, games=args.games, seed=args.seed,
                             deal=args.deal)
        except SetupError as exc:
            print(exc.reason)
            return 2
        print(json.dumps(stats.to_json()) if args.json else format_stats(stats))
    return 0
