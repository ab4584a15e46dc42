"""The host's voice: lines spoken by the synthesizer (to the speakers or to numbered WAV
files), cue sounds and recordings played through it, each line also shown as a caption."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from voice_host.host.core.messages import say
from voice_host.host.core.secrets import SecretSink
from voice_host.host.core.values import Line, Style
from voice_host.host.io.terminal import TextOutput
from voice_host.speech.cues import load_cue
from voice_host.speech.effects import radio_effect, silence
from voice_host.speech.synthesizer import Synthesizer
from voice_host.speech.types import SpeechError


class SpeechOutput:
    """Speaks lines with the synthesizer (to the speakers or to numbered WAV files), plays
    cue sounds and recordings, and prints each line as a caption."""

    def __init__(self, synth: Synthesizer, *, captions: TextOutput | None,
                 secret_sink: SecretSink | None) -> None:
        self.synth = synth
        self.captions = captions
        self.secret_sink = secret_sink
        self.failed = False
        """The speaker went away: lines are only shown, no longer spoken."""

    def emit(self, lines: Sequence[Line]) -> None:
        spoken = [line for line in lines if line.text and line.style is not Style.PRIVATE]
        for line in lines:
            if line.style is Style.PRIVATE:
                if self.secret_sink:
                    self.secret_sink(line)
                continue
            if self.captions:
                self.captions.emit([line])
            if self.failed:
                continue
            try:
                if line.cue:
                    if line.text:  # rendered while the cue plays
                        self._prepare(line)
                    self.synth.play(load_cue(line.cue), label=line.cue)
                if line.text:
                    self._prepare_after(line, spoken)
                    # the radio's lines (the call sign, a typed coded sentence) are heard
                    # through the radio, like a recorded one
                    self.synth.say(line.text, lang=line.lang,
                                   effect="radio" if line.style is Style.RADIO else None)
                if line.recording is not None and len(line.recording):
                    audio = radio_effect(line.recording) if line.effect == "radio" \
                        else line.recording
                    self.synth.play(audio, label="recording")
                if line.pause_after > 0:
                    self.synth.play(silence(line.pause_after), label="pause")
            except SpeechError as exc:
                if not self.failed:  # say it once; the captions go on
                    print(say("output.failed", line.lang, error=exc), file=sys.stderr)
                self.failed = True

    def _prepare(self, line: Line) -> None:
        """Have ``line`` rendered in the background (a narrator that can)."""
        prepare = getattr(self.synth, "prepare", None)
        if prepare is not None and not self.failed:
            prepare(line.text, lang=line.lang)

    def _prepare_after(self, line: Line, spoken: Sequence[Line]) -> None:
        """Have the next spoken line rendered while this one plays."""
        index = next((i for i, other in enumerate(spoken) if other is line), -1)
        if 0 <= index < len(spoken) - 1:
            self._prepare(spoken[index + 1])

    def adjust(self, *, rate: int = 0, volume: float = 0.0) -> str:
        if rate:
            (self.synth.faster if rate > 0 else self.synth.slower)()
        if volume:
            (self.synth.louder if volume > 0 else self.synth.quieter)()
        return "rate" if rate else "volume"

    def tick(self, remaining: int) -> None:
        if self.captions:
            self.captions.tick(remaining)
        # ticks do not block and do not close the microphone: players answer over them
        self.synth.play(load_cue("tick"), label="tick", wait=False, gate=False)

    def close(self) -> None:
        pass
