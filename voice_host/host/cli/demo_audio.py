"""One file of a whole demo game: the host's narration and the players' utterances in the
order they happened, for listening from start to finish.

The demo writes the host's lines as numbered WAV files (``narration/0001.wav`` ...; their
``transcript.txt`` gives each file's kind and text) and each player's utterance as
``players/0001-Ada.wav``; the demo's own ``transcript.txt`` gives what each player said. The
two numbered series are each in order; they are merged by the time each file was written
(the host never writes while a player speaks). :func:`assemble` writes:

* ``game.ogg`` (Ogg Vorbis, when sox can write it; its comments carry a chapter list in the
  ``CHAPTERnnn`` convention media players read) or else ``game.wav``;
* ``game-transcript.txt``: each line's start time, who speaks and what (``[00:01:02.5] HOST:
  ...``), and the chapters.

Nothing here knows a game: only the files.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from voice_host.speech.types import AudioFormatError
from voice_host.speech.wav import decode_wav, resample, to_int16

RATE = 22_050
"""The assembled file's sample rate: the narrator's own (Piper and espeak-ng), so its voice
keeps its high frequencies; the players' 16 kHz utterances are resampled to it."""

GAP = 0.35
"""Silence between two pieces, in seconds, so turns do not run into each other."""

CHAPTER_CUES = frozenset({"turn", "tuning", "game_over"})
"""Cue sounds that open a chapter (a team's turn, a radio round, the end)."""

CHAPTER_MIN_SECONDS = 30.0
"""A cue this soon after the last chapter's start opens no new one."""

_PLAYER_LINE = re.compile(r"^(?P<who>.+?) says: (?P<text>.*?)\s+\[(?P<file>[^;\]]+\.wav)")


@dataclass(frozen=True)
class Piece:
    """One file of the game, in order."""

    path: Path
    speaker: str
    """``HOST``, a player's name, or ``cue``."""
    text: str
    """What is said (a cue's name for a sound)."""
    start: float = 0.0
    """Seconds from the start of the assembled file."""


@dataclass(frozen=True)
class Assembled:
    """What :func:`assemble` wrote."""

    audio: Path
    transcript: Path
    seconds: float
    size_bytes: int
    chapters: int


def _narration(folder: Path) -> list[Piece]:
    listing = folder / "transcript.txt"
    if not listing.is_file():
        return []
    pieces = []
    for line in listing.read_text(encoding="utf-8").splitlines():
        name, _, rest = line.partition("\t")
        kind, _, text = rest.partition("\t")
        path = folder / name
        if path.is_file():
            pieces.append(Piece(path, "cue" if kind == "cue" else "HOST", text))
    return pieces


def _players(folder: Path, transcript: Path) -> list[Piece]:
    said: dict[str, tuple[str, str]] = {}
    if transcript.is_file():
        for line in transcript.read_text(encoding="utf-8").splitlines():
            found = _PLAYER_LINE.match(line.strip())
            if found:
                said[found["file"]] = (found["who"].title(), found["text"])
    pieces = []
    for path in sorted(folder.glob("[0-9]*.wav")):
        who, text = said.get(path.name, (path.stem.partition("-")[2] or "player", ""))
        pieces.append(Piece(path, who, text))
    return pieces


def in_order(out: Path) -> list[Piece]:
    """The demo's files in the order they happened: the two numbered series merged by the
    time each file was written (each series keeps its own order)."""
    host = _narration(out / "narration")
    players = _players(out / "players", out / "transcript.txt")
    merged: list[Piece] = []
    i = j = 0
    while i < len(host) or j < len(players):
        if j >= len(players) or (i < len(host) and host[i].path.stat().st_mtime_ns
                                 <= players[j].path.stat().st_mtime_ns):
            merged.append(host[i])
            i += 1
        else:
            merged.append(players[j])
            j += 1
    return merged


def _stamp(seconds: float) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{int(hours):02d}:{int(minutes):02d}:{secs:06.3f}"


def sox_writes_vorbis() -> bool:
    """True when the installed sox can write Ogg Vorbis."""
    if shutil.which("sox") is None:
        return False
    try:
        shown = subprocess.run(["sox", "-h"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    formats = next((ln for ln in shown.splitlines() if ln.startswith("AUDIO FILE FORMATS")), "")
    return "vorbis" in formats.split()


def assemble(out: Path, *, name: str = "game", ogg: bool | None = None) -> Assembled | None:
    """Write the whole game as one file in ``out`` (see the module docstring); None when
    there is nothing to assemble. The audio is written piece by piece (a long game never
    sits in memory whole)."""
    pieces = in_order(out)
    if not pieces:
        return None
    use_ogg = sox_writes_vorbis() if ogg is None else ogg
    target = out / f"{name}.{'ogg' if use_ogg else 'wav'}"
    with tempfile.TemporaryDirectory(prefix="voice-host-demo-") as tmp:
        wav = Path(tmp) / "game.wav" if use_ogg else target.with_name(target.name + ".part")
        placed, position = _write_pieces(pieces, wav)
        if not placed:
            wav.unlink(missing_ok=True)
            return None
        chapters = _chapters(placed)
        if use_ogg:
            _write_ogg(wav, target, chapters, Path(tmp))
        else:
            wav.replace(target)
    transcript = out / f"{name}-transcript.txt"
    with transcript.open("w", encoding="utf-8") as f:
        f.write(f"# {name}: the whole game, {_stamp(position)} long. Chapters:\n")
        for n, (start, title) in enumerate(chapters, 1):
            f.write(f"#   {n:3d}  [{_stamp(start)}] {title}\n")
        for piece in placed:
            who = f"({piece.text})" if piece.speaker == "cue" else f"{piece.speaker}: {piece.text}"
            f.write(f"[{_stamp(piece.start)}] {who}\n")
    return Assembled(target, transcript, position, target.stat().st_size, len(chapters))


def _write_pieces(pieces: list[Piece], path: Path) -> tuple[list[Piece], float]:
    """Append every readable piece to one 16-bit mono WAV at ``RATE``, a gap after each;
    return the pieces with their start times, and the total length."""
    gap = np.zeros(int(GAP * RATE), dtype=np.int16).tobytes()
    placed: list[Piece] = []
    position = 0.0
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        for piece in pieces:
            try:
                decoded, rate = decode_wav(piece.path.read_bytes())
            except (AudioFormatError, OSError):
                continue  # a piece that cannot be read is left out, not the whole game
            samples = to_int16(resample(decoded, rate, RATE))
            if not len(samples):
                continue
            placed.append(Piece(piece.path, piece.speaker, piece.text, position))
            out.writeframes(samples.astype("<i2").tobytes() + gap)
            position += (len(samples) + len(gap) // 2) / RATE
    return placed, position


def _chapters(placed: list[Piece]) -> list[tuple[float, str]]:
    """A chapter at the start and at each cue that opens one, named by the next line."""
    chapters: list[tuple[float, str]] = []
    for k, piece in enumerate(placed):
        if k == 0 or (piece.speaker == "cue" and piece.text in CHAPTER_CUES):
            title = next((p.text for p in placed[k:] if p.speaker == "HOST" and p.text), "")
            title = title if len(title) <= 70 else title[:67].rsplit(" ", 1)[0] + " ..."
            if chapters and piece.start - chapters[-1][0] < CHAPTER_MIN_SECONDS:
                continue  # openings close together (a turn, then the radio) make one
            chapters.append((piece.start, title))
    return chapters


def _write_ogg(wav: Path, target: Path, chapters: list[tuple[float, str]], tmp: Path) -> None:
    comments = tmp / "comments.txt"
    lines = ["TITLE=voice-host demo game"]
    for n, (start, title) in enumerate(chapters, 1):
        lines += [f"CHAPTER{n:03d}={_stamp(start)}", f"CHAPTER{n:03d}NAME={title}"]
    comments.write_text("\n".join(lines) + "\n", encoding="utf-8")
    partial = target.with_suffix(".ogg.part")
    subprocess.run(["sox", str(wav), "-C", "3", "--comment-file", str(comments),
                    "-t", "vorbis", str(partial)], check=True, capture_output=True)
    partial.replace(target)
