"""A free recording's answer (the Speaker's coded sentence): a universal command said
instead of the message, or the message itself, taken or refused by the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from voice_host.host.core import voices
from voice_host.host.core.adapter import Prompt
from voice_host.host.core.commands import command_in_recording
from voice_host.host.core.refusals import RefusalRecord
from voice_host.host.core.values import Heard, Stop

if TYPE_CHECKING:
    from voice_host.host.core.session import Session


def take_recording(s: Session, prompt: Prompt, heard: Heard) -> Stop | None:
    """Carry out a RECORD prompt's answer: one move and one undo step when taken (an
    enrolment's sentence teaches the host a player's voice instead)."""
    if prompt.phase == voices.ENROL_PHASE:
        return voices.take(s, heard)
    command = command_in_recording(s, heard)
    if command is not None:  # "repeat", "pause", "stop the game"... not a message
        return s.universal(command, prompt)
    before = s.snapshot()
    recording = s.adapter.on_recording(s.state, heard)
    if recording.taken:  # the message was taken: one move, one undo step
        s.log.write("recorded", speaker=heard.speaker, source=heard.source)
        s.push_undo(before)
    elif recording.lines:  # refused (too long, the wrong player): the reason is logged
        s.log_refusal(RefusalRecord(
            reason=" ".join(line.text for line in recording.lines), intent="record",
            speaker=heard.speaker))
    s.say(list(recording.lines))
    s.save()
    return None
