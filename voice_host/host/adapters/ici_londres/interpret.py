"""What was said, as a move: an understood intent becomes a :class:`Decision`, the Speaker's
recording is taken (or refused as too long), the countdown running out is ``TimeUp``.

The rules' refusals are the engine's alone (the session tries every move on a copy first and
says the engine's refusal in the game's language, who may act included); the host refuses here
only what it cannot turn into a move: a pick before the coded sentence, an answer when no icon
waits for one. An answer nobody claims is the Speaker's."""

from __future__ import annotations

from typing import Any

from voice_host.games import Action, GameState
from voice_host.games.base import find_player
from voice_host.games.ici_londres import IciLondresState, JudgePick, Pick, TimeUp
from voice_host.games.icons import ICONS
from voice_host.host.adapter import Decision, Recording
from voice_host.host.adapters.ici_londres.voice import NS, RADIO_LANG, Voice
from voice_host.host.io import Heard, Line, Style
from voice_host.intent import IconEntry, IntentMatch, SlotValues
from voice_host.speech.types import SAMPLE_RATE

ICON_ENTRIES: tuple[IconEntry, ...] = tuple(
    IconEntry(name=i.name, synonyms=i.synonyms, french=i.french,
              french_synonyms=i.french_synonyms) for i in ICONS)
"""Every icon as the grammar's slot values (all 36 stay nameable, so that an icon already
named gets a spoken reason instead of "not understood")."""

MAX_SENTENCE_WORDS = 30
"""Longest coded sentence, in words (the rules want one sentence: subject, verb, object)."""
MAX_SENTENCE_CHARS = 240
"""... and in characters."""
MAX_SENTENCE_SECONDS = 20.0
"""... and as a recording, in seconds."""


def slot_values(state: GameState) -> SlotValues:
    return SlotValues(players=tuple(state.players), icons=ICON_ENTRIES)


def decide(voice: Voice, s: IciLondresState, match: IntentMatch,
           speaker: str | None) -> Decision:
    """The move an understood utterance stands for, or the host's reply when there is
    none (the engine judges every move)."""
    if match.intent == "pick":
        if s.phase() == "guess" and not voice.recorded(s):
            return _reply(voice, "refuse.wait_message")
        named = match.slots.get("player")
        player = find_player(s.players, named) if named else speaker
        if player is None:
            return Decision(reply=(voice.narrator.line("common.who_speaks"),))
        icons = tuple(str(i) for i in match.slots.get("icons", ()))
        return Decision(action=Pick(player, icons))
    if match.intent == "answer":
        pending = s.pending_icon
        if pending is None:  # no icon to answer for: nothing to turn into a move
            return _reply(voice, "refuse.no_answer_now")
        return Decision(action=JudgePick(speaker or s.speaker, pending[1],
                                         match.slots.get("choice") == "yes"))
    return _reply(voice, "refuse.not_now")


def _reply(voice: Voice, key: str, **params: Any) -> Decision:
    return Decision(reply=(voice.line(key, **params),))




def take_recording(voice: Voice, s: IciLondresState, heard: Heard) -> Recording:
    """The Speaker's coded sentence: "je répète", then the radio playback. Taking it is the
    round's "recorded" fact in ``host_state``: picks wait for it."""
    if s.phase() != "guess" or voice.recorded(s):
        return Recording()
    if heard.speaker and heard.speaker.casefold() != s.speaker.casefold():
        return Recording((voice.line("record_wrong_player", speaker=s.speaker),))
    sentence = " ".join(heard.text.split())  # typed text, or a caption; "" for raw audio
    seconds = 0.0 if heard.recording is None else len(heard.recording) / SAMPLE_RATE
    if (len(sentence) > MAX_SENTENCE_CHARS or len(sentence.split()) > MAX_SENTENCE_WORDS
            or seconds > MAX_SENTENCE_SECONDS):
        # one sentence, as the rules say: a speech would be read back for minutes
        return Recording((voice.line("record_too_long", speaker=s.speaker,
                                     words=MAX_SENTENCE_WORDS),))
    voice.host_state["recorded"] = s.round_number
    voice.host_state["sentence"] = sentence
    repeat = voice.narrator.text(f"{NS}.radio.repeat", lang=RADIO_LANG)
    if heard.recording is not None or not sentence:
        return Recording((Line(repeat, lang=RADIO_LANG, style=Style.RADIO,
                               recording=heard.recording, effect="radio"),), taken=True)
    return Recording((Line(repeat, lang=RADIO_LANG, style=Style.RADIO),
                      Line(sentence, lang=voice.narrator.lang, style=Style.RADIO)), taken=True)


def time_up(voice: Voice, s: IciLondresState) -> Action | None:
    """The count ran out (only Contre la montre's prompts have one) for the player whose
    turn it is."""
    if s.phase() != "guess" or not voice.recorded(s):
        return None
    players = s.current_players()
    return TimeUp(players[0]) if players else None
