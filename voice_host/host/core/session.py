"""The session loop: prompt, listen, understand, confirm, apply, save, narrate — for any game.

Nothing is ever applied from a rejected, ambiguous or refused utterance; the game is saved
after every applied action (chance steps included) so a crash, Ctrl-C or a pulled
microphone loses nothing, and ``voice-host resume`` continues exactly."""

from __future__ import annotations

import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from voice_host.games import Action, GameState, IllegalAction
from voice_host.games.base import find_player, public_record
from voice_host.host.core import adapter as adapters
from voice_host.host.core import ending, opening
from voice_host.host.core import voices as vc
from voice_host.host.core.adapter import Decision, GameAdapter, Prompt, PromptKind
from voice_host.host.core.attention import (
    addressed,
    not_a_command,
    voice_seat,
    without_address,
)
from voice_host.host.core.choice import (
    CHOOSE_INTENT,
    PendingChoice,
    asked_which,
    take_choice,
    with_choice,
)
from voice_host.host.core.commands import COMMANDS, UNIVERSAL
from voice_host.host.core.confirm import confirm_decision
from voice_host.host.core.corrections import RecentMove, is_correction
from voice_host.host.core.countdown import Countdown
from voice_host.host.core.loop import ListenLog, SessionOptions
from voice_host.host.core.messages import error_line
from voice_host.host.core.narration import grouped
from voice_host.host.core.patience import Patience
from voice_host.host.core.phones import Companion, PhoneDesk
from voice_host.host.core.questions import Question, answer_question, make_move
from voice_host.host.core.recordings import take_recording
from voice_host.host.core.refusals import RefusalRecord, dry_run, refuse
from voice_host.host.core.registry import registration
from voice_host.host.core.saving import keep_saving
from voice_host.host.core.store import (
    EventLog,
    SavedGame,
    SessionRecord,
    resume_key,
    rng_from_json,
    rng_to_json,
    save_name,
)
from voice_host.host.core.understanding import Understood, understand
from voice_host.host.core.values import (
    Heard,
    HeardKind,
    Line,
    Listener,
    ListenRequest,
    Output,
    Stop,
)
from voice_host.intent import IntentMatch, Matcher, PhaseGrammar, load_grammar

UNDO_DEPTH = 50


class Session:
    def __init__(self, *, adapter: GameAdapter, state: GameState, rng: random.Random,
                 output: Output, listener: Listener, options: SessionOptions,
                 log: EventLog | None = None, game_options: dict[str, Any] | None = None,
                 saved: SessionRecord | None = None, companion: Companion | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 settings: dict[str, Any] | None = None, voices: vc.VoiceDesk | None = None
                 ) -> None:
        self.adapter, self.state, self.rng = adapter, state, rng
        self.output, self.listener, self.options = output, listener, options
        self.log = log or EventLog(None)
        self.listen_log = ListenLog(self.log)
        self.game_options = game_options or {}
        self.settings = settings or {}  # how it is played (input, output...), for resume
        self.move_said: str | None = None  # the move being made, in words, for its undo step
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
        self.last_lines: list[Line] = []  # what the current prompt said (repeat says it again)
        # the quiet time of the current prompt, and when the host speaks up next
        self.patience = Patience(options.silence_timeout, options.pause_after)
        self.paused = saved.paused
        self.companion = companion  # the phones: secrets, votes, picks and guesses too
        self.phones = PhoneDesk(self, companion) if companion is not None else None
        self.countdown = Countdown(clock)  # the clock of timed prompts
        self.recent = RecentMove(clock)  # the last move: a correction is heard first after it
        self.screen = sys.stderr  # the host's own screen: shown, never said (a move code)
        self.last_heard: Heard | None = None  # the last utterance (move codes: typed only)
        self.question: Question | None = None  # a yes/no question waiting for its answer
        self.unsaved: SavedGame | None = None  # not written (a full disk): see .saving
        self.unsaved_why = ""
        self.voices = voices  # the players' voices (None: the host cannot tell them apart)
        self.voice: vc.SpeakerGuess | None = None  # the voice's guess for the last utterance
        self.choosing: PendingChoice | None = None  # a "Did you mean X, or Y?" still asked

    # ------------------------------------------------------------------ output helpers

    def say(self, lines: Sequence[Line]) -> None:
        lines = grouped(self.narrator, lines)  # "Ada, Ben and Cleo: your roles are ..."
        for line in lines:
            if line.style != "private":
                self.log.write("narration", text=line.text, lang=line.lang)
        if lines:
            self.output.emit(lines)

    def say_key(self, key: str, **params: Any) -> None:
        self.say([self.narrator.line(key, **params)])

    # ------------------------------------------------------------------ persistence, grammar

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
        if self.move_said is not None and self.undo_stack:  # the move just made, in words
            self.undo_stack[-1].setdefault("move", self.move_said)
            self.move_said = None
        snap = self.snapshot()
        keep_saving(self, SavedGame(
            game=self.adapter.game, options=self.game_options, state=snap["state"],
            rng=snap["rng"], host_state=snap["host_state"], undo=self.undo_stack[-UNDO_DEPTH:],
            paused=self.paused, narration=self.narrator.turns, settings=self.settings,
            voices=vc.prints(self.voices)))

    def phase_grammar(self, phase: str) -> tuple[PhaseGrammar, Matcher]:
        """The phase's grammar now (with a waiting "Did you mean"'s answers), and its matcher."""
        pg = with_choice(self.grammar, phase, self.adapter.slot_values(self.state),
                         self.choosing)
        return pg, pg.matcher

    # ------------------------------------------------------------------ the loop

    def run(self, *, fresh: bool = True, offer_again: bool = False) -> Stop:
        """Host the game until it ends or stops; with ``offer_again``, the end asks "Play
        again with the same players?" in this loop (``Stop.AGAIN`` on a yes)."""
        stop = opening.begin(self, fresh=fresh)
        if stop is not None:
            return stop
        while True:
            if self.question is None and self.state.is_terminal():  # the end, said once
                stop = ending.finish(self, offer_again=offer_again)
                if stop is not None:
                    return stop  # else "Play again?" waits in self.question
            if self.question is not None:  # a yes/no question waits: its answer first
                stop = answer_question(self)
                if stop is not None:
                    return stop
                continue
            if self.state.is_chance_node():
                self.apply(self.adapter.chance(self.state, self.rng), record_undo=False)
                continue
            prompt = vc.prompt(self) or self.adapter.prompt(self.state)
            if prompt is None:
                if self.phones is not None:  # nobody is asked on a phone meanwhile
                    self.phones.companion.open_turn(())
                self.say(self.adapter.host_step(self.state))
                self.save()
                continue
            if prompt.key != self._last_prompt_key:
                self._last_prompt_key = prompt.key
                self.choosing = None
                self.last_lines = list(prompt.lines)
                self.patience.new_prompt()
                self.log.write("prompt", text=" ".join(line.text for line in prompt.lines),
                               phase=prompt.phase, expected=list(prompt.expected))
                self.say(prompt.lines)
            if self.phones is not None:
                again, stop = self.phones.before_listening(prompt)
                if stop is not None:
                    return stop
                if again:
                    continue
            stop = self.listen_once(prompt)
            if stop is not None:
                return stop

    # ------------------------------------------------------------------ listening

    def listen(self, request: ListenRequest) -> Heard:
        """The one way the host listens: logged (:class:`ListenLog`), then heard."""
        self.listen_log.started(request)
        return self.listener.listen(request)

    def listen_once(self, prompt: Prompt) -> Stop | None:
        phones = self.phones
        if phones is not None and phones.answers_too(prompt):
            # phones may answer this prompt too: listen in slices and look at them between
            return phones.listen_while_waiting(prompt, lambda: phones.companion.pending() > 0)
        pg, matcher = self.phase_grammar(prompt.phase) if prompt.kind is PromptKind.COMMAND \
            else (None, None)
        left = self.countdown.left(prompt)
        if left is not None and left <= 0 and not self.paused:
            return self.on_silence(prompt)  # the clock ran out during the last answer
        countdown = None if left is None else max(1, math.ceil(left - 1e-6))
        request = ListenRequest(
            grammar=pg, grammar_name=f"{self.adapter.game}.{prompt.phase}",
            expected=prompt.expected, timeout=self.options.silence_timeout,
            countdown=countdown, record=prompt.kind is PromptKind.RECORD,
            prompt=prompt, wants=prompt.wants)
        if countdown:
            self.output.tick(countdown)
        started = self.countdown.clock()
        heard = self.listen(request)
        if left is not None and not self.paused:
            self.countdown.spend(started)
        if heard.kind is HeardKind.SILENCE:  # a silent listen waited at least its timeout
            return self.on_silence(prompt, max(request.timeout,
                                               self.countdown.clock() - started))
        return self.handle(prompt, heard, matcher)

    def handle(self, prompt: Prompt, heard: Heard, matcher: Matcher | None) -> Stop | None:
        self.last_heard = heard
        if heard.kind is HeardKind.END:
            self.save()
            self.say_key(resume_key("common.input_ended", self.options.save_path),
                         file=save_name(self.options.save_path))
            self.log.write("stopped", reason="input_ended")
            return Stop.INPUT_ENDED
        if heard.kind is HeardKind.ERROR:
            self.log.write("input_error", error=heard.error, source=heard.source)
            self.say([error_line(self.narrator, heard), *self.reminder(prompt)])
            return None
        if heard.kind is HeardKind.SILENCE:
            return self.on_silence(prompt)
        self.patience.heard()
        right_after = self.recent.heard()
        if prompt.kind is PromptKind.RECORD:  # a message, or a sentence to learn a voice
            return take_recording(self, prompt, heard)
        assert matcher is not None
        heard = vc.hear(self, heard)  # with its voice: who spoke, when the host can tell
        speaker = self.resolve_speaker(heard.speaker or voice_seat(heard), prompt)
        if heard.speaker and speaker is None:
            self.log.write("unknown_speaker", speaker=heard.speaker, transcript=heard.text)
            self.say_key("common.unknown_speaker", name=heard.speaker,
                         players=self.narrator.names(self.state.players))
            return None
        call = addressed(heard.judgement.free_text if heard.judgement else heard.text,
                         self.narrator.lang)
        if call is not None:  # "host, ...": the words after the address are the command
            heard = without_address(heard, call.rest)
            if not call.rest:
                self.say_key("common.listening")
                return None
        key = adapters.move_key(self.adapter, self.state, speaker)
        prior = adapters.reading_prior(self.adapter, self.state,
                                       self.phase_grammar(prompt.phase)[0])
        understood = understand(heard, matcher, speaker=speaker, key=key, prior=prior)
        best, result = understood.best, understood.result
        self.log.write("heard", speaker=speaker, transcript=heard.text, source=heard.source,
                       intent=best.intent if best else None,
                       slots=dict(best.slots) if best else {},
                       confidence=round(understood.confidence, 3),
                       recognizer_confidence=round(heard.confidence, 3), **vc.logged(self.voice),
                       rejected=heard.rejected, free=getattr(heard.judgement, "free_text", None))
        if right_after and is_correction(heard, understood, self.narrator.lang):
            return self.universal(IntentMatch("undo", {}, 1.0, heard.text), prompt)
        if best is None or result is None:
            not_a_command(self, prompt, heard, understood, speaker, call is not None)
            return None
        choice = self.choosing
        if best.intent not in UNIVERSAL:  # an answer or another command ends the question
            self.choosing = None
        if best.intent == CHOOSE_INTENT and choice is not None:
            return take_choice(self, choice, best, prompt, heard)
        if best.intent == CHOOSE_INTENT or asked_which(self, result, speaker, prompt) \
                or vc.asked_whose(self, prompt, best, heard, speaker, voice_seat(heard)):
            return None
        return self.act(best, prompt, heard, speaker, understood)

    def act(self, best: IntentMatch, prompt: Prompt, heard: Heard, speaker: str | None,
            understood: Understood | None, *, chosen: bool = False) -> Stop | None:
        """Carry out an understood command: a universal one, or the game's move."""
        if best.intent in UNIVERSAL:
            return self.universal(best, prompt)
        if self.paused:  # a move while paused: the players are back, the game goes on
            self.paused = False
            self.log.write("resumed", by=best.intent)
            self.say_key("common.resuming")
        decision = self.adapter.interpret(self.state, best, speaker)
        return self.carry_out(decision, best, prompt, heard, speaker, understood,
                              chosen=chosen)

    def resolve_speaker(self, named: str | None, prompt: Prompt) -> str | None:
        if named:
            return find_player(self.state.players, named)
        return prompt.expected[0] if len(prompt.expected) == 1 else None

    def reminder(self, prompt: Prompt) -> list[Line]:
        return list(prompt.reminder or prompt.lines)

    def on_silence(self, prompt: Prompt, waited: float | None = None) -> Stop | None:
        if prompt.phase == vc.ENROL_PHASE:
            return vc.on_silence(self)
        self.patience.on_silence(self, prompt, self.options.silence_timeout
                                 if waited is None else waited)
        return None

    def carry_out(self, decision: Decision, match: IntentMatch, prompt: Prompt, heard: Heard,
                  speaker: str | None, understood: Understood | None = None, *,
                  chosen: bool = False) -> Stop | None:
        """Say the adapter's reply; then check the action on a copy of the game, confirm it
        when it needs it (``chosen``: named in answer to "Did you mean X, or Y?"), and apply
        it with its follow-ups."""
        if decision.reply:
            self.say(decision.reply)
        if decision.action is None:
            if decision.reply:  # the host refused the command: say why in the log too
                self.log_refusal(RefusalRecord(
                    reason=" ".join(line.text for line in decision.reply),
                    intent=match.intent, slots=match.slots, speaker=speaker))
            return None
        if not dry_run(self, [decision.action, *decision.then]):
            return None
        if confirm_decision(self, decision, match, prompt, heard, understood, chosen=chosen):
            make_move(self, decision)
        return None

    def apply(self, action: Action, *, record_undo: bool = True) -> bool:
        before = self.snapshot()
        try:
            events = self.state.apply(action)
        except IllegalAction as exc:
            refuse(self, action, exc)
            return False
        if record_undo:
            self.push_undo(before)
            self.recent.moved()
        # the log is for everyone: secrets (dealt roles, drawn icons, the key, secret cards,
        # private events) are masked; the save file keeps them, for resume
        self.log.write("action", action=public_record(action),
                       events=[public_record(e) for e in events])
        # narrated before the save, so that the save keeps which wordings were said
        lines = self.adapter.narrate(self.state, events)
        self.save()
        if self.companion is not None:
            if record_undo:  # a player's move: with physical cards the seats lock now
                self.companion.game_started()
            self.companion.publish(self.state)
        self.say(lines)
        return True

    def push_undo(self, before: dict[str, Any]) -> None:
        """One move was made from ``before``: ``undo`` goes back to it."""
        self.undo_stack.append(before)
        del self.undo_stack[:-UNDO_DEPTH]

    def log_refusal(self, record: RefusalRecord) -> None:
        self.log.write("refused", **record.fields())

    # ------------------------------------------------------------------ universal commands

    def universal(self, match: IntentMatch, prompt: Prompt) -> Stop | None:
        """Carry out a universal command (help, repeat, undo, stop ...)."""
        return COMMANDS[match.intent](self, match, prompt)

    def forget_prompt(self) -> None:
        """The game went back (undo): the next prompt is said again, with a new clock."""
        self._last_prompt_key = None
        self.countdown.reset()
