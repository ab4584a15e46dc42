"""No English in a French game: what the rules, the wiring, the speech layer and argparse
refuse is printed in French when the game is French (by code from
``host/lang/fr/messages.toml``, argparse's words from ``host/lang/fr/help.toml``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from voice_host.cli import GameParser, game_language, main
from voice_host.host.core import messages
from voice_host.host.core.messages import say
from voice_host.host.core.narration import LANGS
from voice_host.host.core.values import Line
from voice_host.host.io import wiring
from voice_host.host.io.terminal import TextOutput
from voice_host.speech import mic
from voice_host.speech.fakes import ScriptedRecognizer
from voice_host.speech.types import AudioDeviceError

PLAYERS = ["--players", "Ada,Ben,Cleo,Dan,Eve"]
TEXT = ["--input", "text", "--output", "text"]
ENGLISH = re.compile(r"\b(the|must|needs|named|error|usage|required|unrecognized|cannot|"
                     r"there|find|choose|invalid|plug|which|is|not|of|with)\b", re.IGNORECASE)
"""Words of the English messages that no French sentence has."""
PACKAGE = Path(messages.__file__).resolve().parents[2]


def printed(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) if _usage_error(argv) else _no_raise() as caught:
        code = main(argv)
    if caught is not None:
        code = caught.value.code
    assert code == 2
    return capsys.readouterr().err.strip()


class _no_raise:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> bool:
        return False


def _usage_error(argv: list[str]) -> bool:
    return any(a in argv for a in ("--bogus", "--pause-after", "--input=bogus")) or \
        argv[:2] == ["play", "codenames"] and "--red" not in argv


BAD = [
    ["play", "resistance", "--lang", "fr", *PLAYERS, "--bogus", *TEXT],  # unknown option
    ["play", "resistance", "--lang", "fr", *PLAYERS, "--input=bogus"],  # a bad choice
    ["play", "ici-londres", "--lang", "fr", *PLAYERS, "--pause-after", "1", *TEXT],
    ["play", "ici-londres", "--lang", "fr", *PLAYERS, "--pause-after", "x", *TEXT],
    ["play", "codenames", "--lang", "fr", *TEXT],  # required options missing
    ["play", "resistance", "--lang", "fr", "--players", "Ada,Ben", *TEXT],  # too few
    ["play", "resistance", "--lang", "fr", "--players", "Ada,,Ben,Cleo,Dan", *TEXT],
    ["play", "resistance", "--lang", "fr", "--players", "Ada,Ben,ada,Cleo,Dan", *TEXT],
    ["play", "ici-londres", "--lang", "fr", *PLAYERS, "--rounds", "100000", *TEXT],
    ["play", "resistance", "--lang", "fr", *PLAYERS, "--first", "Zed", *TEXT],
    ["play", "codenames", "--lang", "fr", "--red", "Ada", "--blue", "Ben,Cleo,Dan", *TEXT],
    ["play", "resistance", "--lang", "fr", *PLAYERS, "--input", "text", "--output", "foo"],
    ["play", "resistance", "--lang", "fr", *PLAYERS, *TEXT, "--script", "/no/such/script"],
    ["play", "resistance", "--lang", "fr", *PLAYERS, *TEXT, "--companion", "--port",
     "99999"],
]


@pytest.mark.parametrize("argv", BAD, ids=lambda a: " ".join(a[1:2] + a[3:]))
def test_a_french_game_refuses_bad_input_in_french(
        argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    said = printed([*argv, "--save", str(tmp_path / "game.json")], capsys)
    last = said.splitlines()[-1]
    assert last and not ENGLISH.search(last), last


def test_the_same_input_in_an_english_game_stays_english(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["play", "resistance", "--lang", "en", "--players", "Ada,Ben", *TEXT]
    assert printed(argv, capsys) == \
        "Resistance with a double agent needs 5 to 10 players, you named 2."


def test_a_missing_microphone_is_said_in_french(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    def no_microphone(**_: Any) -> Any:
        raise AudioDeviceError(mic.NO_MICROPHONE)

    monkeypatch.setattr(wiring, "make_recognizer",
                        lambda *a, **k: (ScriptedRecognizer(), "Reconnaissance : test."))
    monkeypatch.setattr(mic, "MicrophoneSource", no_microphone)
    monkeypatch.setattr(wiring, "has_speaker", lambda: False)
    argv = ["play", "resistance", "--lang", "fr", *PLAYERS, "--output", "text",
            "--save", str(tmp_path / "game.json")]
    assert main(argv) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == \
        "Je ne trouve pas de microphone. Branchez-en un, ou jouez avec --input text."


def test_usage_errors_are_french_from_the_first_word(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "resistance", "--lang", "fr", "--input", "bogus"])
    err = capsys.readouterr().err
    assert err.startswith("utilisation : voice-host play resistance")
    assert "erreur : argument --input : choix impossible : 'bogus'" in err
    assert "usage" not in err and "error" not in err


def test_a_recording_played_back_is_marked_in_the_game_language() -> None:
    lines: list[str] = []

    class Stream:
        def write(self, text: str) -> int:
            lines.append(text)
            return len(text)

        def flush(self) -> None:
            pass

    import numpy as np

    recording = np.zeros(160, dtype=np.int16)
    french = TextOutput(stream=Stream(), lang="fr")  # type: ignore[arg-type]
    french.emit([Line("Message reçu.", lang="fr", recording=recording)])
    english = TextOutput(stream=Stream(), lang="en")  # type: ignore[arg-type]
    english.emit([Line("Message received.", lang="en", recording=recording)])
    # the French radio's "Je répète." in an English game: the label is the game's language
    english.emit([Line("Je répète.", lang="fr", recording=recording)])
    shown = "".join(lines)
    assert "Message reçu. [enregistrement réécouté]" in shown
    assert "Message received. [recording played back]" in shown
    assert "Je répète. [recording played back]" in shown
    assert shown.count("enregistrement réécouté") == 1


def test_values_of_a_sentence_are_said_in_its_language() -> None:
    from voice_host.wording import OneOf, Term

    choices = OneOf(("fragments", "competing", "countdown"))
    assert say("options.choice", "fr", flag="--mode", choices=choices, value="x") == \
        "--mode doit être fragments, competing ou countdown, pas x."
    assert say("options.choice", "en", flag="--mode", choices=choices, value="x") == \
        "--mode must be fragments, competing or countdown, not x."
    assert say("options.team_too_small", "fr", which=Term("red", "red"), n=1, red="A,B",
               blue="C,D").startswith("Chaque équipe a besoin d'au moins 2 joueurs, un "
                                      "maître-espion et un agent ; l'équipe rouge en a 1.")


def test_subparsers_speak_the_language_of_their_parser(
        capsys: pytest.CaptureFixture[str]) -> None:
    parser = GameParser(prog="x", lang="fr")
    sub = parser.add_subparsers().add_parser("y")
    assert isinstance(sub, GameParser) and sub.lang == "fr"
    assert GameParser(prog="x").lang == "en"
    with pytest.raises(SystemExit):
        sub.parse_args(["--bogus"])
    assert "erreur : arguments inconnus : --bogus" in capsys.readouterr().err


def test_the_language_of_the_words_is_one_the_host_speaks() -> None:
    for lang in LANGS:
        assert game_language(["play", "resistance", "--lang", lang]) == lang
        assert game_language([f"--lang={lang}"]) == lang
    assert game_language(["--lang", "de"]) == "en"
    assert game_language(["--lang"]) == "en"


def test_captions_are_labelled_in_the_games_language() -> None:
    """A French game's captions say HÔTE and name each sound cue in French; an English
    game's French radio call is still captioned in English (only its voice is French)."""
    import io

    from voice_host.host.core.values import Style

    french, english = io.StringIO(), io.StringIO()
    TextOutput(french, lang="fr").emit([Line("Touché.", lang="fr", cue="hit")])
    TextOutput(french, lang="fr").tick(3)
    TextOutput(english, lang="en").emit([
        Line("Ici Londres !", lang="fr", cue="v_motif", style=Style.RADIO)])
    assert french.getvalue() == "HÔTE : (touché) Touché.\nHÔTE : (tic) 3\n"
    assert english.getvalue() == "HOST: (V motif) [radio] Ici Londres !\n"


def test_every_cue_has_a_caption_in_each_language() -> None:
    from voice_host.host.core.narration import LANGS

    cues = sorted(p.stem for p in (PACKAGE / "audio").glob("*.wav"))
    assert cues, "no cue files found"
    for lang in LANGS:
        named = messages._load(lang, "common").get("captions", {})
        assert [c for c in cues if c not in named] == [], lang
