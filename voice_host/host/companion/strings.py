"""The companion page's words, per language: ``host/lang/<lang>/page.toml`` (what the page
shows, sent to it as JSON, and the sentences of refusals), each game's own words in the
``[page]`` table of its narration file (``host/lang/<lang>/<game>.toml``, sent as
``game.*`` for its page script) and the host's spoken sentences about seats in
``companion.toml``. A key missing in French falls back to English."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from voice_host.host.core.narration import narration_dir

LANGS = ("en", "fr")


def _flat(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, Mapping):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


@cache
def _table(lang: str, name: str) -> Mapping[str, Any]:
    path = resources.files("voice_host.host") / "lang" / lang / f"{name}.toml"
    if not path.is_file():
        return {}
    return _flat(tomllib.loads(path.read_text(encoding="utf-8")))


@cache
def page_strings(lang: str) -> Mapping[str, Any]:
    """Every page string of ``lang`` (English where the language lacks one); the
    television's words (``tv.toml``) as ``tv.*``."""
    table = dict(_table("en", "page"))
    if lang != "en" and lang in LANGS:
        table.update(_table(lang, "page"))
    for each in dict.fromkeys(("en", lang if lang in LANGS else "en")):
        table.update({f"tv.{k}": v for k, v in _table(each, "tv").items()})
    return table


def game_page_strings(lang: str, game: str) -> dict[str, Any]:
    """``page_strings(lang)`` with ``game``'s own page words as ``game.*`` (English where
    the language lacks one). Read on each call: the game's file may come from a development
    folder (``VOICE_HOST_NARRATION``); the channel reads it once."""
    table = dict(page_strings(lang))
    for each in dict.fromkeys(("en", lang if lang in LANGS else "en")):
        path = narration_dir() / each / f"{game}.toml"
        if path.is_file():
            page = tomllib.loads(path.read_text(encoding="utf-8")).get("page", {})
            table.update(_flat(page, "game."))
    return table


def page_text(lang: str, key: str, **params: Any) -> str:
    """One page string with its ``{fields}`` filled."""
    return fill(page_strings(lang), key, **params)


def fill(table: Mapping[str, Any], key: str, **params: Any) -> str:
    """The string ``key`` of ``table`` with its ``{fields}`` filled."""
    template = table.get(key)
    if not isinstance(template, str):
        raise KeyError(f"no page string {key!r}")
    return template.format(**params)
