"""``voice-host resume [FILE]``: continue a saved game exactly where it stopped, played as
it was played (input, output, recognizer, companion page: the save keeps them) unless the
command line says otherwise."""

from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from voice_host.games import GameError, GameState, SetupError
from voice_host.host.cli.play import add_common, resume_command, run_session
from voice_host.host.cli.saved_settings import checked_settings, quiet_parser
from voice_host.host.core.config import SETTINGS, SessionConfig
from voice_host.host.core.messages import said
from voice_host.host.core.narration import LANGS, Narrator
from voice_host.host.core.registry import registration
from voice_host.host.core.store import SavedGame, SaveError, load_game, rng_from_json, saved_games

PATHS = frozenset({"log"})
"""Settings that are paths on the command line."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", type=Path, default=None,
                        help="saved game (default: the most recent unfinished one)")
    add_common(parser)
    # an option left out is the one the game was played with (see play_defaults)
    parser.set_defaults(lang=None, **dict.fromkeys(SETTINGS))
    parser.epilog = ("The game is played as it was: its input, output, language, recognizer, "
                     "--confirm, --silence-timeout, --log and companion page, unless given "
                     "here (the defaults above are those of a new game).")


def play_defaults() -> dict[str, Any]:
    """What ``play`` uses for an option left out: the fallback of a game saved without
    its settings (before save version 3)."""
    parser = argparse.ArgumentParser(add_help=False)
    add_common(parser)
    return vars(parser.parse_args([]))


def with_settings(args: argparse.Namespace, settings: dict[str, Any]) -> argparse.Namespace:
    """``args`` with every setting the command line left out taken from the save's
    ``settings``, else ``play``'s default."""
    defaults = play_defaults()
    filled = dict(vars(args))
    for name in SETTINGS:
        if filled.get(name) is not None:
            continue
        value = settings.get(name, defaults[name])
        if name in PATHS and value is not None:
            value = Path(value)
        filled[name] = value
    return argparse.Namespace(**filled)


def open_saved(path: Path) -> tuple[SavedGame, GameState, random.Random]:
    """A saved game ready to continue: its record, its state and its random generator.
    Raises SaveError with a sentence when the file cannot be resumed (nothing is written)."""
    saved = load_game(path)
    try:
        cls = registration(saved.game).state_class
    except SetupError:
        raise SaveError("save.unknown_game_at", path=str(path), game=saved.game) from None
    try:
        state = cls.from_json(saved.state)
    except (GameError, KeyError, ValueError, TypeError, AttributeError, IndexError,
            RecursionError):
        raise SaveError("save.cannot_resume", path=str(path)) from None
    rng = random.Random()
    rng.setstate(rng_from_json(saved.rng))
    return saved, state, rng


@dataclass(frozen=True)
class Latest:
    """What a bare ``resume`` finds in the saves folder."""

    path: Path | None
    """The most recent unfinished game that can be resumed (None: none)."""
    saved: SavedGame | None = None
    """Its save."""
    damaged: tuple[tuple[Path, SaveError], ...] = ()
    """Saves more recent than it that cannot be read, with why (most recent first)."""


def latest_unfinished() -> Latest:
    """The most recently saved game that has not ended, and the damaged saves more recent
    than it (finished games are passed over)."""
    damaged: list[tuple[Path, SaveError]] = []
    for path in saved_games():
        try:
            saved, state, _ = open_saved(path)
        except SaveError as exc:
            damaged.append((path, exc))
            continue
        if not state.is_terminal():
            return Latest(path, saved, tuple(damaged))
    return Latest(None, None, tuple(damaged))


def _screen(lang: str | None) -> Narrator:
    return Narrator("common", lang if lang in LANGS else "en")


def likely_language(given: str | None, latest: Latest | None = None,
                    guessed: str | None = None) -> str:
    """The language to speak in before a save says which: ``--lang`` when given, else the
    language of the game about to be resumed, else that of the most recent save that can be
    read (a finished game too), else the system's (``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``, as gettext reads them), else English. ``guessed``: what
    this function already said, without ``latest``, in this run (the saves are not read
    again for it)."""
    if given in LANGS:
        return str(given)
    if latest is not None and latest.saved is not None:
        found = latest.saved.options.get("lang")
        if found in LANGS:
            return str(found)
    if guessed in LANGS:
        return str(guessed)
    for path in saved_games():
        try:
            found = load_game(path).options.get("lang")
        except SaveError:
            continue
        if found in LANGS:
            return str(found)
    return system_language()


def _guessed(args: argparse.Namespace) -> str | None:
    """The language the command line's reader guessed from the saves (None: not guessed)."""
    guessed = getattr(args, "_guessed_lang", None)
    return guessed if isinstance(guessed, str) else None


def system_language() -> str:
    """The first of the system's message languages this program speaks, else English."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if not value:
            continue
        for part in value.split(":"):  # LANGUAGE may list several: "fr_CA:fr:en"
            code = part.split("_")[0].split(".")[0].lower()
            if code in LANGS:
                return code
            if code in ("c", "posix"):
                return "en"
        if name != "LANGUAGE":
            break  # the first locale variable set decides, as it does for every program
    return "en"


def run(args: argparse.Namespace) -> int:
    path = args.file
    if path is None:
        latest = latest_unfinished()
        screen = _screen(likely_language(args.lang, latest, _guessed(args)))
        if latest.damaged:
            # never resume an older game in silence: say what is damaged, which game would
            # be resumed, and the command that resumes it
            for i, (bad, reason) in enumerate(latest.damaged):
                key = "common.screen_save_damaged_too" if i else "common.screen_save_damaged"
                print(screen.text(key, path=bad, reason=said(reason, screen.lang)),
                      file=sys.stderr)
            if latest.path is None:
                print(screen.text("common.screen_no_older"), file=sys.stderr)
            else:
                print(screen.text("common.screen_older_game", path=latest.path,
                                  command=resume_command(latest.path)), file=sys.stderr)
            return 2
        if latest.path is None:
            print(screen.text("common.screen_no_unfinished"), file=sys.stderr)
            return 2
        path = latest.path
    try:
        saved, state, rng = open_saved(path)
    except SaveError as exc:
        print(said(exc, likely_language(args.lang, guessed=_guessed(args))), file=sys.stderr)
        return 2
    screen = _screen(args.lang or saved.options.get("lang"))
    if state.is_terminal():
        print(screen.text("common.screen_already_ended", path=path), file=sys.stderr)
        return 2
    options = dict(saved.options)
    if args.lang is not None:  # a language given on the command line wins over the saved one
        options["lang"] = args.lang
    try:  # read as a command line would be, and never wider than its defaults
        checked = checked_settings(saved.settings, quiet_parser(add_common))
    except SaveError as exc:
        print(said(exc, options.get("lang", "en")), file=sys.stderr)
        return 2
    for name, (key, fields) in checked.notes.items():
        if getattr(args, name, None) is None:  # (the command line chose anew)
            print(screen.text(key, **fields), file=sys.stderr)
    args = with_settings(args, checked.values)
    config = replace(SessionConfig.from_args(args, saved.game, options), save_path=path)
    return run_session(config, state, rng=rng, fresh=False, saved=saved.record())
