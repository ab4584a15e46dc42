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
from voice_host.host.adapters.ici_londres.words import NS, RADIO_LANG, IciLondresWords
from voice_host.host.core.adapter import Decision, Recording, narrow
from voice_host.host.core.values import Heard, Line, Style
from voice_host.intent import IntentMatch, SlotList, SlotValue, SlotValues, load_grammar
from voice_host.speech.types import SAMPLE_RATE
from voice_host.text import same


def icon_list(lang: str) -> SlotList:
    """Every icon as the grammar's ``{icon}`` list in ``lang`` (all 36 stay nameable, so
    that an icon already named gets a spoken reason instead of "not understood"). A French
    name comes bare and with its own articles ("lapin", "le lapin", "un lapin"; "la
    cloche"; "l'ancre"): the grammar's French sentences leave the article to the list, so
    the article agrees with the noun, as a French player says it (the articles and the
    icons' genders are the grammar's data, read by ``GameGrammar.nouns``)."""
    if lang == "fr":
        nouns = load_grammar("ici-londres", "fr").nouns
        return SlotList("icon", tuple(
            SlotValue(i.name, tuple(form for word in (i.french, *i.french_synonyms)
                                    for form in nouns.forms(word)))
            for i in ICONS), plurals=True, written=False)
    return SlotList("icon", tuple(SlotValue(i.name, (i.name, *i.synonyms)) for i in ICONS),
                    plurals=True, written=False)


MAX_SENTENCE_WORDS = 30
"""Longest coded sentence, in words (the rules want one sentence: subject, verb, object)."""
MAX_SENTENCE_CHARS = 240
"""... and in characters."""
MAX_SENTENCE_SECONDS = 20.0
"""... and as a recording, in seconds."""


def slot_lists(lang: str, state: GameState | None = None) -> tuple[SlotList, ...]:
    """The game's run-time lists (the same in every state)."""
    return (icon_list(lang),)


def slot_values(voice: IciLondresWords, state: GameState) -> SlotValues:
    return SlotValues(players=tuple(state.players), lists=slot_lists(voice.narrator.lang, state))


def decide(voice: IciLondresWords, state: GameState, match: IntentMatch,
           speaker: str | None) -> Decision:
    """The move an understood utterance stands for, or the host's reply when there is
    none (the engine judges every move)."""
    s = narrow(state, IciLondresState)
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


def _reply(voice: IciLondresWords, key: str, **params: Any) -> Decision:
    return Decision(reply=(voice.line(key, **params),))




def take_recording(voice: IciLondresWords, state: GameState, heard: Heard) -> Recording:
    """The Speaker's coded sentence: "je répète", then the radio playback. Taking it is the
    round's "recorded" fact in ``host_state``: picks wait for it."""
    s = narrow(state, IciLondresState)
    if s.phase() != "guess" or voice.recorded(s):
        return Recording()
    if heard.speaker and not same(heard.speaker, s.speaker):
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


def time_up(voice: IciLondresWords, state: GameState) -> Action | None:
    """The count ran out (only Contre la montre's prompts have one) for the player whose
    turn it is."""
    s = narrow(state, IciLondresState)
    if s.phase() != "guess" or not voice.recorded(s):
        return None
    players = s.current_players()
    return TimeUp(players[0]) if players else None
