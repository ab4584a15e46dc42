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
    search=SearchTuning(rescue_rounds=2, complete_rounds=2, sure_alone=-0.05),
    near=True,
)
"""French (Whisper base).

- The default 8-s window, not the whole 30 s: base's free decode of 30 French Kokoro
  commands of the calibration split misspelt 69.9% of the words with 8 s and 68.4% with 30 s
  (greedy, no prompt), for 2.5 times the CPU (RTF 1.05 -> 2.98), and with 30 s espeak-ng's
  short French words went wrong ("non" read as "encore une fois" at a -0.2 bar, "oui" heard
  as nothing). Measured again on the calibration split's French (``voice-host bench --quick
  --languages fr --split calib``, ``--tuning window=30`` for 30 s; a loaded machine): the
  30-s window understood more clean Kokoro commands (17/31 against 13/31) but fewer
  espeak-ng ones (1/17 against 3/17), acted on 6 of 62 chatter lines against 2 (4 against
  1 changing the game), at 2.8 times the CPU (RTF 2.77 against 1.13). Re-deciding its saved
  outcomes, ``sure_alone=0,accept_margin=-0.85,min_similarity=0.6,free_min_logp=-0.8,
  close_margin=-1.2`` kept the 17/31 and acted on 1 of 62 (26/96 commands in all, against
  28): a candidate still to be measured on the report split before it replaces 8 s. At 8 s
  no such re-decision took a false action off without losing commands.
- Two rescue rounds: a French rollout often leaves the grammar after a token or two, and a
  search that has found no sentence yet gets two more.
- Two rounds to complete a sentence cut short ("thomas" for "thomas partent en mission").
- A grammar reading unlike the free transcript needs a margin of -0.05 to stand alone
  (English: -0.2): base writes French talk it hears badly as flat, unsure text, against
  which a forced reading can look sure ("à quelle heure tu pars demain", in pink noise,
  read as "oscar thibault marc non" at -0.07). On the calibration split's saved outcomes
  this took one false action off and no command."""

LANGUAGES: dict[str, LanguageTuning] = {"fr": FRENCH}
"""Per language, what differs from the defaults (a language not here takes them all)."""
