"""What the spoken round-trip tests share: a set of phrases, each spoken in several voices,
decoded one phase at a time through ``voice-host understand --json`` (the path the host
plays with), and the two checks made on it, a rate over the commands and no table talk
that changes the game."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from voice_host.cli import main

Phrase = tuple[str, str, list[str], str]
"""(game, phase, extra CLI arguments, text)."""
Case = tuple[str, str, list[str], str, str, dict[str, Any]]
"""A command: a phrase, its intent and its slots."""
Records = dict[str, list[dict[str, Any]]]
"""``understand --json`` records per phrase (``game.phase:text``), one per voice."""

PLAYERS = "Sophie,Thomas,Hannah,Oliver,Emma"
"""The table the phrases are said at."""
HARMLESS = {"help", "repeat", "score", "status", "read_board", "list_tried", "slower",
            "faster", "louder", "quieter", "pause", "resume"}
"""Intents that only make the host talk or wait."""


def decode(cases: Sequence[Case], chatter: Sequence[Phrase], voices: int, folder: Path,
           speak: Callable[[str, int, Path], None], args: Sequence[str]) -> Records:
    """Every command and chatter line in every voice (``speak(text, voice, path)`` writes
    its WAV), decoded one phase at a time with ``understand`` and ``args`` (players,
    language...)."""
    groups: dict[tuple[str, str, tuple[str, ...]], list[tuple[str, Path]]] = {}
    phrases = [(g, p, e, text) for g, p, e, text, *_ in cases] + list(chatter)
    for index, (game, phase, extra, text) in enumerate(phrases):
        for voice in range(voices):
            path = folder / f"{index}-{voice}.wav"
            speak(text, voice, path)
            groups.setdefault((game, phase, tuple(extra)), []).append((text, path))
    out: Records = {}
    for (game, phase, extras), items in groups.items():
        command = ["understand", *args, "--game", game, "--phase", phase, *extras, "--json",
                   *(str(p) for _, p in items)]
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            code = main(command)
        assert code == 0, buffer.getvalue()
        records = [json.loads(line) for line in buffer.getvalue().splitlines()]
        assert len(records) == len(items)
        for (text, _), record in zip(items, records, strict=True):
            out.setdefault(f"{game}.{phase}:{text}", []).append(record)
    return out


def right(record: dict[str, Any], intent: str, slots: dict[str, Any]) -> bool:
    """The record means the command: its intent and slots, not asked about."""
    return (record["intent"] == intent and record["slots"] == slots
            and not record.get("ambiguous"))


def understood(heard: Records, cases: Sequence[Case]) -> tuple[int, int, list[Any]]:
    """(right, total, misses) over every command in every voice."""
    hits = total = 0
    missed = []
    for game, phase, _, text, intent, slots in cases:
        for record in heard[f"{game}.{phase}:{text}"]:
            total += 1
            if right(record, intent, slots):
                hits += 1
            else:
                missed.append((text, record.get("free_text", record.get("transcript")),
                               record["intent"], record["slots"]))
    return hits, total, missed


def game_changed(heard: Records, chatter: Sequence[Phrase]) -> list[Any]:
    """The table talk lines (in any voice) taken as a move that changes the game."""
    return [(text, r.get("free_text", r.get("transcript")), r["intent"])
            for game, phase, _, text in chatter for r in heard[f"{game}.{phase}:{text}"]
            if r["intent"] is not None and r["intent"] not in HARMLESS
            and not r.get("ambiguous")]
