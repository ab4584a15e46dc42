"""TTS -> WAV -> recognizer -> matcher round trips for every phase of every game, through
`voice-host understand FILE.wav` (the path the host plays with), in several espeak-ng voices,
speeds and pitches and in Debian's Festival voices. Each phrase must come back right in at
least one voice -- and must never come back as a *different* command: a missed command costs
a repeat, a wrong one changes the game. (How often a command is understood is measured by
`voice-host bench`, not here.)"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from voice_host.cli import main

pytest.importorskip("pocketsphinx", reason="pocketsphinx is not installed")
if shutil.which("espeak-ng") is None:
    pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)", allow_module_level=True)

PLAYERS = "Sophie,Thomas,Hannah,Oliver,Emma"
BOARD = ("piano,castle,ocean,rocket,tiger,apple,bridge,candle,dragon,forest,garden,hammer,"
         "island,jungle,kettle,ladder,mirror,needle,orange,pencil,rabbit,saddle,tunnel,violin,"
         "window")
# (game, phase, extra CLI args, phrase, expected intent, expected slots)
CASES = [
    ("resistance", "team", ["--speaker", "Hannah"], "I choose Sophie and Thomas",
     "propose_team", {"players": ["Sophie", "Thomas"]}),
    ("resistance", "vote", [], "I vote yes", "vote", {"choice": "yes"}),
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
VOICES: list[tuple[str, int, int]] = [("en-us", 160, 50), ("en-us+f3", 175, 65),
                                      ("en-us+m3", 145, 35)]
FESTIVAL = ["ked_diphone", "cmu_us_slt_arctic_hts"]
"""Debian's Festival voices, a second synthesizer (installed by the test command)."""
if shutil.which("text2wave") is not None:
    VOICES += [(name, 0, 0) for name in FESTIVAL]


pytestmark = pytest.mark.model


def synthesize(text: str, voice: tuple[str, int, int], path: Path) -> None:
    name, speed, pitch = voice
    if name in FESTIVAL:
        subprocess.run(["text2wave", "-eval", f"(voice_{name})", "-o", str(path)],
                       input=text.encode(), check=True, capture_output=True)
        return
    subprocess.run(["espeak-ng", "-v", name, "-s", str(speed), "-p", str(pitch), "-w",
                    str(path), text], check=True, capture_output=True)


@pytest.mark.parametrize(("game", "phase", "extra", "phrase", "intent", "slots"), CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[4]}" for c in CASES])
def test_spoken_command_round_trip(game: str, phase: str, extra: list[str], phrase: str,
                                   intent: str, slots: dict[str, object], tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    files = []
    for i, voice in enumerate(VOICES):
        path = tmp_path / f"{i}.wav"
        synthesize(phrase, voice, path)
        files.append(str(path))
    args = ["understand", "--game", game, "--phase", phase, "--players", PLAYERS, *extra,
            "--json", *files]
    assert main(args) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(results) == len(VOICES)
    right = [r for r in results if r["intent"] == intent and r["slots"] == slots
             and not r.get("ambiguous")]
    # an ambiguous reading is asked about ("Did you mean X, or Y?"), never acted on, and a
    # spoken clue is always read back for confirmation, so a misheard clue word is asked
    # about too; any other reading would change the game
    wrong = [r for r in results if r["intent"] is not None and r not in right
             and not r.get("ambiguous")
             and not (phase == "clue" and r["intent"] == intent
                      and r["slots"].get("number") == slots["number"])]
    assert not wrong, f"{phrase!r} was acted on as something else: {wrong}"
    assert right, f"{phrase!r} understood in none of the voices: {results}"
