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
    and ``FRENCH`` for what it gained each)."""
    threads: int | None = None
    """CTranslate2's threads for this language's model (``WhisperTuning.threads``)."""
    workers: int | None = None
    """CTranslate2's workers for this language's model (``WhisperTuning.workers``)."""
    decoder: str | None = None
    """The decoder the search asks (``WhisperTuning.decoder``)."""
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
)
"""French (Whisper base).

- The whole 30-s window, not English's 8 s. Base's free decode of French Kokoro commands
  misspells about as many words either way (calibration split, greedy, no prompt: 69.9%
  with 8 s, 68.4% with 30 s), but the grammar search scores the commands better with the
  window base was trained on. Calibration split (``voice-host bench --quick --languages fr
  --split calib``, ``--tuning window=30`` for 30 s; a loaded machine): 17/31 clean Kokoro
  commands against 13/31, for 2.8 times the CPU (RTF 2.77 against 1.13). Its bars were
  re-swept on that split's saved outcomes (``--from-results ... --tuning``): with the
  values below it kept the 17/31 and acted on 1 of 62 chatter lines (6 with 8-s bars). On
  the report split, run once each: Kokoro clean 43.2% (16/37) against 35.1% (13/37) with
  8 s, false actions 3.2% (2/62, one changing the game) against 8.1% (5/62, three), RTF
  1.92 against 1.15; espeak-ng's short French words went worse, 3/11 against 4/11.
- Not 20 s or 15 s: measured against 30 s on the calibration split, every condition, the
  same code (``voice-host bench --quick --jobs 1 --languages fr --systems
  whisper:grammar@fr --split calib --tuning window=W``; a repeated 20-s run gave the same
  outcome for every utterance), each with its bars re-swept on its saved outcomes. With the
  bars below: 30 s 30/96 commands (16/31 clean Kokoro), 3/62 chatter acted on (2 changing
  the game), RTF 1.52; 20 s 30/96 (16/31), 5/62 (3), RTF 1.14; 15 s 29/96 (14/31), 2/62
  (1), RTF 0.95 (loaded machine). Best within 1 of 62 chatter lines and none changing the
  game: 30 s 28/96, 15/31, none acted on (``min_similarity=0.64``, an edge: 0.62 acts
  on one, 0.65 loses three); 15 s 29/96, 14/31, one harmless "repeat"
  (``sure_alone=0.15``: a reading unlike its transcript never stands alone; the other
  bars as below, on a plateau); 20 s 26/96, 13/31, one harmless. 15 s garbles clear
  commands 30 s hears ("chloé partent en mission" as "chloe parta mission"), the clean
  Kokoro row that matters most.
- A grammar reading unlike the free transcript needs a margin of 0 to stand alone
  (English: -0.15), a reading like it needs a similarity of 0.6 (English 0.5), and the
  free transcript counts as confident down to a mean log-probability of -0.8 (English
  -0.6): base writes French talk it hears badly as flat, unsure text, against which a
  forced reading can look sure ("à quelle heure tu pars demain", in pink noise, read as
  "oscar thibault marc non" at -0.07), while its French commands, even heard right, score
  lower than tiny.en's English. Accepting at -0.85 (English -0.7), and a reading almost
  exactly like the transcript down to -1.2 (English -1.0), came with the same sweep.
- A reading that *sounds* like the free transcript (espeak-ng's French phonemes,
  :mod:`voice_host.speech.sounds`, at least 0.65 alike) is taken down to a margin of -1.6,
  at the lowest confidence, so the host confirms a move first: base spells the Kokoro
  voices' accented French as it hears it ("mepos" for "mets pause", "la top se jaque" for
  "la taupe c'est jack"). Calibrated on the calibration split's saved outcomes (``voice-host
  bench --from-results ... --tuning sound_similarity=S,sound_margin=M``, the decodes of
  ``--quick --jobs 1 --languages fr --systems whisper:grammar@fr --split calib``): 27 ->
  31 of 96 commands (clean 16 -> 19 of 48) and no more chatter acted on (2 of 62) for S
  from 0.65 to 0.7 and M from -1.4 to -2.0; 0.6 kept two more commands, but the calibration
  split's most alike chatter line stood at 0.59 ("j'ai eu de l'hacompanie à ta" read as
  "j'ai pas compris"), and at 0.55 one was acted on. Not in the Codenames clue phase (an
  open slot; see ``SearchTuning.sound_margin``): that cost one command there ("on fait une
  pause" in babble) and took one wrong clue away. English gained nothing from it on its own
  calibration split (133 of 192 at best, more chatter acted on below 0.85), so it is
  French's only.
- The decoder attends to the utterance and the 12 s of the window after it, not to all 30
  s (``memory_seconds``): the encoder still hears the whole window base was trained on,
  but each decoder call projects only the frames it attends to, and on a 30-s window
  those projections were most of French's CPU. Calibration split, each run beside another
  (``voice-host bench --quick --jobs 1 --languages fr --systems whisper:grammar@fr --split
  calib --whisper memory_seconds=M``): the whole window 31/96 commands (Kokoro clean 18/31),
  2/62 chatter acted on (both changing the game), RTF 1.70, p50 3.9 s; 12 s 35/96 (20/31),
  2/62 (1), RTF 1.14, p50 3.0 s; 6 s 32/96, 4/62; 2 s 31/96, 5/62 (4), RTF 0.81: with
  little after the speech, base writes talk as a command it expects ("il reste de la pizza
  dans la cuisine" as "je vote non"). Report split, the two side by side (the whole
  window as ``--whisper memory_seconds=30``): the whole window 34/96 (Kokoro clean 18/37),
  1/62 (none changing the game), p50 3.8 s, p95 5.9 s, RTF 1.47; 12 s 33/96 (19/37), 1/62
  (one: "je crois que mila nous ment" written "je choisis mila et moi"), p50 2.9 s, p95
  4.3 s, RTF 1.00.
- Two rescue rounds: a French rollout often leaves the grammar after a token or two, and a
  search that has found no sentence yet gets two more.
- Two rounds to complete a sentence cut short ("thomas" for "thomas partent en mission").
- CTranslate2's decoder, not our own (``decoder``, which English uses). Calibration split
  (``voice-host bench --quick --jobs 1 --languages fr --systems whisper:grammar@fr --split
  calib --whisper decoder=own``, session 23, on the AMD EPYC, beside other work) against
  session 22's run of the same code with CTranslate2: 39 against 42 of 96 commands (Kokoro
  clean 23/39 against 24/39; of the 158 utterance-conditions, 2 gained and 5 lost, among
  them base's free decode of "un agent bleu" written "on a jaubles euphé"), no talk acted
  on either way (0/62), RTF 2.20 -> 1.19 and p50 4.7 -> 2.1 s, peak RSS 1176 -> 1520 MB
  (base's decoder in float32 beside CTranslate2's). The bars were calibrated on
  CTranslate2's int8 figures; re-swept on these saved outcomes (``--from-results ...
  --tuning``) the sound rule at 0.6 instead of 0.65 brings ours to 43/96 with no talk acted
  on, where CTranslate2's outcomes give 43 too, but on the report split (``... --split
  report --whisper decoder=own``, against session 21's run in
  ``benchmarks/results/recognition-quick-fr.json``) ours made 40 against 39 of 96 (Kokoro
  clean 23/38 either way) with one table-talk line acted on (1/62, changing the game: "il
  doit faire beau dimanche" in babble at 6 dB, written "c'est ça c'est ça", as an answer),
  and 0.6 gained it nothing there. Both splits together: 79 against 81 commands, 1 against
  0 of 124 talk lines acted on, for half the wait and about 300 MB more; not switched."""

ENGLISH = LanguageTuning(search=SearchTuning(rescue_rounds=2, rescue_from=2, open_rounds=1,
                                             talk_rounds=1, sound_similarity=0.6,
                                             sound_margin=-1.6, sound_unsure_only=True,
                                             sound_near=False, long_close_similarity=0.7),
                         near=True, threads=1, workers=2, decoder="own")
"""English (Whisper tiny.en): the defaults, and

- Our own run of the decoder (``decoder``, :mod:`voice_host.speech.whisper_decoder`), which
  keeps the audio's cross-attention memory, the prompt and every prefix for the whole
  utterance, where CTranslate2's ``generate`` computes them again for every row of every
  call. On the AMD EPYC of sessions 21-23, the realtime report run (``voice-host bench
  --quick --jobs 1 --languages en --systems whisper:grammar --split report --realtime
  --whisper decoder=own``, alone on the machine) against session 22's run of CTranslate2:
  from the cut to the intent p50/p95 21/643 -> 1/72 ms over the 136 utterances that
  produced an intent (4 over 300 ms, 36 before), table talk refused p95 1517 -> 870 ms,
  RTF 0.56 -> 0.27, peak RSS 828 -> 927 MB; 128 against 127 of 192 commands, clean
  natural voices 61/61 against 60/61, no talk acted on either way (0/116), 6 of 308
  outcomes changed (4 commands gained, 3 lost). Its figures differ a little from
  CTranslate2's int8 (closer to float32), and the bars were calibrated on int8: on the
  calibration split (``... --split calib --whisper decoder=own``) 148 against 151 of 192
  commands (natural voices clean 95.2% either way; espeak-ng clean and babble at 12 dB one
  fewer each, talk 0/116 either way), CPU 0.51 -> 0.25 of real time.
  With CTranslate2 (``--whisper decoder=ctranslate2``) the two workers below apply.

- A grammar reading that sounds like tiny.en's transcript (``SearchTuning.sound_similarity``
  0.6, down to a margin of -1.6, confirmed first), only when tiny.en was unsure of that
  transcript (``sound_unsure_only``): "pass" written "buzz" (-1.36 a step), "board" written
  "ballard", "talk quicker please" written "dog quick up please". Without that guard the
  rule took words tiny.en heard clearly for another sentence: "pass me the chips please"
  (-0.25 a step) as *pick boat* ("the ship please"), "let's resume" written "that's
  review" as *yes*. Calibrated on the calibration split's saved outcomes (``voice-host bench
  --from-results ... --tuning sound_similarity=S,sound_margin=M,sound_unsure_only=1``):
  133 -> 136 of 192 commands, no more commands taken as another move or chatter acted on,
  for any S from 0.45 to 0.7 (0.6: the middle) and M from -1.4 to -3; at 0.4 two more
  chatter lines, two more wrong moves. Without the guard at 0.6: 140, but 3 chatter lines
  (one changing the game) and one more wrong. Checked, not chosen, on the report split's
  saved outcomes: 118 -> 124 of 192 (clean Kokoro and Festival 56 -> 59 of 61), none
  wrong or acted on more; the noise set 208 -> 220 of 384 with one more wrong move and one
  more chatter line (babble at 6 dB). French keeps its own rule without the guard (it
  costs French 3 of its 41 calibration commands).
- A reading of three words or more counts as close to the free transcript (the close rule,
  down to ``close_margin``) from a similarity of 0.7 (``long_close_similarity``), not 0.8: in
  a reverberant room tiny.en writes "which was on left" for "which words are left" (0.76,
  -0.85 a step) and "be vote this adree" for "me vote disagree" (0.77, -0.98). Calibrated on
  the calibration split's noise set (every command in clean, the room and babble at 12 and
  6 dB: ``voice-host bench --quick --jobs 1 --languages en --systems whisper:grammar --split
  calib --noise-set``, its outcomes decided again with ``long_close_similarity=S``): 257 ->
  258 of 384 commands for any S from 0.76 down to 0.6 (0.7: the middle), no more commands
  taken as another move and no more table talk acted on (2/232, harmless). No saved
  calibration run of sessions 21-24 acts on more talk at 0.6. One and two words keep 0.8:
  "well" is 0.75 like "bell".
- The sentences nearest a rejected transcript are searched too (``near``, as in French),
  and the sound rule does not take what that search found (``sound_near`` off). tiny.en
  inserts, drops and cuts words in long sentences ("i'll try bill and lighten them" for
  "i'll try bell and lightning", "let's go in sabotage three times" for "let's go with
  sabotaged three times"), and the grammar search, stepping token by token from the free
  decode, found no sentence or only a worse one; among the sentences spelled nearest the
  transcript, the decoder's exact scores then pass the margin test. Decided on the
  calibration split (``voice-host bench --quick --jobs 1 --languages en --systems
  whisper:grammar --split calib [--noise-set] --tuning near=1[,sound_near=0]``, session
  20): 150 -> 152 of 192 commands, the same chatter and wrong moves; every utterance in
  every condition of the noise set, 253 -> 257 of 384, chatter 7/232 either way, one more
  command taken as another move ("continue please" in babble at 12 dB as "correct please").
  With the sound rule on for its finds as well, the noise set took one more chatter line
  ("two missions in a row failed", babble at 6 dB, written "and missions in a rope", as
  the guess *rope*, sounding 0.67 alike at -0.76 a step): the near search chose the
  sentence for being spelled like the transcript, so that it sounds like it says little.
  The cost is CPU on rejected utterances, mostly table talk: RTF 0.12 -> 0.17 on the
  realtime report run, where p95 from the cut to an intent went 45 -> 207 ms (two runs
  side by side).
- One CTranslate2 thread, not one per core: a decoder step of tiny.en is too small to share
  (the threads meet at every layer of every step), and a search replays each rollout's
  prefix step by step. Timed on these two cores (a direct CTranslate2 loop, medians of 7,
  the two settings alternated): a call of six rows writing eight tokens after an
  eight-token prefix took 134-147 ms on one thread against 253-255 ms on two, one row 32
  against 96 ms; only the 8-s encoder gained from two (23 against 27.5 ms). The Codenames
  clue phase (report split, decoding off the clock) took a mean of 278 ms an utterance
  against 445-463 ms, every utterance heard the same. The realtime report run
  (``voice-host bench --quick --jobs 1 --languages en --systems whisper:grammar --realtime``)
  decided all 308 utterance-conditions as on two threads, with the same 734 decoder calls,
  and its p95 from the cut to the intent went 325-360 -> 71 ms: the decode started in the
  trailing silence now mostly ends before the endpointer cuts, and while a player talks the
  other core is the endpointer's. French (base, whose 30-s encoder is most of its work)
  keeps every core: 2.95 s an utterance on two threads against 3.37 s on one.
- Two CTranslate2 workers of one thread each (``workers``): a decoder call of several rows is
  split in two runs posted at once, one on each core, and the encoder gets a copy of the model
  on both. Timed on an AMD EPYC (a direct CTranslate2 loop, 8-s window, 30-token prompt): a
  search round of six rows 226 ms in one call, 136 ms as two calls of three; the 8-s encode
  105 -> 60 ms. The realtime report run (``voice-host bench --quick --jobs 1 --languages en
  --systems whisper:grammar --split report --realtime``, each run alone, with session 22's
  cheaper vocabulary walks): p50/p95 from the cut to the intent 41/900 -> 23/638 ms, every
  outcome and all 1480 decoder calls as before; RTF 0.46 -> 0.56 (the parts wait for each
  other).
- Two rescue rounds, only where the free decode's first two tokens stay inside the phase's
  (first) grammar and its transcript is unsure (``SearchTuning.rescue_from``). tiny.en
  wrote a spoken "the clue is house, two" (demo games, Piper voices) as "the clueless house
  too" (-0.65 nats a step), whose search found no sentence in its two rounds and "the
  clue is house two" in the rescue rounds. For every utterance, they cost most on rejected
  table talk (calibration split, loaded: p95 1275 -> 2077 ms); gated, on that split, they
  ran for about 5 of 308 utterance-conditions and changed no outcome.
- One round, not two, for the second search of a phase with an open slot (the Codenames
  clue: its likely words are searched first, the slot open to any word then). Calibration
  split, run against main at the same time: the same outcome for every utterance, the clue
  phase's decoder calls 4.42 -> 3.92 an utterance. None (only the free decode walked
  through the open grammar) kept them too, but a clue word outside the likely words that
  the free decode misspelled next to it ("zebra too") would then be found by no rollout.
- One round, not two, for a search whose free decode is sure talk that leaves its grammar,
  three words or more, at most half of them the grammar's (``SearchTuning.talk_rounds``):
  "we're so close to winning" in the clue phase took 5 decoder calls and 424 ms after the
  end of speech (session 7's realtime report run), and was rejected. Calibration split,
  against main in the same session (``voice-host bench --quick --jobs 1 --languages en
  --systems whisper:grammar --split calib --tuning talk_rounds=K``): with one round, the
  same outcome for every utterance, decoder calls 814 -> 802 and utterances of 4 calls or
  more 116 -> 111; with none, two commands lost ("we're back" heard as "we're mac").
  Report split (``--realtime``): every utterance decided as before, 827 -> 809 calls;
  without the three-word floor, "commands please" heard as "commence please" was lost."""

LANGUAGES: dict[str, LanguageTuning] = {"en": ENGLISH, "fr": FRENCH}
"""Per language, what differs from the defaults (a language not here takes them all)."""
