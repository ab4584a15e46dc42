"""The demo's single file: host and players merged in the order they were written, with a
timestamped transcript and (Ogg) a chapter list."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from voice_host.host.cli import demo_audio
from voice_host.speech.wav import read_wav, write_wav


def _tone(seconds: float, rate: int, level: int = 3000) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    return (level * np.sin(2 * np.pi * 220 * t)).astype(np.int16)


def _demo_folder(tmp_path: Path) -> Path:
    """A demo's output as the demo writes it: two numbered series, written in turn."""
    out = tmp_path / "demo"
    (out / "narration").mkdir(parents=True)
    (out / "players").mkdir()
    clock = 1_700_000_000_000_000_000
    order = [("narration", "0001.wav", "en", "Welcome to Resistance.", 1.0, 22050),
             ("narration", "0002.wav", "cue", "turn", 0.2, 16000),
             ("narration", "0003.wav", "en", "Mission one. Ada, choose two players.", 1.5, 22050),
             ("players", "0001-Ada.wav", "", "my team is Ada and Ben", 1.2, 16000),
             ("narration", "0004.wav", "en", "Ada proposes Ada and Ben.", 1.0, 22050),
             ("players", "0002-Ben.wav", "", "I vote yes", 0.8, 16000),
             ("narration", "0005.wav", "cue", "game_over", 0.3, 16000),
             ("narration", "0006.wav", "en", "The Resistance wins.", 1.0, 22050)]
    listing, said = [], []
    for k, (folder, name, kind, text, seconds, rate) in enumerate(order):
        path = out / folder / name
        write_wav(path, _tone(seconds, rate), rate)
        stamp = clock + k * 5_000_000  # 5 ms apart, as on a fast machine
        os.utime(path, ns=(stamp, stamp))
        if folder == "narration":
            listing.append(f"{name}\t{kind}\t{text}")
        else:
            who = name.split("-")[1].removesuffix(".wav")
            said.append(f"{who.upper()} says: {text}    [{name}; recognizer heard: {text}]")
    (out / "narration" / "transcript.txt").write_text("\n".join(listing) + "\n")
    (out / "transcript.txt").write_text("HOST: Welcome to Resistance.\n" + "\n".join(said) + "\n")
    return out


def test_the_two_series_are_merged_in_the_order_they_were_written(tmp_path: Path) -> None:
    out = _demo_folder(tmp_path)
    pieces = demo_audio.in_order(out)
    assert [p.path.name for p in pieces] == ["0001.wav", "0002.wav", "0003.wav",
                                             "0001-Ada.wav", "0004.wav", "0002-Ben.wav",
                                             "0005.wav", "0006.wav"]
    assert [p.speaker for p in pieces][3:6] == ["Ada", "HOST", "Ben"]
    assert pieces[3].text == "my team is Ada and Ben"


@pytest.fixture(autouse=True)
def short_chapters(monkeypatch: pytest.MonkeyPatch) -> None:
    """The made-up game lasts seconds: chapters may be a second apart."""
    monkeypatch.setattr(demo_audio, "CHAPTER_MIN_SECONDS", 1.0)


def test_chapters_close_together_make_one(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    monkeypatch.setattr(demo_audio, "CHAPTER_MIN_SECONDS", 30.0)
    whole = demo_audio.assemble(_demo_folder(tmp_path), ogg=False)
    assert whole is not None and whole.chapters == 1  # a 10-second game: one chapter


def test_one_wav_file_with_every_piece_and_a_timestamped_transcript(tmp_path: Path) -> None:
    out = _demo_folder(tmp_path)
    whole = demo_audio.assemble(out, ogg=False)
    assert whole is not None and whole.audio == out / "game.wav"
    speech = 1.0 + 0.2 + 1.5 + 1.2 + 1.0 + 0.8 + 0.3 + 1.0
    assert whole.seconds == pytest.approx(speech + 8 * demo_audio.GAP, abs=0.01)
    samples = read_wav(whole.audio)  # readable, and as long as it says
    assert len(samples) / 16000 == pytest.approx(whole.seconds, abs=0.05)
    assert whole.size_bytes == whole.audio.stat().st_size
    lines = whole.transcript.read_text(encoding="utf-8").splitlines()
    body = [ln for ln in lines if ln.startswith("[")]
    assert body[0] == "[00:00:00.000] HOST: Welcome to Resistance."
    assert body[3].endswith("Ada: my team is Ada and Ben") and body[1].endswith("(turn)")
    starts = [ln[1:13] for ln in body]
    assert starts == sorted(starts) and len(set(starts)) == len(starts)
    # chapters: the start, each team's turn, the end; named by the host's next line
    assert whole.chapters == 3
    assert any("Mission one. Ada, choose two players." in ln for ln in lines if ln.startswith("#"))


def test_ogg_vorbis_with_a_chapter_list_when_sox_can(tmp_path: Path) -> None:
    if not demo_audio.sox_writes_vorbis() or shutil.which("soxi") is None:
        pytest.skip("this sox cannot write Ogg Vorbis")
    out = _demo_folder(tmp_path)
    whole = demo_audio.assemble(out)
    assert whole is not None and whole.audio.suffix == ".ogg"
    comments = subprocess.run(["soxi", "-a", str(whole.audio)], capture_output=True,
                              text=True, check=True).stdout
    assert "CHAPTER001=00:00:00.000" in comments
    assert "CHAPTER003NAME=The Resistance wins." in comments
    seconds = float(subprocess.run(["soxi", "-D", str(whole.audio)], capture_output=True,
                                   text=True, check=True).stdout)
    assert seconds == pytest.approx(whole.seconds, abs=0.1)
    assert not list(out.glob("*.part"))


def test_nothing_to_assemble(tmp_path: Path) -> None:
    assert demo_audio.assemble(tmp_path) is None
