"""Recorded utterances (``.wav`` script lines): a recording whose data is shorter than its
header says, or too short to hold a word, is refused with a sentence in the game's
language and never decoded or acted on."""

from __future__ import annotations

import io
import random
import struct
from pathlib import Path

import numpy as np
import pytest

from voice_host.host.adapters import make_adapter, new_game
from voice_host.host.core.session import Session, SessionOptions
from voice_host.host.core.values import HeardKind, ListenRequest
from voice_host.host.io.listening import PhaseEars
from voice_host.host.io.terminal import ScriptListener, TextOutput
from voice_host.speech.fakes import ScriptedRecognizer
from voice_host.speech.types import SAMPLE_RATE
from voice_host.speech.wav import encode_wav

PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve"]


def _speechlike(seconds: float) -> np.ndarray:
    t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    return (6000 * np.sin(2 * np.pi * 180 * t) * np.sin(2 * np.pi * 3 * t)).astype(np.int16)


def _truncated(path: Path, *, declared: float, kept: float) -> Path:
    """A WAV whose header announces ``declared`` seconds but holds only ``kept``."""
    whole = encode_wav(_speechlike(declared))
    path.write_bytes(whole[: 44 + int(kept * SAMPLE_RATE) * 2])
    assert struct.unpack_from("<I", path.read_bytes(), 40)[0] == int(declared * SAMPLE_RATE) * 2
    return path


def _request() -> ListenRequest:
    from voice_host.intent import load_grammar
    from voice_host.intent.grammar import SlotValues

    pg = load_grammar("resistance").phase("vote", SlotValues(players=tuple(PLAYERS)))
    return ListenRequest(grammar=pg, grammar_name="resistance.vote", expected=("Ada",))


def test_a_cut_off_recording_is_refused_and_not_decoded(tmp_path: Path) -> None:
    recognizer = ScriptedRecognizer(["no"], confidence=0.95)
    heard = PhaseEars(recognizer).decode_wav(_truncated(tmp_path / "cut.wav", declared=0.9,
                                                   kept=0.1), _request())
    assert heard.kind is HeardKind.ERROR
    assert heard.error == ("That recording is cut short: its header says 0.9 seconds, but "
                           "only 0.1 seconds of sound are there.")
    assert recognizer.audio == []  # never decoded


def test_a_recording_too_short_for_a_word_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "blip.wav"
    path.write_bytes(encode_wav(_speechlike(0.1)))
    recognizer = ScriptedRecognizer(["no"], confidence=0.95)
    heard = PhaseEars(recognizer).decode_wav(path, _request())
    assert heard.kind is HeardKind.ERROR and "too short to hold a word" in heard.error
    assert recognizer.audio == []


def test_a_whole_recording_and_a_streamed_header_are_decoded(tmp_path: Path) -> None:
    whole = tmp_path / "whole.wav"
    whole.write_bytes(encode_wav(_speechlike(0.9)))
    streamed = tmp_path / "streamed.wav"
    data = bytearray(encode_wav(_speechlike(0.6)))
    struct.pack_into("<I", data, 40, 0xFFFFFFFF)  # a streaming writer's unknown length
    streamed.write_bytes(bytes(data))
    recognizer = ScriptedRecognizer(["yes", "no"], confidence=0.95)
    ears = PhaseEars(recognizer)
    assert ears.decode_wav(whole, _request()).text == "yes"
    assert ears.decode_wav(streamed, _request()).text == "no"


@pytest.mark.parametrize(("lang", "team", "said"), [
    ("en", "Ada and Ben", "That recording is cut short: its header says 0.9 seconds, but only "
                          "0.1 seconds of sound are there. I have not used it."),
    ("fr", "Ada et Ben", "Cet enregistrement est tronqué : son en-tête annonce 0,9 seconde, "
                         "mais il n'y a que 0,1 seconde de son."),
])
def test_in_a_game_the_cut_off_vote_is_not_applied(tmp_path: Path, lang: str, team: str,
                                                  said: str) -> None:
    _truncated(tmp_path / "cut.wav", declared=0.9, kept=0.1)
    script = tmp_path / "script.txt"
    script.write_text(f"{team}\nAda: cut.wav\n", encoding="utf-8")
    recognizer = ScriptedRecognizer(["no"], confidence=0.97)
    opts = {"deal": "table", "lang": lang, "players": PLAYERS, "double_agent": True,
            "first": "Ada", "votes": "together", "seed": 7}
    out = io.StringIO()
    session = Session(adapter=make_adapter("resistance", opts),
                      state=new_game("resistance", opts), rng=random.Random(7),
                      output=TextOutput(out),
                      listener=ScriptListener(script, decode_wav=PhaseEars(recognizer).decode_wav),
                      options=SessionOptions(confirm="never"))
    session.run(fresh=True)
    assert said in out.getvalue()
    assert session.state.votes == {}
