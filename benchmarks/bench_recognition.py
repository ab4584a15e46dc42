"""Recognition benchmark: spoken commands and table talk, in noise, through the host's own path.

    .venv/bin/python benchmarks/bench_recognition.py --quick      # a few hundred utterances
    .venv/bin/python benchmarks/bench_recognition.py              # full mode
    voice-host bench [--quick] ...                                 # the same

What it does:

* **Test set from the grammars**: every phase of every game is set up with random run-time
  values (players drawn from a pool, the 36 icons, 25 board words drawn from the word list),
  and ``PhaseGrammar.sample`` draws sentences with their expected intent and slots. Table talk
  comes from ``recognition_data.CHATTER`` (written for this benchmark, split into a
  calibration half and a report half: ``--split``).
* **Voices**: sampled per utterance from espeak-ng (voices x speeds x pitches), Debian's
  Festival voices and the Kokoro-82M voices of ``benchmarks/voices.py`` (English: a third
  each; French: Kokoro 7 in 10, espeak-ng French 3 in 10; ``recognition_data``); each WAV is
  cached in ``benchmarks/cache/`` by a hash of its text and voice. Every system is also
  reported per synthesizer, and the clean targets are read on the natural voices (Kokoro and
  Festival; Kokoro for French), espeak-ng on its own rows.
* **Noise**: clean, and white, pink and babble (several overlapping synthetic talkers) mixed at
  24, 18, 12 and 6 dB SNR, the speech level being the RMS over the speech only. Quick mode
  draws one noisy condition per utterance (about 20 commands per target row, which then
  moves by 15 points from run to run); ``--noise-set`` says every utterance of the plan in
  babble 12 and 6 dB and the reverberant room besides clean (all 96 commands per row, the
  same utterances and voices). ``--segment oracle`` hands the recognizer the speech's own
  span (plus 0.2 s, the noise mixed in) instead of the endpointer's cut: on the calib split
  it understood no more in babble (12 dB: 56 against 55 of 96), so the misses there are
  Whisper's hearing, not the cut.
* **The host's path**: each utterance is placed in a stream with noise before and after it and
  played through ``MicListener`` over an ``ArraySource`` -- the endpointer cuts the utterance,
  the recognizer decodes frames as they arrive (``Ears.stream``), and
  ``understanding.understand`` turns the Heard into an intent, exactly as during a game: in
  a real game state for the case's setup and phase (``bench_states``: the case's speaker
  the one who may answer there), with the host's move key and prior, and an utterance
  counts as asked about ("Did you mean X, or Y?") only when the host would ask
  (``choice.would_ask``: its two readings make different moves).
* **Systems**: PocketSphinx with the phase grammar (the host's default), the same recognizer
  with its open-vocabulary language model and the same matcher (baseline), and Vosk likewise
  when a Vosk model is installed. ``grammar+open`` combines the two PocketSphinx decodes of
  each utterance: an intent is acted on only when both agree (its cost is the sum of both).
  Each Whisper system is reported three ways from the same decodes: its free transcript read
  as a typed line (``/free``), its grammar search's sentence (``/grammar``), and the two
  decided together (the system itself, the host's way).
* **Calibration**: ``--calibrate`` (on ``--split calib``) decides the two readings again with
  every combination of ``CALIBRATION_GRID`` and prints the best within the chatter limits;
  ``--from-results FILE.json`` does the same, or ``--tuning`` tries one setting, from a saved
  run without decoding again; thresholds start from each language's own (French: its
  ``whisper_languages.FRENCH``). On a decoding run ``--tuning`` sets the search's values and
  ``window=SECONDS``, the encoder window, for the languages run. ``--prompt on|off``,
  ``--compute int8|float32``, ``--no-speculate`` and ``--realtime`` (audio at the pace of
  speech) compare designs; ``--only`` and ``--limit`` keep a subset one can afford.
* **Figures**: command acceptance (intent and slots right, or a reading that makes the
  expected move in the case's game; not ambiguous) per system and condition, and per game,
  phase and SNR; false actions on chatter (share of chatter utterances that produced any
  intent); latency from the end of the utterance (the endpointer's
  decision) to the intent, p50 and p95, over the utterances that produced one (a line that is
  no command is held a moment for the rest of a sentence, and answers nobody waits for);
  real-time factor (CPU time / audio time); peak RSS of each system's worker process.
  Printed, and written to ``benchmarks/results/recognition.json`` and ``recognition.md``
  (``--out`` to change).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import hashlib
import itertools
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import bench_states as states  # noqa: E402
import recognition_data as data  # noqa: E402
import voices as kokoro  # noqa: E402
from french_text import with_accents  # noqa: E402

from voice_host.intent import IntentMatch, MatchResult  # noqa: E402
from voice_host.speech.effects import mix_at_snr, pink_noise, speech_rms, white_noise  # noqa: E402
from voice_host.speech.source import FRAME_SAMPLES, ArraySource  # noqa: E402
from voice_host.speech.types import SAMPLE_RATE, Samples  # noqa: E402
from voice_host.speech.wav import decode_wav, read_wav, resample, to_int16, write_wav  # noqa: E402
from voice_host.text import tokenize  # noqa: E402


def game_phases(lang: str = "en") -> dict[str, tuple[str, ...]]:
    """Every registered game's phases, as its grammar lists them: a new game gets its rows
    without an edit here."""
    from voice_host.host.core.registry import registrations
    from voice_host.intent import load_grammar

    return {r.name: load_grammar(r.grammar_name, lang).phases for r in registrations()}


NOISES = ("white", "pink", "babble")
SNRS = (24, 18, 12, 6)
CLEAN: tuple[str, int | None] = ("clean", None)
LEAD_IN = 0.5
"""Seconds of noise before the utterance starts."""
TAIL = 0.9
"""Seconds of noise after it (the endpointer needs 0.5 s to decide it ended)."""
HARMLESS = frozenset({"help", "repeat", "score", "status", "read_board", "list_tried", "slower",
                      "faster", "louder", "quieter", "pause", "resume"})
"""Intents that only make the host talk or wait; every other one changes the game."""
TARGETS: dict[str, dict[str, float]] = {
    "en": {"clean": 0.95, "babble 12": 0.85, "babble 6": 0.70, "reverb": 0.93,
           "false_actions": 0.01, "harmful_false_actions": 0.005, "p95_ms": 300,
           "rss_mb": 500},
    "fr": {"clean": 0.90, "false_actions": 0.02, "p95_ms": 500, "rss_mb": 500},
}
"""The targets for the host's default recognizer per language (Whisper tiny.en for English,
Whisper base for French)."""
CACHE = HERE / "cache"
RESULTS = HERE / "results"


# --------------------------------------------------------------------------- test set


@dataclass(frozen=True)
class Voice:
    """One synthesized speaker."""

    name: str
    """espeak-ng voice, or Festival or Kokoro voice (with ``engine``)."""
    speed: int
    """Words per minute (espeak-ng), the duration stretch in percent (Festival), or the
    speed in percent (Kokoro, above 100 is faster)."""
    pitch: int
    """Pitch 0..99 (espeak-ng only)."""
    engine: str = "espeak"
    """``"espeak"``, ``"festival"``, ``"kokoro"`` or ``"mbrola"`` (an MBROLA diphone voice,
    ``mb-fr1``, spoken through espeak-ng)."""
    gain_db: float = 0.0
    """Loudness relative to the synthesizer's level (a player near or far from the box)."""
    lang: str = "en"
    """Language of the text (Kokoro reads espeak-ng's phonemes of that language)."""

    @property
    def label(self) -> str:
        base = f"{self.name}/{self.speed}/{self.pitch}"
        if self.engine != "espeak":
            base = f"{self.engine}:{self.name}/{self.speed}"
        return base + (f"/{self.gain_db:+.0f}dB" if self.gain_db else "")


def synthesizer_of(label: str) -> str:
    """The synthesizer of a ``Voice.label``: ``kokoro``, ``festival``, ``mbrola`` or
    ``espeak-ng``."""
    engine = label.partition(":")[0] if ":" in label else ""
    return engine if engine in ("kokoro", "festival", "mbrola") else "espeak-ng"


@dataclass(frozen=True)
class Setup:
    """The run-time values of one game being played."""

    game: str
    """Game name."""
    players: tuple[str, ...]
    """Player names."""
    speaker: str
    """Who talks."""
    board: tuple[str, ...] = ()
    """Codenames board words."""
    lang: str = "en"
    """The game's language."""


@dataclass(frozen=True)
class Case:
    """One utterance in one condition."""

    ident: int
    """Index of the utterance (shared by its conditions)."""
    setup: Setup
    """The game it is said in."""
    phase: str
    """The phase listening."""
    text: str
    """What is said."""
    intent: str | None
    """Expected intent (None for chatter)."""
    slots: str
    """Expected slots as canonical JSON ("{}" for chatter)."""
    voice: Voice
    """Who says it."""
    noise: str
    """clean, white, pink or babble."""
    snr: int | None
    """dB, None when clean."""

    @property
    def condition(self) -> str:
        if self.noise == "reverb":
            return "reverb"
        return "clean" if self.snr is None else f"{self.noise} {self.snr}"

    @property
    def command(self) -> bool:
        return self.intent is not None


def cpu_model() -> str:
    """The CPU's model name (recognition and speed differ between CPUs: int8 kernels, and
    CTranslate2 uses Intel MKL only on Intel CPUs), or "unknown CPU"."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def canonical_slots(slots: Any) -> str:
    """Slots as sorted JSON with tuples as lists (what the matcher returns, comparable)."""
    def plain(value: Any) -> Any:
        if isinstance(value, (tuple, list)):
            return [plain(v) for v in value]
        return value
    return json.dumps({k: plain(v) for k, v in sorted(dict(slots).items())}, sort_keys=True)


def expected_reading(case: Case) -> IntentMatch:
    """The reading ``case`` expects, as the matcher gives it: its slots' lists as tuples
    (the inverse of :func:`canonical_slots`), so that a reading equal to it makes its
    move."""
    def as_tuples(value: Any) -> Any:
        return tuple(as_tuples(v) for v in value) if isinstance(value, list) else value
    assert case.intent is not None
    slots = {k: as_tuples(v) for k, v in json.loads(case.slots).items()}
    return IntentMatch(case.intent, slots, 1.0, " ".join(tokenize(case.text)))


def festival_available() -> bool:
    """True when Festival and its English voices are installed."""
    return shutil.which("text2wave") is not None and all(
        any(Path(root, name).is_dir() for root in ("/usr/share/festival/voices/english",
                                                   "/usr/share/festival/voices/us"))
        for name in data.FESTIVAL_VOICES)


@functools.cache
def kokoro_available() -> bool:
    """True when the Kokoro test voices can speak here (``benchmarks/voices.py``)."""
    return kokoro.unavailable_reason() is None


def synthesizers(lang: str) -> dict[str, float]:
    """The synthesizers that can speak ``lang`` here, with their share of the utterances
    (``recognition_data.SYNTHESIZER_SHARES``, renormalized over those installed)."""
    installed = {"espeak": True, "festival": festival_available(),
                 "kokoro": kokoro_available()}
    shares = {k: v for k, v in data.SYNTHESIZER_SHARES[lang].items() if installed[k]}
    if not shares:
        shares = {"espeak": 1.0}
    total = sum(shares.values())
    return {k: v / total for k, v in shares.items()}


def _voices(rng: random.Random, lang: str = "en") -> Voice:
    gain = rng.choice(data.GAINS_DB)
    shares = synthesizers(lang)
    engine = rng.choices(list(shares), weights=list(shares.values()))[0]
    if engine == "kokoro":
        speed = int(round(100 * rng.choice(data.KOKORO_SPEEDS)))
        return Voice(rng.choice(data.KOKORO_VOICES), speed, 0, "kokoro", gain, lang)
    if engine == "festival":
        stretch = int(100 * rng.choice(data.FESTIVAL_STRETCH))
        return Voice(rng.choice(data.FESTIVAL_VOICES), stretch, 0, "festival", gain)
    names = data.FRENCH_VOICES if lang == "fr" else data.VOICES
    return Voice(rng.choice(names), rng.choice(data.SPEEDS), rng.choice(data.PITCHES),
                 gain_db=gain, lang=lang)


def _setups(rng: random.Random, per_game: int, lang: str = "en") -> dict[str, list[Setup]]:
    from voice_host.games.codenames_words import WORD_LISTS

    words = list(WORD_LISTS[lang])
    out: dict[str, list[Setup]] = {}
    for game in game_phases(lang):
        out[game] = []
        for _ in range(per_game):
            players = tuple(rng.sample(data.PLAYER_POOL, rng.randint(5, 8)))
            board = tuple(rng.sample(words, 25)) if game == "codenames" else ()
            out[game].append(Setup(game, players, rng.choice(players), board, lang))
    return out


def phase_grammar(setup: Setup, phase: str) -> Any:
    """The PhaseGrammar a game in this setup listens with."""
    from voice_host.host.core.registry import registration
    from voice_host.intent import SlotValues, load_grammar

    slots = SlotValues(players=setup.players, speaker=setup.speaker,
                       lists=registration(setup.game).example_lists(setup.lang,
                                                                     board_word=setup.board))
    return load_grammar(setup.game, setup.lang).phase(phase, slots)


@dataclass(frozen=True)
class Plan:
    """How big a run is."""

    per_phase: int
    """Commands sampled per phase."""
    chatter_repeats: int
    """How many phases each chatter line is said in."""
    conditions_per_utterance: int
    """Noise conditions per utterance besides clean (0 = all of them)."""
    baseline_conditions: tuple[str, ...] | None = None
    """Conditions the (slower) open-vocabulary baseline decodes; None = all."""
    french_share: float = 0.5
    """French commands per phase, as a share of the English number."""
    every_utterance: tuple[tuple[str, int | None], ...] = ()
    """Conditions every utterance is said in, besides clean, instead of the drawn ones (the
    draws are still made, so the utterances and voices are those of the plan without)."""


QUICK = Plan(per_phase=8, chatter_repeats=1, conditions_per_utterance=1,
             baseline_conditions=("clean",))
NOISE_SET = (("babble", 12), ("babble", 6), ("reverb", None))
"""The conditions with targets besides clean (``--noise-set``)."""
FULL = Plan(per_phase=12, chatter_repeats=2, conditions_per_utterance=0,
            baseline_conditions=("clean", "babble 12", "babble 6", "reverb"))

REVERB = ("reverb", None)
"""A reverberant room (sox ``reverb``), no added noise."""


_ELIDED = re.compile(r"\b(\w+)' +")


def spoken_form(text: str, lang: str = "en") -> str:
    """A sampled sentence as a person writes it for a synthesizer: the grammar keeps an
    elision apart ("c' est", "l' equipe"), which espeak-ng (and so Kokoro, reading its
    phonemes) says as a letter and a word ("sé è"); joined, it is "c'est". French gets its
    accents back (:func:`with_accents`)."""
    joined = _ELIDED.sub(r"\1'", text)
    return with_accents(joined) if lang == "fr" else joined


def build_cases(plan: Plan, *, split: str, seed: int,
                languages: Sequence[str] = ("en", "fr"), fillers: bool = False) -> list[Case]:
    """Commands from every phase plus chatter, each in clean and some noisy conditions, in
    every language (ids are unique across languages). With ``fillers`` every utterance,
    command or talk, is said after one of the split's fillers ("bon, ...", "um, ..."),
    drawn apart from the other draws: the same lines, voices and conditions as without."""
    cases: list[Case] = []
    for lang in languages:
        cases += _build_language(plan, split=split, seed=seed, lang=lang, first=len(cases),
                                 fillers=fillers)
    return cases


def with_filler(text: str, ident: int, *, split: str, seed: int, lang: str) -> str:
    """``text`` after one of ``split``'s fillers in ``lang``, drawn by ``ident``."""
    choices = data.fillers(split, lang)
    return random.Random(f"{seed}/{split}/{lang}/filler/{ident}").choice(choices) + text


def _build_language(plan: Plan, *, split: str, seed: int, lang: str, first: int,
                    fillers: bool = False) -> list[Case]:
    rng = random.Random(f"{seed}/{split}" + ("" if lang == "en" else f"/{lang}"))
    setups = _setups(rng, 3, lang)
    noisy: list[tuple[str, int | None]] = [(n, s) for n in NOISES for s in SNRS] + [REVERB]
    # babble at the target SNRs, and the reverberant room, are said more often in quick mode
    weighted = noisy + [("babble", 12), ("babble", 6), REVERB] * 3
    per_phase = plan.per_phase if lang == "en" else max(2, round(plan.per_phase
                                                                 * plan.french_share))
    utterances: list[tuple[Setup, str, str, str | None, str]] = []
    phases_of = game_phases(lang)
    for game, phases in phases_of.items():
        for phase in phases:
            # each phase draws its commands from its own generator: a grammar edit changes
            # only its own phase's commands, not every draw after it (voices, conditions)
            draw = random.Random(f"{seed}/{split}/{lang}/{game}/{phase}")
            for index in range(per_phase):
                setup = setups[game][index % len(setups[game])]
                pg = phase_grammar(setup, phase)
                got = pg.sample(draw, 1)
                if got:
                    s = got[0]
                    utterances.append((setup, phase, spoken_form(s.text, lang), s.intent,
                                       canonical_slots(s.slots)))
    chatter = data.chatter_split(split, lang)
    all_phases = [(g, p) for g, ps in phases_of.items() for p in ps]
    for line in chatter:
        for game, phase in rng.sample(all_phases, plan.chatter_repeats):
            setup = rng.choice(setups[game])
            p, q = rng.sample(setup.players, 2)
            utterances.append((setup, phase, spoken_form(line.format(p=p.lower(), q=q.lower()),
                                                         lang), None, "{}"))
    cases: list[Case] = []
    for ident, (setup, phase, text, intent, slots) in enumerate(utterances, start=first):
        voice = _voices(rng, lang)
        if plan.conditions_per_utterance:
            conditions = [CLEAN] + [rng.choice(weighted)
                                    for _ in range(plan.conditions_per_utterance)]
        else:
            conditions = [CLEAN] + noisy
        if plan.every_utterance:
            conditions = [CLEAN, *plan.every_utterance]
        if fillers:
            text = with_filler(text, ident, split=split, seed=seed, lang=lang)
        for noise, snr in dict.fromkeys(conditions):
            cases.append(Case(ident, setup, phase, text, intent, slots, voice, noise, snr))
    return cases


# --------------------------------------------------------------------------- audio


def _cache_path(text: str, voice: Voice) -> Path:
    engine = "" if voice.engine == "espeak" else f"\0{voice.engine}"
    key = hashlib.sha1(f"{text}\0{voice.name}\0{voice.speed}\0{voice.pitch}{engine}".encode())
    return CACHE / f"{key.hexdigest()[:24]}.wav"


def _render(text: str, voice: Voice) -> bytes:
    if voice.engine == "festival":
        stretch = voice.speed / 100
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "speech.wav"
            command = ["text2wave", "-eval", f"(voice_{voice.name})", "-eval",
                       f"(Parameter.set 'Duration_Stretch {stretch:.2f})", "-o", str(out)]
            subprocess.run(command, input=text.encode(), check=True, capture_output=True)
            return out.read_bytes()
    return subprocess.run(["espeak-ng", "-v", voice.name, "-s", str(voice.speed), "-p",
                           str(voice.pitch), "--stdout", text],
                          check=True, capture_output=True).stdout


def synthesize(text: str, voice: Voice) -> Samples:
    """Synthesized speech at 16 kHz and the voice's loudness, cached by a hash of text and
    voice (the cache holds the synthesizer's level; the gain is applied on reading)."""
    if voice.engine == "kokoro":
        return _with_gain(kokoro.synthesize(text, lang=voice.lang, voice=voice.name,
                                            speed=voice.speed / 100), voice.gain_db)
    path = _cache_path(text, voice)
    if path.exists():
        return _with_gain(read_wav(path), voice.gain_db)
    audio, rate = decode_wav(_render(text, voice))
    samples = to_int16(resample(audio, rate, SAMPLE_RATE))
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    write_wav(tmp, samples)
    tmp.replace(path)
    return _with_gain(samples, voice.gain_db)


def _with_gain(samples: Samples, gain_db: float) -> Samples:
    if not gain_db:
        return samples
    scaled = samples.astype(np.float64) * 10 ** (gain_db / 20)
    return np.clip(np.round(scaled), -32768, 32767).astype(np.int16)


def reverberate(samples: Samples) -> Samples:
    """The utterance in a reverberant room, heard from across the table: sox ``reverb``
    (reverberance 50%, HF damping 50%, room scale 80%, pre-delay 10 ms; the direct sound and
    the room together), at the dry signal's level."""
    settings = ("50", "50", "80", "10")
    key = hashlib.sha1(samples.tobytes() + repr(settings).encode()).hexdigest()[:24]
    path = CACHE / f"reverb-{key}.wav"
    if path.exists():
        return read_wav(path)
    CACHE.mkdir(parents=True, exist_ok=True)
    dry = CACHE / f"dry-{key}.{os.getpid()}.wav"
    wet = CACHE / f"reverb-{key}.{os.getpid()}.wav"
    write_wav(dry, samples)
    subprocess.run(["sox", str(dry), str(wet), "reverb", *settings,
                    "trim", "0", f"{len(samples) / SAMPLE_RATE:.4f}"],
                   check=True, capture_output=True)
    out = read_wav(wet)
    dry.unlink()
    level = speech_rms(samples) / max(speech_rms(out), 1.0)
    out = to_int16(np.clip(out.astype(np.float64) * level / 32768.0, -1.0, 1.0))
    write_wav(path, out)
    wet.unlink()
    return out


def synthesize_all(items: Iterable[tuple[str, Voice]], jobs: int = 2) -> None:
    """Fill the cache (espeak-ng runs in parallel)."""
    todo = [item for item in dict.fromkeys(items)
            if item[1].engine == "kokoro" or not _cache_path(*item).exists()]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(lambda item: synthesize(*item), todo))


def babble_track(seconds: float = 90.0, talkers: int = 5) -> Samples:
    """Several synthetic talkers speaking over each other (cached)."""
    key = hashlib.sha1(repr((data.BABBLE, data.VOICES, seconds, talkers)).encode())
    path = CACHE / f"babble-{key.hexdigest()[:16]}.wav"
    if path.exists():
        return read_wav(path)
    rng = random.Random(99)
    n = int(seconds * SAMPLE_RATE)
    mix = np.zeros(n, dtype=np.float64)
    for talker in range(talkers):
        voice = Voice(data.VOICES[talker % len(data.VOICES)], rng.choice(data.SPEEDS),
                      rng.choice(data.PITCHES))
        line = np.zeros(0, dtype=np.float64)
        while len(line) < n:
            speech = synthesize(rng.choice(data.BABBLE), voice).astype(np.float64)
            speech /= max(speech_rms(speech), 1.0)
            gap = np.zeros(int(rng.uniform(0.05, 0.4) * SAMPLE_RATE))
            line = np.concatenate([line, speech, gap])
        start = rng.randrange(0, SAMPLE_RATE * 3)
        line = np.roll(line[:n], start)
        mix += line * rng.uniform(0.7, 1.0)
    mix /= np.sqrt(np.mean(mix * mix))
    samples = to_int16(mix * 0.1)
    CACHE.mkdir(parents=True, exist_ok=True)
    write_wav(path, samples)
    return samples


def stream_for(case: Case, babble: Samples | None, *, tail_seconds: float = TAIL,
               speech: Samples | None = None) -> Samples:
    """The utterance with noise before and after, as a microphone would hear it
    (``speech``: the case's synthesized speech, when the caller has it already)."""
    if speech is None:
        speech = synthesize(case.text, case.voice)
    lead, tail = int(LEAD_IN * SAMPLE_RATE), int(tail_seconds * SAMPLE_RATE)
    padded = np.concatenate([np.zeros(lead, np.int16), speech, np.zeros(tail, np.int16)])
    if case.noise == "reverb":
        return reverberate(padded)
    if case.snr is None:
        return padded
    rng = np.random.default_rng(case.ident * 131 + case.snr)
    n = len(padded)
    if case.noise == "white":
        noise = white_noise(n, rng=rng, level_dbfs=-30.0)
    elif case.noise == "pink":
        noise = pink_noise(n, rng=rng, level_dbfs=-30.0)
    else:
        assert babble is not None
        noise = babble
    offset = int(rng.integers(0, max(1, len(noise) - n))) if case.noise == "babble" else 0
    return mix_at_snr(padded, noise, float(case.snr), offset=offset)


WARM_UP = 5.0
"""Seconds of the room's noise the endpointer has heard before the utterance."""


def prime_floor(source: Any, case: Case, babble: Samples | None) -> None:
    """Let the endpointer learn the room's noise floor, as a microphone that has been open
    for a while has (another stretch of the same noise, at the level used in the mix)."""
    from voice_host.speech.source import split_frames

    n = int(WARM_UP * SAMPLE_RATE)
    noise = np.zeros(n, np.int16)
    if case.snr is not None:
        level = speech_rms(synthesize(case.text, case.voice)) / 10 ** (case.snr / 20)
        rng = np.random.default_rng(case.ident + 7919)
        if case.noise == "babble":
            assert babble is not None
            start = int(rng.integers(0, len(babble) - n))
            raw = babble[start:start + n].astype(np.float64)
        elif case.noise == "pink":
            raw = pink_noise(n, rng=rng, level_dbfs=-30.0).astype(np.float64)
        else:
            raw = white_noise(n, rng=rng, level_dbfs=-30.0).astype(np.float64)
        raw *= level / max(float(np.sqrt(np.mean(raw * raw))), 1e-9)
        noise = np.clip(np.round(raw), -32768, 32767).astype(np.int16)
    for frame in split_frames(noise):
        source.endpointer.feed(frame)
    source.endpointer.reset()


def measured_snr(mixed: Samples, clean: Samples) -> float:
    """SNR of a mix: speech RMS (over the speech) / RMS of what was added."""
    added = mixed.astype(np.float64) - clean.astype(np.float64)
    return 20 * float(np.log10(speech_rms(clean) / max(np.sqrt(np.mean(added * added)), 1e-9)))


# --------------------------------------------------------------------------- decoding


@dataclass
class Outcome:
    """What one system made of one case."""

    system: str
    ident: int
    game: str
    phase: str
    condition: str
    voice: str
    text: str
    expected: str | None
    expected_slots: str
    heard: str = ""
    intent: str | None = None
    slots: str = "{}"
    ambiguous: bool = False
    same_move: bool = False
    """Its reading makes the move the expected one makes, in the case's game
    (:func:`expected_move`): "rose" for Hugo's "rose from me"."""
    why_not: str = ""
    latency: float = 0.0
    cpu: float = 0.0
    audio: float = 0.0
    lang: str = "en"
    margin: float = float("nan")
    """Whisper's mean per-step margin of the sentence it found (for calibration)."""
    closed: bool = False
    """The reading came from the grammar search (not a fallback to the free transcript)."""
    features: str = "{}"
    """The recognizer's own figures for this utterance (JSON), for calibration."""
    utterance: float = 0.0
    """Seconds of audio the endpointer handed to the recognizer (the speech is shorter)."""
    speech: float = 0.0
    """Seconds of the synthesized speech itself."""

    @property
    def exact(self) -> bool:
        """Its intent and slots are the expected ones, not asked about."""
        return (self.expected is not None and self.intent == self.expected
                and self.slots == self.expected_slots and not self.ambiguous)

    @property
    def correct(self) -> bool:
        """Understood, not asked about: its intent and slots are the expected ones, or it
        makes the expected move (``same_move``), as the host would carry it out."""
        return self.exact or (self.same_move and not self.ambiguous)

    @property
    def acted(self) -> bool:
        return self.intent is not None

    @property
    def misread(self) -> bool:
        """A command carried out as another move (worse than refused: a vote flipped)."""
        return (self.expected is not None and self.acted and not self.ambiguous
                and not self.correct)


@dataclass
class WorkerResult:
    """A system's outcomes and its process's peak memory."""

    system: str
    outcomes: list[Outcome] = field(default_factory=list)
    peak_rss_mb: float = 0.0
    note: str = ""


class _NoOutput:
    def tick(self, remaining: int) -> None:
        pass


REALTIME_ENV = "VOICE_HOST_BENCH_REALTIME"
"""Set in the workers by ``--realtime``: frames arrive at the pace of speech, as from a
microphone, so work done during the trailing silence shows in the latency."""


class PacedSource(ArraySource):
    """An ArraySource that hands out each frame when it would have been spoken."""

    def __init__(self, samples: Samples) -> None:
        super().__init__(samples)
        self._t0: float | None = None

    def _read_frame(self) -> Samples | None:
        if self._t0 is None:
            self._t0 = time.perf_counter()
        wait = self._t0 + (self._pos + FRAME_SAMPLES) / SAMPLE_RATE - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        return super()._read_frame()


SEGMENT_ENV = "VOICE_HOST_BENCH_SEGMENT"
"""``oracle`` (``--segment oracle``): the recognizer gets the speech's own span, not the
endpointer's cut."""
ORACLE_PAD = 0.2
"""Seconds of the mix kept on each side of the speech's span by ``--segment oracle``."""


def speech_span(speech: Samples, *, below_peak_db: float = 40.0) -> tuple[int, int]:
    """First and last sample (exclusive) of the frames of synthesized ``speech`` within
    ``below_peak_db`` of its loudest frame, widened by ``ORACLE_PAD`` on each side (the
    synthesizer's own leading and trailing silence left out)."""
    from voice_host.speech.source import split_frames

    levels = [float(np.mean(f.astype(np.float64) ** 2)) for f in split_frames(speech)]
    peak = max(levels, default=0.0)
    loud = [i for i, p in enumerate(levels) if peak > 0 and p >= peak * 10 ** (-below_peak_db / 10)]
    if not loud:
        return 0, len(speech)
    pad = int(ORACLE_PAD * SAMPLE_RATE)
    return (max(0, loud[0] * FRAME_SAMPLES - pad),
            min(len(speech), (loud[-1] + 1) * FRAME_SAMPLES + pad))


class OracleSource(ArraySource):
    """A source that hands over one utterance: the stream's ``[start, end)`` samples, as
    they are (the mix's noise included), without endpointing (diagnosis: how much the
    endpointer's cut costs)."""

    def __init__(self, samples: Samples, start: int, end: int) -> None:
        super().__init__(samples)
        self._span = (max(0, start), min(len(samples), end))
        self._given = False

    def listen(self, *, timeout: float | None = None, on_frame: Any = None) -> Any:
        from voice_host.speech.source import EndOfAudio, Utterance

        if self._given:
            raise EndOfAudio()
        self._given = True
        start, end = self._span
        audio = self._samples[start:end]
        return Utterance(samples=audio, start=start / SAMPLE_RATE, end=end / SAMPLE_RATE,
                         speech_seconds=len(audio) / SAMPLE_RATE, level_dbfs=-20.0,
                         noise_dbfs=-60.0, detected_at=time.monotonic())


SPECULATE_ENV = "VOICE_HOST_BENCH_SPECULATE"
"""``0`` (``--no-speculate``): Whisper does not decode during the trailing silence."""
WHISPER_ENV = "VOICE_HOST_BENCH_WHISPER"
"""Set in the workers by ``--whisper NAME=VALUE,...``: WhisperTuning values to decode with."""
PROMPT_ENV = "VOICE_HOST_BENCH_PROMPT"
"""Set in the workers by ``--prompt on|off``: Whisper gets the phase's words as its
previous-text prompt (the host's default otherwise)."""


TUNING_ENV = "VOICE_HOST_BENCH_TUNING"
"""Set by ``--tuning`` on a decoding run (the workers inherit it): ``window=SECONDS`` and
``SearchTuning`` values for the language of every Whisper system, over its own settings."""


def tuning_values(text: str) -> dict[str, float]:
    """``"window=30,sure_alone=-0.1"`` -> its values (``--tuning``)."""
    out: dict[str, float] = {}
    for item in text.split(","):
        if item.strip():
            name, _, value = item.partition("=")
            out[name.strip()] = float(value)
    return out


def whisper_tuning(lang: str, text: str = "") -> Any:
    """The host's WhisperTuning, with ``--tuning``'s values (``text``) applied to
    ``lang``'s own settings: ``window`` to its encoder window, ``near`` (0 or 1) to whether
    it searches the sentences nearest a rejected transcript, the others to its search."""
    from dataclasses import fields, replace

    from voice_host.speech.whisper_asr import WhisperTuning

    values = tuning_values(text)
    base = WhisperTuning()
    own = base.language_tuning(lang)
    window = values.pop("window", None)
    near = values.pop("near", None)
    search = own.search or base.search
    kinds = {f.name: type(getattr(search, f.name)) for f in fields(search)}
    unknown = sorted(set(values) - set(kinds))
    if unknown:
        raise ValueError(f"not a SearchTuning value: {', '.join(unknown)}")
    search = replace(search, **{k: kinds[k](v) for k, v in values.items()})
    languages = dict(base.languages)
    languages[lang] = replace(own, search=search,
                              window_seconds=own.window_seconds if window is None else window,
                              near=own.near if near is None else bool(near))
    return replace(base, languages=languages)


def decision_tuning(system: str, text: str = "") -> Any:
    """The thresholds the host decides ``system``'s outcomes with (its language's own),
    with ``--tuning``'s values (``text``) over them."""
    values = ",".join(item for item in text.split(",") if not item.startswith("window="))
    return whisper_tuning(system_language(system), values).search_for(system_language(system))


def system_language(system: str) -> str:
    """``whisper:grammar@fr`` -> ``fr``; systems without ``@`` are English."""
    return system.partition("@")[2] or "en"


def with_values(tuning: Any, values: str) -> Any:
    """A dataclass of settings with ``NAME=VALUE,...`` replaced (numbers, cast to each
    field's own type)."""
    from dataclasses import replace

    changes: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in values.split(","))):
        name, _, value = item.partition("=")
        current = getattr(tuning, name.strip())  # an unknown name raises AttributeError
        if isinstance(current, str):
            changes[name.strip()] = value.strip()
        else:
            changes[name.strip()] = type(current)(float(value)) \
                if not isinstance(current, bool) else float(value) != 0
    return replace(tuning, **changes)


def make_ears(system: str) -> Any:
    from voice_host.host.io.listening import PhaseEars

    name, _, lang = system.partition("@")
    lang = lang or "en"
    backend, _, mode = name.partition(":")
    if backend.startswith("whisper"):
        from voice_host.speech import whisper_models
        from voice_host.speech.whisper_asr import WhisperRecognizer

        model = backend.partition("-")[2] or whisper_models.DEFAULT_FOR_LANGUAGE[lang]
        from dataclasses import replace

        tuning = replace(whisper_tuning(lang, os.environ.get(TUNING_ENV, "")),
                         prompt=os.environ.get(PROMPT_ENV, "1") != "0",
                         speculate=os.environ.get(SPECULATE_ENV, "1") != "0")
        tuning = with_values(tuning, os.environ.get(WHISPER_ENV, ""))
        whisper = WhisperRecognizer(whisper_models.ensure(model), language=lang,
                                    model_name=model, tuning=tuning)
        return PhaseEars(whisper, open_vocabulary=mode == "open")
    if backend == "pocketsphinx":
        from voice_host.speech.pocketsphinx_asr import PocketSphinxRecognizer

        recognizer: Any = PocketSphinxRecognizer()
    else:
        from voice_host.speech.recognizers import create_recognizer

        recognizer = create_recognizer("vosk")
    return PhaseEars(recognizer, open_vocabulary=mode == "open")


def wants_for(case: Case) -> Any:
    """The list the host's prompt wants in the game state this case is said in
    (``Prompt.wants``; the microphone waits a moment for the rest of a list heard short):
    a team proposal is said on a mission whose team is as large as the team it names, any
    other line of the team phase on the first mission; a guess of two icons is Double 0's
    (both at once), any other line of the guess phase is a fragment's (one icon, nothing
    wanted); a clue's word heard alone may be followed by its number, as in every clue
    prompt."""
    from voice_host.games.resistance import team_size
    from voice_host.host.core.values import Wants

    named = json.loads(case.slots)
    if case.phase == "team" and case.setup.game == "resistance":
        if case.intent == "propose_team":
            return Wants("propose_team", "players", len(named["players"]))
        return Wants("propose_team", "players", team_size(len(case.setup.players), 1))
    if case.phase == "guess" and case.intent == "pick" and len(named["icons"]) > 1:
        return Wants("pick", "icons", len(named["icons"]))
    if case.phase == "clue" and case.setup.game == "codenames":
        return Wants("clue_no_number")  # as every clue prompt
    return None


def listen_request(case: Case, pg: Any) -> Any:
    """The ListenRequest the host would make for ``case`` with its phase grammar ``pg``."""
    from voice_host.host.core.values import ListenRequest

    return ListenRequest(grammar=pg, grammar_name=f"{case.setup.game}.{case.phase}."
                         f"{abs(hash(case.setup)) % 10**8}", expected=(case.setup.speaker,),
                         wants=wants_for(case))


def oracle_span(speech: Samples) -> tuple[int, int]:
    """The speech's own span (:func:`speech_span`) in the stream :func:`stream_for` makes
    of it (after its lead-in)."""
    first, last = speech_span(speech)
    lead = int(LEAD_IN * SAMPLE_RATE)
    return lead + first, lead + last


def add_case_arguments(parser: argparse.ArgumentParser, *, split: str,
                       conditions: str) -> None:
    """The options of a diagnosis script over the quick plan's cases (``chosen_cases``)."""
    add_draw_arguments(parser, split=split)
    parser.add_argument("--conditions", default=conditions,
                        help="comma-separated conditions (clean, reverb, babble 12 ...)")


def add_draw_arguments(parser: argparse.ArgumentParser, *, split: str = "report") -> None:
    """The options that choose which utterances are said, and by whom: shared by
    ``voice-host bench`` and the diagnosis scripts (``add_case_arguments``)."""
    parser.add_argument("--split", default=split, choices=("report", "calib"),
                        help="which half of the chatter (and seed) to use; tune on calib only")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--fillers", action="store_true",
                        help="say every command and talk line after one of the split's fillers "
                             "(\"bon, ...\", \"um, ...\")")
    parser.add_argument("--voice-set", default="", choices=("", "mbrola", "kokoro-other"),
                        help="say every utterance with other voices than the benchmark's "
                             "own: mbrola = Debian's MBROLA voices (non-free, not installed "
                             "by the setup); kokoro-other = the two Kokoro voices the "
                             "benchmark and the tests never speak with")
    parser.add_argument("--noise-set", action="store_true",
                        help="say every utterance in babble 12 dB, babble 6 dB and the "
                             "reverberant room besides clean (the same utterances and voices "
                             "as without), so each of those rows has every command")


def chosen_cases(args: argparse.Namespace, lang: str = "en", *,
                 commands_only: bool = True) -> list[Case]:
    """The quick plan's cases (its noise set's with ``--noise-set``) of ``args``' split and
    conditions, said with ``--voice-set``'s voices when given (``add_case_arguments``)."""
    conditions = [c.strip() for c in args.conditions.split(",")]
    plan = chosen_plan(argparse.Namespace(quick=True, per_phase=0, noise_set=args.noise_set))
    cases = build_cases(plan, split=args.split, seed=args.seed, languages=(lang,),
                        fillers=getattr(args, "fillers", False))
    if args.voice_set:
        cases = with_voice_set(cases, args.voice_set)
    return [c for c in cases if (c.command or not commands_only) and c.condition in conditions]


def oracle_audio(case: Case, babble: Samples | None) -> Samples:
    """The case's utterance over the speech's own span (:func:`oracle_span`), its noise
    mixed in: what ``--segment oracle`` hands the recognizer, and what the diagnosis
    scripts (``oracle_search.py``, ``moonshine_check.py``) decode."""
    spoken = synthesize(case.text, case.voice)
    start, end = oracle_span(spoken)
    return np.asarray(stream_for(case, babble, speech=spoken)[start:end], dtype=np.int16)


def oracle_judgement(ears: Any, case: Case, phase: Any, audio: Samples) -> Any:
    """The host's decode of ``audio`` (the case's :func:`oracle_audio`) with ``ears``'
    recognizer switched to the case's phase grammar ``phase``: the judgement the diagnosis
    scripts compare their own scores with."""
    ears.use(listen_request(case, phase))
    recognizer = ears.ears.recognizer
    assert recognizer._grammar is not None
    return recognizer._decode(audio, recognizer._grammar)


def encoded_decoder(recognizer: Any, audio: Samples) -> Any:
    """The search's decoder over ``audio`` encoded again as the recognizer's own decode
    encodes it, prompted with its current grammar's words: for the diagnosis scripts to
    score sentences of their own on the same utterance."""
    from voice_host.speech.whisper_asr import _Encoded

    grammar = recognizer._grammar
    return _Encoded(recognizer, recognizer.encoded(audio),
                    recognizer.prompt_tokens(grammar.prompt if grammar else ""))


def listening(case: Case) -> states.Listening | None:
    """The host listening where ``case`` is said (``bench_states``: a real game in the
    case's phase, the case's speaker one who may answer there); None, with a note on
    stderr, when no state can be built (the case is then decided without one: readings
    compared by intent and slots, every close pair asked about)."""
    try:
        return states.listening(case.setup, case.phase)
    except states.NoState as error:
        if (case.setup.game, case.phase) not in _NO_STATE:
            _NO_STATE.add((case.setup.game, case.phase))
            print(f"no game state for {case.setup.game}.{case.phase}: {error}",
                  file=sys.stderr)
        return None


_NO_STATE: set[tuple[str, str]] = set()


def expected_move(case: Case, where: states.Listening | None
                  ) -> Callable[[IntentMatch | None], bool] | None:
    """Whether a reading of ``case`` makes the move the case expects, in its game
    (:meth:`~bench_states.Listening.same_move`): "rose" said by Hugo for his "rose from
    me" is the command understood, in other words. None when only the expected intent and
    slots are right: chatter, a case without a game, the answer to a yes/no question (read
    by its words), a command that makes no move there (help; a player's own vote in count
    mode)."""
    if where is None or case.intent is None:
        return None
    expected = expected_reading(case)
    if not where.same_move(expected, expected):  # it makes no move here
        return None
    return lambda reading: reading is not None and where.same_move(expected, reading)


def run_system(system: str, cases: Sequence[Case]) -> WorkerResult:
    """Decode every case with one system, through MicListener and understand(), decided as
    the host decides in the game the case is said in (:func:`listening`)."""
    from voice_host.host.core.understanding import understand
    from voice_host.host.core.values import HeardKind
    from voice_host.host.io.listening import MicListener
    ears = make_ears(system)
    babble = babble_track() if any(c.noise == "babble" for c in cases) else None
    result = WorkerResult(system)
    grammars: dict[tuple[Setup, str], Any] = {}
    for case in cases:
        key = (case.setup, case.phase)
        if key not in grammars:
            grammars[key] = phase_grammar(case.setup, case.phase)
        pg = grammars[key]
        where = listening(case)
        moves = expected_move(case, where)
        matcher = pg.matcher  # the phase's own matcher, as the host matches with
        request = listen_request(case, pg)
        spoken = synthesize(case.text, case.voice)
        stream = stream_for(case, babble, speech=spoken)
        if os.environ.get(SEGMENT_ENV) == "oracle":
            source: ArraySource = OracleSource(stream, *oracle_span(spoken))
        elif os.environ.get(REALTIME_ENV):
            source = PacedSource(stream)
        else:
            source = ArraySource(stream)
        prime_floor(source, case, babble)
        listener = MicListener(ears, source, _NoOutput())  # type: ignore[arg-type]
        ears.use(request)  # compile the grammar outside the timed part (done once per phase)
        _DETECTIONS.clear()
        cpu0 = time.process_time()
        heard = listener.listen(request)
        decided = time.perf_counter()
        understood = understand(heard, matcher, speaker=case.setup.speaker,
                                key=where.key() if where else None,
                                prior=where.prior() if where else None)
        done = time.perf_counter()
        cpu = time.process_time() - cpu0
        utterance_end = _last_detection(listener)
        best, understood_as = understood.best, understood.result
        raw = bool(understood_as and understood_as.ambiguous)
        asked = raw if where is None else best is not None and where.asks(understood_as)
        features = dict(heard.details) | {"ambiguous_raw": int(raw)}
        if heard.judgement is not None:
            features |= readings_record(understood, heard.judgement.open_phase)
            features |= decision_record(understood, where)
            features |= move_record(understood, moves)
        result.outcomes.append(Outcome(
            system=system, ident=case.ident, game=case.setup.game, phase=case.phase,
            condition=case.condition, voice=case.voice.label, text=case.text,
            expected=case.intent, expected_slots=case.slots,
            heard=heard.text if heard.kind is HeardKind.SPEECH else f"({heard.kind.value})",
            intent=best.intent if best else None,
            slots=canonical_slots(best.slots) if best else "{}",
            ambiguous=asked, same_move=bool(moves and moves(best)),
            why_not=understood.why_not,
            latency=done - (utterance_end if utterance_end is not None else decided),
            cpu=cpu, audio=len(stream) / SAMPLE_RATE, lang=case.setup.lang,
            margin=float(heard.details.get("margin", float("nan"))),
            closed=heard.closed_grammar,
            features=json.dumps(features, ensure_ascii=False),
            utterance=heard.audio_seconds,
            speech=len(spoken) / SAMPLE_RATE))
    result.peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return result


_DETECTIONS: list[float] = []


def _last_detection(listener: Any) -> float | None:
    """perf_counter time at which the endpointer handed over the last utterance."""
    return _DETECTIONS[-1] if _DETECTIONS else None


def _install_detection_clock() -> None:
    """Record when each utterance is cut (the end of audio, for the latency figure)."""
    from voice_host.speech import source

    if getattr(source.Endpointer, "_bench_clock", False):
        return
    original_finish = source.Endpointer._finish

    def timed_finish(self: Any, *, truncated: bool) -> list[Any]:
        done = original_finish(self, truncated=truncated)
        if done:
            _DETECTIONS.append(time.perf_counter())
        return done

    source.Endpointer._finish = timed_finish  # type: ignore[method-assign]
    source.Endpointer._bench_clock = True  # type: ignore[attr-defined]


def _worker(system: str, cases: Sequence[Case], prompt: str = "",
            realtime: bool = False) -> WorkerResult:
    if realtime:
        os.environ[REALTIME_ENV] = "1"
    if prompt:
        os.environ[PROMPT_ENV] = "1" if prompt == "on" else "0"
    _install_detection_clock()
    try:
        return run_system(system, cases)
    except Exception as error:  # noqa: BLE001 - one backend failing must not sink the run
        return WorkerResult(system, note=f"{type(error).__name__}: {error}")


def available_systems() -> list[str]:
    """Every system that can run here, the host's default first per language."""
    systems: list[str] = []
    try:
        from voice_host.speech import whisper_models
        from voice_host.speech.recognizers import whisper_importable

        if whisper_importable():
            if whisper_models.state("tiny.en") == "installed":
                systems += ["whisper:grammar", "whisper:open"]
            if whisper_models.state("base") != "not installed":
                systems += ["whisper:grammar@fr"]
    except Exception:  # noqa: BLE001 - no Whisper: PocketSphinx only
        pass
    systems += ["pocketsphinx:grammar", "pocketsphinx:open"]
    try:
        from voice_host.speech import models

        if models.installed_model("en") is not None:
            import importlib.util

            if importlib.util.find_spec("vosk") is not None:
                systems += ["vosk:grammar", "vosk:open"]
    except Exception:  # noqa: BLE001 - no Vosk: PocketSphinx only
        pass
    return systems


# --------------------------------------------------------------------------- report


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}% ({a}/{b})" if b else "-"


def _exact(s: dict[str, Any]) -> str:
    """The commands whose intent and slots were right, when fewer than those accepted (the
    rest made the expected move in other words)."""
    exact = s.get("exact", s["accepted"])
    return f", {exact} exact" if exact != s["accepted"] else ""


def _quantile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def combine(grammar: list[Outcome], open_: list[Outcome]) -> list[Outcome]:
    """grammar+open: act only when both decodes give the same intent and slots."""
    by_key = {(o.ident, o.condition): o for o in open_}
    out = []
    for g in grammar:
        o = by_key.get((g.ident, g.condition))
        if o is None:
            continue
        agree = g.intent is not None and g.intent == o.intent and g.slots == o.slots
        out.append(Outcome(
            system="pocketsphinx:grammar+open", ident=g.ident, game=g.game, phase=g.phase,
            condition=g.condition, voice=g.voice, text=g.text, expected=g.expected,
            expected_slots=g.expected_slots, heard=f"{g.heard} | {o.heard}",
            intent=g.intent if agree else None, slots=g.slots if agree else "{}",
            ambiguous=g.ambiguous or o.ambiguous, same_move=agree and g.same_move,
            why_not="" if agree else "disagree",
            latency=g.latency + o.latency, cpu=g.cpu + o.cpu, audio=g.audio))
    return out


def conditions_order() -> list[str]:
    return ["clean", "reverb"] + [f"{n} {s}" for n in ("babble", "pink", "white")
                                  for s in SNRS]


def readable(outcome: Outcome) -> bool:
    """A command one of Whisper's two readings meant rightly, believed or not (the grammar
    search's sentence or the free transcript, as the matcher read it, its intent and slots
    or its move right): what any decision between them could have understood at best."""
    if outcome.correct:
        return True
    features = json.loads(outcome.features)
    want = [outcome.expected, outcome.expected_slots]
    return any((isinstance(features.get(f"{name}_reading"), list)
                and features[f"{name}_reading"][:2] == want)
               or bool(features.get(f"{name}_same_move")) for name in ("g", "f"))


def summarize(results: dict[str, list[Outcome]], rss: dict[str, float]) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for system, outcomes in results.items():
        commands = [o for o in outcomes if o.expected is not None]
        chatter = [o for o in outcomes if o.expected is None]
        meant = {id(o): readable(o) for o in commands}
        per_condition = {}
        for condition in conditions_order():
            cmd = [o for o in commands if o.condition == condition]
            talk = [o for o in chatter if o.condition == condition]
            if cmd or talk:
                per_condition[condition] = {
                    "commands": len(cmd), "accepted": sum(o.correct for o in cmd),
                    "readable": sum(meant[id(o)] for o in cmd),
                    "chatter": len(talk), "false_actions": sum(o.acted for o in talk)}
        per_phase: dict[str, dict[str, list[int]]] = {}
        for o in commands:
            band = o.condition if o.condition in ("clean", "reverb") \
                else o.condition.split()[1] + " dB"
            cell = per_phase.setdefault(f"{o.game}.{o.phase}", {}).setdefault(band, [0, 0])
            cell[0] += o.correct
            cell[1] += 1
        per_synthesizer: dict[str, dict[str, dict[str, int]]] = {}
        for o in outcomes:
            counts = per_synthesizer.setdefault(synthesizer_of(o.voice), {}).setdefault(
                o.condition, {"commands": 0, "accepted": 0, "readable": 0, "chatter": 0,
                              "false_actions": 0})
            if o.expected is None:
                counts["chatter"] += 1
                counts["false_actions"] += o.acted
            else:
                counts["commands"] += 1
                counts["accepted"] += o.correct
                counts["readable"] += meant[id(o)]
        # to the intent: a line that produced none waited (``MicListener.sentence_hold``)
        # for the speaker to go on, and got no answer that a player waits for
        latencies = [o.latency for o in outcomes if o.intent is not None]
        summary[system] = {
            "commands": len(commands), "accepted": sum(o.correct for o in commands),
            "exact": sum(o.exact for o in commands),
            "misread": sum(o.misread for o in commands), "chatter": len(chatter),
            "false_actions": sum(o.acted for o in chatter),
            "harmful_false_actions": sum(o.acted and o.intent not in HARMLESS for o in chatter),
            "per_condition": per_condition, "per_phase": per_phase,
            "per_synthesizer": per_synthesizer,
            "latency_p50_ms": 1000 * _quantile(latencies, 0.5),
            "latency_p95_ms": 1000 * _quantile(latencies, 0.95),
            "rtf": sum(o.cpu for o in outcomes) / max(1e-9, sum(o.audio for o in outcomes)),
            "peak_rss_mb": rss.get(system, float("nan")),
        }
    return summary


def markdown(summary: dict[str, Any], meta: dict[str, Any]) -> str:
    lines = [f"# Recognition benchmark ({meta['mode']} mode, {meta['split']} split)", "",
             f"Command: `{meta['command']}`", "",
             f"{meta['utterances']} utterances ({meta['commands']} commands, "
             f"{meta['chatter_lines']} chatter) in {meta['cases']} utterance-conditions; "
             f"{meta['voices']} voices; run {meta['seconds']:.0f} s on {meta['machine']}.", "",
             "Acceptance = intent and slots right, or a reading that makes the expected move "
             "in the case's game (\"rose\" said by Hugo for his \"rose from me\"), not "
             "ambiguous; exact = intent and slots right. False action = a chatter "
             "utterance that produced any intent (those that change the game: any intent but "
             "help, repeat, score, status, read_board, list_tried, speed, volume, pause and "
             "resume). Another move = a command carried out as another move than the one "
             "said. Latency = from the endpointer cutting the "
             "utterance to the intent (frames decoded while they arrive). RTF = CPU time / "
             "audio time (endpointer + decoder + matcher). RSS = peak of the system's own "
             "process. The open-vocabulary baseline decodes only these conditions: "
             f"{meta['baseline_conditions']}.", "",
             "## Summary", "",
             "| system | acceptance | another move | false actions | of which change the game "
             "| p50 | p95 | RTF | peak RSS |",
             "|---|---|---|---|---|---|---|---|---|"]
    for system, s in summary.items():
        rss = s["peak_rss_mb"]
        lines.append(
            f"| {system} | {_pct(s['accepted'], s['commands'])}{_exact(s)} | "
            f"{_pct(s['misread'], s['commands'])} | {_pct(s['false_actions'], s['chatter'])} | "
            f"{_pct(s['harmful_false_actions'], s['chatter'])} | {s['latency_p50_ms']:.0f} ms | "
            f"{s['latency_p95_ms']:.0f} ms | {s['rtf']:.3f} | "
            + (f"{rss:.0f} MB |" if rss == rss else "(sum of both) |"))
    lines += ["", "## Per condition: acceptance / false actions", ""]
    systems = list(summary)
    lines.append("| condition | " + " | ".join(systems) + " |")
    lines.append("|---|" + "---|" * len(systems))
    for condition in conditions_order():
        cells = []
        for system in systems:
            c = summary[system]["per_condition"].get(condition)
            if c is None:
                cells.append("-")
            else:
                cells.append(f"{_pct(c['accepted'], c['commands'])} / "
                             f"{_pct(c['false_actions'], c['chatter'])}")
        if any(cell != "-" for cell in cells):
            lines.append(f"| {condition} | " + " | ".join(cells) + " |")
    lines += synthesizer_table(summary)
    lines += ceiling_table(summary)
    main = systems[0]
    bands = ["clean", "reverb", "24 dB", "18 dB", "12 dB", "6 dB"]
    lines += ["", f"## Acceptance per game and phase ({main}; noisy columns pool white, pink "
                  "and babble)", "",
              "| phase | " + " | ".join(bands) + " |", "|---|" + "---|" * len(bands)]
    for phase, cells in sorted(summary[main]["per_phase"].items()):
        row = []
        for band in bands:
            got = cells.get(band)
            row.append(f"{100 * got[0] / got[1]:.0f}% ({got[0]}/{got[1]})" if got else "-")
        lines.append(f"| {phase} | " + " | ".join(row) + " |")
    for lang, targets in TARGETS.items():
        chosen = next((name for name in systems if system_language(name) == lang
                       and not name.split("@")[0].endswith((":open", "+open"))), None)
        if chosen is None:
            continue
        lines += ["", f"## Targets ({chosen}, {'English' if lang == 'en' else 'French'})", ""]
        lines += target_lines(summary[chosen], targets, lang)
    return "\n".join(lines) + "\n"


def synthesizer_table(summary: dict[str, Any]) -> list[str]:
    """Acceptance per system and synthesizer (espeak-ng on its own rows), and false actions."""
    conditions = ("clean", "reverb", "babble 12", "babble 6")
    lines = ["", "## Per synthesizer: acceptance per condition, false actions on chatter", "",
             "| system | voices | " + " | ".join(conditions) + " | false actions |",
             "|---|---|" + "---|" * (len(conditions) + 1)]
    for system, s in summary.items():
        for synth, cells in sorted(s.get("per_synthesizer", {}).items()):
            row = [_pct(cells[c]["accepted"], cells[c]["commands"]) if c in cells else "-"
                   for c in conditions]
            talk = [sum(c[k] for c in cells.values()) for k in ("false_actions", "chatter")]
            lines.append(f"| {system} | {synth} | " + " | ".join(row) + f" | {_pct(*talk)} |")
    return lines


def ceiling_table(summary: dict[str, Any]) -> list[str]:
    """Per Whisper system (its combined decision), condition and synthesizer: the commands
    understood beside those one of its two readings meant rightly (:func:`readable`), the
    most any thresholds could make of these decodes."""
    systems = [name for name, s in summary.items() if name.startswith("whisper")
               and "/" not in name and any(c.get("readable", 0) > c["accepted"]
                                           for c in s["per_condition"].values())]
    if not systems:
        return []
    lines = ["", "## Understood / a reading meant it (the decision's ceiling)", "",
             "A command one of the two readings (the grammar search's sentence, the free "
             "transcript) meant rightly, believed or not: what any thresholds could have "
             "made of these decodes.", "",
             "| system | voices | clean | reverb | babble 12 | babble 6 |",
             "|---|---|---|---|---|---|"]
    for system in systems:
        for synth, cells in sorted(summary[system]["per_synthesizer"].items()):
            row = [f"{cells[c]['accepted']} / {cells[c].get('readable', 0)} of "
                   f"{cells[c]['commands']}" if cells.get(c, {}).get("commands") else "-"
                   for c in ("clean", "reverb", "babble 12", "babble 6")]
            lines.append(f"| {system} | {synth} | " + " | ".join(row) + " |")
    return lines


def target_lines(s: dict[str, Any], targets: dict[str, float], lang: str = "en") -> list[str]:
    """One line per target: the figure, the target, met or MISSED. Clean acceptance is
    measured on the language's natural voices (``recognition_data.NATURAL_SYNTHESIZERS``)
    when the run has them; a noisy condition on every voice, with the natural voices'
    figure beside it."""
    out = []
    natural = data.NATURAL_SYNTHESIZERS[lang]
    for condition in ("clean", "babble 12", "babble 6", "reverb"):
        if condition not in targets:
            continue
        c = s["per_condition"].get(condition)
        which = aside = ""
        cells = [v[condition] for k, v in s.get("per_synthesizer", {}).items()
                 if k in natural and condition in v]
        voiced = {key: sum(cell[key] for cell in cells) for key in ("commands", "accepted")}
        if condition == "clean" and voiced["commands"]:
            c = voiced
            which = f" ({', '.join(natural)} voices)"
        elif voiced["commands"] and c and voiced["commands"] < c["commands"]:
            aside = (f"; {', '.join(natural)} voices {voiced['accepted'] / voiced['commands']:.1%}"
                     f" ({voiced['accepted']}/{voiced['commands']})")
        if c and c["commands"]:
            value = c["accepted"] / c["commands"]
            out.append(f"- acceptance {condition}{which}: {value:.1%} (target >= "
                       f"{targets[condition]:.0%}{aside}) "
                       f"{'met' if value >= targets[condition] else 'MISSED'}")
    fa = s["false_actions"] / max(1, s["chatter"])
    out.append(f"- false actions on chatter: {fa:.1%} (target <= "
               f"{targets['false_actions']:.0%}) "
               f"{'met' if fa <= targets['false_actions'] else 'MISSED'}")
    if "harmful_false_actions" in targets:
        harm = s["harmful_false_actions"] / max(1, s["chatter"])
        limit = targets["harmful_false_actions"]
        out.append(f"- false actions that change the game: {harm:.1%} (target <= {limit:.1%}) "
                   f"{'met' if harm <= limit else 'MISSED'}")
    out.append(f"- latency p95: {s['latency_p95_ms']:.0f} ms (target <= "
               f"{targets['p95_ms']:.0f} ms) "
               f"{'met' if s['latency_p95_ms'] <= targets['p95_ms'] else 'MISSED'}")
    rss = s["peak_rss_mb"]
    out.append(f"- peak RSS: {rss:.0f} MB (target <= {targets['rss_mb']:.0f} MB) "
               f"{'met' if rss <= targets['rss_mb'] else 'MISSED'}")
    return out


def readings_record(understood: Any, open_phase: bool) -> dict[str, Any]:
    """The matcher's reading of each of Whisper's two texts (for the per-route figures and
    the calibration, which decide again from these with other thresholds)."""
    def reading(match: Any) -> list[Any] | None:
        if match is None:
            return None
        return [match.intent, canonical_slots(match.slots), round(match.confidence, 4)]
    return {"g_reading": reading(understood.grammar), "f_reading": reading(understood.free),
            "open_phase": int(open_phase),
            "verdict": understood.verdict.value if understood.verdict else ""}


def decision_record(understood: Any, where: states.Listening | None) -> dict[str, Any]:
    """What the host's decision made of Whisper's two readings in the case's game, for
    :func:`redecide` to decide them again as the host does, with other thresholds:
    ``same_key``, whether the two readings agree (they make the same move; without a game,
    the same intent and slots); ``g_prior`` and ``f_prior``, how likely each is meant (an
    open slot's words); ``g_asks``, ``f_asks``, whether the host would ask "Did you mean
    X, or Y?" about the matcher's answer for that reading were it chosen (its runner-up
    makes another move), and ``gf_asks`` about the two readings themselves."""
    from voice_host.host.core.understanding import meaning

    g, f = understood.grammar, understood.free
    key = (where.key() if where else None) or meaning
    prior = where.prior() if where else None

    def asks(result: Any) -> int:
        if where is None:
            return int(bool(result is not None and result.ambiguous))
        return int(where.asks(result))

    out: dict[str, Any] = {}
    if g is not None and f is not None:
        out["same_key"] = int(key(g) == key(f))
        if not out["same_key"]:  # two readings that agree are never asked about
            out["gf_asks"] = asks(MatchResult(g, (g, f), ambiguous=True))
    for name, reading, result in (("g", g, understood.grammar_result),
                                  ("f", f, understood.free_result)):
        if reading is not None:
            out[f"{name}_asks"] = asks(result)
            if prior is not None:
                out[f"{name}_prior"] = prior(reading)
    return out


def move_record(understood: Any, moves: Callable[[IntentMatch | None], bool] | None
                ) -> dict[str, Any]:
    """Whether each of Whisper's two readings makes the case's expected move
    (:func:`expected_move`), for :func:`redecide` to score the reading it chooses:
    ``g_same_move``, ``f_same_move``; nothing for a case that expects no move."""
    if moves is None:
        return {}
    return {f"{name}_same_move": int(moves(reading))
            for name, reading in (("g", understood.grammar), ("f", understood.free))
            if reading is not None}


ROUTES = ("free", "grammar", "both")
"""The free transcript read as a typed line, the grammar search's sentence, and the two
decided together (the host's way)."""


@dataclass(frozen=True)
class Recorded:
    """An outcome's recorded readings, as :func:`redecide` decides them again."""

    judgement: Any
    """The recognizer's judgement (``Judgement.from_figures``)."""
    grammar: Any
    """The matcher's reading of the grammar sentence (an IntentMatch), or None."""
    free: Any
    """... of the free transcript, or None."""
    figures: dict[str, Any]
    """The host's decision figures (:func:`decision_record`) and whether each reading
    makes the expected move (:func:`move_record`); empty for a run older than them
    (readings then agree by intent and slots, only two readings are asked about, and
    only the expected intent and slots are right)."""

    def key(self, reading: Any) -> Any:
        """What the host compares of a reading: here only which of the two it agrees
        with."""
        if "same_key" not in self.figures:
            return reading.intent, canonical_slots(reading.slots)
        return "grammar" if reading is self.grammar or self.figures["same_key"] else "free"

    def of(self, reading: Any, figure: str, default: Any = None) -> Any:
        """The figure recorded for ``reading`` (``g_<figure>`` for the grammar sentence's,
        ``f_<figure>`` for the free transcript's), or ``default``."""
        return self.figures.get(f"{'g' if reading is self.grammar else 'f'}_{figure}", default)

    def prior(self) -> Any:
        """The readings' recorded priors, when the host ranked them (an open slot)."""
        if "g_prior" not in self.figures or "f_prior" not in self.figures:
            return None
        return lambda r: self.of(r, "prior")

    def asks(self, verdict: Any, chosen: Any) -> bool:
        """Whether the host asks about the reading chosen with ``verdict``."""
        from voice_host.speech.decision import Verdict

        if verdict is Verdict.ASK:
            return bool(self.figures.get("gf_asks", 1))
        return chosen is not None and bool(self.of(chosen, "asks", 0))

    def same_move(self, chosen: Any) -> bool:
        """Whether the chosen reading makes the case's expected move (:func:`move_record`;
        never for a run older than the figure)."""
        return chosen is not None and bool(self.of(chosen, "same_move", 0))


@functools.lru_cache(maxsize=65536)
def _recorded(features: str, sound_language: str) -> Recorded | None:
    """The judgement and the matcher's two readings recorded in an outcome's features, or
    None when it has none (not Whisper); parsed once, since the calibration decides each
    outcome again for every combination of thresholds. With a ``sound_language`` (the
    thresholds decided with have the sound rule on), a grammar reading whose sound
    similarity was not measured (the recognizer measures it only where it could change the
    verdict) gets it now, so that other thresholds are decided as the host would."""
    from voice_host.speech.decision import Judgement
    from voice_host.speech.sounds import sound_similarity

    f = json.loads(features)
    if "g_reading" not in f:
        return None
    if sound_language and "heard" in f and "sound" not in f:
        sound = sound_similarity(str(f.get("free_text", "")), str(f["heard"]),
                                 sound_language)
        if sound is not None:
            f["sound"] = sound

    def reading(record: list[Any] | None) -> Any:
        if record is None:
            return None
        intent, slots, confidence = record
        return IntentMatch(intent, json.loads(slots), confidence, "")

    figures = {k: f[k] for k in ("same_key", "g_prior", "f_prior", "g_asks", "f_asks",
                                 "gf_asks", "g_same_move", "f_same_move") if k in f}
    return Recorded(Judgement.from_figures(f), reading(f["g_reading"]),
                    reading(f["f_reading"]), figures)


def redecide(outcome: Outcome, route: str, tuning: Any) -> Outcome:
    """What ``route`` with ``tuning``'s thresholds makes of this Whisper outcome, from the
    readings it recorded: the host's decision
    (:func:`~voice_host.host.core.understanding.decide_readings`) run again with the
    agreement, priors and questions the run recorded in the case's game
    (:func:`decision_record`), the chosen reading right by its move when the run recorded
    that it makes the expected one (:func:`move_record`). Like the run's own outcome, an
    outcome the host asks about keeps the reading it asks about first, and is
    ``ambiguous``."""
    from dataclasses import replace

    from voice_host.host.core.understanding import Route, decide_readings, why_unread
    from voice_host.speech.decision import Rejection

    recorded = _recorded(outcome.features,
                         outcome.lang if tuning.sound_similarity <= 1.0 else "")
    if recorded is None:
        return outcome
    judgement = recorded.judgement
    reading = judgement.reading
    accepted = reading is not None and judgement.rejection_of(reading, tuning) is Rejection.NONE
    grammar = recorded.grammar if route != "free" else None
    free = recorded.free if route != "grammar" else None
    decision = decide_readings(judgement, grammar, free, key=recorded.key,
                               prior=recorded.prior(), tuning=tuning, route=Route(route),
                               accepted=accepted)
    chosen = decision.chosen
    return replace(outcome, system=f"{outcome.system}/{route}",
                   intent=chosen.intent if chosen else None,
                   slots=canonical_slots(chosen.slots) if chosen else "{}",
                   ambiguous=recorded.asks(decision.verdict, chosen),
                   same_move=recorded.same_move(chosen),
                   why_not="" if chosen else why_unread(grammar, free, accepted))


def route_results(results: dict[str, list[Outcome]], tuning_text: str = ""
                  ) -> dict[str, list[Outcome]]:
    """Per Whisper system, its free-transcript route and its grammar route beside it (from
    the same decodes, with the host's thresholds)."""
    out: dict[str, list[Outcome]] = {}
    for system, outcomes in results.items():
        out[system] = outcomes
        if system.startswith("whisper") and any('"g_reading"' in o.features for o in outcomes):
            tuning = decision_tuning(system.partition("[")[0], tuning_text)
            for route in ("grammar", "free"):
                out[f"{system}/{route}"] = [redecide(o, route, tuning) for o in outcomes]
    return out


CALIBRATION_GRID = {
    "accept_margin": (-1.0, -0.85, -0.7, -0.55),
    "short_accept_margin": (-0.8, -0.6, -0.45),
    "min_similarity": (0.3, 0.5),
    "close_similarity": (0.7, 0.8, 0.9, 1.01),
    "close_margin": (-1.6, -1.4, -1.2, -1.0),
    "free_min_logp": (-0.8, -0.6, -0.4),
    "free_min_match": (0.7, 0.8),
}
"""The thresholds ``--calibrate`` tries together."""


def calibration(outcomes: list[Outcome], *, limit: float = 0.01, harmful_limit: float = 0.005,
                rows: int = 12, base: Any = None) -> list[str]:
    """Every combination of the thresholds of ``CALIBRATION_GRID``, decided again from the
    recorded readings: the combinations whose false actions stay within ``limit`` (and
    those that change the game within ``harmful_limit``), best acceptance first."""
    from dataclasses import replace

    from voice_host.speech.decision import SearchTuning

    commands = [o for o in outcomes if o.expected is not None]
    talk = [o for o in outcomes if o.expected is None]
    found = []
    names = list(CALIBRATION_GRID)
    for values in itertools.product(*CALIBRATION_GRID.values()):
        tuning = replace(base or SearchTuning(), **dict(zip(names, values, strict=True)))
        good = sum(redecide(o, "both", tuning).correct for o in commands)
        acted = [redecide(o, "both", tuning) for o in talk]
        false = sum(o.acted for o in acted)
        harmful = sum(o.acted and o.intent not in HARMLESS for o in acted)
        if false <= limit * max(1, len(talk)) and harmful <= harmful_limit * max(1, len(talk)):
            found.append((good, -false, values))
    found.sort(reverse=True)
    lines = ["| " + " | ".join(names) + " | commands | false actions |",
             "|" + "---|" * (len(names) + 2)]
    for good, false, values in found[:rows]:
        lines.append("| " + " | ".join(f"{v:g}" for v in values) + f" | "
                     f"{_pct(good, len(commands))} | {_pct(-false, len(talk))} |")
    if not found:
        lines.append("(no combination keeps the false actions within the limits)")
    return lines


def results_json(meta: dict[str, Any], summary: dict[str, Any],
                 results: dict[str, list[Outcome]]) -> str:
    """Meta, summary and every outcome (one compact row each, columns named once)."""
    columns = list(asdict(next(iter(results.values()))[0])) if any(results.values()) else []
    rows = {system: [list(asdict(o).values()) for o in outs] for system, outs in results.items()}
    head = json.dumps({"meta": meta, "summary": summary}, indent=1)[:-2]
    lines = [head + ',\n "columns": ' + json.dumps(columns) + ',\n "outcomes": {']
    for index, (system, system_rows) in enumerate(rows.items()):
        body = ",\n".join("  " + json.dumps(row, ensure_ascii=False) for row in system_rows)
        comma = "," if index < len(rows) - 1 else ""
        lines.append(f" {json.dumps(system)}: [\n{body}\n ]{comma}")
    lines.append("}}")
    return "\n".join(lines) + "\n"


def misses(outcomes: list[Outcome], limit: int) -> list[str]:
    bad = [o for o in outcomes if (o.expected is not None and not o.correct)
           or (o.expected is None and o.acted)]
    return [f"{o.condition:10s} {o.game}.{o.phase:8s} {o.voice:24s} {o.text!r} -> "
            f"{o.heard!r} -> {o.intent} {o.slots if o.intent else o.why_not}"
            for o in bad[:limit]]


# --------------------------------------------------------------------------- main


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by the script and ``voice-host bench``."""
    parser.add_argument("--quick", action="store_true",
                        help="a few hundred utterances, under 3 minutes")
    add_draw_arguments(parser)
    parser.add_argument("--systems", default=None,
                        help="comma-separated, e.g. pocketsphinx:grammar (default: all available)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--out", type=Path, default=RESULTS,
                        help="folder for recognition.json/.md (recognition-quick.* with --quick)")
    parser.add_argument("--per-phase", type=int, default=0, metavar="N",
                        help="commands per phase (overrides the mode's number)")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--show-misses", type=int, default=0, metavar="N",
                        help="print N misses per system")
    parser.add_argument("--calibrate", action="store_true",
                        help="decide Whisper's two readings again with every combination of "
                             "thresholds and print the best (use with --split calib)")
    parser.add_argument("--prompt", default="", choices=("", "on", "off"),
                        help="give Whisper the phase's words as its prompt, or not (default: "
                             "the host's default)")
    parser.add_argument("--compute", default="", choices=("", "int8", "float32"),
                        help="CTranslate2's compute type for Whisper (default int8)")
    parser.add_argument("--from-results", type=Path, default=None, metavar="JSON",
                        help="decide again from the outcomes an earlier run wrote (no "
                             "decoding): the routes, and with --calibrate the sweep")
    parser.add_argument("--tuning", default="", metavar="NAME=VALUE,...",
                        help="SearchTuning values for every Whisper system's language, over "
                             "its own; on a decoding run also window=SECONDS (its encoder "
                             "window) and near=0|1 (search the sentences nearest a rejected "
                             "transcript); with --from-results, decide again with them")
    parser.add_argument("--whisper", default="", metavar="NAME=VALUE,...",
                        help="decode with these WhisperTuning values (numbers), e.g. "
                             "fit_seconds=1.5 (compare designs; tune on calib only)")
    parser.add_argument("--no-speculate", action="store_true",
                        help="Whisper waits for the end of the utterance before decoding")
    parser.add_argument("--realtime", action="store_true",
                        help="deliver the audio at the pace of speech (the latency then "
                             "shows the work done during the trailing silence; slow)")
    parser.add_argument("--only", default="", metavar="GAME.PHASE,...",
                        help="keep only these phases (a subset one can afford)")
    parser.add_argument("--limit", type=int, default=0, metavar="N",
                        help="keep every k-th utterance so at most N remain (a subset)")
    parser.add_argument("--conditions", default="", metavar="CONDITION,...",
                        help="keep only these conditions (e.g. 'babble 12,reverb')")
    parser.add_argument("--languages", default="en,fr", help="comma-separated: en,fr")
    parser.add_argument("--segment", default="endpointer", choices=("endpointer", "oracle"),
                        help="what the recognizer gets: the endpointer's cut, or (diagnosis) "
                             "the speech's own span plus ORACLE_PAD s, noise and all")


def subset(cases: list[Case], *, only: str = "", limit: int = 0,
           conditions: str = "") -> list[Case]:
    """The cases of some phases (``game.phase,...``), of some conditions (``clean,babble
    12,...``), and of at most ``limit`` utterances (every k-th, commands and chatter alike),
    for a run one can afford."""
    if conditions:
        kept_conditions = {item.strip() for item in conditions.split(",") if item.strip()}
        cases = [c for c in cases if c.condition in kept_conditions]
    if only:
        wanted = {item.strip() for item in only.split(",") if item.strip()}
        cases = [c for c in cases if f"{c.setup.game}.{c.phase}" in wanted]
    if limit:
        idents = sorted({c.ident for c in cases})
        step = max(1, -(-len(idents) // limit))  # at most ``limit`` kept
        kept = set(idents[::step])
        cases = [c for c in cases if c.ident in kept]
    return cases


MBROLA = Path("/usr/share/mbrola")
"""Where Debian's MBROLA voices are (packages mbrola-fr1, mbrola-fr4, mbrola-us1 ..., in
non-free: never in the project's setup, only a check with voices the repository lacks)."""
MBROLA_VOICES = {"fr": ("fr1", "fr4"), "en": ("us1", "us2", "us3")}


def mbrola_voices(lang: str) -> list[str]:
    """The MBROLA voices installed for ``lang`` (espeak-ng's names, ``mb-fr1``)."""
    return [f"mb-{name}" for name in MBROLA_VOICES.get(lang, ())
            if (MBROLA / name / name).exists()]


KOKORO_OTHER = ("jf_nezumi", "jf_tebukuro")
"""The Kokoro voices that the benchmark's plan and the tests never use
(``recognition_data.KOKORO_VOICES`` are the others)."""


def with_voice_set(cases: list[Case], voice_set: str) -> list[Case]:
    """``--voice-set mbrola``: every utterance said by one of the MBROLA voices of its
    language instead of its drawn voice (the same utterances, conditions and loudness),
    taken in turn by utterance with three speeds: acceptance measured with voices that are
    not the benchmark's own. Empty when a language has none installed.
    ``--voice-set kokoro-other``: the same with the two Kokoro voices nothing was tuned on
    (:data:`KOKORO_OTHER`), at Kokoro's three speeds."""
    from dataclasses import replace

    if not voice_set:
        return cases
    if voice_set == "kokoro-other":
        return [replace(case, voice=Voice(
            KOKORO_OTHER[case.ident % len(KOKORO_OTHER)],
            round(100 * data.KOKORO_SPEEDS[case.ident // 2 % len(data.KOKORO_SPEEDS)]), 0,
            "kokoro", case.voice.gain_db, case.setup.lang)) for case in cases]
    installed = {lang: mbrola_voices(lang) for lang in {c.setup.lang for c in cases}}
    if not all(installed.values()):
        return []
    out = []
    for case in cases:
        names = installed[case.setup.lang]
        voice = Voice(names[case.ident % len(names)], (150, 170, 190)[case.ident % 3], 50,
                      "mbrola", case.voice.gain_db, case.setup.lang)
        out.append(replace(case, voice=voice))
    return out


def chosen_plan(args: argparse.Namespace) -> Plan:
    """The plan of ``--quick`` (or full mode), ``--per-phase`` and ``--noise-set``."""
    from dataclasses import replace

    plan = QUICK if args.quick else FULL
    if args.per_phase:
        plan = replace(plan, per_phase=args.per_phase)
    if args.noise_set:
        plan = replace(plan, every_utterance=NOISE_SET)
    return plan


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


def load_outcomes(path: Path) -> dict[str, list[Outcome]]:
    """The outcomes of a ``recognition*.json`` written by an earlier run (the derived
    per-route systems left out: they are derived again)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    columns = raw["columns"]
    return {system: [Outcome(**dict(zip(columns, row, strict=True))) for row in rows]
            for system, rows in raw["outcomes"].items() if "/" not in system}


def needs_decoding(tuning: str) -> bool:
    """Whether ``--tuning``'s values change what is decoded (the encoder window, the near
    search), not only how saved decodes are decided."""
    return bool({"window", "near"} & set(tuning_values(tuning)))


def recalibrate(args: argparse.Namespace) -> int:
    """``--from-results``: the routes and (with ``--calibrate``) the threshold sweep, again,
    from the outcomes an earlier run saved; no audio is decoded."""
    from dataclasses import replace

    if needs_decoding(args.tuning):
        print("--from-results decides again from saved decodes: a window or the near "
              "search needs a new run", file=sys.stderr)
        return 2
    results = load_outcomes(args.from_results)
    if args.tuning:
        results = {f"{system}[{args.tuning}]": [
            replace(redecide(o, "both", decision_tuning(system, args.tuning)), system=system)
            for o in outcomes] for system, outcomes in results.items()}
    summary = summarize(route_results(results, args.tuning), {})
    for system, s in summary.items():
        clean = s["per_condition"].get("clean", {})
        print(f"{system}: {_pct(s['accepted'], s['commands'])} understood{_exact(s)} "
              f"(clean {_pct(clean.get('accepted', 0), clean.get('commands', 0))}), "
              f"another move {_pct(s['misread'], s['commands'])}, "
              f"false actions {_pct(s['false_actions'], s['chatter'])}, "
              f"changing the game {_pct(s['harmful_false_actions'], s['chatter'])}")
    print("\n".join(ceiling_table(summary)[2:]))
    if args.calibrate:
        for system, outcomes in results.items():
            if system.startswith("whisper") and not system.split("@")[0].endswith(":open"):
                limit = TARGETS[system_language(system)]["false_actions"]
                print(f"calibration of {system}:")
                print("\n".join(calibration(outcomes, limit=limit, harmful_limit=limit / 2,
                                            base=decision_tuning(system.partition("[")[0],
                                                                 args.tuning))))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.from_results is not None:
        return recalibrate(args)
    missing = [tool for tool in ("espeak-ng",) if shutil.which(tool) is None]
    if missing:
        print(f"The benchmark needs {', '.join(missing)} to synthesize speech.", file=sys.stderr)
        return 2
    started = time.monotonic()
    plan = chosen_plan(args)
    languages = [lang for lang in args.languages.split(",") if lang]
    cases = build_cases(plan, split=args.split, seed=args.seed, languages=languages,
                        fillers=args.fillers)
    cases = subset(cases, only=args.only, limit=args.limit, conditions=args.conditions)
    if args.voice_set:
        cases = with_voice_set(cases, args.voice_set)
        if not cases and args.voice_set == "mbrola":
            print("--voice-set mbrola needs Debian's MBROLA voices (non-free: mbrola-fr1 "
                  "mbrola-fr4 for French, mbrola-us1..3 for English)", file=sys.stderr)
            return 2
    if args.compute:
        os.environ["VOICE_HOST_WHISPER_COMPUTE"] = args.compute  # the workers inherit it
    if args.no_speculate:
        os.environ[SPECULATE_ENV] = "0"
    os.environ[SEGMENT_ENV] = args.segment
    if args.whisper:
        os.environ[WHISPER_ENV] = args.whisper
    if args.tuning:
        for lang in ("en", "fr"):
            whisper_tuning(lang, args.tuning)  # a wrong name stops here, not in a worker
        os.environ[TUNING_ENV] = args.tuning
    synthesize_all([(c.text, c.voice) for c in cases])
    if any(c.noise == "babble" for c in cases):
        babble_track()
    utterances = {c.ident: c for c in cases}
    print(f"{len(utterances)} utterances ({sum(c.command for c in utterances.values())} "
          f"commands), {len(cases)} utterance-conditions; audio ready in "
          f"{time.monotonic() - started:.0f} s", flush=True)
    systems = args.systems.split(",") if args.systems else available_systems()
    results: dict[str, list[Outcome]] = {}
    rss: dict[str, float] = {}
    context = multiprocessing.get_context("spawn")
    # a fresh process per system, so each one's peak memory is its own
    with concurrent.futures.ProcessPoolExecutor(max(1, args.jobs), mp_context=context,
                                                max_tasks_per_child=1) as pool:
        futures = {}
        for system in systems:
            lang = system_language(system)
            mine = [c for c in cases if c.setup.lang == lang]
            if not mine:
                continue
            if system.endswith(":open") and plan.baseline_conditions is not None:
                mine = [c for c in mine if c.condition in plan.baseline_conditions]
            futures[system] = pool.submit(_worker, system, mine, args.prompt, args.realtime)
        for system, future in futures.items():
            got = future.result()
            if got.note:
                print(f"{system}: not run ({got.note})", file=sys.stderr)
                continue
            results[system] = got.outcomes
            rss[system] = got.peak_rss_mb
    if "pocketsphinx:grammar" in results and "pocketsphinx:open" in results:
        results["pocketsphinx:grammar+open"] = combine(results["pocketsphinx:grammar"],
                                                       results["pocketsphinx:open"])
    results = route_results(results, args.tuning)
    summary = summarize(results, rss)
    command = "voice-host bench" + (" --quick" if args.quick else "") + (
        " --calibrate" if args.calibrate else "") + (
        f" --prompt {args.prompt}" if args.prompt else "") + (
        f" --compute {args.compute}" if args.compute else "") + (
        f" --only {args.only}" if args.only else "") + (
        " --realtime" if args.realtime else "") + (
        " --noise-set" if args.noise_set else "") + (
        " --fillers" if args.fillers else "") + (
        f" --voice-set {args.voice_set}" if args.voice_set else "") + (
        f" --segment {args.segment}" if args.segment != "endpointer" else "") + (
        " --no-speculate" if args.no_speculate else "") + (
        f" --whisper {args.whisper}" if args.whisper else "") + (
        f" --limit {args.limit}" if args.limit else "") + (
        f" --conditions '{args.conditions}'" if args.conditions else "") + (
        f" --languages {args.languages}" if args.languages != "en,fr" else "") + (
        f" --systems {args.systems}" if args.systems else "") + (
        f" --split {args.split}" if args.split != "report" else "") + (
        f" --seed {args.seed}" if args.seed != 6 else "") + (
        f" --tuning {args.tuning}" if args.tuning else "")
    meta = {"mode": "quick" if args.quick else "full", "split": args.split, "seed": args.seed,
            "command": command, "utterances": len(utterances),
            "commands": sum(c.command for c in utterances.values()),
            "chatter_lines": sum(not c.command for c in utterances.values()),
            "cases": len(cases), "voices": len({c.voice.name for c in cases}),
            "baseline_conditions": ", ".join(plan.baseline_conditions or ("all",)),
            "seconds": time.monotonic() - started,
            "machine": f"{os.cpu_count()} CPUs ({cpu_model()}), {args.jobs} worker(s)"}
    text = markdown(summary, meta)
    print()
    print(text)
    if args.calibrate:
        for system, outcomes in results.items():
            if system.startswith("whisper") and "/" not in system \
                    and not system.split("@")[0].endswith(":open"):
                print(f"calibration of {system} ({args.split} split), the best combinations:")
                limit = TARGETS[system_language(system)]["false_actions"]
                print("\n".join(calibration(outcomes, limit=limit, harmful_limit=limit / 2,
                                            base=decision_tuning(system, args.tuning))))
    for system, outcomes in results.items():
        if args.show_misses:
            print(f"misses of {system}:")
            for line in misses(outcomes, args.show_misses):
                print("  " + line)
    if not args.no_write:
        args.out.mkdir(parents=True, exist_ok=True)
        stem = "recognition" if not args.quick else "recognition-quick"
        (args.out / f"{stem}.md").write_text(text, encoding="utf-8")
        (args.out / f"{stem}.json").write_text(results_json(meta, summary, results),
                                               encoding="utf-8")
        print(f"written to {args.out / stem}.md and {stem}.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
