"""What the host asks for now: the Speaker's coded sentence (a recording), each receiver's
icons in the round's transmission type, and at the table the Speaker's hit or miss."""

from __future__ import annotations

from voice_host.games import GameState
from voice_host.games.ici_londres import IciLondresState, Transmission
from voice_host.games.icons import ICON_NAMES
from voice_host.host.adapters.ici_londres.words import IciLondresWords
from voice_host.host.core.adapter import Prompt, PromptKind, narrow
from voice_host.host.core.values import Line, Wants

COUNTDOWN_SECONDS = 10
"""Contre la montre: the count the host runs for each player."""


def ask(voice: IciLondresWords, state: GameState) -> Prompt | None:
    """The prompt of the moment; None before the round's broadcast (a host step) and while
    nobody is asked anything (the draw, the end)."""
    s = narrow(state, IciLondresState)
    phase = s.phase()
    if phase == "answer":
        return _answer_prompt(voice, s)
    if phase != "guess" or not voice.aired(s):
        return None
    if not voice.recorded(s):
        return Prompt(
            lines=(voice.line("record_prompt", speaker=s.speaker),),
            phase="record", expected=(s.speaker,), key=f"record|{s.round_number}",
            kind=PromptKind.RECORD, discussion=True,
            reminder=(voice.line("record_reminder", speaker=s.speaker),))
    return _guess_prompt(voice, s)


def _guess_prompt(voice: IciLondresWords, s: IciLondresState) -> Prompt:
    named = len(s.named_icons)
    key = f"guess|{s.round_number}|{named}"
    mode = s.mode
    left = s.picks_left
    if mode is Transmission.COMPETING:
        expected = s.current_players()  # everyone with picks left
        names = voice.narrator.names(expected)
        if named == 0:
            example = voice.bot_text("pick_named_two", player=expected[0],
                                     first=voice.say_icon(ICON_NAMES[0]),
                                     second=voice.say_icon(ICON_NAMES[1]), variant=0)
            line = voice.line("competing_prompt", players=names, example=example)
        else:
            line = voice.line("competing_more", players=names)
        return Prompt(lines=(line,), phase="guess", expected=expected,
                      key=f"{key}|{','.join(expected)}",
                      reminder=(voice.line("competing_more", players=names),))
    player = s.current_players()[0]
    lines: list[Line] = []
    if named == 0 and player == s.wehrmacht:
        lines.append(voice.line("first_guesser", wehrmacht=s.wehrmacht))
    countdown: int | None = None
    if mode is Transmission.FRAGMENTS:
        which = "fragments_second" if left[player] == 1 else "fragments_prompt"
    elif mode is Transmission.DOUBLE_ZERO:
        which = "double_prompt"
    else:
        which = "countdown_second" if left[player] == 1 else "countdown_prompt"
        countdown = COUNTDOWN_SECONDS
    ask_line = voice.line(which, player=player)
    lines.append(ask_line)
    # Double 0 and the countdown ask for both icons at once: one heard alone may be the
    # first of the two with a pause after it
    wants = Wants("pick", "icons", left[player]) \
        if mode is not Transmission.FRAGMENTS and left[player] > 1 else None
    return Prompt(lines=tuple(lines), phase="guess", expected=(player,),
                  key=f"{key}|{player}|{left[player]}", countdown=countdown, wants=wants,
                  # one count of ten seconds for the player's whole answer
                  countdown_key=f"countdown|{s.round_number}|{player}",
                  reminder=(ask_line,))


def _answer_prompt(voice: IciLondresWords, s: IciLondresState) -> Prompt:
    pending = s.pending_icon
    assert pending is not None
    icon = voice.icon(pending[1])
    return Prompt(
        lines=(voice.line("answer_prompt", speaker=s.speaker, icon=icon),),
        phase="answer", expected=(s.speaker,),
        key=f"answer|{s.round_number}|{len(s.named_icons)}|{pending[1]}",
        reminder=(voice.line("answer_reminder", speaker=s.speaker, icon=icon),))
