"""Command line: argument parsing and wiring only. Each subcommand lives in a host module
with ``add_arguments(parser)`` and ``run(args) -> int``. Only the module of the command
being run is imported (``voice-host simulate`` loads no speech library, and works without
the speech extras); a command whose optional pieces are missing says what to install."""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import os
import sys
import textwrap
from collections.abc import Iterator, Sequence
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


@contextlib.contextmanager
def argparse_in(lang: str) -> Iterator[None]:
    """argparse's own words in ``lang`` while the block runs.

    argparse writes every sentence of its own (a usage error, "usage:", its section titles)
    by passing an English format string to gettext (``argparse._``, ``argparse.ngettext``),
    then filling it in. A French parser answers those calls from the ``[argparse]`` table of
    ``host/lang/fr/help.toml``, keyed by argparse's exact format strings, for as long as it
    builds itself, parses or writes its help: the values (an option, a choice) are filled in
    after, as argparse does. Installing a gettext catalogue instead would need compiled
    ``.mo`` files and would change the language of every parser of the process; the table
    is argparse's own message ids, so an unknown one (a newer argparse) stays English."""
    if lang == "en":
        yield
        return
    from voice_host.host.core.messages import argparse_words

    words = argparse_words(lang)
    before = argparse._, argparse.ngettext  # type: ignore[attr-defined]

    def one(message: str) -> str:
        return words.get(message, message)

    def plural(singular: str, plural: str, n: int) -> str:
        return one(singular if n == 1 else plural)

    setattr(argparse, "_", one)  # noqa: B010 - argparse's gettext hook
    setattr(argparse, "ngettext", plural)  # noqa: B010
    try:
        yield
    finally:
        setattr(argparse, "_", before[0])  # noqa: B010
        setattr(argparse, "ngettext", before[1])  # noqa: B010


class GameParser(argparse.ArgumentParser):
    """An argument parser that speaks the game's language ``lang`` (known from ``--lang``
    before the words are parsed): its help and its usage errors. Its subparsers speak it
    too."""

    def __init__(self, *args: Any, lang: str = "en", **kwargs: Any) -> None:
        self.lang = lang
        if lang != "en":
            kwargs.setdefault("formatter_class", functools.partial(TranslatedHelp, lang=lang))
        with argparse_in(lang):  # its section titles and the help of -h
            super().__init__(*args, **kwargs)

    def add_subparsers(self, **kwargs: Any) -> Any:
        kwargs.setdefault("parser_class", functools.partial(type(self), lang=self.lang))
        return super().add_subparsers(**kwargs)

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None
                         ) -> tuple[argparse.Namespace, list[str]]:
        with argparse_in(self.lang):
            return super().parse_known_args(args, namespace)

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        with argparse_in(self.lang):
            return super().parse_args(args, namespace)

    def format_usage(self) -> str:
        with argparse_in(self.lang):
            return super().format_usage()

    def format_help(self) -> str:
        with argparse_in(self.lang):
            return super().format_help()

    def error(self, message: str) -> NoReturn:
        with argparse_in(self.lang):
            super().error(message)


class TranslatedHelp(argparse.HelpFormatter):
    """argparse's help in ``lang``: each text (description, section title, help of an
    option, epilog) is the language's text for its exact English (``host/lang/<lang>/help.toml``,
    gettext's way) before it is wrapped, set in the language's typography; flags, metavars
    and choices stay as they are typed."""

    def __init__(self, prog: str, *, lang: str, **kwargs: Any) -> None:
        super().__init__(prog, **kwargs)
        from voice_host.host.core.messages import COLON_SPACE, help_text, typeset

        self._said = functools.partial(help_text, lang=lang)
        self._typeset = functools.partial(typeset, lang=lang)
        self._colon_space = COLON_SPACE.get(lang, "")

    # French words keep their hyphens: a line never ends in "moi-" before "même"
    def _split_lines(self, text: str, width: int) -> list[str]:
        text = self._whitespace_matcher.sub(" ", text).strip()  # ASCII: no-break spaces stay
        return textwrap.wrap(text, width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        text = self._whitespace_matcher.sub(" ", text).strip()
        return textwrap.fill(text, width, initial_indent=indent,
                             subsequent_indent=indent, break_on_hyphens=False)

    def start_section(self, heading: str | None) -> None:
        # argparse writes the colon after the title
        super().start_section(self._said(heading) + self._colon_space if heading else heading)

    def add_text(self, text: str | None) -> None:
        if text and text is not argparse.SUPPRESS:
            text = self._typeset(self._said(text))
        super().add_text(text)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        # before "%(default)s" is filled in, and before the lines are wrapped
        text = super()._get_help_string(action)
        return self._typeset(self._said(text)) if text else text


HELP = frozenset({"-h", "--help"})


def given_language(words: Sequence[str]) -> str | None:
    """What the last ``--lang`` among ``words`` names (None: no ``--lang`` at all)."""
    given: str | None = None
    for i, word in enumerate(words):
        if word == "--lang":
            given = words[i + 1] if i + 1 < len(words) else ""
        elif word.startswith("--lang="):
            given = word.partition("=")[2]
    return given


def game_language(words: Sequence[str]) -> str:
    """The language ``--lang`` names among ``words`` (the last one), else English."""
    given = given_language(words)
    return given if given in LANGS else "en"


def without_lang(words: Sequence[str]) -> list[str]:
    """``words`` without their ``--lang``: in a request for help, it only chooses the help's
    language, and so may be given to any command (``voice-host --lang fr --help``)."""
    kept: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word == "--lang":
            skip = True
        elif not word.startswith("--lang="):
            kept.append(word)
    return kept


def build_parser(command: str | None = None, lang: str = "en") -> argparse.ArgumentParser:
    """The parser; with ``command``, only that command's module is imported (the others
    are listed, for ``--help``, but not loaded). Its help and usage errors are in ``lang``."""
    parser = GameParser(
        prog="voice-host",
        description="An offline, voice-driven host for Ici Londres, Resistance and Codenames.",
        lang=lang,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_line) in COMMANDS.items():
        sp = sub.add_parser(name, help=help_line, description=help_line)
        if command is not None and name != command:
            continue
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:  # a command whose optional pieces are missing
            sp.set_defaults(_unavailable=(name, str(exc)))
            continue
        module.add_arguments(sp)
        sp.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    given = given_language(words)
    lang = given if given in LANGS else "en"
    if HELP.intersection(words):  # --lang only chose the language of the help
        words = without_lang(words)
    command = next((w for w in words if not w.startswith("-")), None)
    guessed: str | None = None
    if command == "resume" and given is None:
        # no --lang: before the save is read, its usage errors are said in the language the
        # table most likely speaks (that of the latest save, else the system's); resume is
        # handed the guess, so that it does not read every save again for it
        from voice_host.host.cli.resume import likely_language

        lang = guessed = likely_language(None)
    parser = build_parser(command if command in COMMANDS else "", lang)
    parser.set_defaults(_guessed_lang=guessed)
    args, unknown = parser.parse_known_args(words)
    if unknown and not getattr(args, "_takes_any_options", False):
        parser.parse_args(words)  # says which arguments it does not know, and exits
    if args.command is None:
        parser.print_help()
        return 2
    if getattr(args, "_unavailable", None):
        name, why = args._unavailable
        print(say("cli.unavailable", lang, command=name, why=why), file=sys.stderr)
        return 2
    try:
        result: int = args._run(args)
    except KeyboardInterrupt:
        print("\n" + say("cli.stopped", lang), file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (``voice-host simulate --json | head``)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that the exit's flush does not fail too
        return 0
    return result


def say(code: str, lang: str, **params: Any) -> str:
    """The sentence of ``code`` in ``lang`` (the catalogue is read only when one is said)."""
    from voice_host.host.core.messages import say as said_in

    return said_in(code, lang, **params)


if __name__ == "__main__":
    raise SystemExit(main())
