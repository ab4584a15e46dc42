"""Ici Londres, hosted: the broadcast, the Speaker's recorded sentence, turn prompts by name in
each transmission type, hit/miss questions at the table, scoring and role rotation.

One round, as the session loop sees it:

1. chance: the Speaker draws (host mode: the engine draws and the two icons go to the Speaker
   as a PRIVATE line; table mode: the Speaker draws physical cards).
2. ``prompt`` returns None once: ``host_step`` airs the broadcast — tuning static, the V motif,
   "Ici Londres, les Français parlent aux Français" in the French radio voice.
3. A RECORD prompt: the Speaker says the coded sentence; ``on_recording`` answers "je répète"
   and plays the recording back through the radio effect (typed play: repeats the text).
4. Guessing prompts in the round's transmission type (table mode: after each icon named the
   Speaker says hit or miss); ``on_timeout`` turns a countdown run out into ``TimeUp``.

``host_state`` (saved with the game) holds only ``aired`` and ``recorded`` (the round numbers
whose broadcast and sentence are done) and ``sentence`` (the typed sentence or a caption, ""
for raw audio): the recording itself is never saved.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from voice_host.games import Action, Event, GameState, IllegalAction, Outcome
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
from voice_host.games.icons import ICON_NAMES, ICONS
from voice_host.host.adapter import Decision, GameAdapter, Prompt, PromptKind
from voice_host.host.adapters import ici_londres_phone
from voice_host.host.io import Heard, Line, Style
from voice_host.host.narration import Narrator, catalogue
from voice_host.host.registry import GameOption, GameRegistration
from voice_host.host.secrets import SecretSink, deliver
from voice_host.intent import IconEntry, IntentMatch, SlotValues
from voice_host.speech.cues import Cue
from voice_host.speech.types import SAMPLE_RATE

GAME = "ici-londres"
NS = "ici_londres"
COUNTDOWN_SECONDS = 10
"""Contre la montre: the count the host runs for each player."""
ICONS_PER_CARD = 4
"""The 9 summary cards show 4 icons each."""
RADIO_LANG = "fr"
"""The BBC announcer speaks French in every game."""

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


def new_game(options: dict[str, Any]) -> IciLondresState:
    """A new game from the JSON-able options of ``play.game_options``."""
    players = [str(p) for p in options["players"]]
    first = options.get("first")
    if first:
        first = next((p.strip() for p in players if p.strip().casefold()
                      == str(first).strip().casefold()), str(first))
    return IciLondresState.new(players, deal=Deal(options.get("deal") or "table"),
                               mode=options.get("mode") or Transmission.FRAGMENTS,
                               rounds=options.get("rounds"), first_speaker=first)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class Adapter:
    """The game's voice for the session loop (see ``host.adapter.GameAdapter``)."""

    game = GAME

    def __init__(self, options: dict[str, Any], *,
                 secret_sink: SecretSink | None = None) -> None:
        self.options = dict(options)
        self.narrator = Narrator(GAME, str(options.get("lang") or "en"))
        self.secret_sink = secret_sink
        self.host_state: dict[str, Any] = {}

    # ------------------------------------------------------------------ small helpers

    def _t(self, key: str, **params: Any) -> str:
        return self.narrator.text(f"{NS}.{key}", **params)

    def _line(self, key: str, **params: Any) -> Line:
        return self.narrator.line(f"{NS}.{key}", **params)

    def icon(self, name: str) -> str:
        """An icon as the narrator says it ("the heart", "le cœur")."""
        return self._t(f"icon.{name}")

    def icons(self, names: Sequence[str]) -> str:
        return self.narrator.names([self.icon(n) for n in names])

    def _points(self, n: int) -> str:
        return self._t("info.point_one" if n == 1 else "info.point_many", n=n)

    def _rounds(self, n: int) -> str:
        return self._t("info.round_one" if n == 1 else "info.round_many", n=n)

    def _scores(self, pairs: Sequence[tuple[str, int]], *, ranked: bool = False) -> str:
        items = list(pairs)
        if ranked:
            items.sort(key=lambda item: -item[1])
        return self.narrator.names(
            [self._t("info.score_item", player=p, points=self._points(n)) for p, n in items])

    def _title(self, mode: Transmission) -> str:
        return mode.french_title

    def _rules(self, mode: Transmission) -> str:
        return self._t(f"mode_rules.{mode.value}")

    @staticmethod
    def _ici(state: GameState) -> IciLondresState:
        assert isinstance(state, IciLondresState)
        return state

    def _aired(self, state: IciLondresState) -> bool:
        return self.host_state.get("aired") == state.round_number

    def _recorded(self, state: IciLondresState) -> bool:
        return self.host_state.get("recorded") == state.round_number

    # ------------------------------------------------------------------ set-up

    def opening(self, state: GameState) -> list[Line]:
        s = self._ici(state)
        lines = [
            self._line("welcome"),
            self._line("seating", players=self.narrator.names(s.players),
                       rounds=self._rounds(s.total_rounds)),
            self._line("first_mode", title=self._title(s.mode), rules=self._rules(s.mode)),
        ]
        if s.mode is Transmission.COUNTDOWN:
            lines.append(self._line("countdown_warning"))
        lines.append(self._line("mode_change_note"))
        if s.deal is Deal.HOST:
            lines.append(self._line("setup_companion" if self.options.get("companion")
                                    else "setup_host"))
        else:
            lines.append(self._line("setup_table"))
        lines.append(self._line("how_to_talk"))
        return lines

    def chance(self, state: GameState, rng: random.Random) -> Action:
        return self._ici(state).chance_action(rng)

    # ------------------------------------------------------------------ prompts

    def prompt(self, state: GameState) -> Prompt | None:
        s = self._ici(state)
        phase = s.phase()
        if phase == "answer":
            return self._answer_prompt(s)
        if phase != "guess":
            return None
        if not self._aired(s):
            return None
        if not self._recorded(s):
            return Prompt(
                lines=(self._line("record_prompt", speaker=s.speaker),),
                phase="record", expected=(s.speaker,), key=f"record|{s.round_number}",
                kind=PromptKind.RECORD,
                reminder=(self._line("record_reminder", speaker=s.speaker),))
        return self._guess_prompt(s)

    def _guess_prompt(self, s: IciLondresState) -> Prompt:
        named = len(s.named_icons)
        key = f"guess|{s.round_number}|{named}"
        mode = s.mode
        left = s.picks_left
        if mode is Transmission.COMPETING:
            expected = tuple(p for p in s.receivers if left[p] > 0)
            names = self.narrator.names(expected)
            if named == 0:
                example = self._bot_text("pick_named_two", player=expected[0],
                                         first=self._say_icon(ICON_NAMES[0]),
                                         second=self._say_icon(ICON_NAMES[1]), variant=0)
                line = self._line("competing_prompt", players=names, example=example)
            else:
                line = self._line("competing_more", players=names)
            return Prompt(lines=(line,), phase="guess", expected=expected,
                          key=f"{key}|{','.join(expected)}",
                          reminder=(self._line("competing_more", players=names),))
        player = s.current_players()[0]
        lines: list[Line] = []
        if named == 0 and player == s.wehrmacht:
            lines.append(self._line("first_guesser", wehrmacht=s.wehrmacht))
        countdown: int | None = None
        if mode is Transmission.FRAGMENTS:
            ask = "fragments_second" if left[player] == 1 else "fragments_prompt"
        elif mode is Transmission.DOUBLE_ZERO:
            ask = "double_prompt"
        else:
            ask = "countdown_second" if left[player] == 1 else "countdown_prompt"
            countdown = COUNTDOWN_SECONDS
        ask_line = self._line(ask, player=player)
        lines.append(ask_line)
        return Prompt(lines=tuple(lines), phase="guess", expected=(player,),
                      key=f"{key}|{player}|{left[player]}", countdown=countdown,
                      # one count of ten seconds for the player's whole answer
                      countdown_key=f"countdown|{s.round_number}|{player}",
                      reminder=(ask_line,))

    def _answer_prompt(self, s: IciLondresState) -> Prompt:
        pending = s.pending_icon
        assert pending is not None
        icon = self.icon(pending[1])
        return Prompt(
            lines=(self._line("answer_prompt", speaker=s.speaker, icon=icon),),
            phase="answer", expected=(s.speaker,),
            key=f"answer|{s.round_number}|{len(s.named_icons)}|{pending[1]}",
            reminder=(self._line("answer_reminder", speaker=s.speaker, icon=icon),))

    def host_step(self, state: GameState) -> list[Line]:
        """The broadcast that opens every message."""
        s = self._ici(state)
        self.host_state["aired"] = s.round_number
        return [
            self._line("tuning", cue=Cue.TUNING.value),
            self.narrator.line(f"{NS}.radio.call_sign", lang=RADIO_LANG, style=Style.RADIO,
                               cue=Cue.V_MOTIF.value),
        ]

    def on_recording(self, state: GameState, heard: Heard) -> list[Line]:
        """The Speaker's coded sentence: "je répète", then the radio playback."""
        s = self._ici(state)
        if s.phase() != "guess" or self._recorded(s):
            return []
        if heard.speaker and heard.speaker.casefold() != s.speaker.casefold():
            return [self._line("record_wrong_player", speaker=s.speaker)]
        sentence = " ".join(heard.text.split())  # typed text, or a caption; "" for raw audio
        seconds = 0.0 if heard.recording is None else len(heard.recording) / SAMPLE_RATE
        if (len(sentence) > MAX_SENTENCE_CHARS or len(sentence.split()) > MAX_SENTENCE_WORDS
                or seconds > MAX_SENTENCE_SECONDS):
            # one sentence, as the rules say: a speech would be read back for minutes
            return [self._line("record_too_long", speaker=s.speaker,
                               words=MAX_SENTENCE_WORDS)]
        self.host_state["recorded"] = s.round_number
        self.host_state["sentence"] = sentence
        repeat = self.narrator.text(f"{NS}.radio.repeat", lang=RADIO_LANG)
        if heard.recording is not None or not sentence:
            return [Line(repeat, lang=RADIO_LANG, style=Style.RADIO,
                         recording=heard.recording, effect="radio")]
        return [Line(repeat, lang=RADIO_LANG, style=Style.RADIO),
                Line(sentence, lang=self.narrator.lang, style=Style.RADIO)]

    def on_timeout(self, state: GameState) -> Action | None:
        s = self._ici(state)
        if s.phase() != "guess" or s.mode is not Transmission.COUNTDOWN or not self._recorded(s):
            return None
        players = s.current_players()
        return TimeUp(players[0]) if players else None

    # ------------------------------------------------------------------ understanding

    def slot_values(self, state: GameState) -> SlotValues:
        return SlotValues(players=tuple(state.players), icons=ICON_ENTRIES)

    def interpret(self, state: GameState, match: IntentMatch, speaker: str | None) -> Decision:
        s = self._ici(state)
        phase = s.phase()
        if phase == "over":
            return self._reply("refuse.game_over")
        if match.intent == "pick":
            if phase == "answer":
                pending = s.pending_icon
                assert pending is not None
                return self._reply("refuse.answer_first", speaker=s.speaker,
                                   icon=self.icon(pending[1]))
            if not self._recorded(s):
                return self._reply("refuse.wait_message")
            named = match.slots.get("player")
            player = self._player(s, str(named)) if named else speaker
            if player is None:
                return Decision(reply=(self.narrator.line("common.who_speaks"),))
            icons = tuple(str(i) for i in match.slots.get("icons", ()))
            refusal = self._refuse_pick(s, player, icons)
            if refusal is not None:
                return Decision(reply=(refusal,))
            return Decision(action=Pick(player, icons))
        if match.intent == "answer":
            pending = s.pending_icon
            if phase != "answer" or pending is None:
                return self._reply("refuse.no_answer_now")
            if speaker is not None and speaker != s.speaker:
                return self._reply("refuse.only_speaker_answers", speaker=s.speaker)
            return Decision(action=JudgePick(pending[1], match.slots.get("choice") == "yes"))
        return self._reply("refuse.not_now")

    def _reply(self, key: str, **params: Any) -> Decision:
        return Decision(reply=(self._line(key, **params),))

    @staticmethod
    def _player(s: IciLondresState, name: str) -> str | None:
        return next((p for p in s.players if p.casefold() == name.casefold()), None)

    def _refuse_pick(self, s: IciLondresState, player: str,
                     icons: tuple[str, ...]) -> Line | None:
        """The rules' refusal for a pick, in the session's language (None when it is legal:
        the engine still has the last word)."""
        mode = s.mode
        left = s.picks_left
        if player == s.speaker:
            return self._line("refuse.speaker_cannot_guess", player=player)
        if mode is not Transmission.COMPETING:
            turn = s.current_players()[0] if s.current_players() else None
            if turn is not None and player != turn:
                return self._line("refuse.not_your_turn", player=player, turn=turn)
        elif left.get(player, 0) == 0:
            return self._line("refuse.no_picks_left", player=player)
        if len(icons) > 2:
            return self._line("refuse.at_most_two")
        if mode is Transmission.FRAGMENTS and len(icons) != 1:
            return self._line("refuse.one_at_a_time")
        if mode is Transmission.DOUBLE_ZERO and len(icons) != 2:
            return self._line("refuse.two_at_once")
        if len(icons) > left.get(player, 0):
            return self._line("refuse.one_pick_left", player=player)
        if len(icons) == 2 and icons[0] == icons[1]:
            return self._line("refuse.twice", icon=self.icon(icons[0]))
        taken = {n["icon"]: n["player"] for n in s.public_view()["named"]}
        for icon in icons:
            if icon in taken:
                if mode is Transmission.COMPETING:
                    return self._line("refuse.already_taken", icon=self.icon(icon),
                                      icon_cap=_cap(self.icon(icon)), player=taken[icon])
                return self._line("refuse.already_named", icon=self.icon(icon),
                                  icon_cap=_cap(self.icon(icon)))
        return None

    # ------------------------------------------------------------------ narration

    def narrate(self, state: GameState, events: Sequence[Event]) -> list[Line]:
        s = self._ici(state)
        lines: list[Line] = []
        for event in events:
            lines.extend(self._narrate_one(s, event))
        return lines

    def _narrate_one(self, s: IciLondresState, event: Event) -> list[Line]:
        if isinstance(event, RoundStarted):
            key = "round_start_first" if event.round == 1 else "round_start"
            return [self._line(key, round=event.round, total=event.total_rounds,
                               speaker=event.speaker, wehrmacht=event.wehrmacht,
                               title=self._title(event.mode),
                               cue=Cue.TURN.value if event.round == 1 else None)]
        if isinstance(event, IconsDrawn):
            return self._deliver(s, event)
        if isinstance(event, PickMade):
            key = "events.pick_table" if event.awaiting_answer else "events.pick"
            return [self._line(key, player=event.player, icon=self.icon(event.icon))]
        if isinstance(event, Miss):
            icon = self.icon(event.icon)
            return [self._line("events.miss", icon=icon, icon_cap=_cap(icon),
                               cue=Cue.MISS.value)]
        if isinstance(event, IconRevealed):
            icon = self.icon(event.icon)
            if event.by_wehrmacht:
                out = [self._line("events.hit_wehrmacht", icon=icon, finder=event.finder,
                                  cue=Cue.HIT.value)]
            else:
                speaker = next(p for p, _ in event.points if p != event.finder)
                out = [self._line("events.hit", icon=icon, icon_cap=_cap(icon),
                                  finder=event.finder, speaker=speaker, cue=Cue.HIT.value)]
            if event.found == 1 and s.phase() in ("guess", "answer"):
                out.append(self._line("events.found_one"))
            return out
        if isinstance(event, TimeUpEvent):
            lost = self._t("info.pick_one" if event.picks_lost == 1 else "info.pick_many",
                           n=event.picks_lost)
            return [self._line("events.time_up_lost", player=event.player, lost=lost,
                               cue=Cue.MISS.value)]
        if isinstance(event, RoundEnded):
            return self._round_ended(event)
        if isinstance(event, TransmissionChanged):
            return [self._line("events.type_change", title=self._title(event.new),
                               rules=self._rules(event.new))]
        if isinstance(event, GameOver):
            winners = self.narrator.names(list(event.winners))
            return [
                self._line("events.game_over", rounds=self._rounds(s.total_rounds),
                           scores=self._scores(event.scores, ranked=True),
                           cue=Cue.GAME_OVER.value),
                self._line("events.winner" if len(event.winners) == 1 else "events.winners",
                           winners=winners),
            ]
        return []

    def _deliver(self, s: IciLondresState, event: IconsDrawn) -> list[Line]:
        """The Speaker's two icons: privately (host deals) or from the physical pile."""
        if event.icons is None:
            return [self._line("draw_table", speaker=event.speaker)]
        secret = self.narrator.line(f"{NS}.secret_icons", style=Style.PRIVATE,
                                    to=event.speaker, round=s.round_number,
                                    speaker=event.speaker, icons=self.icons(event.icons))
        lines, _ = deliver(self.narrator, self.secret_sink, secret,
                           sent=f"{NS}.secret_sent", speaker=event.speaker)
        return lines

    def _round_ended(self, event: RoundEnded) -> list[Line]:
        if event.complete:
            out = [self._line("events.round_complete", icons=self.icons(event.found),
                              round=event.round)]
        elif event.found:
            out = [self._line("events.round_partial", icons=self.icons(event.found),
                              round=event.round)]
        else:
            out = [self._line("events.round_none", round=event.round)]
        if event.next_speaker is not None:
            out.append(self._line("events.scores", scores=self._scores(event.scores)))
            out.append(self._line("events.rotation", speaker=event.next_speaker,
                                  wehrmacht=event.next_wehrmacht, cue=Cue.TURN.value))
        return out

    def describe(self, state: GameState, action: Action) -> str:
        if isinstance(action, Pick):
            return self._t("describe.pick", player=action.player, icons=self.icons(action.icons))
        if isinstance(action, JudgePick):
            key = "describe.judge_hit" if action.hit else "describe.judge_miss"
            return _cap(self._t(key, icon=self.icon(action.icon)))
        if isinstance(action, TimeUp):
            return self._t("describe.time_up", player=action.player)
        if isinstance(action, Draw):
            return self._t("describe.draw")
        return type(action).__name__

    # ------------------------------------------------------------------ universal commands

    def score(self, state: GameState) -> list[Line]:
        s = self._ici(state)
        return [self._line("events.scores", scores=self._scores(tuple(s.scores.items()))),
                self._line("info.score_round", round=s.round_number, total=s.total_rounds)]

    def status(self, state: GameState) -> list[Line]:
        s = self._ici(state)
        phase = s.phase()
        if phase == "over":
            return [self._line("info.status_over")]
        lines = [self._line("info.status_round", round=s.round_number, total=s.total_rounds,
                            title=self._title(s.mode), speaker=s.speaker,
                            wehrmacht=s.wehrmacht)]
        if phase == "draw" or not self._recorded(s):
            lines.append(self._line("info.status_record", speaker=s.speaker))
            return lines
        sentence = str(self.host_state.get("sentence") or "")
        if sentence:
            lines.append(self._line("info.status_sentence", sentence=sentence))
        lines.append(self._line("info.status_found", found=len(s.found_icons)))
        if phase == "answer":
            pending = s.pending_icon
            assert pending is not None
            lines.append(self._line("info.status_answer", speaker=s.speaker,
                                    icon=self.icon(pending[1])))
        elif s.mode is Transmission.COMPETING:
            lines.append(self._line("info.status_competing",
                                    players=self.narrator.names(s.current_players())))
        elif s.current_players():
            player = s.current_players()[0]
            left = s.picks_left[player]
            if s.mode is Transmission.FRAGMENTS or left == 1:
                what = self._t("info.what_one")
            else:
                what = self._t("info.what_two")
            lines.append(self._line("info.status_turn", player=player, what=what))
        return lines

    def board(self, state: GameState) -> list[Line]:
        """The 36 icons, 4 per summary card as on the table, and those named this round."""
        s = self._ici(state)
        lines = [self._line("info.board_intro")]
        for n in range(0, len(ICON_NAMES), ICONS_PER_CARD):
            card = ICON_NAMES[n:n + ICONS_PER_CARD]
            lines.append(self._line("info.board_card", n=n // ICONS_PER_CARD + 1,
                                    icons=self.icons(card)))
        if s.phase() in ("guess", "answer") and s.named_icons:
            lines.append(self._line("info.board_taken", icons=self.icons(s.named_icons)))
        return lines

    def tried(self, state: GameState) -> list[Line]:
        s = self._ici(state)
        named = s.public_view()["named"] if s.phase() in ("guess", "answer") else []
        if not named:
            return [self._line("info.tried_none")]
        items = []
        for n in named:
            key = ("info.tried_waiting" if n["hit"] is None
                   else "info.tried_hit" if n["hit"] else "info.tried_miss")
            items.append(self._t(key, icon=self.icon(n["icon"]), player=n["player"]))
        return [self._line("info.tried_intro", items=self._t("info.tried_sep").join(items))]

    def winner_json(self, outcome: Outcome) -> list[str]:
        return sorted(outcome.winners)

    # ------------------------------------------------------------------ demo players

    def _bot_text(self, key: str, *, variant: int, **params: Any) -> str:
        return self.narrator.text(f"{NS}.bot.{key}", variant=variant, **params)

    def _say_icon(self, name: str) -> str:
        """An icon as a player says it ("heart" in English, "le cœur" in French)."""
        return self.narrator.text(f"{NS}.bot.say_icon", icon=name, the=self.icon(name))

    def _variants(self, key: str) -> int:
        table = catalogue(self.narrator.lang, GAME)
        value = table.get(f"{NS}.bot.{key}") or catalogue("en", GAME).get(f"{NS}.bot.{key}")
        return len(value) if isinstance(value, list) else 1

    def _pick_variant(self, key: str, rng: random.Random) -> int:
        return rng.randrange(self._variants(key))

    def coded_sentence(self, icons: Sequence[str], rng: random.Random) -> str:
        """A subject-verb-object sentence hinting at two icons (demo Speakers)."""
        first, second = (self._bot_text(f"clue.{name}", variant=self._pick_variant(
            f"clue.{name}", rng)) for name in icons[:2])
        return _cap(self._bot_text("sentences", variant=self._pick_variant("sentences", rng),
                                   first=first, second=second))

    def bot_utterance(self, state: GameState, prompt: Prompt,
                      rng: random.Random) -> tuple[str, str]:
        s = self._ici(state)
        if prompt.kind is PromptKind.RECORD:
            message = s.player_view(s.speaker).get("message")
            icons = list(message) if message else rng.sample(ICON_NAMES, 2)
            return s.speaker, self.coded_sentence(icons, rng)
        if prompt.phase == "answer":
            key = "hit" if rng.random() < 0.3 else "miss"
            return s.speaker, self._bot_text(key, variant=0)
        player = rng.choice(prompt.expected)
        left = s.picks_left[player]
        if s.mode is Transmission.FRAGMENTS:
            size = 1
        elif s.mode is Transmission.DOUBLE_ZERO:
            size = 2
        else:
            size = min(left, rng.choice((1, 2, 2)))
        size = min(size, left)
        picks = self._bot_icons(s, size, rng, decode=0.15 if player == s.wehrmacht else 0.4)
        said = [self._say_icon(i) for i in picks]
        if s.mode is Transmission.COMPETING:
            key = "pick_named_one" if size == 1 else "pick_named_two"
        else:
            key = "pick_one" if size == 1 else "pick_two"
        params: dict[str, Any] = {"player": player}
        if size == 1:
            params["icon"] = said[0]
        else:
            params["first"], params["second"] = said
        return player, self._bot_text(key, variant=self._pick_variant(key, rng), **params)

    def _bot_icons(self, s: IciLondresState, size: int, rng: random.Random, *,
                   decode: float = 0.4) -> list[str]:
        """Free icons for a demo receiver; in host mode it decodes the message with
        probability ``decode`` (lower for the Wehrmacht, who is not meant to understand), so
        the demo shows hits as well as misses."""
        taken = set(s.named_icons)
        free = [i for i in ICON_NAMES if i not in taken]
        message = s.player_view(s.speaker).get("message") or []
        picks: list[str] = []
        for _ in range(size):
            hidden = [i for i in message if i in free and i not in picks]
            if hidden and rng.random() < decode:
                picks.append(rng.choice(hidden))
            else:
                picks.append(rng.choice([i for i in free if i not in picks]))
        return picks


def refusal_words(narrator: Narrator, error: IllegalAction) -> dict[str, Any]:
    """This game's refusal parameters in words (the names and numbers need none)."""
    return {}


def bot_utterance(adapter: GameAdapter, state: GameState, prompt: Prompt,
                  rng: random.Random) -> tuple[str, str]:
    assert isinstance(adapter, Adapter)
    return adapter.bot_utterance(state, prompt, rng)


REGISTRATION = GameRegistration(
    state_class=IciLondresState, new_game=new_game, adapter=Adapter,
    refusal_words=refusal_words, bots=bot_utterance, companion=ici_londres_phone,
    options=(
        GameOption("players", "names in seating order, A,B,C", kind="names", required=True),
        GameOption("first", "first Speaker (default: the first name)"),
        GameOption("mode", "first transmission type (default fragments)",
                   default="fragments",
                   choices=("fragments", "competing", "double-zero", "countdown")),
        GameOption("rounds", "rounds (default 12, 10 with 5)", kind="int"),
    ),
    demo_seats={"players": ["Hannah", "Thomas", "Sophie", "Oliver"]},
)
