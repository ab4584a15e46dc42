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
    (``SearchTuning.near_sentences``; off otherwise). Both languages do (see ``ENGLISH``
    and ``FRENCH``)."""
    threads: int | None = None
    """CTranslate2's threads for this language's model (``WhisperTuning.threads``)."""
    workers: int | None = None
    """CTranslate2's workers for this language's model (``WhisperTuning.workers``)."""
    decoder: str | None = None
    """The decoder the search asks (``WhisperTuning.decoder``)."""
    speculate_wait_frames: int | None = None
    """Quiet frames beyond ``heard_frames`` before the decode in the trailing silence starts
    (``WhisperTuning.speculate_wait_frames``)."""
    memory_seconds: float | None = None
    """The encoder output after the utterance the decoder attends to, in seconds
    (``WhisperTuning.memory_seconds``; None: the whole window)."""


FRENCH = LanguageTuning(
    window_seconds=30.0,
    search=SearchTuning(rescue_rounds=2, complete_rounds=2, sure_alone=0.0,
                        accept_margin=-0.85, min_similarity=0.6, free_min_logp=-0.8,
                        close_margin=-1.2, sound_similarity=0.65, sound_margin=-1.6),
    near=True,
    memory_seconds=12.0,
    decoder="own",
    speculate_wait_frames=6,
)
"""French (Whisper base).

- The whole 30-s window, the one base was trained on: its grammar search scores French
  commands better in it than in English's 8 s (more clean Kokoro commands understood and
  fewer chatter lines acted on, for about twice the CPU). The decoder attends only to the
  utterance and the 12 s after it (``memory_seconds``): each decoder call projects only the
  frames it attends to, which were most of French's CPU over the whole window, and with
  much less than 12 s after the speech base writes talk as a command it expects.
- Its bars differ from English's: a grammar reading unlike the free transcript needs a
  margin of 0 to stand alone, a reading like it a similarity of 0.6, and the free
  transcript counts as confident down to a mean log-probability of -0.8. Base writes
  French talk it hears badly as flat, unsure text, against which a forced reading can look
  sure, while its French commands, even heard right, score lower than tiny.en's English.
  It accepts at -0.85, and a reading almost exactly like the transcript down to -1.2.
- A reading that *sounds* like the free transcript (espeak-ng's French phonemes,
  :mod:`voice_host.speech.sounds`, at least 0.65 alike) is taken down to a margin of -1.6,
  at the lowest confidence, so the host confirms a move first: base spells accented French
  as it hears it ("mepos" for "mets pause", "la top se jaque" for "la taupe c'est jack").
  Not in the Codenames clue phase (an open slot; see ``SearchTuning.sound_margin``).
- Two rescue rounds: a French rollout often leaves the grammar after a token or two, and a
  search that has found no sentence yet gets two more.
- Two rounds to complete a sentence cut short ("thomas" for "thomas partent en mission").
- The decode in the trailing silence starts after 12 quiet frames (360 ms) instead of 6
  (``speculate_wait_frames``): the pause after an opening filler ("bon, ...") is 6 to 11
  frames long for most voices of the calibration split, and a French decode started there
  and called off when the speech goes on spends its encoder's CPU (about 1.3 s) for
  nothing. The audio decoded is the same, so is the outcome; the decode still starts
  before the endpointer's cut (half a second).
- voice-host's own decoder (``decoder``, :mod:`voice_host.speech.whisper_decoder`), as
  English: it projects the encoder's output for the cross-attention once an utterance and
  keeps the prompt and every prefix, where CTranslate2's ``generate`` computes them again
  for every row of every call. On the benchmark's French commands it understands as many
  and spends less CPU a sentence; it holds base's decoder in float32 (about 300 MB more).
  ``--whisper decoder=ctranslate2`` decodes with CTranslate2.

Every value was chosen on the benchmark's calibration split and checked on its report split
(``docs/recognition.md``)."""

ENGLISH = LanguageTuning(search=SearchTuning(rescue_rounds=2, rescue_from=2, open_rounds=1,
                                             talk_rounds=1, sound_similarity=0.6,
                                             sound_margin=-1.6, sound_unsure_only=True,
                                             sound_near=False, long_close_similarity=0.7),
                         near=True, threads=1, workers=2, decoder="own")
"""English (Whisper tiny.en): the defaults, and

- voice-host's own run of the decoder (``decoder``, :mod:`voice_host.speech.whisper_decoder`),
  which keeps the audio's cross-attention memory, the prompt and every prefix for the whole
  utterance, where CTranslate2's ``generate`` computes them again for every row of every
  call: the search's many short calls then cost about half the CPU, and the wait from the
  end of speech to the intent drops to tens of milliseconds. With CTranslate2
  (``--whisper decoder=ctranslate2``) the two workers below apply.
- A grammar reading that sounds like tiny.en's transcript (``SearchTuning.sound_similarity``
  0.6, down to a margin of -1.6, confirmed first), only when tiny.en was unsure of that
  transcript (``sound_unsure_only``): tiny.en spells a word it did not catch as it sounds
  ("pass" written "buzz", "board" written "ballard"), but a transcript it was sure of is
  words it heard, and a reading that merely sounds like them is another sentence ("pass me
  the chips please" is not *pick boat*).
- A reading of three words or more counts as close to the free transcript (the close rule,
  down to ``close_margin``) from a similarity of 0.7 (``long_close_similarity``), not 0.8:
  in a reverberant room tiny.en writes "which was on left" for "which words are left".
  One and two words keep 0.8: "well" is 0.75 like "bell".
- The sentences nearest a rejected transcript are searched too (``near``, as in French),
  and the sound rule does not take what that search found (``sound_near`` off). tiny.en
  inserts, drops and cuts words in long sentences ("i'll try bill and lighten them" for
  "i'll try bell and lightning"), where the token-by-token search finds no sentence; the
  near search picks its sentences for being spelled like the transcript, so that they sound
  like it says little. The cost is CPU on rejected utterances, mostly table talk.
- One CTranslate2 thread, not one per core: a decoder step of tiny.en is too small to share
  (the threads meet at every layer of every step; a call of six rows takes about 140 ms on
  one thread and 250 ms on two), so the decode started in the trailing silence mostly ends
  before the endpointer cuts, and while a player talks the other core is the endpointer's.
  French (base, whose 30-s encoder is most of its work) keeps every core.
- Two CTranslate2 workers of one thread each (``workers``): a decoder call of several rows is
  split in two runs posted at once, one on each core, and the encoder gets a copy of the
  model on both (a search round of six rows about 40% sooner).
- Two rescue rounds, only where the free decode's first two tokens stay inside the phase's
  (first) grammar and its transcript is unsure (``SearchTuning.rescue_from``): "the clue is
  house, two" written "the clueless house too" is found in them, and table talk, where
  they cost most, rarely starts inside a grammar.
- One round, not two, for the second search of a phase with an open slot (the Codenames
  clue: its likely words are searched first, the slot open to any word then), and for a
  search whose free decode is sure talk that leaves its grammar (``talk_rounds``): fewer
  decoder calls, the same outcomes.

Every value was chosen on the benchmark's calibration split and checked on its report split
(``docs/recognition.md``)."""

LANGUAGES: dict[str, LanguageTuning] = {"en": ENGLISH, "fr": FRENCH}
"""Per language, what differs from the defaults (a language not here takes them all)."""
