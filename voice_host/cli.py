"""Command line: argument parsing and wiring only. Each subcommand lives in a host module
with ``add_arguments(parser)`` and ``run(args) -> int``. Only the module of the command
being run is imported (``voice-host simulate`` loads no speech library, and works without
the speech extras); a command whose optional pieces are missing says what to install."""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from voice_host.host.core.langs import LANGS

# subcommand -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("voice_host.host.cli.demo", "play a complete scripted game with synthesized voices"),
    "play": ("voice_host.host.cli.play", "host a game (microphone, keyboard or script)"),
    "resume": ("voice_host.host.cli.resume", "continue a saved game"),
    "understand": ("voice_host.host.cli.understand", "show what the host understands of a phrase"),
    "simulate": ("voice_host.host.cli.simulate", "play many random games and print statistics"),
    "doctor": ("voice_host.host.cli.doctor", "check audio devices, recognizer and speech output"),
    "models": ("voice_host.host.cli.models", "list, download or remove Whisper and Vosk models"),
    "bench": ("voice_host.host.cli.bench", "measure speech recognition in noise (benchmark)"),
}


class GameParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are said in the game's language ``lang``
    (known from ``--lang`` before the words are parsed). Its subparsers speak it too."""

    def __init__(self, *args: Any, lang: str = "en", **kwargs: Any) -> None:
        self.lang = lang
        super().__init__(*args, **kwargs)

    def add_subparsers(self, **kwargs: Any) -> Any:
        kwargs.setdefault("parser_class", functools.partial(type(self), lang=self.lang))
        return super().add_subparsers(**kwargs)

    def error(self, message: str) -> NoReturn:
        if self.lang == "en":
            super().error(message)
        from voice_host.host.core.messages import in_language

        usage = self.format_usage()
        if usage.startswith("usage: "):
            usage = in_language("usage: ", self.lang) + usage[len("usage: "):]
        self.exit(2, usage + in_language(f"{self.prog}: error: {message}", self.lang) + "\n")


def game_language(words: Sequence[str]) -> str:
    """The language ``--lang`` names among ``words`` (the last one), else English."""
    lang = "en"
    for i, word in enumerate(words):
        if word == "--lang" and i + 1 < len(words):
            lang = words[i + 1]
        elif word.startswith("--lang="):
            lang = word.partition("=")[2]
    return lang if lang in LANGS else "en"


def build_parser(command: str | None = None, lang: str = "en") -> argparse.ArgumentParser:
    """The parser; with ``command``, only that command's module is imported (the others
    are listed, for ``--help``, but not loaded). Usage errors are said in ``lang``."""
    parser = GameParser(
        prog="voice-host",
        description="An offline, voice-driven host for Ici Londres, Resistance and Codenames.",
        lang=lang,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        if command is not None and name != command:
            continue
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:  # a command whose optional pieces are missing
            sp.set_defaults(_unavailable=f"'{name}' is not available: {exc}")
            continue
        module.add_arguments(sp)
        sp.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    command = next((w for w in words if not w.startswith("-")), None)
    lang = game_language(words)
    parser = build_parser(command if command in COMMANDS else "", lang)
    args, unknown = parser.parse_known_args(words)
    if unknown and not getattr(args, "_takes_any_options", False):
        parser.parse_args(words)  # says which arguments it does not know, and exits
    if args.command is None:
        parser.print_help()
        return 2
    if getattr(args, "_unavailable", None):
        print(args._unavailable, file=sys.stderr)
        return 2
    try:
        result: int = args._run(args)
    except KeyboardInterrupt:
        print("\n" + _said("Stopped.", lang), file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (``voice-host simulate --json | head``)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that the exit's flush does not fail too
        return 0
    return result


def _said(message: str, lang: str) -> str:
    if lang == "en":
        return message
    from voice_host.host.core.messages import in_language

    return in_language(message, lang)


if __name__ == "__main__":
    raise SystemExit(main())
