"""``voice-host resume [FILE]``: continue a saved game exactly where it stopped."""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import replace
from pathlib import Path

from voice_host.games import GameError, GameState, SetupError
from voice_host.host.cli.play import add_common, run_session
from voice_host.host.core.config import SessionConfig
from voice_host.host.core.registry import registration
from voice_host.host.core.store import SavedGame, SaveError, load_game, rng_from_json, saved_games


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", type=Path, default=None,
                        help="saved game (default: the most recent unfinished one)")
    add_common(parser)


def open_saved(path: Path) -> tuple[SavedGame, GameState, random.Random]:
    """A saved game ready to continue: its record, its state and its random generator.
    Raises SaveError with a sentence when the file cannot be resumed (nothing is written)."""
    saved = load_game(path)
    try:
        cls = registration(saved.game).state_class
    except SetupError:
        raise SaveError(f"The saved game at {path} is for a game I do not know "
                        f"({saved.game}).") from None
    try:
        state = cls.from_json(saved.state)
    except (GameError, KeyError, ValueError, TypeError, AttributeError, IndexError):
        raise SaveError(f"The saved game at {path} is damaged and cannot be resumed.") from None
    rng = random.Random()
    rng.setstate(rng_from_json(saved.rng))
    return saved, state, rng


def latest_unfinished() -> Path | None:
    """The most recently saved game that has not ended (damaged files are skipped)."""
    for path in saved_games():
        try:
            _, state, _ = open_saved(path)
        except SaveError:
            continue
        if not state.is_terminal():
            return path
    return None


def run(args: argparse.Namespace) -> int:
    path = args.file or latest_unfinished()
    if path is None:
        print("There is no unfinished saved game to resume. Start one with voice-host play.",
              file=sys.stderr)
        return 2
    try:
        saved, state, rng = open_saved(path)
    except SaveError as exc:
        print(exc, file=sys.stderr)
        return 2
    if state.is_terminal():
        print(f"The game saved at {path} has already ended. Start a new one with voice-host "
              "play.", file=sys.stderr)
        return 2
    options = dict(saved.options)
    if args.lang != "en":  # a language given on the command line wins over the saved one
        options["lang"] = args.lang
    config = replace(SessionConfig.from_args(args, saved.game, options), save_path=path)
    return run_session(config, state, rng=rng, fresh=False, saved=saved.record())
