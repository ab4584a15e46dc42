"""The session loop: prompt, listen, understand, confirm, apply, save, narrate — for any game.

Nothing is ever applied from a rejected, ambiguous or refused utterance; the game is saved
after every applied action (chance steps included) so a crash, Ctrl-C or a pulled
microphone loses nothing, and ``voice-host resume`` continues exactly."""

from __future__ import annotations

import enum
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voice_host.games import Action, GameState, IllegalAction
from voice_host.games.base import find_player, public_record
from voice_host.host.adapter import Decision, GameAdapter, Prompt, PromptKind
from voice_host.host.io import Heard, HeardKind, Line, Listener, ListenRequest, Output
from voice_host.host.refusals import refusal_line
from voice_host.host.registry import registration
from voice_host.host.store import (
    EventLog,
    SavedGame,
    SessionRecord,
    rng_from_json,
    rng_to_json,
    save_game,
    saves_dir,
)
from voice_host.host.understanding import understand
from voice_host.intent import IntentMatch, Matcher, PhaseGrammar, load_grammar

UNIVERSAL = frozenset({
    "help", "repeat", "score", "status", "read_board", "undo", "pause", "resume", "quit",
    "slower", "faster", "louder", "quieter", "list_tried", "move_code",
})
CONFIRM_BELOW = 0.75
"""Actions understood with less confidence than this are confirmed first (--confirm auto)."""
SILENCES_BEFORE_PAUSE = 3
CONFIRM_TRIES = 3
"""Answers to a yes/no question that are neither yes nor no before the host gives up."""
ANSWERED_DURING_CONFIRM = frozenset({
    "score", "status", "read_board", "list_tried", "slower", "faster", "louder", "quieter"})
"""Universal commands answered while a yes/no question waits (which is then asked again);
the others (help, repeat, undo, stop...) get the question again."""
UNDO_DEPTH = 50
LISTEN_SLICE = 1.5
"""While phones may answer, a listener that can stop early (the microphone, a terminal)
listens this many seconds at a time, so a phone's input waits no longer than that."""


class Stop(enum.StrEnum):
    FINISHED = "finished"
    QUIT = "quit"
    INPUT_ENDED = "input_ended"


@dataclass
class SessionOptions:
    """How the loop behaves (from the :class:`~voice_host.host.config.SessionConfig`)."""

    confirm: str = "auto"
    """"auto": confirm low-confidence and irreversible actions; "never": never ask."""
    silence_timeout: float = 12.0
    """Seconds of silence before a re-prompt."""
    save_path: Path | None = None
    """Where the game is saved after every action."""


class Session:
    def __init__(self, *, adapter: GameAdapter, state: GameState, rng: random.Random,
                 output: Output, listener: Listener, options: SessionOptions,
                 log: EventLog | None = None, game_options: dict[str, Any] | None = None,
                 saved: SessionRecord | None = None, companion: Any = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.adapter = adapter
        self.state = state
        self.rng = rng
        self.output = output
        self.listener = listener
        self.options = options
        self.log = log or EventLog(None)
        self.game_options = game_options or {}
        saved = saved or SessionRecord()
        self.undo_stack: list[dict[str, Any]] = list(saved.undo)
        self.narrator = adapter.narrator
        if saved.narration:
            self.narrator.restore_turns(saved.narration)
        if saved.host_state:
            adapter.host_state.update(saved.host_state)
        self.registration = registration(adapter.game)
        self.grammar = load_grammar(self.registration.grammar_name, adapter.narrator.lang)
        self._last_prompt_key: str | None = None
        self._last_lines: list[Line] = []
        self._silences = 0
        self.paused = saved.paused
        self.companion = companion
        self.clock = clock
        """Seconds, monotonic: what a countdown is measured with."""
        self._clock: tuple[str, float] | None = None
        """The running countdown: its key and the seconds already used."""
        """A CompanionChannel (host/companion) when players use the companion page: it gets
        every new state; secret inputs come from it instead of the microphone, and votes,
        picks and guesses may come from it as well as aloud."""
        self.screen = sys.stderr
        """The host's own screen, for what is shown there but never said (a move code)."""

    # ------------------------------------------------------------------ output helpers

    def say(self, lines: Sequence[Line]) -> None:
        lines = list(lines)
        if not lines:
            return
        for line in lines:
            if line.style != "private":
                self.log.write("narration", text=line.text, lang=line.lang)
        self.output.emit(lines)

    def say_key(self, key: str, **params: Any) -> None:
        self.say([self.narrator.line(key, **params)])

    # ------------------------------------------------------------------ persistence

    def snapshot(self) -> dict[str, Any]:
        return {"state": self.state.to_json(), "rng": rng_to_json(self.rng.getstate()),
                "host_state": json.loads(json.dumps(self.adapter.host_state))}

    def restore(self, snap: dict[str, Any]) -> None:
        self.state = type(self.state).from_json(snap["state"])
        self.rng.setstate(rng_from_json(snap["rng"]))
        self.adapter.host_state.clear()
        self.adapter.host_state.update(snap["host_state"])
        if self.companion is not None:
            self.companion.publish(self.state)

    def save(self) -> None:
        if self.options.save_path is None:
            return
        snap = self.snapshot()
        save_game(self.options.save_path, SavedGame(
            game=self.adapter.game, options=self.game_options, state=snap["state"],
            rng=snap["rng"], host_state=snap["host_state"], undo=self.undo_stack[-UNDO_DEPTH:],
            paused=self.paused, narration=self.narrator.turns))

    # ------------------------------------------------------------------ grammar

    def phase_grammar(self, phase: str) -> tuple[PhaseGrammar, Matcher]:
        """The phase's grammar with the game's values now, and its matcher (both cached by
        the grammar)."""
        pg = self.grammar.phase(phase, self.adapter.slot_values(self.state))
        return pg, pg.matcher

    # ------------------------------------------------------------------ the loop

    def run(self, *, fresh: bool = True) -> Stop:
        if self.companion is not None:
            self.companion.publish(self.state)
        if fresh:
            self.say(self.adapter.opening(self.state))
            self.save()
        else:
            self.say_key("common.resumed")
            if not self.state.is_terminal():  # whose turn it is, and what they are at
                self.say(self.adapter.status(self.state))
            if self.paused:  # paused before the stop: still paused
                self.say_key("common.paused_reminder")
        if (self.companion is not None and not self.companion.seats.locked
                and self.companion.wait_for_everyone):
            stop = self.wait_for_seats()
            if stop is not None:
                return stop
        while True:
            if self.state.is_terminal():
                self.finish()
                return Stop.FINISHED
            if self.state.is_chance_node():
                self.apply(self.adapter.chance(self.state, self.rng), record_undo=False)
                continue
            prompt = self.adapter.prompt(self.state)
            if prompt is None:
                self.say(self.adapter.host_step(self.state))
                self.save()
                continue
            if prompt.key != self._last_prompt_key:
                self._last_prompt_key = prompt.key
                self._last_lines = list(prompt.lines)
                self._silences = 0
                self.log.write("prompt", text=" ".join(line.text for line in prompt.lines),
                               phase=prompt.phase, expected=list(prompt.expected))
                self.say(prompt.lines)
            if self.companion is not None:
                self.seat_news()
                if self.take_phone_inputs():
                    continue
                if self.companion.private_turn(self.state):
                    stop = self.wait_private(prompt)
                    if stop is not None:
                        return stop
                    continue
            stop = self.listen_once(prompt)
            if stop is not None:
                return stop

    # ------------------------------------------------------------------ phones

    def _slices(self) -> bool:
        """Whether the listener can listen a short while and stop (then phones and voice
        are taken together); a script or a pipe cannot, so it is read only when nothing
        is expected from the phones."""
        return bool(getattr(self.listener, "listens_in_slices", False))

    def take_phone_inputs(self) -> bool:
        """Apply what the phones sent (votes, picks, guesses, cards), oldest first, each
        checked again against the game. True when anything was applied."""
        if self.companion is None or not self.companion.pending():
            return False
        applied = False
        for action in self.companion.take_actions(self.state):
            if self.apply(action):
                applied = True
                self.paused = False
                self._silences = 0
        return applied

    def wait_private(self, prompt: Prompt) -> Stop | None:
        """Secret input (a mission card) comes from the companion pages, checked by the
        engine there. The host still listens for spoken commands meanwhile when the
        listener allows it; silence re-prompts, then waits quietly."""
        if not self._slices():
            action = self.companion.wait_for_action(self.options.silence_timeout, self.state)
            if action is None:
                self.on_silence(prompt)
                return None
            self.paused = False
            self._silences = 0
            self.apply(action)
            return None
        return self.listen_while_waiting(prompt, lambda: self.companion.pending() > 0)

    def listen_while_waiting(self, prompt: Prompt, done: Any) -> Stop | None:
        """Listen in short slices until ``done()`` (phones answered) or the silence timeout;
        a spoken command is carried out, anything else gets the waiting reminder."""
        waited = 0.0
        while not done():
            pg, matcher = self.phase_grammar(prompt.phase)
            request = ListenRequest(
                grammar=pg, grammar_name=f"{self.adapter.game}.{prompt.phase}",
                expected=prompt.expected, timeout=LISTEN_SLICE, prompt=prompt,
                purpose="slice")
            heard = self.listener.listen(request)
            if heard.kind is HeardKind.SILENCE:
                waited += LISTEN_SLICE
                if waited >= self.options.silence_timeout:
                    return self.on_silence(prompt)
                continue
            return self.handle(prompt, heard, matcher)
        return None

    def wait_for_seats(self) -> Stop | None:
        """Before anything secret exists (or, in a resumed game, is shown): every seat is
        claimed on a phone, each claim said aloud, then every player confirms on their own
        phone that it shows their name. The host keeps listening for commands meanwhile."""
        channel = self.companion
        names = self.narrator.names
        asked = False
        lines = [self.narrator.line("companion.waiting_phones")]
        prompt = Prompt(lines=tuple(lines), phase="answer", expected=(), key="companion.seats")
        waited = 0.0
        reminders = 0
        free = [s.name for s in channel.seats.seats() if not s.claimed]
        if free:
            self.say_key("companion.waiting_for", names=names(free))
        while True:
            if self.seat_news():
                waited = 0.0
            seats = channel.seats.seats()
            if channel.seats.all_confirmed():
                channel.lock_seats()
                self.say_key("companion.all_confirmed")
                return None
            missing = [s.name for s in seats if not s.claimed]
            if not missing and not asked:
                self.say_key("companion.check_names")
                asked = True
            elif missing:
                asked = False
            if not self._slices():
                channel.wait_for_seat_event(LISTEN_SLICE)
            else:
                stop = self.listen_for_command(prompt)
                if stop is not None:
                    return stop
            waited += LISTEN_SLICE
            if waited >= self.options.silence_timeout and reminders < SILENCES_BEFORE_PAUSE:
                waited = 0.0
                reminders += 1
                if missing:
                    self.say_key("companion.waiting_for", names=names(missing))
                else:
                    self.say_key("companion.waiting_confirm",
                                 names=names([s.name for s in seats if not s.confirmed]))

    def seat_news(self) -> bool:
        """Say aloud what changed on the seats (a claim, a move, a seat left, a move code
        replaced after wrong guesses); confirmations show on the pages only."""
        if self.companion is None:
            return False
        said = [self.narrator.line(f"companion.{e.kind}", name=e.seat)
                for e in self.companion.take_seat_events() if e.kind != "confirmed"]
        self.say(said)
        return bool(said)

    def listen_for_command(self, prompt: Prompt) -> Stop | None:
        """One short listen for a universal command (help, status, stop the game ...)."""
        pg, matcher = self.phase_grammar(prompt.phase)
        heard = self.listener.listen(ListenRequest(
            grammar=pg, grammar_name=f"{self.adapter.game}.{prompt.phase}", expected=(),
            timeout=LISTEN_SLICE, prompt=prompt, purpose="slice"))
        if heard.kind is HeardKind.END:
            return self.handle(prompt, heard, matcher)
        if heard.kind is not HeardKind.SPEECH:
            return None
        best = understand(heard, matcher, speaker=None).best
        if best is not None and best.intent == "help":
            self.say_key("companion.waiting_help", player=self.state.players[0])
            return None
        if best is not None and best.intent in UNIVERSAL:
            return self.universal(best, prompt)
        self.say(prompt.lines)
        return None

    def show_move_code(self, name: str) -> None:
        """The host asked (by voice or key) for one seat's move code: it is shown on the
        host's screen only, never said."""
        if self.companion is None:
            self.say_key("companion.no_companion")
            return
        seat = find_player(self.state.players, name)
        code = self.companion.move_code(seat) if seat else None
        if seat is None or code is None:
            self.say_key("companion.move_code_none", name=seat or name)
            return
        spaced = f"{code[:3]} {code[3:]}"
        line = self.narrator.line("companion.move_code_screen", name=seat, code=spaced)
        print(line.text, file=self.screen, flush=True)
        self.say_key("companion.move_code_shown", name=seat)

    def countdown_left(self, prompt: Prompt) -> float | None:
        """Seconds left on the prompt's clock (None without one). The clock runs only while
        the host listens for it, not while it speaks or the game is paused, and it is one
        clock for every prompt that shares its ``countdown_key``."""
        if not prompt.countdown:
            return None
        key = prompt.countdown_key or prompt.key
        if self._clock is None or self._clock[0] != key:
            self._clock = (key, 0.0)
        return max(0.0, prompt.countdown - self._clock[1])

    def listen_once(self, prompt: Prompt) -> Stop | None:
        if (self.companion is not None and self._slices() and not prompt.countdown
                and prompt.kind is PromptKind.COMMAND and self.companion.phone_turn(self.state)):
            # phones may answer this prompt too: listen in slices and look at them between
            return self.listen_while_waiting(prompt, lambda: self.companion.pending() > 0)
        pg, matcher = self.phase_grammar(prompt.phase) if prompt.kind is PromptKind.COMMAND \
            else (None, None)
        left = self.countdown_left(prompt)
        if left is not None and left <= 0 and not self.paused:
            return self.on_silence(prompt)  # the clock ran out during the last answer
        countdown = None if left is None else max(1, math.ceil(left - 1e-6))
        request = ListenRequest(
            grammar=pg, grammar_name=f"{self.adapter.game}.{prompt.phase}",
            expected=prompt.expected, timeout=self.options.silence_timeout,
            countdown=countdown, record=prompt.kind is PromptKind.RECORD,
            prompt=prompt)
        if countdown:
            self.output.tick(countdown)
        started = self.clock()
        heard = self.listener.listen(request)
        if self._clock is not None and left is not None and not self.paused:
            self._clock = (self._clock[0], self._clock[1] + max(0.0, self.clock() - started))
        return self.handle(prompt, heard, matcher)

    def handle(self, prompt: Prompt, heard: Heard, matcher: Matcher | None) -> Stop | None:
        if heard.kind is HeardKind.END:
            self.save()
            self.say_key(self.resume_key("common.input_ended"), file=self.save_name())
            self.log.write("stopped", reason="input_ended")
            return Stop.INPUT_ENDED
        if heard.kind is HeardKind.ERROR:
            self.log.write("input_error", error=heard.error, source=heard.source)
            said = (self.narrator.line(heard.error_key, **dict(heard.error_params))
                    if heard.error_key and self.narrator.has(heard.error_key)
                    else Line(heard.error, lang="en"))
            self.say([said, *self.reminder(prompt)])
            return None
        if heard.kind is HeardKind.SILENCE:
            return self.on_silence(prompt)
        self._silences = 0
        if prompt.kind is PromptKind.RECORD:
            command = self.universal_in_recording(heard, prompt)
            if command is not None:  # "repeat", "pause", "stop the game"... not a message
                return self.universal(command, prompt)
            before = self.snapshot()
            recording = self.adapter.on_recording(self.state, heard)
            if recording.taken:  # the message was taken: one move, one undo step
                self.log.write("recorded", speaker=heard.speaker, source=heard.source)
                self.undo_stack.append(before)
                del self.undo_stack[:-UNDO_DEPTH]
            elif recording.lines:  # refused (too long, the wrong player): the reason is logged
                self.log.write("refused", intent="record", speaker=heard.speaker,
                               reason=" ".join(line.text for line in recording.lines))
            self.say(list(recording.lines))
            self.save()
            return None
        assert matcher is not None
        speaker = self.resolve_speaker(heard.speaker, prompt)
        if heard.speaker and speaker is None:
            self.log.write("unknown_speaker", speaker=heard.speaker, transcript=heard.text)
            self.say_key("common.unknown_speaker", name=heard.speaker,
                         players=self.narrator.names(self.state.players))
            return None
        understood = understand(heard, matcher, speaker=speaker)
        best, result = understood.best, understood.result
        self.log.write("heard", speaker=speaker, transcript=heard.text, source=heard.source,
                       intent=best.intent if best else None,
                       slots=dict(best.slots) if best else {},
                       confidence=round(understood.confidence, 3),
                       recognizer_confidence=round(heard.confidence, 3),
                       rejected=heard.rejected)
        if best is None or result is None:
            self.say([self.narrator.line("common.not_understood")])
            return None
        if result.ambiguous and len(result.alternatives) >= 2:
            a, b = result.alternatives[:2]
            self.say([self.narrator.line("common.did_you_mean", first=self.spoken(a),
                                         second=self.spoken(b))])
            return None
        if self.paused and best.intent not in ("resume", "quit", "help", "status", "score"):
            self.say_key("common.paused_reminder")
            return None
        if best.intent in UNIVERSAL:
            return self.universal(best, prompt)
        if self.paused:
            return None
        decision = self.adapter.interpret(self.state, best, speaker)
        return self.carry_out(decision, best, prompt, heard, speaker)

    def universal_in_recording(self, heard: Heard, prompt: Prompt) -> IntentMatch | None:
        """A free recording that is exactly a universal command (as typed or transcribed)
        is the command, not the Speaker's message."""
        if not heard.text.strip():
            return None
        _, matcher = self.phase_grammar("answer")
        best = matcher.match(heard.text).best
        if best is not None and best.intent in UNIVERSAL and best.confidence >= 0.95:
            return best
        return None

    def spoken(self, match: IntentMatch) -> str:
        return match.text or match.intent

    def resolve_speaker(self, named: str | None, prompt: Prompt) -> str | None:
        if named:
            return find_player(self.state.players, named)
        return prompt.expected[0] if len(prompt.expected) == 1 else None

    def reminder(self, prompt: Prompt) -> list[Line]:
        return list(prompt.reminder or prompt.lines)

    def on_silence(self, prompt: Prompt) -> Stop | None:
        if prompt.countdown and not self.paused:  # a paused game's clock does not run
            action = self.adapter.on_timeout(self.state)
            self.log.write("timeout", expected=list(prompt.expected))
            if action is not None:
                self.apply(action)
            return None
        if self.paused:
            return None
        self._silences += 1
        if self._silences >= SILENCES_BEFORE_PAUSE:
            self.paused = True
            self._silences = 0
            self.say_key("common.waiting")
            self.save()
            return None
        self.say([self.narrator.line("common.silence"), *self.reminder(prompt)])
        return None

    def carry_out(self, decision: Decision, match: IntentMatch, prompt: Prompt, heard: Heard,
                  speaker: str | None) -> Stop | None:
        if decision.reply:
            self.say(decision.reply)
        if decision.action is None:
            if decision.reply:  # the host refused the command: say why in the log too
                self.log.write("refused", intent=match.intent, slots=_jsonable(match.slots),
                               speaker=speaker, reason=" ".join(line.text for line in
                                                                decision.reply))
            return None
        if not self.dry_run([decision.action, *decision.then]):
            return None
        confidence = match.confidence * heard.confidence
        spoken_check = decision.confirm_spoken if heard.spoken else None
        needs = self.options.confirm != "never" and (
            decision.confirm is not None or spoken_check is not None
            or confidence < CONFIRM_BELOW)
        if needs:
            what = decision.confirm or spoken_check or self.adapter.describe(self.state,
                                                                            decision.action)
            question = [self.narrator.line("common.confirm", what=what)]
            self.say(question)
            if not self.ask_yes_no(prompt, question):
                # what was not done, and what the host is still waiting for
                self.say([self.narrator.line("common.cancelled_what", what=what),
                          *self.reminder(prompt)])
                return None
        if self.apply(decision.action):
            for action in decision.then:
                if not self.apply(action, record_undo=False):
                    break
        return None

    def ask_yes_no(self, prompt: Prompt, question: Sequence[Line] = ()) -> bool | None:
        """Listen for a yes/no answer from the same players; None when none came.

        A universal command meanwhile (score, status, slower...) is answered and the
        ``question`` asked again; anything else that is not yes or no (a number, table talk,
        silence) gets "please answer yes or no" and the question again, up to
        ``CONFIRM_TRIES`` times."""
        pg, matcher = self.phase_grammar("answer")
        request = ListenRequest(grammar=pg, grammar_name=f"{self.adapter.game}.answer",
                                expected=prompt.expected, timeout=self.options.silence_timeout,
                                purpose="confirm", prompt=prompt)
        misses = 0
        while True:
            heard = self.listener.listen(request)
            if heard.kind is HeardKind.END:
                return None
            understood = understand(heard, matcher,
                                    speaker=self.resolve_speaker(heard.speaker, prompt))
            best = understood.best
            self.log.write("heard", speaker=heard.speaker, transcript=heard.text,
                           source=heard.source, intent=best.intent if best else None,
                           slots=dict(best.slots) if best else {},
                           confidence=round(understood.confidence, 3))
            if best is not None and best.intent == "answer" and \
                    best.slots.get("choice") in ("yes", "no"):
                return bool(best.slots.get("choice") == "yes")
            if best is not None and best.intent in ANSWERED_DURING_CONFIRM:
                self.universal(best, prompt)
                self.say(question)
                continue
            misses += 1
            if misses >= CONFIRM_TRIES:
                return None
            hint = "common.silence" if heard.kind is HeardKind.SILENCE else "common.yes_or_no"
            self.say([self.narrator.line(hint), *question])

    def apply(self, action: Action, *, record_undo: bool = True) -> bool:
        before = self.snapshot()
        try:
            events = self.state.apply(action)
        except IllegalAction as exc:
            self.refuse(action, exc)
            return False
        if record_undo:
            self.undo_stack.append(before)
            del self.undo_stack[:-UNDO_DEPTH]
        # the log is for everyone: secrets (dealt roles, drawn icons, the key, secret cards,
        # private events) are masked; the save file keeps them, for resume
        self.log.write("action", action=public_record(action),
                       events=[public_record(e) for e in events])
        self.save()
        if self.companion is not None:
            self.companion.publish(self.state)
        self.say(self.adapter.narrate(self.state, events))
        return True

    def refuse(self, action: Action, error: IllegalAction) -> None:
        """Say why the rules refused ``action``, in the game's language; log the code."""
        self.log.write("refused", action=public_record(action), code=error.code,
                       params=_jsonable(error.params), reason=error.reason)
        self.say([refusal_line(self.narrator, error, self.registration.refusal_words)])

    def dry_run(self, actions: Sequence[Action]) -> bool:
        """Try ``actions`` (a move and its follow-ups) on a copy of the game; on a refusal
        say why and return False. Nothing is asked, applied or saved before this passed."""
        trial = self.state.copy()
        for action in actions:
            try:
                trial.apply(action)
            except IllegalAction as exc:
                self.refuse(action, exc)
                return False
        return True

    # ------------------------------------------------------------------ universal commands

    def universal(self, match: IntentMatch, prompt: Prompt) -> Stop | None:
        intent = match.intent
        if intent == "help" and prompt.kind is PromptKind.RECORD:
            # what to say now is a free sentence, not a command
            self.say_key("common.help_record", player=prompt.expected[0] if prompt.expected
                         else "")
        elif intent == "help":
            pg, _ = self.phase_grammar(prompt.phase)
            phrases = pg.help_phrases()
            examples = [ps[0] for name, ps in phrases.items() if ps and name not in UNIVERSAL]
            examples = examples[:6] or [ps[0] for ps in phrases.values() if ps][:4]
            self.say([self.narrator.line("common.help", examples="; ".join(examples))])
        elif intent == "repeat":
            self.say(self._last_lines or self.reminder(prompt))
        elif intent == "score":
            self.say(self.adapter.score(self.state))
        elif intent == "status":
            self.say(self.adapter.status(self.state))
        elif intent == "read_board":
            self.say(self.adapter.board(self.state))
        elif intent == "list_tried":
            self.say(self.adapter.tried(self.state))
        elif intent == "move_code":
            self.show_move_code(str(match.slots.get("player", "")))
        elif intent in ("slower", "faster", "louder", "quieter"):
            delta = {"slower": {"rate": -30}, "faster": {"rate": 30},
                     "louder": {"volume": 0.2}, "quieter": {"volume": -0.2}}[intent]
            self.output.adjust(**delta)  # type: ignore[arg-type]
            self.say_key(f"common.{intent}")
        elif intent == "pause":
            self.paused = True
            self.save()
            self.say_key("common.paused")
        elif intent == "resume":
            if self.paused:
                self.paused = False
                self.say_key("common.resuming")
                self.say(self._last_lines)
            else:
                self.say_key("common.not_paused")
        elif intent == "undo":
            return self.undo(prompt)
        elif intent == "quit":
            if self.options.confirm != "never":
                question = [self.narrator.line("common.confirm_quit")]
                self.say(question)
                if not self.ask_yes_no(prompt, question):
                    self.say_key("common.not_quit")
                    return None
            self.save()
            self.say_key(self.resume_key("common.quit"), file=self.save_name())
            self.log.write("stopped", reason="quit")
            return Stop.QUIT
        return None

    def resume_key(self, key: str) -> str:
        """``key``, or its ``_file`` form when the game is saved outside the saves folder:
        a bare ``voice-host resume`` would not find it there, so the hint names the file."""
        path = self.options.save_path
        if path is None or path.resolve().parent == saves_dir().resolve():
            return key
        return f"{key}_file"

    def save_name(self) -> str:
        """The save file's name, to say aloud (the whole path is printed on the screen)."""
        return self.options.save_path.name if self.options.save_path else ""

    def undo(self, prompt: Prompt) -> Stop | None:
        if not self.undo_stack:
            self.say_key("common.nothing_to_undo")
            return None
        last = self.undo_stack[-1]
        if self.options.confirm != "never":
            question = [self.narrator.line("common.confirm_undo")]
            self.say(question)
            if not self.ask_yes_no(prompt, question):
                self.say_key("common.not_undone")
                return None
        self.undo_stack.pop()
        self.restore(last)
        self._last_prompt_key = None
        self._clock = None
        self.log.write("undo")
        self.save()
        self.say_key("common.undone")
        return None

    def finish(self) -> None:
        outcome = self.state.outcome()
        assert outcome is not None
        self.save()
        self.log.write("game_over", winner=self.adapter.winner_json(outcome),
                       scores=dict(outcome.scores), reason=outcome.reason)


def _jsonable(slots: Any) -> dict[str, Any]:
    """Slot values as the log writes them (tuples become lists)."""
    return json.loads(json.dumps(dict(slots), default=list))

