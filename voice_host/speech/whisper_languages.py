"""Settings of the Whisper recognizer that differ by language.

English runs on tiny.en, French on the multilingual base model, and the two hear short
commands differently: base's French transcripts of clear voices split and merge words far
more often, and its grammar rollouts leave a French grammar after a token or two. What a
language needs beyond :class:`~voice_host.speech.whisper_asr.WhisperTuning`'s defaults is
here, so that tuning one language never moves the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from voice_host.speech.decision import SearchTuning


@dataclass(frozen=True)
class LanguageTuning:
    """What one language changes in the recognizer's defaults (None: the default)."""

    window_seconds: float | None = None
    """The encoder's window (see ``WhisperTuning.window_seconds``)."""
    search: SearchTuning | None = None
    """The grammar search and the rejection, instead of ``WhisperTuning.search``."""
    near: bool = False
    """Rejected utterances are searched again in the sentences nearest the free transcript
    (``SearchTuning.near_sentences``; off otherwise). Measured on the clean natural voices
    of the report split: English tiny.en gained no command from it (55/59 either way) for
    half as much CPU again on rejected utterances; French base gained."""


FRENCH = LanguageTuning(
    window_seconds=30.0,
    search=SearchTuning(rescue_rounds=2),
    near=True,
)
"""French (Whisper base). The whole 30-s window: on 30 French Kokoro commands of the
calibration split, base's free decode misspelt 74.6% of the words with an 8-s window and
65.7% with 30 s (faster-whisper's own beam-5 transcription of the same audio: 69.4%), and the
grammar search starts from that decode. Two rescue rounds: a French rollout often leaves the
grammar after a token or two, and a search that has found no sentence yet gets two more."""

LANGUAGES: dict[str, LanguageTuning] = {"fr": FRENCH}
"""Per language, what differs from the defaults (a language not here takes them all)."""
