"""``voice-host play GAME ...``: parse options, build the game, the voice and the ears, run."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

from voice_host.games import SetupError
from voice_host.host import models_cmd, wiring
from voice_host.host.adapters import make_adapter, new_game
from voice_host.host.companion.wiring import add_arguments as companion_arguments
from voice_host.host.companion.wiring import start_companion
from voice_host.host.session import Session, SessionOptions, Stop
from voice_host.host.store import EventLog, SaveError, check_save_path, saves_dir


def split_names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    parser.add_argument("--lang", choices=["en", "fr"], default="en",
                        help="language of narration and commands (default en)")
    parser.add_argument("--input", choices=["mic", "text"], default="mic",
                        help="microphone (default) or typed lines")
    parser.add_argument("--script", type=Path, default=None,
                        help="read utterances from FILE, one per line ('Name: words', words, "
                             "or a .wav path)")
    parser.add_argument("--output", default="speaker",
                        help="speaker (default), text, or wav:DIR (numbered WAV files)")
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
    companion_arguments(parser)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    res = games.add_parser("resistance", help="Resistance with a double agent (5-10 players)")
    res.add_argument("--players", required=True, help="names in seating order, A,B,C,D,E")
    res.add_argument("--no-double-agent", action="store_true", help="the simpler variant")
    res.add_argument("--first", default=None, help="first leader (default: random)")
    res.add_argument("--votes", choices=["together", "count"], default="together",
                     help="together (default): on the host's count everyone shows their vote "
                          "at once, then says it, in any order; count: the same show of "
                          "thumbs, and the leader says how many voted yes")
    add_common(res)
    ici = games.add_parser("ici-londres", help="Ici Londres (3-6 players)")
    ici.add_argument("--players", required=True, help="names in seating order, A,B,C")
    ici.add_argument("--first", default=None, help="first Speaker (default: the first name)")
    ici.add_argument("--mode", choices=["fragments", "competing", "double-zero", "countdown"],
                     default="fragments", help="first transmission type (default fragments)")
    ici.add_argument("--rounds", type=int, default=None, help="rounds (default 12, 10 with 5)")
    add_common(ici)
    cn = games.add_parser("codenames", help="Codenames (two teams of 2 or more)")
    cn.add_argument("--red", required=True, help="red team, spymaster first: A,B")
    cn.add_argument("--blue", required=True, help="blue team, spymaster first: C,D")
    cn.add_argument("--first", choices=["red", "blue"], default=None,
                    help="starting team (table mode: as the key card shows)")
    cn.add_argument("--words", choices=["en", "fr"], default="en", help="word list")
    cn.add_argument("--invalid-clue", choices=["refuse", "penalty"], default="refuse",
                    help="refuse an invalid clue (default) or apply the official penalty")
    add_common(cn)


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The JSON-able options a game is created from (also kept in the save file)."""
    opts: dict[str, Any] = {"deal": args.deal, "lang": args.lang}
    if args.game == "resistance":
        opts.update(players=split_names(args.players), double_agent=not args.no_double_agent,
                    first=args.first, votes=args.votes)
    elif args.game == "ici-londres":
        opts.update(players=split_names(args.players), first=args.first, mode=args.mode,
                    rounds=args.rounds)
    else:
        opts.update(red=split_names(args.red), blue=split_names(args.blue), first=args.first,
                    words=args.words, invalid_clue=args.invalid_clue)
    return opts


def default_save_path(game: str) -> Path:
    return saves_dir() / f"{game}-{time.strftime('%Y%m%d-%H%M%S')}.json"


def run(args: argparse.Namespace) -> int:
    options = game_options(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    options["seed"] = seed
    try:
        state = new_game(args.game, options)
    except SetupError as exc:
        print(exc.reason, file=sys.stderr)
        return 2
    save_path = args.save or default_save_path(args.game)
    return run_session(args, args.game, options, state, save_path, rng=random.Random(seed),
                       fresh=True)


def join_lines(session: Session, companion: Any) -> list[Any]:
    """What the host says so players can join the companion page (or, in a resumed game
    whose seats were kept, that the phones keep them)."""
    from voice_host.host.companion.seats import spell

    line = session.narrator.line
    code = " ".join(companion.room_code)
    if companion.seats.locked:
        return [line("companion.kept", code=code, url=companion.url)]
    return [line("companion.join", url=companion.url, code=code,
                 spelled=spell(companion.room_code)),
            line("companion.table", url=companion.url)]


def run_session(args: argparse.Namespace, game: str, options: dict[str, Any], state: Any,
                save_path: Path, *, rng: random.Random, fresh: bool,
                host_state: dict[str, Any] | None = None,
                undo: list[dict[str, Any]] | None = None) -> int:
    lang = options.get("lang", "en")
    try:
        check_save_path(save_path)
    except SaveError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        io = wiring.build_io(args, game=game, lang=lang, save_path=save_path)
    except wiring.WiringError as exc:
        print(exc, file=sys.stderr)
        return 2
    companion = None
    if getattr(args, "companion", False):
        try:
            companion = start_companion(args, game, state, io, lang=lang,
                                        save_path=save_path, resumed=not fresh)
        except wiring.WiringError as exc:
            io.close()
            print(exc, file=sys.stderr)
            return 2
    # adapters phrase secret steps for the phones when the companion page runs (not saved:
    # a resumed game may run without it)
    adapter = make_adapter(game, {**options, "companion": companion is not None},
                           secret_sink=io.secret_sink)
    if host_state:
        adapter.host_state.update(host_state)
    log = EventLog(args.log)
    session = Session(adapter=adapter, state=state, rng=rng, output=io.output,
                      listener=io.listener, log=log, game_options=options, undo=undo,
                      companion=companion,
                      options=SessionOptions(confirm=args.confirm, save_path=save_path,
                                             silence_timeout=args.silence_timeout))
    if io.banner:
        print(io.banner, file=sys.stderr)
    print(f"Saving the game after every move in {save_path}", file=sys.stderr)
    if companion is not None:
        session.say(join_lines(session, companion))
    try:
        stop = session.run(fresh=fresh)
    except KeyboardInterrupt:
        session.save()
        print("\nStopped. The game is saved.", file=sys.stderr)
        stop = Stop.QUIT
    finally:
        io.close()
        log.close()
    if io.summary:
        print(io.summary(), file=sys.stderr)
    if stop in (Stop.QUIT, Stop.INPUT_ENDED) and not session.state.is_terminal():
        print(f"To continue this game: voice-host resume {save_path}", file=sys.stderr)
    # a script or typed input that ends before the game does is reported (exit 3)
    return 3 if stop is Stop.INPUT_ENDED else 0
