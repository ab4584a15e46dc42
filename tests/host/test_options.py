"""A game's options are defined and checked in one place, its options dataclass: the command
line, saves and tests all go through it, and a bad value gets a sentence (exit code 2 on the
command line), never a traceback or a silent default."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from voice_host.cli import main
from voice_host.games import SetupError
from voice_host.host.adapters.resistance import ResistanceOptions
from voice_host.host.core.registry import make_adapter, new_game, registration, registrations

TEXT = ["--input", "text", "--output", "text"]


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["play", *argv, *TEXT]) == 2
    return capsys.readouterr().err.strip()


def test_a_number_out_of_range_is_refused_with_the_range(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(["ici-londres", "--players", "Ada,Ben,Cleo", "--rounds", "100000"],
                   capsys) == "--rounds must be from 1 to 48; 100000 is not."
    assert refused(["ici-londres", "--players", "Ada,Ben,Cleo", "--rounds", "0"],
                   capsys) == "--rounds must be from 1 to 48; 0 is not."
    assert refused(["ici-londres", "--players", "Ada,Ben,Cleo", "--rounds", "ten"],
                   capsys) == "--rounds must be a whole number, not ten."
    assert refused(["resistance", "--players", "Ada,Ben,Cleo,Dan,Eve", "--night-pause", "99"],
                   capsys) == "--night-pause must be from 1 to 30; 99 is not."


@pytest.mark.parametrize(("names", "position"), [
    ("Ada,,Ben,Cleo,Dan", "second"), (",Ada,Ben,Cleo,Dan", "first"),
    ("Ada,Ben,Cleo,Dan,", "fifth"), ("Ada,Ben, ,Cleo,Dan", "third")])
def test_an_empty_name_is_refused_by_its_position(
        names: str, position: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(["resistance", "--players", names], capsys) == (
        f"The {position} name in --players is empty: write the names separated by commas, "
        "like Ada,Ben,Cleo.")


def test_help_states_choices_ranges_and_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "ici-londres", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--mode {fragments,competing,double-zero,countdown}" in text
    assert "first transmission type (default fragments)" in text
    assert "rounds (default 12, 10 with 5 players); 1 to 48" in text
    with pytest.raises(SystemExit):
        main(["play", "resistance", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--votes {together,count}" in text and "--no-double-agent" in text
    assert "seconds each look lasts in the night phase; 1 to 30, default 5" in text


@pytest.mark.parametrize(("game", "bad", "sentence"), [
    ("resistance", {"votes": "names"}, "--votes must be together or count, not names."),
    ("resistance", {"double_agent": "yes"}, "--no-double-agent is yes or no, not yes."),
    ("resistance", {"night_paws": 3}, "Resistance has no option called night_paws."),
    ("ici-londres", {"rounds": True}, "--rounds must be a number, not True."),
    ("ici-londres", {"mode": "morse"},
     "--mode must be fragments, competing, double-zero or countdown, not morse."),
    ("codenames", {"first": "green"}, "--first must be red or blue, not green."),
    ("codenames", {"red": "Ada"}, None),  # a text is split like the command line's
    ("codenames", {"lang": "de"}, "--lang must be en or fr, not de."),
])
def test_every_way_in_is_checked_by_the_same_options(game: str, bad: dict[str, Any],
                                                     sentence: str | None) -> None:
    reg = registration(game)
    good = {**reg.defaults(), **reg.demo_seats}
    if sentence is None:
        assert reg.complete({**good, **bad})["red"] == ["Ada"]
        return
    for make in (reg.complete, lambda o: new_game(game, o), lambda o: make_adapter(game, o)):
        with pytest.raises(SetupError) as info:
            make({**good, **bad})
        assert info.value.reason == sentence


def test_seating_is_required() -> None:
    with pytest.raises(SetupError, match="Resistance needs --players: names in seating order"):
        registration("resistance").complete({"deal": "table"})


def test_options_are_frozen_and_complete_fills_every_default() -> None:
    for reg in registrations():
        assert dataclasses.is_dataclass(reg.options)
        seats = {k: list(v) for k, v in reg.demo_seats.items()}
        completed = reg.complete(seats)
        assert set(completed) == {f.name for f in dataclasses.fields(reg.options)}
        assert reg.complete(completed) == completed  # checked options stay as they are
        with pytest.raises(dataclasses.FrozenInstanceError):
            reg.options.from_json(seats).deal = "host"  # type: ignore[misc]
    assert ResistanceOptions.from_json({"players": "Ada,Ben,Cleo,Dan,Eve"}).players == (
        "Ada", "Ben", "Cleo", "Dan", "Eve")


def test_the_night_pause_option_reaches_the_night() -> None:
    opts = {**registration("resistance").demo_seats, "deal": "table"}
    slow = make_adapter("resistance", {**opts, "night_pause": 10})
    quick = make_adapter("resistance", opts)
    state = new_game("resistance", {**opts, "seed": 1})
    state.apply(state.chance_action(random.Random(1)))
    longest = [max(line.pause_after for line in a.host_step(state)) for a in (slow, quick)]
    assert longest == [10.0, 5.0]
