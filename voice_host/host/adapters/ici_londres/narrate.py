"""What the host says of its own accord: the opening, the broadcast that opens every
message, the engine's events (picks, hits and misses, scores, rotation, the end), the
Speaker's icons delivered privately, and moves in words (confirmations and undo)."""

from __future__ import annotations

from collections.abc import Sequence

from voice_host.games import Action, Event, GameState
from voice_host.games.base import Deal
from voice_host.games.ici_londres import (
    Draw,
    GameOver,
    IciLondresState,
    IconRevealed,
    IconsDrawn,
    JudgePick,
    Miss,
    Pick,
    PickMade,
    RoundEnded,
    RoundStarted,
    TimeUp,
    TimeUpEvent,
    Transmission,
    TransmissionChanged,
)
from voice_host.host.adapters.ici_londres.words import NS, RADIO_LANG, IciLondresWords
from voice_host.host.core.adapter import narrow
from voice_host.host.core.narration import capitalized
from voice_host.host.core.secrets import deliver
from voice_host.host.core.values import Line, Style
from voice_host.speech.cues import Cue


def opening(voice: IciLondresWords, state: GameState) -> list[Line]:
    """Set-up narration, once at the start of a new game."""
    s = narrow(state, IciLondresState)
    lines = [
        voice.line("welcome"),
        voice.line("seating", players=voice.narrator.names(s.players),
                   rounds=voice.rounds(s.total_rounds)),
        voice.line("first_mode", title=voice.title(s.mode), rules=voice.rules(s.mode)),
    ]
    if s.mode is Transmission.COUNTDOWN:
        lines.append(voice.line("countdown_warning"))
    lines.append(voice.line("mode_change_note"))
    if s.deal is Deal.HOST:
        lines.append(voice.line("setup_companion" if voice.options.get("companion")
                                else "setup_host"))
    else:
        lines.append(voice.line("setup_table"))
    lines.append(voice.line("how_to_talk"))
    return lines


def broadcast(voice: IciLondresWords, state: GameState) -> list[Line]:
    """The broadcast that opens every message (a host step: marks the round aired)."""
    s = narrow(state, IciLondresState)
    voice.host_state["aired"] = s.round_number
    return [
        voice.line("tuning", cue=Cue.TUNING.value),
        voice.narrator.line(f"{NS}.radio.call_sign", lang=RADIO_LANG, style=Style.RADIO,
                            cue=Cue.V_MOTIF.value),
    ]


def events(voice: IciLondresWords, state: GameState, happened: Sequence[Event]) -> list[Line]:
    s = narrow(state, IciLondresState)
    lines: list[Line] = []
    for event in happened:
        lines.extend(_narrate_one(voice, s, event))
    return lines


def _narrate_one(voice: IciLondresWords, s: IciLondresState, event: Event) -> list[Line]:
    if isinstance(event, RoundStarted):
        key = "round_start_first" if event.round == 1 else "round_start"
        return [voice.line(key, round=event.round, total=event.total_rounds,
                           speaker=event.speaker, wehrmacht=event.wehrmacht,
                           title=voice.title(event.mode),
                           cue=Cue.TURN.value if event.round == 1 else None)]
    if isinstance(event, IconsDrawn):
        return _deliver(voice, s, event)
    if isinstance(event, PickMade):
        key = "events.pick_table" if event.awaiting_answer else "events.pick"
        return [voice.line(key, player=event.player, icon=voice.icon(event.icon))]
    if isinstance(event, Miss):
        icon = voice.icon(event.icon)
        return [voice.line("events.miss", icon=icon, icon_cap=capitalized(icon),
                           cue=Cue.MISS.value)]
    if isinstance(event, IconRevealed):
        return _revealed(voice, s, event)
    if isinstance(event, TimeUpEvent):
        lost = voice.text("info.pick_one" if event.picks_lost == 1 else "info.pick_many",
                          n=event.picks_lost)
        return [voice.line("events.time_up_lost", player=event.player, lost=lost,
                           cue=Cue.MISS.value)]
    if isinstance(event, RoundEnded):
        return _round_ended(voice, event)
    if isinstance(event, TransmissionChanged):
        return [voice.line("events.type_change", title=voice.title(event.new),
                           rules=voice.rules(event.new))]
    if isinstance(event, GameOver):
        winners = voice.narrator.names(list(event.winners))
        return [
            voice.line("events.game_over", rounds=voice.rounds(s.total_rounds),
                       scores=voice.scores(event.scores, ranked=True),
                       cue=Cue.GAME_OVER.value),
            voice.line("events.winner" if len(event.winners) == 1 else "events.winners",
                       winners=winners),
        ]
    return []


def _revealed(voice: IciLondresWords, s: IciLondresState, event: IconRevealed) -> list[Line]:
    icon = voice.icon(event.icon)
    if event.by_wehrmacht:
        out = [voice.line("events.hit_wehrmacht", icon=icon, finder=event.finder,
                          cue=Cue.HIT.value)]
    else:
        speaker = next(p for p, _ in event.points if p != event.finder)
        out = [voice.line("events.hit", icon=icon, icon_cap=capitalized(icon), finder=event.finder,
                          speaker=speaker, cue=Cue.HIT.value)]
    if event.found == 1 and s.phase() in ("guess", "answer"):
        out.append(voice.line("events.found_one"))
    return out


def _deliver(voice: IciLondresWords, s: IciLondresState, event: IconsDrawn) -> list[Line]:
    """The Speaker's two icons: privately (host deals) or from the physical pile."""
    if event.icons is None:
        return [voice.line("draw_table", speaker=event.speaker)]
    secret = voice.narrator.line(f"{NS}.secret_icons", style=Style.PRIVATE,
                                 to=event.speaker, round=s.round_number,
                                 speaker=event.speaker, icons=voice.icons(event.icons))
    lines, _ = deliver(voice.narrator, voice.secret_sink, secret,
                       sent=f"{NS}.secret_sent", speaker=event.speaker)
    return lines


def _round_ended(voice: IciLondresWords, event: RoundEnded) -> list[Line]:
    if event.complete:
        out = [voice.line("events.round_complete", icons=voice.icons(event.found),
                          round=event.round)]
    elif event.found:
        out = [voice.line("events.round_partial", icons=voice.icons(event.found),
                          round=event.round)]
    else:
        out = [voice.line("events.round_none", round=event.round)]
    if event.next_speaker is not None:
        out.append(voice.line("events.scores", scores=voice.scores(event.scores)))
        out.append(voice.line("events.rotation", speaker=event.next_speaker,
                              wehrmacht=event.next_wehrmacht, cue=Cue.TURN.value))
    return out


def describe(voice: IciLondresWords, state: GameState, action: Action) -> str:
    """The move in words, for confirmations and undo ("Dan names the heart and the book")."""
    if isinstance(action, Pick):
        return voice.text("describe.pick", player=action.player, icons=voice.icons(action.icons))
    if isinstance(action, JudgePick):
        key = "describe.judge_hit" if action.hit else "describe.judge_miss"
        return capitalized(voice.text(key, icon=voice.icon(action.icon)))
    if isinstance(action, TimeUp):
        return voice.text("describe.time_up", player=action.player)
    if isinstance(action, Draw):
        return voice.text("describe.draw")
    return type(action).__name__
