"""``voice-host play GAME ...``: parse options, build the game, the voice and the ears, run."""

from __future__ import annotations

import argparse
import functools
import random
import shlex
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voice_host.games import SetupError
from voice_host.host.cli import models as models_cmd
from voice_host.host.companion.seats import spell
from voice_host.host.companion.wiring import add_arguments as companion_arguments
from voice_host.host.companion.wiring import start_companion
from voice_host.host.core.config import SessionConfig
from voice_host.host.core.messages import help_text, said, say
from voice_host.host.core.narration import LANGS, Narrator
from voice_host.host.core.options import add_arguments as game_options_arguments
from voice_host.host.core.options import cli_values
from voice_host.host.core.patience import DEFAULT_PAUSE_AFTER, PAUSE_AFTER_RANGE
from voice_host.host.core.registry import (
    new_game,
    registration,
    registrations,
)
from voice_host.host.core.save_lock import SaveInUse, SaveLock
from voice_host.host.core.saving import save_at_exit
from voice_host.host.core.session import Session, Stop
from voice_host.host.core.store import (
    PathError,
    SessionRecord,
    check_log_path,
    check_save_path,
    saves_dir,
)
from voice_host.host.core.values import Line
from voice_host.host.io import wiring

if TYPE_CHECKING:
    from voice_host.host.companion.channel import CompanionChannel


def add_common(parser: argparse.ArgumentParser) -> None:
    lang = getattr(parser, "lang", "en")  # the language of the help and the usage errors
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    parser.add_argument("--lang", choices=LANGS, default="en",
                        help="language of narration and commands (default en)")
    parser.add_argument("--input", choices=["mic", "text"], default="mic",
                        help="microphone (default) or typed lines")
    parser.add_argument("--script", type=Path, default=None,
                        help="read utterances from FILE, one per line ('Name: words', words, "
                             "or a .wav path); '-' reads them from standard input, one "
                             "each time the host listens")
    parser.add_argument("--output", default="speaker",
                        help="speaker (default), text, or wav:DIR (numbered WAV files)")
    parser.add_argument("--voice", default="auto", metavar="NARRATOR",
                        help="the narrator per language: auto (default: Piper for English, "
                             "MBROLA or Kokoro for French, when installed; espeak-ng otherwise), "
                             "or e.g. "
                             "fr=espeak-ng, en=piper,fr=kokoro (the radio call is always the "
                             "French narrator's)")
    parser.add_argument("--log", type=Path, default=None, help="write events to FILE.jsonl")
    parser.add_argument("--save", type=Path, default=None,
                        help="save file (default: a new file in the data folder)")
    parser.add_argument("--confirm", choices=["auto", "never"], default="auto",
                        help="ask before doubtful or irreversible actions (default auto)")
    models_cmd.add_recognizer_arguments(parser)
    parser.add_argument("--deal", choices=["table", "host"], default="table",
                        help="table: players use physical cards (default); host: the host "
                             "deals secrets and writes each to a file for its player")
    parser.add_argument("--silence-timeout", type=float, default=12.0,
                        help="seconds of silence before the host asks again (default 12)")
    low, high = PAUSE_AFTER_RANGE
    parser.add_argument("--pause-after", type=functools.partial(pause_after, lang=lang),
                        default=DEFAULT_PAUSE_AFTER, metavar="SECONDS",
                        help=help_text("seconds with nobody speaking before the host pauses "
                                       "the game; never during a discussion ({low} to {high}, "
                                       "default {default})", lang, low=f"{low:.0f}",
                                       high=f"{high:.0f}", default=f"{DEFAULT_PAUSE_AFTER:.0f}"))
    parser.add_argument("--voices", choices=("auto", "on", "off"), default="auto",
                        help="learn the players' voices at the start to know who is talking: "
                             "on (microphone or a script of recordings), off, or auto "
                             "(default: with the microphone)")
    companion_arguments(parser)


def pause_after(text: str, lang: str = "en") -> float:
    """``--pause-after``: a number of seconds within :data:`PAUSE_AFTER_RANGE` (argparse says
    why not, in ``lang``)."""
    low, high = PAUSE_AFTER_RANGE
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(say("cli.seconds", lang, text=text)) from None
    if not low <= seconds <= high:
        raise argparse.ArgumentTypeError(say("cli.seconds_range", lang, text=text,
                                             low=f"{low:.0f}", high=f"{high:.0f}"))
    return seconds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    for reg in registrations():
        sub = games.add_parser(reg.name, help=reg.command_help(getattr(parser, "lang", "en")))
        game_options_arguments(sub, reg.options)
        add_common(sub)


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The JSON-able options a game is created from (also kept in the save file), checked
    by the game's options (a SetupError with a sentence for a bad value)."""
    return registration(args.game).complete(
        {"deal": args.deal, "lang": args.lang,
         **cli_values(args, registration(args.game).options)})


def resume_command(save_path: Path) -> str:
    """The command that continues the game saved at ``save_path``, as it can be pasted
    into a shell in any folder: the path is absolute and quoted (the save keeps how it was
    played, so the command needs nothing else)."""
    return f"voice-host resume {shlex.quote(str(save_path.absolute()))}"


def default_save_path(game: str) -> Path:
    return saves_dir() / f"{game}-{time.strftime('%Y%m%d-%H%M%S')}.json"


def run(args: argparse.Namespace) -> int:
    try:
        options = game_options(args)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        options["seed"] = seed
        state = new_game(args.game, options)
    except SetupError as exc:
        print(said(exc, args.lang), file=sys.stderr)
        return 2
    config = SessionConfig.from_args(args, args.game, options)
    if config.save_path is None:
        config = replace(config, save_path=default_save_path(args.game))
    return run_session(config, state, rng=random.Random(seed), fresh=True)


def join_lines(session: Session, companion: CompanionChannel) -> list[Line]:
    """What the host says so players can join the companion page (or, in a resumed game
    whose seats were kept, that the phones keep them)."""
    line = session.narrator.line
    code = " ".join(companion.room_code)
    if companion.seats.locked:
        return [line("companion.kept", code=code, url=companion.url)]
    return [line("companion.join", url=companion.url, code=code,
                 spelled=spell(companion.room_code)),
            line("companion.table", url=companion.url)]


def again_options(options: dict[str, Any], game: str, players: list[str],
                  seed: int) -> dict[str, Any]:
    """The options of the next game with the same players: the seating moved on by one (the
    second player sits first, so the first Speaker, leader or spymaster changes), every mode
    and variant kept, a new deal."""
    reg = registration(game)
    moved = players[1:] + players[:1]
    nxt = {**options, **reg.seat(moved), "seed": seed}
    first = options.get("first")
    if isinstance(first, str) and first in players:  # a chosen first leader moves on too
        nxt["first"] = players[(players.index(first) + 1) % len(players)]
    return reg.complete(nxt)


def next_save_path(save_path: Path) -> Path:
    """Where the next game of the evening is saved: beside ``save_path``, numbered."""
    stem = save_path.stem.rsplit("-game", 1)[0]
    n = 2
    while (candidate := save_path.with_name(f"{stem}-game{n}{save_path.suffix}")).exists():
        n += 1
    return candidate


def run_session(config: SessionConfig, state: Any, *, rng: random.Random, fresh: bool,
                saved: SessionRecord | None = None) -> int:
    """Host one game as ``config`` says, to its end or until it stops (it is saved
    after every move); ``saved`` is what a resumed game's save file kept of the host."""
    save_path = config.save_path
    assert save_path is not None
    try:
        check_save_path(save_path)
        if config.log is not None:
            check_log_path(config.log)
    except PathError as exc:  # said in the game's language
        print(exc.sentence(Narrator(config.game, config.lang)), file=sys.stderr)
        return 2
    lock = SaveLock(save_path)
    try:
        lock.acquire(game=registration(config.game).description.title)
    except SaveInUse as exc:  # another host plays this save: two would overwrite each other
        held = exc.holder
        print(Narrator(config.game, config.lang).text(
            "common.screen_save_in_use", path=save_path, game=held.game or config.game,
            since=held.since or "?", pid=held.pid or "?"), file=sys.stderr)
        return 2
    try:
        return _host(config, state, rng=rng, fresh=fresh, saved=saved)
    finally:
        lock.release()


def _host(config: SessionConfig, state: Any, *, rng: random.Random, fresh: bool,
          saved: SessionRecord | None) -> int:
    """:func:`run_session` once the save is checked and locked."""
    save_path = config.save_path
    assert save_path is not None
    try:
        io = wiring.build_io(config)
    except wiring.WiringError as exc:
        print(said(exc, config.lang), file=sys.stderr)
        return 2
    companion = None
    if config.companion.enabled:
        try:
            companion = start_companion(config, state, io, resumed=not fresh)
        except wiring.WiringError as exc:
            io.close()
            print(said(exc, config.lang), file=sys.stderr)
            return 2
    session = wiring.wire_session(config, state, io, rng=rng, companion=companion,
                                  saved=saved)
    if io.banner:
        print(io.banner, file=sys.stderr)
    screen = session.narrator.text  # the lines for the screen, in the game's language
    print(screen("common.screen_saving", path=save_path), file=sys.stderr)
    if companion is not None:
        session.say(join_lines(session, companion))
    try:
        stop = session.run(fresh=fresh, offer_again=True)
        while stop is Stop.AGAIN:  # "Play again with the same players?": yes
            # the same table, modes and devices: a new game with the seating moved on
            options = again_options(dict(config.options), config.game,
                                    list(session.state.players), session.rng.randrange(2**31))
            state = new_game(config.game, options)
            session.log.close()
            config = replace(config, options=options,
                             save_path=next_save_path(config.save_path or save_path))
            save_path = config.save_path or save_path
            print(screen("common.screen_saving", path=save_path), file=sys.stderr)
            session = wiring.wire_session(config, state, io,
                                          rng=random.Random(options["seed"]),
                                          companion=companion)
            session.say_key("common.new_game")
            stop = session.run(fresh=True, offer_again=True)
    except KeyboardInterrupt:
        session.save()
        print("\n" + screen("common.screen_stopped"), file=sys.stderr)
        stop = Stop.QUIT
    finally:
        io.close()
        session.log.close()
    if io.summary:
        print(io.summary(), file=sys.stderr)
    # the latest moves, when the save file could not take them (a full disk): elsewhere
    resume_from = save_at_exit(session) or save_path
    if stop in (Stop.QUIT, Stop.INPUT_ENDED) and not session.state.is_terminal():
        print(screen("common.screen_resume", command=resume_command(resume_from)),
              file=sys.stderr)
    # a script or typed input that ends before the game does is reported (exit 3)
    return 3 if stop is Stop.INPUT_ENDED else 0
