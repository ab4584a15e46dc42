"""The demo players' voices: every seat its own, none at the narrator's pitch, and a pitch
moved without changing the pace (checked on a made-up engine's tone, not on a voice)."""

from __future__ import annotations

import numpy as np

from voice_host.host.cli.demo_voices import ESPEAK_SEATS, PIPER_SEATS, PlayerSpeech, PlayerVoice
from voice_host.speech.synthesizer import Rendered, VoiceSettings
from voice_host.speech.types import SAMPLE_RATE

TONE = 200.0
"""The made-up engine's pitch, in hertz."""


class ToneEngine:
    """Says anything as a 200 Hz tone lasting one second at 175 words a minute (slower
    rates last longer, as Piper's do)."""

    name = "tone"
    rate = 22_050

    def has_voice(self, voice: str) -> bool:
        return True

    def synthesize(self, text: str, *, voice: str, settings: VoiceSettings) -> Rendered:
        seconds = 175 / settings.rate
        t = np.arange(int(seconds * self.rate)) / self.rate
        tone = (0.5 * np.sin(2 * np.pi * TONE * t) * 32767).astype(np.int16)
        return Rendered(tone, self.rate, text)


def pitch(samples: np.ndarray) -> float:
    spectrum = np.abs(np.fft.rfft(samples.astype(np.float64)))
    return float(np.argmax(spectrum) * SAMPLE_RATE / len(samples))


def test_a_moved_pitch_keeps_the_pace() -> None:
    speech = PlayerSpeech(ToneEngine(), natural=True)  # type: ignore[arg-type]
    plain = speech.render("moon", PlayerVoice("en-us", 175))
    for semitones in (-2.5, 3.5, 12.0):
        moved = speech.render("moon", PlayerVoice("en-us", 175, semitones=semitones))
        assert abs(len(moved) - len(plain)) <= 0.02 * len(plain)
        assert abs(pitch(moved) / TONE - 2 ** (semitones / 12)) < 0.02
    assert abs(pitch(plain) - TONE) < 2


def test_every_seat_sounds_its_own_and_never_like_the_narrator() -> None:
    players = [f"P{i}" for i in range(10)]
    natural = PlayerSpeech(ToneEngine(), natural=True).voices(players)  # type: ignore[arg-type]
    assert len({(v.speed, v.semitones) for v in natural.values()}) == 10
    assert all(abs(v.semitones) >= 1.5 for v in natural.values())
    assert len(set(PIPER_SEATS)) == len(PIPER_SEATS) and len(set(ESPEAK_SEATS)) == 10
    espeak = PlayerSpeech(ToneEngine(), natural=False).voices(players)  # type: ignore[arg-type]
    assert [v.name for v in espeak.values()] == [s[0] for s in ESPEAK_SEATS]
