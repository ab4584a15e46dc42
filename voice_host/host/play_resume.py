"""``voice-host resume [FILE]``: continue a saved game exactly where it stopped."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from voice_host.games import state_class
from voice_host.host.play import add_common, run_session
from voice_host.host.store import SaveError, latest_save, load_game, rng_from_json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", type=Path, default=None,
                        help="saved game (default: the most recent one)")
    add_common(parser)


def run(args: argparse.Namespace) -> int:
    path = args.file or latest_save()
    if path is None:
        print("There is no saved game to resume.", file=sys.stderr)
        return 2
    try:
        saved = load_game(path)
        state = state_class(saved.game).from_json(saved.state)
    except SaveError as exc:
        print(exc, file=sys.stderr)
        return 2
    except (KeyError, ValueError, TypeError):
        print(f"The saved game at {path} is damaged and cannot be resumed.", file=sys.stderr)
        return 2
    rng = random.Random()
    rng.setstate(rng_from_json(saved.rng))
    options = dict(saved.options)
    if args.lang != "en":  # a language given on the command line wins over the saved one
        options["lang"] = args.lang
    return run_session(args, saved.game, options, state, path, rng=rng, fresh=False,
                       host_state=saved.host_state, undo=saved.undo)
