"""The companion page's words, per language: ``host/lang/<lang>/page.toml`` (what the page
shows, sent to it as JSON, and the sentences of refusals) and the host's spoken sentences
about seats in ``companion.toml``. A key missing in French falls back to English."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

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
    """Every page string of ``lang`` (English where the language lacks one)."""
    table = dict(_table("en", "page"))
    if lang != "en" and lang in LANGS:
        table.update(_table(lang, "page"))
    return table


def page_text(lang: str, key: str, **params: Any) -> str:
    """One page string with its ``{fields}`` filled."""
    template = page_strings(lang).get(key)
    if not isinstance(template, str):
        raise KeyError(f"no page string {key!r}")
    return template.format(**params)
