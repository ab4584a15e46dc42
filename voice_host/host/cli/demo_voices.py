"""The demo players' voices, through the speech layer's own engines.

A demo is something a person listens to, so its players speak with the most natural voice
installed: Piper's en_US-joe-medium (the speech extra), each seat at its own pitch and pace
so the table does not sound like one man talking to himself, and never at the narrator's
own pitch, so the host and the players can be told apart by ear. Without Piper the players
speak with espeak-ng's voices (a different voice, speed and pitch each), as they did before.

The pitch of a Piper voice is moved without changing its pace: the sentence is rendered
slower by the pitch factor, then read faster by the same factor when it is resampled to the
recognizer's rate.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from voice_host.speech.synthesizer import EspeakEngine, SynthesisError, TtsEngine, VoiceSettings
from voice_host.speech.types import SAMPLE_RATE, Samples
from voice_host.speech.wav import resample, to_int16

VOICE_CHOICES = ("auto", "piper", "espeak-ng")
"""``--voices``: Piper when installed (auto), Piper or nothing, or espeak-ng."""

ESPEAK_SEATS = (
    ("en-us", 165, 45), ("en-us+f3", 170, 60), ("en-us+m3", 155, 35), ("en-us+f2", 160, 70),
    ("en-gb", 150, 50), ("en-us+m7", 175, 40), ("en-us+f4", 165, 55), ("en-us+m1", 150, 50),
    ("en-us+f1", 170, 65), ("en-gb-x-rp", 160, 45),
)
"""(espeak-ng voice, words per minute, pitch 0-99): one per seat, all different. The
recognizer's model is English, so the table speaks mostly American-accented English; the
recognition benchmark measures the other accents too."""

PIPER_SEATS = (
    (155, -2.0), (160, 2.5), (150, 3.5), (165, -1.5), (145, 1.5), (160, -2.5), (155, 3.0),
    (150, -1.5), (165, 2.0), (145, -2.5),
)
"""(words per minute, pitch in semitones against the narrator's): one per seat, all
different, none within a semitone and a half of the narrator's own pitch, so a listener
tells them apart; none far from it or fast either (four semitones down at 180 words a minute
was heard far worse by the recognizer)."""


@dataclass(frozen=True)
class PlayerVoice:
    """One synthesized player's voice."""

    name: str
    """The engine's voice name (espeak-style: ``en-us``, ``en-us+f3``)."""
    speed: int
    """Words per minute."""
    pitch: int = 50
    """espeak-ng's pitch, 0-99 (espeak-ng seats)."""
    semitones: float = 0.0
    """How far the voice is moved from the engine's own pitch (Piper seats)."""


class PlayerSpeech:
    """Renders what a demo player says, at the recognizer's rate (16 kHz mono)."""

    def __init__(self, engine: TtsEngine, *, natural: bool) -> None:
        self.engine = engine
        self.natural = natural
        """True when the players speak with Piper (their pitch is moved by resampling)."""

    @property
    def description(self) -> str:
        """What the players sound like, for the screen."""
        if self.natural:
            return ("Players: Piper's en_US-joe-medium voice, each seat at its own pitch "
                    "and pace.")
        return "Players: espeak-ng voices, each seat its own."

    def voices(self, players: tuple[str, ...] | list[str]) -> dict[str, PlayerVoice]:
        """One voice per seat, in seat order."""
        if self.natural:
            seats = [PIPER_SEATS[i % len(PIPER_SEATS)] for i in range(len(players))]
            return {p: PlayerVoice("en-us", speed, semitones=shift)
                    for p, (speed, shift) in zip(players, seats, strict=True)}
        return {p: PlayerVoice(*ESPEAK_SEATS[i % len(ESPEAK_SEATS)])
                for i, p in enumerate(players)}

    def render(self, text: str, voice: PlayerVoice) -> Samples:
        factor = 2.0 ** (voice.semitones / 12.0)
        settings = VoiceSettings(rate=max(1, int(round(voice.speed / factor))),
                                 pitch=voice.pitch)
        rendered = self.engine.synthesize(text, voice=voice.name, settings=settings)
        audio = np.asarray(rendered.samples, dtype=np.float32) / 32768.0
        # read faster by ``factor``: the pitch rises by it, the pace comes back to ``speed``
        source_rate = int(round(rendered.rate * factor))
        return to_int16(resample(audio, source_rate, SAMPLE_RATE))


def player_speech(choice: str = "auto", *, shared: TtsEngine | None = None) -> PlayerSpeech:
    """The players' speech for ``--voices``: Piper when it loads (``auto``, ``piper``), else
    espeak-ng. ``shared``: the narrator's engine, whose Piper voice is used rather than a
    second copy. Raises :class:`SynthesisError` when the chosen engine cannot speak."""
    if choice in ("auto", "piper"):
        try:
            from voice_host.speech.piper_tts import PiperEngine

            primary = getattr(shared, "primary", None)
            if isinstance(primary, PiperEngine):
                return PlayerSpeech(primary, natural=True)
            return PlayerSpeech(PiperEngine(), natural=True)
        except SynthesisError:
            if choice == "piper":
                raise
    return PlayerSpeech(EspeakEngine(), natural=False)
