"""``--help`` in French when ``--lang fr`` is on the command line: every text argparse
writes (descriptions, section titles, each option's help, epilogs) is the French that
``host/lang/fr/help.toml`` gives its exact English, or is made in French from a code
(a range, a default); argparse's own words come from that file's ``[argparse]`` table. Flags,
metavars and choices stay as typed, and English help stays as it was."""

from __future__ import annotations

import argparse
import dataclasses
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

import voice_host
from voice_host.cli import GameParser, build_parser, main
from voice_host.host.core.messages import argparse_words, help_text
from voice_host.host.core.registry import game_names, registrations

COMMANDS = [[], ["play"], *(["play", game] for game in game_names()), ["resume"], ["demo"],
            ["understand"], ["simulate"], ["doctor"], ["models"], ["models", "list"],
            ["models", "download"], ["models", "remove"]]
"""Every command whose help is French (``bench`` takes its options from the benchmark
script, which is English-only)."""

PACKAGE = Path(voice_host.__file__).parent

KEPT = frozenset("""
    whisper vosk pocketsphinx piper espeak ctranslate https pem json jsonl wav tiny base small
    ici londres codenames speaker table host together count auto refuse penalty fragments text
    full short kokoro mbrola radio code hdmi qr play
    mic vote votes guess clue options extra speech microphone script secrets machine
    transmission interfaces phase phases page port arguments message phrase audio agent double
    narration silence discussion local type mode etc hub on off
""".split())
"""Words an English help text may share with its French: typed values, names, and words that
are the same in both languages."""


def parser_of(path: list[str], lang: str = "en") -> argparse.ArgumentParser:
    parser = build_parser(path[0] if path else "", lang)
    for name in path:
        parser = subparsers(parser)[name]
    return parser


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return {name: sub for action in parser._actions
            if isinstance(action, argparse._SubParsersAction)
            for name, sub in action.choices.items()}


def texts(parser: argparse.ArgumentParser, *, deep: bool, raw: bool = False) -> Iterator[str]:
    """The texts of ``parser``'s help (its subcommands' too with ``deep``), with argparse's
    ``%(default)s`` filled in as ``--help`` fills it (unless ``raw``)."""
    formatter = parser._get_formatter()
    yield from (t for t in (parser.description, parser.epilog) if t)
    yield from (g.title for g in parser._action_groups if g.title)
    for action in parser._actions:
        if action.help and action.help is not argparse.SUPPRESS:
            yield action.help if raw else formatter._expand_help(action)
        if isinstance(action, argparse._SubParsersAction):
            yield from (c.help for c in action._choices_actions if c.help)
            if deep:
                for sub in action.choices.values():
                    yield from texts(sub, deep=True, raw=raw)


def prose(text: str) -> str:
    """``text`` without what is typed (flags, metavars, choices, paths), in lower case, its
    lines joined."""
    kept = [w for w in text.replace("\u00a0", " ").split()
            if not re.match(r"[-{$\[]|[A-Z0-9_.,|]+$|\S*[/.]\w", w)]
    return " ".join(kept).lower()


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-zà-ÿœ]{3,}", prose(text)))


def english_left(english: str, french: str) -> set[str]:
    """Words of ``english`` that its French still has (beside :data:`KEPT`)."""
    return words(english) & words(french) - KEPT


def typed(shown: str) -> tuple[str, list[str]]:
    """What a help shows as it is typed: its usage (after "usage:"), and the flags and
    metavars of each option."""
    usage = " ".join(shown.split("\n\n")[0].split()[1:]).removeprefix(": ")
    return usage, re.findall(r"^ {2}(-\S.*?)(?: {2,}|$)", shown, re.MULTILINE)


def help_column(shown: str) -> str:
    """A help without its usage and without the flags, metavars and subcommand names that
    open its option lines."""
    body = shown.split("\n\n", 1)[1]
    return re.sub(r"^( {2}| {4})\S.*?( {2,}|$)", "", body, flags=re.MULTILINE)


def help_of(path: list[str], lang: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_:
        main([*path, *lang, "--help"])
    assert exit_.value.code == 0
    return capsys.readouterr().out


def test_every_help_text_has_its_french() -> None:
    """A help text added or reworded in English shows up here, not as English in a French
    ``--help``: the French parser's texts, each the French of the English parser's text in
    the same place, share no word with it (beside :data:`KEPT`)."""
    missing = []
    for path in COMMANDS:
        english = list(texts(parser_of(path), deep=True))
        french = [help_text(t, "fr") for t in texts(parser_of(path, "fr"), deep=True)]
        assert len(english) == len(french), path
        missing += [e for e, f in zip(english, french, strict=True)
                    if e == f and words(e) - KEPT or english_left(e, f)]
    assert not missing, "no French in host/lang/fr/help.toml for: " + \
        "\n".join(dict.fromkeys(missing))


def test_every_french_help_text_is_still_written_by_the_program() -> None:
    """A help text reworded in English leaves its French unused: every English text of the
    help table is one the parsers write (or a template the program fills in)."""
    written = {t for path in COMMANDS for t in texts(parser_of(path), deep=True, raw=True)}
    written |= {f.metadata["spec"].help for reg in registrations()  # composed with a range
                for f in dataclasses.fields(reg.options)}
    table = tomllib.loads((PACKAGE / "host" / "lang" / "fr" / "help.toml").read_text("utf-8"))
    stale = [english for english in table["help"]
             if english not in written and "{" not in english]
    assert not stale, stale


def test_argparse_s_words_are_its_own_format_strings() -> None:
    """Every entry of the ``[argparse]`` table is a format string argparse passes to gettext
    (so a reworded one in a newer Python shows up here), with the same fields."""
    source = Path(argparse.__file__).read_text(encoding="utf-8")
    for english, french in argparse_words("fr").items():
        assert repr(english)[1:-1] in source or english.replace("\n", "\\n") in source, \
            english
        # argparse fills the fields in by name: the French may leave one out ("%(type)s")
        assert set(re.findall(r"%\(\w+\)[sr]", french)) <= \
            set(re.findall(r"%\(\w+\)[sr]", english)), english
        assert re.findall(r"%[sr]", english) == re.findall(r"%[sr]", french), english


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "voice-host")
def test_french_help_has_no_english_sentence(
        path: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    english = help_of(path, [], capsys)
    french = help_of(path, ["--lang", "fr"], capsys)
    assert french.startswith("utilisation : voice-host"), french
    # flags, metavars and choices are what is typed: the same in both
    assert typed(french) == typed(english)
    said = prose(help_column(french))
    sentences = list(texts(parser_of(path), deep=False))
    assert sentences
    for text in sentences:
        for clause in re.split(r"[;:,()]|\. ", prose(text)):
            if len(clause.split()) >= 3:
                assert clause.strip() not in said, clause
    left = set().union(*(words(t) for t in sentences)) & words(help_column(french)) - KEPT
    assert not left, left
    assert "usage" not in french and "positional arguments" not in french


def test_english_help_is_argparse_s_own(capsys: pytest.CaptureFixture[str]) -> None:
    """English help goes through no catalogue: argparse's own formatter, at every level;
    ``--lang en`` changes nothing in it."""
    for path in COMMANDS:
        assert parser_of(path).formatter_class is argparse.HelpFormatter
        assert help_of(path, ["--lang", "en"], capsys) == help_of(path, [], capsys)


def test_help_is_translated_before_its_defaults_are_filled_in_and_its_lines_wrapped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "44")
    parser = GameParser(prog="x", lang="fr")
    parser.add_argument("--games", default=7, help="number of games (default %(default)s)")
    parser.add_argument("--pause", help=help_text(
        "seconds with nobody speaking before the host pauses the game; never during a "
        "discussion ({low} to {high}, default {default})", "fr", low=60, high=3600,
        default=300))
    shown = parser.format_help()
    joined = " ".join(shown.replace("\u00a0", " ").split())
    assert "nombre de parties (par défaut : 7)" in joined
    assert "jamais pendant une discussion (de 60 à 3600, par défaut 300)" in joined
    # French typography: no line begins with the colon or semicolon of the line before
    assert not [line for line in shown.splitlines() if line.strip()[:1] in (":", ";")]


@pytest.mark.parametrize("columns", ["50", "64", "80", "100"])
def test_french_help_lines_never_break_a_hyphenated_word(
        columns: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    broken = [line for path in COMMANDS
              for line in help_of(path, ["--lang", "fr"], capsys).splitlines()
              if re.search(r"[^\W\d_]-$", line)]
    assert not broken, broken
