"""Generate the host's cue sounds into audio/ from synthesized tones and noise.

    python scripts/make_cues.py [--out DIR]

    python scripts/make_cues.py --check DIR    # are the cues in DIR what this script makes?

Deterministic up to the last bit: fixed seeds, no downloads. The floating-point maths (sin,
exp, FFTs) may round differently in the last place on another CPU or numpy build, which can
move a sample that lies on a rounding boundary by one step of 16-bit audio; so ``--check``
compares samples, not bytes, and allows at most ``MAX_STEP`` steps on at most ``MAX_MOVED``
of the samples. A changed cue (another pitch, length, level, noise seed) moves almost every
sample by far more and is reported. Files are 16 kHz mono 16-bit WAV, one per
``voice_host.speech.cues.Cue``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

from voice_host.speech.cues import Cue
from voice_host.speech.effects import bandpass, crackle
from voice_host.speech.types import SpeechError
from voice_host.speech.wav import read_wav, to_int16, write_wav

RATE = 16_000
SEED = 1941  # the year the V campaign began
MAX_STEP = 2
"""Largest difference (in 16-bit steps) a sample may show between two CPUs."""
MAX_MOVED = 0.01
"""Largest share of samples that may differ at all."""
Audio = npt.NDArray[np.float64]


def _t(seconds: float) -> Audio:
    return np.arange(int(round(seconds * RATE))) / RATE


def _envelope(n: int, attack: float, decay: float) -> Audio:
    """Fast linear attack then exponential decay (``decay``: seconds to fall by 60 dB)."""
    t = np.arange(n) / RATE
    env = np.exp(-6.9 * t / decay)
    a = max(1, int(attack * RATE))
    env[:a] *= np.linspace(0.0, 1.0, a)
    return env


def _fade(x: Audio, fade_in: float, fade_out: float) -> Audio:
    y = x.copy()
    a, b = int(fade_in * RATE), int(fade_out * RATE)
    if a:
        y[:a] *= np.linspace(0.0, 1.0, a)
    if b:
        y[-b:] *= np.linspace(1.0, 0.0, b)
    return y


def _normalize(x: Audio, peak_db: float) -> Audio:
    peak = float(np.max(np.abs(x))) or 1.0
    return x / peak * 10 ** (peak_db / 20)


def _place(total: Audio, sound: Audio, at: float) -> None:
    i = int(round(at * RATE))
    end = min(len(total), i + len(sound))
    total[i:end] += sound[: end - i]


def _bell(freq: float, seconds: float) -> Audio:
    """A struck bell: inharmonic partials, the high ones dying first."""
    t = _t(seconds)
    out = np.zeros_like(t)
    for ratio, amp, decay in ((1.0, 1.0, 1.0), (2.76, 0.45, 0.45), (5.40, 0.25, 0.25),
                              (0.5, 0.2, 1.2)):
        env = _envelope(len(t), 0.002, decay * seconds)
        out += amp * np.sin(2 * np.pi * freq * ratio * t) * env
    return out


def _timpani(freq: float, seconds: float, *, damp_after: float | None,
             rng: np.random.Generator, ring: float = 1.0) -> Audio:
    """A kettle drum stroke: membrane modes (ratios of a timpani), a felt-mallet thump and a
    slight pitch drop as the head relaxes."""
    t = _t(seconds)
    glide = 1.0 + 0.03 * np.exp(-t / 0.05)
    out = np.zeros_like(t)
    for ratio, amp, decay in ((1.0, 1.0, 2.4), (1.504, 0.55, 1.6), (1.742, 0.35, 1.2),
                              (2.0, 0.3, 1.0), (2.245, 0.18, 0.8), (2.494, 0.12, 0.6)):
        phase = 2 * np.pi * np.cumsum(freq * ratio * glide) / RATE
        out += amp * np.sin(phase) * _envelope(len(t), 0.004, decay * ring)
    thump = bandpass(rng.standard_normal(len(t)), 60.0, 900.0, RATE).astype(np.float64)
    out += 2.0 * thump * _envelope(len(t), 0.001, 0.08)
    if damp_after is not None:  # the player stops the ring with a hand
        k = int(damp_after * RATE)
        out[k:] *= np.exp(-np.arange(len(t) - k) / (0.03 * RATE))
    return out


def make_tuning(rng: np.random.Generator) -> Audio:
    """Short-wave tuning: hiss that swells and fades, a heterodyne whistle sliding down as
    the dial turns, faint stations passing, crackle; settles on a carrier."""
    seconds = 1.6
    t = _t(seconds)
    n = len(t)
    hiss = bandpass(rng.standard_normal(n), 250.0, 6000.0, RATE).astype(np.float64)
    swell = 0.6 + 0.4 * np.sin(2 * np.pi * 1.7 * t + 1.0) * np.sin(2 * np.pi * 0.6 * t)
    out = 0.28 * hiss * swell
    sweep = 2600.0 * np.exp(-2.2 * t) + 180.0 + 120.0 * np.sin(2 * np.pi * 2.3 * t)
    whistle = np.sin(2 * np.pi * np.cumsum(sweep) / RATE)
    out += 0.35 * whistle * (0.5 + 0.5 * np.sin(2 * np.pi * 3.1 * t)) ** 2
    for at, carrier in ((0.35, 700.0), (0.8, 1100.0), (1.15, 520.0)):
        width = 0.18
        window = np.exp(-(((t - at) / (width / 2)) ** 2))
        voice = np.sin(2 * np.pi * carrier * t) * (1 + 0.8 * np.sin(2 * np.pi * 5.0 * t))
        out += 0.2 * voice * window
    out += crackle(n, RATE, rng=rng, per_second=18.0).astype(np.float64) * 1.5
    return _normalize(_fade(out, 0.12, 0.25), -4.0)


def make_v_motif(rng: np.random.Generator) -> Audio:
    """Da-da-da-dum: three short strokes on G and a long one a major third below (E flat),
    the rhythm of Beethoven's Fifth, the Morse V (dot-dot-dot-dash) the BBC beat on a drum."""
    g, e_flat = 98.0, 77.78
    total = np.zeros(int(2.6 * RATE))
    beat = 0.24
    for i in range(3):
        _place(total, _timpani(g, 0.6, damp_after=0.15, rng=rng), 0.05 + i * beat)
    _place(total, _timpani(e_flat, 1.9, damp_after=None, rng=rng, ring=1.8), 0.05 + 3 * beat + 0.08)
    return _normalize(_fade(total, 0.0, 0.3), -3.0)


def make_tick(rng: np.random.Generator) -> Audio:
    """A wood-block tick."""
    t = _t(0.06)
    out = np.sin(2 * np.pi * 1900.0 * t) + 0.5 * np.sin(2 * np.pi * 3150.0 * t)
    out *= _envelope(len(t), 0.0005, 0.04)
    out += 0.3 * rng.standard_normal(len(t)) * _envelope(len(t), 0.0002, 0.004)
    return _normalize(out, -6.0)


def make_hit(rng: np.random.Generator) -> Audio:
    """Two bright bell notes going up (C6 then G6)."""
    total = np.zeros(int(0.75 * RATE))
    _place(total, _bell(1046.5, 0.5), 0.0)
    _place(total, _bell(1568.0, 0.6), 0.12)
    return _normalize(_fade(total, 0.0, 0.05), -4.0)


def make_miss(rng: np.random.Generator) -> Audio:
    """A soft, hollow tone falling from E4 to C4 (odd harmonics, like a muted clarinet)."""
    t = _t(0.55)
    freq = np.where(t < 0.2, 329.63, 261.63)
    phase = 2 * np.pi * np.cumsum(freq) / RATE
    out = np.sin(phase) + 0.3 * np.sin(3 * phase) + 0.12 * np.sin(5 * phase)
    env = np.minimum(1.0, t / 0.01) * np.exp(-t / 0.35)
    env *= 1.0 - 0.8 * np.exp(-(((t - 0.2) / 0.012) ** 2))  # a soft break between the notes
    return _normalize(_fade(out * env, 0.0, 0.05), -5.0)


def make_turn(rng: np.random.Generator) -> Audio:
    """Ding-dong: G5 then E5 bells."""
    total = np.zeros(int(1.0 * RATE))
    _place(total, _bell(783.99, 0.7), 0.0)
    _place(total, _bell(659.25, 0.8), 0.22)
    return _normalize(_fade(total, 0.0, 0.1), -4.0)


def _brass(freq: float, seconds: float) -> Audio:
    t = _t(seconds)
    vibrato = 1.0 + 0.004 * np.sin(2 * np.pi * 5.5 * t) * np.minimum(1.0, t / 0.3)
    phase = 2 * np.pi * np.cumsum(freq * vibrato) / RATE
    out = np.zeros_like(t)
    for h in range(1, 12):
        if freq * h < RATE / 2 * 0.9:
            out += np.sin(h * phase) / h**1.2
    attack = np.minimum(1.0, t / 0.03)
    release = np.clip((seconds - t) / 0.08, 0.0, 1.0)
    return out * attack * release * (0.85 + 0.15 * np.exp(-t / 0.1))


def make_game_over(rng: np.random.Generator) -> Audio:
    """A short fanfare: G4 C5 E5, then a held C major chord."""
    total = np.zeros(int(2.0 * RATE))
    for i, f in enumerate((392.0, 523.25, 659.25)):
        _place(total, _brass(f, 0.16), i * 0.17)
    for f in (523.25, 659.25, 783.99, 261.63):
        _place(total, _brass(f, 1.3) * 0.6, 0.51)
    return _normalize(_fade(total, 0.0, 0.2), -3.0)


def make_listening(rng: np.random.Generator) -> Audio:
    """A soft blip gliding up a fifth (A5 to E6)."""
    t = _t(0.16)
    freq = 880.0 * (1.5 ** (t / t[-1]))
    out = np.sin(2 * np.pi * np.cumsum(freq) / RATE) * np.sin(np.pi * t / t[-1]) ** 2
    return _normalize(out, -8.0)


GENERATORS: dict[Cue, Callable[[np.random.Generator], Audio]] = {
    Cue.TUNING: make_tuning,
    Cue.V_MOTIF: make_v_motif,
    Cue.TICK: make_tick,
    Cue.HIT: make_hit,
    Cue.MISS: make_miss,
    Cue.TURN: make_turn,
    Cue.GAME_OVER: make_game_over,
    Cue.LISTENING: make_listening,
}


def generate(out_dir: Path) -> list[Path]:
    """Write every cue into ``out_dir``; returns the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for index, cue in enumerate(Cue):
        rng = np.random.default_rng([SEED, index])
        audio = GENERATORS[cue](rng)
        path = out_dir / f"{cue.value}.wav"
        write_wav(path, to_int16(np.clip(audio, -1.0, 1.0)), RATE)
        written.append(path)
    return written


def differences(fresh: Path, committed: Path) -> list[str]:
    """What differs between two folders of cues beyond last-bit rounding (empty: the same)."""
    problems = []
    for cue in Cue:
        name = f"{cue.value}.wav"
        try:
            new = read_wav(fresh / name).astype(np.int32)
            old = read_wav(committed / name).astype(np.int32)
        except SpeechError as exc:
            problems.append(f"{name}: {exc}")
            continue
        if len(new) != len(old):
            problems.append(f"{name}: {len(old)} samples, the script makes {len(new)}")
            continue
        step = np.abs(new - old)
        moved = float(np.count_nonzero(step)) / max(1, len(step))
        if step.size and (int(step.max()) > MAX_STEP or moved > MAX_MOVED):
            problems.append(f"{name}: {moved:.1%} of the samples differ, by up to "
                            f"{int(step.max())} steps")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default = Path(__file__).resolve().parents[1] / "audio"
    parser.add_argument("--out", type=Path, default=default, help=f"folder (default {default})")
    parser.add_argument("--check", type=Path, default=None, metavar="DIR",
                        help="compare the cues in DIR with freshly generated ones; exit 1 "
                             "if they differ beyond last-bit rounding")
    args = parser.parse_args(argv)
    if args.check is not None:
        with tempfile.TemporaryDirectory() as tmp:
            generate(Path(tmp))
            problems = differences(Path(tmp), args.check)
        for problem in problems:
            sys.stdout.write(problem + "\n")
        if problems:
            sys.stdout.write("The cue sounds differ from what the script makes: run "
                             "scripts/make_cues.py\n")
            return 1
        sys.stdout.write(f"the {len(Cue)} cue sounds in {args.check} are what the script "
                         "makes\n")
        return 0
    files = generate(args.out)
    total = sum(p.stat().st_size for p in files)
    sys.stdout.write(f"wrote {len(files)} cue sounds to {args.out} ({total // 1024} KiB)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
