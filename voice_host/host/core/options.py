"""A game's options, in one place: one frozen dataclass per game (a subclass of
:class:`GameOptions`), each field declared with :func:`option`: its default, its help, and
what it allows (choices, a range, names). From it come

* the command line (:func:`add_arguments`: flags, choices and ranges stated in ``--help``);
* the validation of every options mapping, from the command line, a save or a test
  (:meth:`GameOptions.from_json`: a :class:`SetupError` with a sentence for a bad value);
* the JSON-able options the engine, the adapter and the save file receive
  (:meth:`GameOptions.to_json`).
"""

from __future__ import annotations

import argparse
import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from voice_host.host.core.messages import HELP, OptionError, help_text, say
from voice_host.host.core.narration import LANGS
from voice_host.wording import OneOf, Term

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth", "tenth", "eleventh", "twelfth")
"""Positions in words, for a sentence about the n-th name of a list (``term.ordinal.<n>``
in the catalogues)."""
NUMBER = Term("number", "a number")
WHOLE_NUMBER = Term("whole_number", "a whole number")


@dataclass(frozen=True)
class Spec:
    """What one option allows, beside its type and default (a field's metadata)."""

    help: str
    """One line for ``--help`` (the choices, range and default are added to it)."""
    choices: tuple[str, ...] = ()
    """Allowed values, when closed."""
    low: float | None = None
    """Smallest value of a number."""
    high: float | None = None
    """Largest value of a number."""
    required: bool = False
    """Must be given (the seating)."""
    flag: str = ""
    """The command-line flag when not ``--<name>`` (``--no-double-agent``)."""
    cli: bool = True
    """Offered by ``play GAME``'s own flags (``deal``, ``lang`` and ``seed`` are common ones)."""


def option(default: Any, help: str, *, choices: tuple[str, ...] = (), low: float | None = None,
           high: float | None = None, required: bool = False, flag: str = "",
           cli: bool = True) -> Any:
    """A field of a game's options dataclass."""
    return field(default=default, metadata={"spec": Spec(help, choices, low, high, required,
                                                         flag, cli)})


Opts = TypeVar("Opts", bound="GameOptions")


@dataclass(frozen=True)
class GameOptions:
    """The options every game has. A game's subclass adds its own fields, each with
    :func:`option`."""

    title: ClassVar[Term] = Term("title.this_game", "This game")
    """The game's name in a sentence about its options."""

    deal: str = option("table", "table: players use physical cards; host: the host deals",
                       choices=("table", "host"), cli=False)
    lang: str = option("en", "language of narration and commands", choices=LANGS,
                       cli=False)
    seed: int | None = option(None, "random seed", cli=False)

    @classmethod
    def from_json(cls: type[Opts], data: Mapping[str, Any]) -> Opts:
        """Validated options from a mapping (missing ones at their default). Raises
        :class:`SetupError` with a sentence for an unknown option or a bad value."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise OptionError("options.unknown", title=cls.title, name=unknown[0])
        hints = typing.get_type_hints(cls)
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            spec: Spec = f.metadata["spec"]
            if f.name not in data or (data[f.name] is None and not spec.required):
                if spec.required:
                    raise OptionError("options.required", title=cls.title, flag=flag_of(f),
                                      help=Term(HELP, spec.help))
                values[f.name] = f.default
                continue
            values[f.name] = _checked(f, spec, hints[f.name], data[f.name])
        return cls(**values)

    @classmethod
    def upgrade(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Options saved by an older version (save version 1) as this version names them;
        a game whose options changed overrides it."""
        return dict(data)

    def to_json(self) -> dict[str, Any]:
        """The options as the engine, the adapter and the save file take them (names as
        lists)."""
        return {f.name: list(v) if isinstance(v := getattr(self, f.name), tuple) else v
                for f in dataclasses.fields(self)}


def flag_of(f: dataclasses.Field[Any]) -> str:
    spec: Spec = f.metadata["spec"]
    return spec.flag or "--" + f.name.replace("_", "-")


def _number_words(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _checked(f: dataclasses.Field[Any], spec: Spec, tp: Any, value: Any) -> Any:
    """``value`` as the field's type, checked; a SetupError with a sentence otherwise."""
    flag = flag_of(f)
    base = _base_type(tp)
    if base is tuple:
        return _names(flag, value)
    if base is bool:
        if not isinstance(value, bool):
            raise OptionError("options.yes_no", flag=flag, value=str(value))
        return value
    if base in (int, float):
        number = _number(flag, base, value)
        if (spec.low is not None and number < spec.low) or (
                spec.high is not None and number > spec.high):
            raise OptionError("options.range", flag=flag, low=_number_words(spec.low or 0),
                              high=_number_words(spec.high or 0), value=str(value))
        return number
    if not isinstance(value, str):
        raise OptionError("options.word", flag=flag, value=str(value))
    if spec.choices and value not in spec.choices:
        raise OptionError("options.choice", flag=flag, choices=OneOf(spec.choices),
                          value=str(value))
    return value


def _base_type(tp: Any) -> Any:
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        tp = next(a for a in typing.get_args(tp) if a is not type(None))
    return typing.get_origin(tp) or tp


def _number(flag: str, kind: type, value: Any) -> int | float:
    if isinstance(value, bool):
        raise OptionError("options.kind", flag=flag, what=NUMBER, value=str(value))
    if kind is int and isinstance(value, int):
        return value
    if kind is float and isinstance(value, int | float):
        return float(value)
    try:
        return kind(str(value).strip())  # type: ignore[no-any-return]
    except ValueError:
        what = WHOLE_NUMBER if kind is int else NUMBER
        raise OptionError("options.kind", flag=flag, what=what, value=str(value)) from None


def _names(flag: str, value: Any) -> tuple[str, ...]:
    """A list of names: a comma-separated text (the command line) or a list; an empty name
    is refused by its position."""
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or not all(isinstance(n, str) for n in items):
        raise OptionError("options.names", flag=flag)
    names = tuple(n.strip() for n in items)
    for i, name in enumerate(names):
        if not name:
            if i < len(ORDINALS):
                raise OptionError("options.name_empty", flag=flag,
                                  ordinal=Term(f"ordinal.{i + 1}", ORDINALS[i]))
            raise OptionError("options.name_number_empty", flag=flag, n=i + 1)
    return names


def _help(f: dataclasses.Field[Any], spec: Spec, lang: str) -> str:
    """The option's ``--help`` line in ``lang``: its help, its range and its default."""
    text = help_text(spec.help, lang)
    if spec.low is not None and spec.high is not None:
        text = say("help.range", lang, help=text, low=_number_words(spec.low),
                   high=_number_words(spec.high))
    if isinstance(f.default, int | float) and not isinstance(f.default, bool):
        text = say("help.default_number", lang, help=text, default=_number_words(f.default))
    elif isinstance(f.default, str):
        text = say("help.default_word", lang, help=text, default=f.default)
    return text


def add_arguments(parser: argparse.ArgumentParser, options: type[GameOptions]) -> None:
    """The game's own flags, from its options dataclass. Values stay as typed: they are
    checked by :meth:`GameOptions.from_json`, so a bad one gets the same sentence as from a
    save (argparse still lists the choices)."""
    for f in dataclasses.fields(options):
        spec: Spec = f.metadata["spec"]
        if not spec.cli:
            continue
        flag = flag_of(f)
        if _base_type(typing.get_type_hints(options)[f.name]) is bool:
            parser.add_argument(flag, dest=f.name, help=spec.help,
                                action="store_false" if f.default else "store_true")
            continue
        kwargs: dict[str, Any] = {"dest": f.name, "default": None,
                                  "help": _help(f, spec, getattr(parser, "lang", "en"))}
        if spec.required:
            kwargs["required"] = True
        if spec.choices:
            kwargs["choices"] = spec.choices
        parser.add_argument(flag, **kwargs)


def cli_values(args: argparse.Namespace, options: type[GameOptions]) -> dict[str, Any]:
    """The game's own options as the command line gave them (unchecked)."""
    return {f.name: getattr(args, f.name) for f in dataclasses.fields(options)
            if f.metadata["spec"].cli and getattr(args, f.name) is not None}
