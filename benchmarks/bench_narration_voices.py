"""Which narrator does a listener understand? Candidates side by side, run back through Whisper.

    python benchmarks/bench_narration_voices.py [--lines 40] [--candidates SPEC,SPEC]
        [--english] [--latency] [--show]

Narration lines come from the host's own tables (``host/lang/fr/*.toml``, ``host/lang/en``),
drawn evenly over the games, fields filled with plausible names and values (screen text, the
bots' lines and templates with fields that have no plausible value are left out:
:func:`table_lines`); each candidate renders each line through the host's synthesizer, and
Whisper base (the project's multilingual model, faster-whisper's ``transcribe``, greedy,
language ``fr``) writes what it hears. ``--english`` adds the English narrator (Piper joe)
judged by Whisper tiny.en over the same draw of the English tables' lines.

A candidate is ``ENGINE:VOICE[@SPEED]``:

- ``kokoro:jm_kumo@0.9``: Kokoro-82M with a packaged speaker (``a+b``: two mixed), at a
  speed (1.0 is the model's own pace), reading espeak-ng's French IPA
  (``voice_host.speech.kokoro_tts``); ``/final`` or ``/none`` after it: espeak-ng's stress
  marks kept only at the end of each clause, or dropped; ``+nopause``: no pause added
  after each piece;
- ``espeak-ng:fr@175``, ``espeak-ng:mb-fr1@150``: espeak-ng with its own French voice or a
  Debian MBROLA voice (``apt-get install mbrola mbrola-fr1``), at a rate in words per minute;
- ``piper:en``: the English narrator.

Per candidate the table gives the word error rate (median and mean over the lines, after
folding case, accents and punctuation and writing numbers 0-20 as words), the lines read back
with at most 20% of their words wrong, the real-time factor (rendering seconds per second of
speech, on this machine as it is; and in processor seconds, which a busy machine does not
inflate), the speaking pace (words per second of speech) and the
pause share (silence within the speech, from 20-ms frames), and the first-audio latency of a
cold line (p50/p95: rendering the first clause). ``--latency`` also plays a scripted game's
lines through the narrator the way the host does (each line's first clause rendered while the
previous line of its batch plays) and reports the start delay of each line (p50/p95), of
the first lines of a batch (nothing could be rendered before they were due) and of the
lines after them: the time from the line being due to its first audio. A line said again
comes from the synthesizer's cache.

Prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from bench_narration import word_error_rate  # noqa: E402

from voice_host.speech.synthesizer import (  # noqa: E402
    TtsEngine,
    TtsSynthesizer,
    VoiceSettings,
)
from voice_host.speech.types import SAMPLE_RATE  # noqa: E402
from voice_host.text import fold  # noqa: E402

FRENCH_FIELDS: dict[str, Any] = {
    "player": "Bruno", "speaker": "Chloé", "wehrmacht": "Denis", "finder": "Émile",
    "leader": "Ada", "spymaster": "Chloé", "players": "Ada, Bruno et Chloé",
    "team": "Ada et Bruno", "who": "Bruno", "name": "Denis", "first": "Ada", "second": "Bruno",
    "icon": "le cœur", "icon_cap": "Le cœur", "icons": "le cœur et le livre",
    "round": 2, "total": 6, "rounds": "six manches", "n": 3, "count": 2, "size": 3,
    "mission": 2, "number": 2, "score": 3, "points": 2, "word": "océan", "clue": "océan",
    "title": "Bribes de message", "colour": "rouge", "color": "rouge", "left": 2,
    "guesses": 2, "words": "océan, forêt", "seconds": 10, "spies": "Bruno et Denis",
    "red": 4, "blue": 5, "low": 2, "high": 5, "value": 3, "yes": "Ada et Bruno",
    "no": "Chloé", "yes_count": 2, "no_count": 1, "successes": 2, "failures": 1,
    "sabotages": 1, "winners": "la Résistance", "winner": "l'équipe rouge",
    "team_colour": "rouge", "names": "Ada, Bruno et Chloé", "other": "Denis", "votes": 3,
    "turn": "Bruno", "operatives": "Ada et Denis", "known": "Bruno", "ordinal": "deuxième",
    "what": "Ada vote oui", "voice": "Bruno", "named": "Ada", "needs": "oui ou non",
    "example": "Ada et Bruno", "where": "votre téléphone", "missions": "1 et 3",
    "heroes": 3, "waiting": "Chloé", "lost": "le cœur", "found": 1,
    "items": "le cœur et le livre", "double_agent": "Denis", "teams": "Ada et Bruno",
    "spymasters": "Ada et Chloé", "guesser": "bleue", "loser": "bleue", "red_found": 3,
    "blue_found": 2, "red_spymaster": "Ada", "red_operatives": "Bruno",
    "blue_spymaster": "Chloé", "blue_operatives": "Denis", "clues": "océan 2, forêt 3",
    "uncovered": 12, "scores": "Ada 3, Bruno 2", "sentence": "le chat dort sur le toit",
    "why": "le disque est plein",
}
"""Plausible values for the French tables' fields; a line with any other field (a path, an
address, a process number: screen text) is not drawn."""
ENGLISH_FIELDS: dict[str, Any] = {
    "player": "Ada", "speaker": "Ben", "wehrmacht": "Cleo", "finder": "Dan", "leader": "Eve",
    "spymaster": "Ada", "players": "Ada, Ben and Cleo", "team": "Ada and Ben", "who": "Ben",
    "name": "Dan", "first": "Ada", "second": "Ben",
    "icon": "the heart", "icon_cap": "The heart", "icons": "the heart and the book",
    "round": 2, "total": 6, "rounds": "six rounds", "n": 3, "count": 2, "size": 3,
    "mission": 2, "number": 2, "score": 3, "points": 2, "word": "ocean", "clue": "ocean",
    "title": "Bribes de message", "colour": "red", "color": "red", "left": 2,
    "guesses": 2, "words": "ocean, forest", "seconds": 10, "spies": "Ben and Dan",
    "red": 4, "blue": 5, "low": 2, "high": 5, "value": 3, "yes": "Ada and Ben",
    "no": "Cleo", "yes_count": 2, "no_count": 1, "successes": 2, "failures": 1,
    "sabotages": 1, "winners": "the Resistance", "winner": "the red team",
    "team_colour": "red", "names": "Ada, Ben and Cleo", "other": "Dan", "votes": 3,
    "turn": "Ben", "operatives": "Ada and Dan", "known": "Ben", "ordinal": "two",
    "what": "Ada votes yes", "voice": "Ben", "named": "Ada", "needs": "yes or no",
    "example": "Ada and Ben", "where": "your phone", "missions": "1 and 3",
    "heroes": 3, "waiting": "Cleo", "lost": "the heart", "found": 1,
    "items": "the heart and the book", "double_agent": "Dan", "teams": "Ada and Ben",
    "spymasters": "Ada and Cleo", "guesser": "blue", "loser": "blue", "red_found": 3,
    "blue_found": 2, "red_spymaster": "Ada", "red_operatives": "Ben",
    "blue_spymaster": "Cleo", "blue_operatives": "Dan", "clues": "ocean 2, forest 3",
    "uncovered": 12, "scores": "Ada 3, Ben 2", "sentence": "the cat sleeps on the roof",
    "why": "the disk is full",
}
"""The same for the English tables."""
GAME_FIELDS: dict[str, dict[str, dict[str, Any]]] = {
    "fr": {"codenames": {"team": "rouge", "players": 4}},
    "en": {"codenames": {"team": "red", "players": 4}}}
"""Fields whose meaning differs in one game (a Codenames team is a colour)."""

_SKIP_KEYS = (".refusal.", "page.", ".radio.", "doctor", "cli.", "error", "usage", "help",
              "screen_", ".bot.", "captions.", "_words")
"""Keys that are not the host's narration: screen text, the phones' pages, the bots' own
lines, captions."""
_NUMBERS_FR = ("zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize "
               "quatorze quinze seize dix-sept dix-huit dix-neuf vingt").split()
_NUMBERS_EN = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
               "fourteen fifteen sixteen seventeen eighteen nineteen twenty").split()


def table_lines(lang: str, count: int = 40, *, seed: int = 1944) -> list[str]:
    """``count`` varied narration lines in ``lang``: every game's table, fields filled with
    plausible values, lines of 4 to 40 words, drawn evenly over the games (a seeded
    shuffle). Screen text and templates with fields that have no plausible value are left
    out, so every line drawn is one a player can hear."""
    from voice_host.host.core.narration import catalogue
    from voice_host.host.core.registry import game_names

    fields = FRENCH_FIELDS if lang == "fr" else ENGLISH_FIELDS
    per_game: list[list[str]] = []
    seen: set[str] = set()
    for game in game_names():
        pool: list[str] = []
        for key, template in sorted(catalogue(lang, game).items()):
            if any(part in key for part in _SKIP_KEYS):
                continue
            first = template[0] if isinstance(template, list) else template
            try:
                text = first.format_map({**fields, **GAME_FIELDS[lang].get(game, {})})
            except (ValueError, IndexError, AttributeError, KeyError):
                continue
            if 4 <= len(text.split()) <= 40 and "{" not in text and "--" not in text \
                    and "/" not in text and text not in seen:
                seen.add(text)
                pool.append(text)
        random.Random(seed).shuffle(pool)
        per_game.append(pool)
    out: list[str] = []
    while len(out) < count and any(per_game):
        for pool in per_game:
            if pool and len(out) < count:
                out.append(pool.pop())
    return out


def french_lines(count: int = 40, *, seed: int = 1944) -> list[str]:
    """``count`` varied French narration lines (:func:`table_lines`)."""
    return table_lines("fr", count, seed=seed)


def english_lines(count: int = 40, *, seed: int = 1944) -> list[str]:
    """``count`` varied English narration lines (:func:`table_lines`)."""
    return table_lines("en", count, seed=seed)


def normalize(text: str, lang: str) -> list[str]:
    """Words to compare: folded (case, accents), punctuation and elisions split off,
    numbers 0-20 as words, "une" as "un"."""
    numbers = _NUMBERS_FR if lang == "fr" else _NUMBERS_EN
    words = []
    for word in fold(text).replace("'", " ").replace("-", " ").split():
        word = "".join(ch for ch in word if ch.isalnum())
        if not word:
            continue
        if word.isdigit() and int(word) <= 20:
            words.extend(fold(numbers[int(word)]).replace("-", " ").split())
        else:
            words.append("un" if word == "une" else word)
    return words


# --------------------------------------------------------------------------- candidates


@dataclass(frozen=True)
class Candidate:
    spec: str
    """As given (``kokoro:jf_alpha@0.9``)."""
    lang: str
    """The language it narrates."""
    engine: TtsEngine
    voice: str
    """The voice name the synthesizer asks the engine for."""
    settings: VoiceSettings


def candidate(spec: str) -> Candidate:
    engine_name, _, rest = spec.partition(":")
    rest, _, stress = rest.partition("/")
    voice, _, speed = rest.partition("@")
    if engine_name == "kokoro":
        from voice_host.speech.kokoro_tts import KOKORO_VOICE, SPEAKER, KokoroEngine

        stress, _, pauses = stress.partition("+")
        kokoro = KokoroEngine(speaker=voice or SPEAKER, speed=float(speed) if speed else 1.0,
                              stress=stress or "keep", pauses=pauses != "nopause")
        return Candidate(spec, "fr", kokoro, KOKORO_VOICE, VoiceSettings())
    if engine_name == "piper":
        from voice_host.speech.piper_tts import PiperEngine

        return Candidate(spec, "en", PiperEngine(), "en-us", VoiceSettings())
    if engine_name in ("espeak-ng", "espeak"):
        from voice_host.speech.synthesizer import EspeakEngine

        rate = int(speed) if speed else 175
        lang = "en" if voice.startswith("en") else "fr"
        return Candidate(spec, lang, EspeakEngine(), voice or "fr", VoiceSettings(rate=rate))
    raise SystemExit(f"unknown candidate {spec!r} (kokoro:SPEAKER@SPEED, espeak-ng:VOICE@WPM, "
                     "piper:en)")


class _Discard:
    """An output that takes the rendered pieces and plays nothing."""

    def speak(self, parts: Any, *, text: str, lang: str) -> float | None:
        first = None
        for _ in parts:
            if first is None:
                first = time.monotonic()
        return first

    def play(self, *args: Any, **kwargs: Any) -> None:
        pass


class _Playing(_Discard):
    """An output that takes as long as the speech it is given (a speaker without sound)."""

    def speak(self, parts: Any, *, text: str, lang: str) -> float | None:
        first = None
        for part in parts:
            if first is None:
                first = time.monotonic()
            time.sleep(part.seconds)
        return first


def synthesizer(c: Candidate, output: Any) -> TtsSynthesizer:
    from voice_host.host.core.narration import pronunciations

    synth = TtsSynthesizer(c.engine, output, settings=c.settings,
                           voices={c.lang: c.voice})
    synth.pronunciation = pronunciations()
    return synth


# --------------------------------------------------------------------------- measures


@dataclass(frozen=True)
class Reading:
    line: str
    transcript: str
    wer: float
    render_seconds: float
    cpu_seconds: float
    """Processor time of the rendering (all threads): the cost on an idle machine."""
    audio_seconds: float
    first_audio_seconds: float
    pause_share: float


def pause_share(samples: np.ndarray, rate: int = SAMPLE_RATE) -> float:
    """Share of 20-ms frames inside the speech that are 35 dB below its loudest frame."""
    frame = rate // 50
    n = len(samples) // frame
    if n == 0:
        return 0.0
    x = samples[: n * frame].astype(np.float64).reshape(n, frame)
    levels = np.sqrt(np.mean(x * x, axis=1)) + 1e-9
    quiet = levels < levels.max() * 10 ** (-35 / 20)
    return float(quiet.mean())


class _Collect(_Discard):
    """An output that keeps the rendered pieces (16 kHz) and plays nothing."""

    def __init__(self) -> None:
        self.pieces: list[np.ndarray] = []

    def speak(self, parts: Any, *, text: str, lang: str) -> float | None:
        from voice_host.speech.wav import resample, to_int16

        first = None
        self.pieces = []
        for part in parts:
            if first is None:
                first = time.monotonic()
            self.pieces.append(to_int16(resample(part.samples.astype(np.float32) / 32768.0,
                                                 part.rate, SAMPLE_RATE)))
        return first


def read_back(c: Candidate, lines: Sequence[str], transcribe: Callable[[np.ndarray], str]
              ) -> list[Reading]:
    """Say each line as the host does (sentence by sentence, nothing cached) and transcribe
    the whole line."""
    output = _Collect()
    synth = synthesizer(c, output)
    out = []
    for line in lines:
        synth.forget()
        cpu = time.process_time()
        synth.say(line, lang=c.lang)
        cpu = time.process_time() - cpu
        stats = synth.last_stats
        assert stats is not None
        audio = np.concatenate(output.pieces) if output.pieces else np.zeros(0, np.int16)
        heard = transcribe(audio.astype(np.float32) / 32768.0)
        out.append(Reading(line, heard, word_error_rate(normalize(line, c.lang),
                                                        normalize(heard, c.lang)),
                           stats.total_seconds, cpu, len(audio) / SAMPLE_RATE,
                           stats.first_audio_seconds, pause_share(audio)))
    return out


def whisper(name: str, lang: str) -> Callable[[np.ndarray], str]:
    from faster_whisper import WhisperModel

    from voice_host.speech import whisper_models

    folder = whisper_models.ensure(name)
    model = WhisperModel(str(folder), device="cpu", compute_type="int8", cpu_threads=2,
                         files=whisper_models.model_files(folder))

    def transcribe(audio: np.ndarray) -> str:
        segments, _ = model.transcribe(audio, language=lang, beam_size=1,
                                       condition_on_previous_text=False,
                                       without_timestamps=True)
        return " ".join(s.text.strip() for s in segments)

    return transcribe


def percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=np.float64), q)) if values else 0.0


BATCH = 3
"""Lines said together after one move (a game's narration comes in such batches)."""


def start_delays(c: Candidate, lines: Sequence[str]) -> tuple[list[float], list[float]]:
    """Start delays (seconds) of lines said as in a game: in batches of :data:`BATCH`, each
    line rendered while the one before it plays (``TtsSynthesizer.prepare``), the output
    taking as long as the speech; nothing is rendered between batches (a player's move).
    Returns (first lines of a batch, the lines after them)."""
    synth = synthesizer(c, _Playing())
    synth.forget()
    first: list[float] = []
    after: list[float] = []
    for start in range(0, len(lines), BATCH):
        batch = lines[start: start + BATCH]
        for index, line in enumerate(batch):
            if index + 1 < len(batch):
                synth.prepare(batch[index + 1], lang=c.lang)
            synth.say(line, lang=c.lang)
            if synth.last_stats:
                (after if index else first).append(synth.last_stats.first_audio_seconds)
    return first, after


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=40, help="lines per language (40)")
    parser.add_argument("--candidates", default="espeak-ng:fr,espeak-ng:mb-fr1@150,"
                        "kokoro:jm_kumo@0.9")
    parser.add_argument("--english", action="store_true",
                        help="also the English narrator (piper:en) judged by tiny.en")
    parser.add_argument("--latency", action="store_true",
                        help="also the start delay of lines said in turn (real time)")
    parser.add_argument("--latency-lines", type=int, default=20)
    parser.add_argument("--latency-only", action="store_true",
                        help="only the start delays (no transcription)")
    parser.add_argument("--show", action="store_true", help="print every transcript")
    args = parser.parse_args(argv)
    specs = [s for s in args.candidates.split(",") if s]
    if args.english:
        specs.append("piper:en")
    fr = french_lines(args.lines)
    en = english_lines(args.lines) if args.english else []
    readers: dict[str, Callable[[np.ndarray], str]] = {}
    rows = []
    for spec in specs:
        c = candidate(spec)
        lines = fr if c.lang == "fr" else en
        if args.latency_only:
            first, after = start_delays(c, lines[: args.latency_lines])
            every = [d * 1000 for d in first + after]
            print(f"| {spec:<22} | start delay p50/p95 {percentile(every, 50):5.0f} / "
                  f"{percentile(every, 95):5.0f} ms | first of a batch p95 "
                  f"{percentile([d * 1000 for d in first], 95):5.0f} | the next p95 "
                  f"{percentile([d * 1000 for d in after], 95):5.0f} | {len(every)} lines |",
                  flush=True)
            continue
        if c.lang not in readers:
            readers[c.lang] = whisper("base" if c.lang == "fr" else "tiny.en", c.lang)
        readings = read_back(c, lines, readers[c.lang])
        for r in readings:
            if args.show:
                print(f"{spec}\t{r.wer:.2f}\t{r.line}\t-> {r.transcript}", flush=True)
        wers = [r.wer for r in readings]
        firsts = [r.first_audio_seconds * 1000 for r in readings]
        audio = sum(r.audio_seconds for r in readings)
        words = sum(len(normalize(r.line, c.lang)) for r in readings)
        # the corpus word error rate: every line's errors over every line's words (a short
        # line weighs as much as its words, where the mean gives "Ada." as much as a sentence)
        sizes = [len(normalize(r.line, c.lang)) for r in readings]
        pooled = sum(r.wer * n for r, n in zip(readings, sizes, strict=True)) / max(sum(sizes), 1)
        row = (f"| {spec:<22} | {c.lang} | {pooled:6.1%} | {statistics.median(wers):6.1%} | "
               f"{statistics.mean(wers):6.1%} | {sum(w <= 0.2 for w in wers):>2}/{len(wers)} | "
               f"{sum(r.render_seconds for r in readings) / max(audio, 1e-9):5.2f} | "
               f"{sum(r.cpu_seconds for r in readings) / max(audio, 1e-9):5.2f} | "
               f"{words / max(audio, 1e-9):4.1f} | "
               f"{statistics.mean(r.pause_share for r in readings):5.1%} | "
               f"{percentile(firsts, 50):5.0f} / {percentile(firsts, 95):5.0f} |")
        if args.latency:
            first, after = start_delays(c, lines[: args.latency_lines])
            every = [d * 1000 for d in first + after]
            row += (f" {percentile(every, 50):5.0f} / {percentile(every, 95):5.0f} |"
                    f" {percentile([d * 1000 for d in first], 95):5.0f} |"
                    f" {percentile([d * 1000 for d in after], 95):5.0f} |")
        rows.append(row)
        print(row, flush=True)
    print(f"\nNarration read back by Whisper (French: base, {len(fr)} lines; English: tiny.en, "
          f"{len(en)} lines); RTF and latencies on this machine as it is.")
    header = ("| candidate              | lang | WER (all words) | WER median | WER mean | <=20% | "
              "RTF | CPU RTF | "
              "words/s | pauses | first audio cold p50/p95 ms |")
    if args.latency:
        header += (" start delay p50/p95 ms | first of a batch p95 | the next p95 |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for row in rows:
        print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
