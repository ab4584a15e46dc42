"""The universal commands' answers: the scores, where the round stands, the 36 icons as on
the summary cards, what has been named this round, and the winners for the log."""

from __future__ import annotations

from voice_host.games import GameState
from voice_host.games.ici_londres import IciLondresState, Transmission
from voice_host.games.icons import ICON_NAMES
from voice_host.host.adapters.ici_londres.words import IciLondresWords
from voice_host.host.core.adapter import narrow
from voice_host.host.core.values import Line

ICONS_PER_CARD = 4
"""The 9 summary cards show 4 icons each."""


def score(voice: IciLondresWords, state: GameState) -> list[Line]:
    s = narrow(state, IciLondresState)
    return [voice.line("events.scores", scores=voice.scores(tuple(s.scores.items()))),
            voice.line("info.score_round", round=s.round_number, total=s.total_rounds)]


def status(voice: IciLondresWords, state: GameState) -> list[Line]:
    """The round, its roles and type, the sentence, and who is to do what."""
    s = narrow(state, IciLondresState)
    phase = s.phase()
    if phase == "over":
        return [voice.line("info.status_over")]
    lines = [voice.line("info.status_round", round=s.round_number, total=s.total_rounds,
                        title=voice.title(s.mode), speaker=s.speaker, wehrmacht=s.wehrmacht)]
    if phase == "draw" or not voice.recorded(s):
        lines.append(voice.line("info.status_record", speaker=s.speaker))
        return lines
    sentence = str(voice.host_state.get("sentence") or "")
    if sentence:
        lines.append(voice.line("info.status_sentence", sentence=sentence))
    lines.append(voice.line("info.status_found", found=len(s.found_icons)))
    if phase == "answer":
        pending = s.pending_icon
        assert pending is not None
        lines.append(voice.line("info.status_answer", speaker=s.speaker,
                                icon=voice.icon(pending[1])))
    elif s.mode is Transmission.COMPETING:
        lines.append(voice.line("info.status_competing",
                                players=voice.narrator.names(s.current_players())))
    elif s.current_players():
        player = s.current_players()[0]
        what = voice.text("info.what_two" if max(s.pick_sizes(player)) == 2
                          else "info.what_one")
        lines.append(voice.line("info.status_turn", player=player, what=what))
    return lines


def board(voice: IciLondresWords, state: GameState) -> list[Line]:
    """The 36 icons, 4 per summary card as on the table, and those named this round."""
    s = narrow(state, IciLondresState)
    lines = [voice.line("info.board_intro")]
    for n in range(0, len(ICON_NAMES), ICONS_PER_CARD):
        card = ICON_NAMES[n:n + ICONS_PER_CARD]
        lines.append(voice.line("info.board_card", n=n // ICONS_PER_CARD + 1,
                                icons=voice.icons(card)))
    if s.phase() in ("guess", "answer") and s.named_icons:
        lines.append(voice.line("info.board_taken", icons=voice.icons(s.named_icons)))
    return lines


def tried(voice: IciLondresWords, state: GameState) -> list[Line]:
    """The icons named this round, by whom, and how each went."""
    s = narrow(state, IciLondresState)
    named = s.public_view()["named"] if s.phase() in ("guess", "answer") else []
    if not named:
        return [voice.line("info.tried_none")]
    items = []
    for n in named:
        key = ("info.tried_waiting" if n["hit"] is None
               else "info.tried_hit" if n["hit"] else "info.tried_miss")
        items.append(voice.text(key, icon=voice.icon(n["icon"]), player=n["player"]))
    return [voice.line("info.tried_intro", items=voice.text("info.tried_sep").join(items))]

