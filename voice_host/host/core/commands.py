"""The universal commands, one handler each: help, repeat, score, status, the board, what
was tried, a move code, speed and volume, pause and resume, undo and stop. They work in
every game and phase; the table's keys are the intents the loop treats as universal."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from voice_host.host.core.adapter import Prompt, PromptKind
from voice_host.host.core.questions import ask
from voice_host.host.core.store import resume_key, save_name
from voice_host.host.core.values import Heard, Stop
from voice_host.intent import IntentMatch

if TYPE_CHECKING:
    from voice_host.host.core.session import Session

Handler = Callable[["Session", IntentMatch, Prompt], "Stop | None"]
"""Carries out one universal command; a Stop ends the session."""


def _help(s: Session, match: IntentMatch, prompt: Prompt) -> None:
    if prompt.kind is PromptKind.RECORD:
        # what to say now is a free sentence, not a command
        s.say_key("common.help_record", player=prompt.expected[0] if prompt.expected
                  else "")
        return
    pg, _ = s.phase_grammar(prompt.phase)
    phrases = pg.help_phrases()
    examples = [ps[0] for name, ps in phrases.items() if ps and name not in UNIVERSAL]
    examples = examples[:6] or [ps[0] for ps in phrases.values() if ps][:4]
    s.say([s.narrator.line("common.help", examples="; ".join(examples))])


def _repeat(s: Session, match: IntentMatch, prompt: Prompt) -> None:
    if s.choosing is not None:  # "Did you mean X, or Y?" waits: ask it again
        s.say(s.choosing.question)
        return
    s.say(s.last_lines or s.reminder(prompt))


def _score(s: Session, match: IntentMatch, prompt: Prompt) -> None:
    s.say(s.adapter.score(s.state))


def _status(s: Session, match: IntentMatch, prompt: Prompt) -> None:
    s.say(s.adapter.status(s.state))


def _read_board(s: Session, match: IntentMatch, prompt: Prompt) -> None:
    s.say(s.adapter.board(s.state))


def _list_tried(s: Session, match: IntentMatch, prompt: Prompt) -> None:
    s.say(s.adapter.tried(s.state))


def _move_code(s: Session, match: IntentMatch, prompt: Prompt) -> None:
    if s.phones is None:
        s.say_key("companion.no_companion")
        return
    s.phones.show_move_code(str(match.slots.get("player", "")))


def _adjust(**delta: float) -> Handler:
    def adjust(s: Session, match: IntentMatch, prompt: Prompt) -> None:
        s.output.adjust(rate=int(delta.get("rate", 0)), volume=delta.get("volume", 0.0))
        s.say_key(f"common.{match.intent}")
    return adjust


def _pause(s: Session, match: IntentMatch, prompt: Prompt) -> None:
    s.paused = True
    s.save()
    s.say_key("common.paused")


def _resume(s: Session, match: IntentMatch, prompt: Prompt) -> None:
    if s.paused:
        s.paused = False
        s.say_key("common.resuming")
        s.say(s.last_lines)
    else:
        s.say_key("common.not_paused")


def _undo(s: Session, match: IntentMatch, prompt: Prompt) -> None:
    if not s.undo_stack:
        s.say_key("common.nothing_to_undo")
        return
    last = s.undo_stack[-1]
    # the move in words, as it was made (an undo step saved before version 3, or a move
    # made without words, such as a recorded message, has none: a generic sentence)
    what = last.get("move") if isinstance(last.get("move"), str) else None

    def answered(yes: bool | None) -> None:
        if not yes:
            s.say_key("common.not_undone")
            return
        if not s.undo_stack or s.undo_stack[-1] is not last:
            return  # the game moved on meanwhile: nothing of that move to take back
        s.undo_stack.pop()
        s.recent.close()
        s.restore(last)
        s.forget_prompt()
        s.log.write("undo", move=what)
        s.move_said = None
        s.save()
        if what:
            s.say_key("common.undone_what", what=what)
        else:
            s.say_key("common.undone")

    if s.options.confirm == "never":
        answered(True)
        return
    ask(s, prompt, [s.narrator.line("common.confirm_undo_what", what=what) if what
                    else s.narrator.line("common.confirm_undo")], answered)


def _quit(s: Session, match: IntentMatch, prompt: Prompt) -> Stop | None:
    def answered(yes: bool | None) -> Stop | None:
        if not yes:
            s.say_key("common.not_quit")
            return None
        s.save()
        s.say_key(resume_key("common.quit", s.options.save_path),
                  file=save_name(s.options.save_path))
        s.log.write("stopped", reason="quit")
        return Stop.QUIT

    if s.options.confirm == "never":
        return answered(True)
    ask(s, prompt, [s.narrator.line("common.confirm_quit")], answered)
    return None


def _stray_answer(s: Session, match: IntentMatch, prompt: Prompt) -> None:
    # "miss" or "yes" where no yes-or-no question waits: that question, again
    s.say([s.narrator.line("common.answer_not_asked"), *s.reminder(prompt)])


def _learn_voice(s: Session, match: IntentMatch, prompt: Prompt) -> None:
    """"Host, learn my voice": the speaker (by name, voice or the prompt) says a sentence
    again; "learn our voices", or a speaker the host cannot tell: every player does."""
    if s.voices is None:
        s.say_key("common.voice_off")
        return
    heard = s.last_heard
    named = heard.speaker if heard is not None else None
    voice = s.voice.seat if s.voice is not None else None
    who = s.resolve_speaker(named or voice, prompt)
    everyone = match.slots.get("who") == "all" or who is None
    s.log.write("voice_relearn", players="all" if everyone else who)
    s.voices.begin(list(s.state.players) if everyone else [who] if who else [])
    s.forget_prompt()  # the game's prompt is said again after the enrolment


COMMANDS: dict[str, Handler] = {
    "help": _help,
    "repeat": _repeat,
    "score": _score,
    "status": _status,
    "read_board": _read_board,
    "undo": _undo,
    "pause": _pause,
    "resume": _resume,
    "quit": _quit,
    "slower": _adjust(rate=-30),
    "faster": _adjust(rate=30),
    "louder": _adjust(volume=0.2),
    "quieter": _adjust(volume=-0.2),
    "list_tried": _list_tried,
    "move_code": _move_code,
    "stray_answer": _stray_answer,
    "learn_voice": _learn_voice,
}
"""Intent -> its handler."""

UNIVERSAL = frozenset(COMMANDS)
"""The intents that work in every phase."""


def command_in_recording(s: Session, heard: Heard) -> IntentMatch | None:
    """A free recording that is exactly a universal command (as typed or transcribed)
    is the command, not the Speaker's message."""
    if not heard.text.strip():
        return None
    _, matcher = s.phase_grammar("answer")
    best = matcher.match(heard.text).best
    if best is not None and best.intent in UNIVERSAL and best.confidence >= 0.95:
        return best
    return None
