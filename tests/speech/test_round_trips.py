"""TTS -> WAV -> recognizer -> matcher round trips for every game, through
`voice-host understand FILE.wav` (the path the host plays with), in several espeak-ng voices,
speeds and pitches and in Debian's Festival voices.

Recognition differs between CPUs (int8 kernels), so nothing here rests on one utterance's
outcome: the set of commands must be understood at a rate (``voice-host bench`` measures the
rate itself), and no line of table talk may change the game. Run it with
``VOICE_HOST_WHISPER_COMPUTE=float32`` too: the change of kernels is the closest thing to
another CPU that can be run on one machine."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support import needs
from tests.support.spoken_set import PLAYERS, Records, decode, game_changed, understood

needs.espeak()
# the rates below are Whisper tiny.en's (the recognizer `understand` chooses when it is there)
pytest.importorskip("ctranslate2", reason="ctranslate2 is not installed (speech extra)")
pytest.importorskip("faster_whisper", reason="faster-whisper is not installed (speech extra)")
needs.whisper_tiny_en()

pytestmark = [pytest.mark.model, pytest.mark.slow]

BOARD = ("piano,castle,ocean,rocket,tiger,apple,bridge,candle,dragon,forest,garden,hammer,"
         "island,jungle,kettle,ladder,mirror,needle,orange,pencil,rabbit,saddle,tunnel,violin,"
         "window")
# (game, phase, extra CLI args, phrase, expected intent, expected slots)
CASES = [
    ("resistance", "team", ["--speaker", "Hannah"], "I choose Sophie and Thomas",
     "propose_team", {"players": ["Sophie", "Thomas"]}),
    ("resistance", "vote", [], "I vote yes", "vote", {"choice": "yes"}),
    ("resistance", "vote", [], "no", "vote", {"choice": "no"}),
    ("resistance", "vote", [], "Hannah and Thomas yes, Sophie no", "votes",
     {"p1": ["Hannah", "Thomas"], "v1": "yes", "p2": ["Sophie"], "v2": "no"}),
    ("resistance", "vote", [], "everyone yes", "votes", {"va": "yes"}),
    ("resistance", "vote", [], "the rest no", "votes", {"vr": "no"}),
    ("resistance", "vote", [], "everyone else no", "votes", {"vr": "no"}),
    ("resistance", "count", [], "three voted yes", "vote_count", {"yes": 3}),
    ("resistance", "mission", [], "one sabotage", "mission_result", {"sabotages": 1}),
    ("resistance", "accuse", [], "the double agent is Emma", "accuse", {"player": "Emma"}),
    ("resistance", "answer", [], "no", "answer", {"choice": "no"}),
    ("ici-londres", "guess", [], "the heart and the book", "pick",
     {"icons": ["heart", "book"]}),
    ("ici-londres", "answer", [], "hit", "answer", {"choice": "yes"}),
    ("codenames", "clue", [], "ocean two", "clue", {"word": "ocean", "number": 2}),
    ("codenames", "guess", ["--board", BOARD], "guess piano", "guess", {"word": "piano"}),
    ("codenames", "colour", [], "it's blue", "colour", {"colour": "blue"}),
    ("codenames", "answer", [], "yes", "answer", {"choice": "yes"}),
    ("resistance", "vote", [], "what's the score", "score", {}),
]
CHATTER = [
    ("resistance", "vote", [], "pass me the chips please"),
    ("resistance", "team", ["--speaker", "Hannah"], "did you see the match last night"),
    ("ici-londres", "guess", [], "I have no idea what that sound was"),
    ("codenames", "guess", ["--board", BOARD], "whose turn is it to deal the cards"),
]
VOICES: list[tuple[str, int, int]] = [("en-us", 160, 50), ("en-us+f3", 175, 65),
                                      ("en-us+m3", 145, 35)]
FESTIVAL = ["ked_diphone", "cmu_us_slt_arctic_hts"]
"""Debian's Festival voices, a second synthesizer (installed by the test command)."""
if shutil.which("text2wave") is not None:
    VOICES += [(name, 0, 0) for name in FESTIVAL]
MIN_RATE = 0.85
"""Share of the commands (x voices) that must come back right. Measured on this kind of
machine (tiny.en, the phase's words as prompt): 67 of 70 (96%) with int8 kernels, 66 of
70 (94%) with float32; one utterance more or less is 1.4 points. With the two whole-table
votes added: 77 of 80 (96%, int8; both votes right in all five voices)."""


def synthesize(text: str, voice: tuple[str, int, int], path: Path) -> None:
    name, speed, pitch = voice
    if name in FESTIVAL:
        subprocess.run(["text2wave", "-eval", f"(voice_{name})", "-o", str(path)],
                       input=text.encode(), check=True, capture_output=True)
        return
    subprocess.run(["espeak-ng", "-v", name, "-s", str(speed), "-p", str(pitch), "-w",
                    str(path), text], check=True, capture_output=True)


@pytest.fixture(scope="module")
def heard(tmp_path_factory: pytest.TempPathFactory) -> Records:
    """Every command and chatter line in every voice, decoded one phase at a time."""
    return decode(CASES, CHATTER, len(VOICES), tmp_path_factory.mktemp("round_trips"),
                  lambda text, v, path: synthesize(text, VOICES[v], path),
                  ["--players", PLAYERS])


def test_spoken_commands_are_understood_at_a_rate(heard: Records) -> None:
    right, total, missed = understood(heard, CASES)
    print(f"\n{right}/{total} spoken commands understood; missed: {missed}")
    assert right >= MIN_RATE * total, f"{right}/{total} understood; missed: {missed}"


def test_table_talk_never_changes_the_game(heard: Records) -> None:
    acted = game_changed(heard, CHATTER)
    assert not acted, acted


def test_what_was_heard_is_shown(heard: Records) -> None:
    """``understand --json`` gives both readings and the decision for every WAV."""
    records = [r for rs in heard.values() for r in rs]
    if not any(r["backend"] == "whisper" for r in records):
        pytest.skip("the recognizer here gives one reading (Whisper is not installed)")
    for record in records:
        if record["backend"] == "whisper":
            for key in ("free_text", "grammar_text", "grammar_margin", "decision"):
                assert key in record, record
