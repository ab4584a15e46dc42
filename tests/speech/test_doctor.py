"""``voice-host doctor``: its report with simulated devices and recognizers, and the real
offline round trip when the recognizers are available."""

from __future__ import annotations

import argparse
import io
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from voice_host.host.cli import doctor
from voice_host.speech.fakes import FakeSoundDevice, ScriptedRecognizer
from voice_host.speech.install import extra_install, pip_install
from voice_host.speech.types import SAMPLE_RATE, RecognizerUnavailable


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    doctor.add_arguments(parser)
    return parser.parse_args(list(argv))


def _fake_recognizers(monkeypatch: pytest.MonkeyPatch, factory: object) -> None:
    module = types.ModuleType("voice_host.speech.recognizers")
    module.create_recognizer = factory  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "voice_host.speech.recognizers", module)


def test_report_with_a_scripted_recognizer(monkeypatch: pytest.MonkeyPatch) -> None:
    recognizer = ScriptedRecognizer(["i vote yes"], confidence=0.8)
    calls: list[tuple[str, str | None, str]] = []

    def create(asr: str = "auto", *, vosk_model: str | None = None, lang: str = "en"):  # type: ignore[no-untyped-def]
        calls.append((asr, vosk_model, lang))
        return recognizer

    _fake_recognizers(monkeypatch, create)
    out = io.StringIO()
    code = doctor.run(_args("--asr", "pocketsphinx", "--tts", "espeak-ng"), out=out,
                      sd=FakeSoundDevice(devices=[]))
    report = out.getvalue()
    assert code == 0, report
    assert calls == [("pocketsphinx", None, "en")]
    assert "no audio devices found" in report
    assert "scripted" in report and "(--asr pocketsphinx)" in report
    assert ('said "I vote yes" in the resistance vote phase, heard "i vote yes" (recognizer '
            'confidence 0.80), understood as a vote yes (confidence ') in report
    # the real phase's grammar, with the players' names, went to the recognizer
    assert recognizer.grammar is not None and recognizer.grammar.name == "resistance.vote"
    assert {"vote", "yes", "no", "ada"} <= set(recognizer.grammar.words)
    heard_audio = recognizer.audio[0]
    assert len(heard_audio) / SAMPLE_RATE > 0.4
    assert np.abs(heard_audio.astype(np.int32)).max() > 3000  # real speech was rendered


def test_devices_are_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_recognizers(monkeypatch, lambda *a, **k: ScriptedRecognizer(["i vote yes"]))
    out = io.StringIO()
    doctor.run(_args("--tts", "espeak-ng"), out=out, sd=FakeSoundDevice())
    assert "microphone: Fake Mic; speaker: Fake Speaker" in out.getvalue()


def test_wrong_word_heard_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_recognizers(monkeypatch, lambda *a, **k: ScriptedRecognizer(["vote no"]))
    out = io.StringIO()
    assert doctor.run(_args("--tts", "espeak-ng"), out=out, sd=FakeSoundDevice()) == 1
    assert 'heard "vote no"' in out.getvalue() and "understood as a vote no" in out.getvalue()
    assert "1 problem(s) found." in out.getvalue()


@pytest.mark.parametrize("transcript", ["yes and no", "i said yes to the pizza"])
def test_a_yes_the_vote_phase_does_not_take_fails(monkeypatch: pytest.MonkeyPatch,
                                                  transcript: str) -> None:
    """A transcript that holds "yes" but that the real vote phase would not act on is a
    failed round trip (a private yes/no check passed it)."""
    _fake_recognizers(monkeypatch, lambda *a, **k: ScriptedRecognizer([transcript]))
    out = io.StringIO()
    assert doctor.run(_args("--tts", "espeak-ng"), out=out, sd=FakeSoundDevice()) == 1
    assert f'heard "{transcript}"' in out.getvalue()
    assert "understood as a vote yes" not in out.getvalue()


def test_french_round_trip_uses_the_french_vote_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    recognizer = ScriptedRecognizer(["oui"])
    _fake_recognizers(monkeypatch, lambda *a, **k: recognizer)
    out = io.StringIO()
    assert doctor.run(_args("--tts", "espeak-ng", "--lang", "fr"), out=out,
                      sd=FakeSoundDevice()) == 0, out.getvalue()
    assert "understood as a vote yes" in out.getvalue()
    assert 'said "je vote oui"' in out.getvalue()  # a sentence, so the search is tried
    assert recognizer.grammar is not None and "oui" in recognizer.grammar.words


def test_a_round_trip_heard_only_through_the_prompt_is_explained() -> None:
    # espeak-ng's French "je vote oui" is heard as said by Whisper base only with the vote
    # phase's words as its prompt: the chain works, and the report says why a game would
    # not take such a line; anything else refused is no such case
    from voice_host.host.core.values import Heard, HeardKind
    from voice_host.speech.decision import GrammarReading, Judgement, Rejection

    def heard(reading: str, reason: Rejection) -> Heard:
        judged = Judgement("je vote oui", -0.5, False,
                           GrammarReading(reading, 0.0, -0.5, 5, 1.0, lift=2.33), False,
                           reason, 0.0, free_lift=2.33)
        return Heard(HeardKind.SPEECH, text="je vote oui", rejected=True, spoken=True,
                     judgement=judged)

    assert doctor._heard_through_prompt(heard("je vote oui", Rejection.PRIMED),
                                        "je vote oui") == pytest.approx(2.33)
    assert doctor._heard_through_prompt(heard("je vote non", Rejection.PRIMED),
                                        "je vote oui") is None
    assert doctor._heard_through_prompt(heard("je vote oui", Rejection.LOW_MARGIN),
                                        "je vote oui") is None


def test_recognizer_that_cannot_start(monkeypatch: pytest.MonkeyPatch) -> None:
    def create(*args: object, **kwargs: object) -> None:
        raise RecognizerUnavailable("No Vosk model is installed. Use --asr pocketsphinx.")

    _fake_recognizers(monkeypatch, create)
    out = io.StringIO()
    code = doctor.run(_args("--asr", "vosk", "--tts", "espeak-ng"), out=out,
                      sd=FakeSoundDevice(devices=[]))
    report = out.getvalue()
    assert code == 1
    assert "No Vosk model is installed. Use --asr pocketsphinx." in report
    assert "round trip" in report and "skipped" in report


def test_missing_recognizer_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "voice_host.speech.recognizers", None)
    out = io.StringIO()
    assert doctor.run(_args("--tts", "espeak-ng"), out=out, sd=FakeSoundDevice(devices=[])) == 1
    assert "recognizers are not available" in out.getvalue()


@pytest.mark.model
def test_real_round_trip_with_pocketsphinx() -> None:
    # the project's own modules are imported plainly: a broken import fails, never skips
    pytest.importorskip("pocketsphinx", reason="pocketsphinx is not installed")
    out = io.StringIO()
    code = doctor.run(_args("--asr", "pocketsphinx"), out=out, sd=FakeSoundDevice(devices=[]))
    report = out.getvalue()
    assert code == 0, report
    assert 'said "I vote yes" in the resistance vote phase' in report
    assert "understood as a vote yes" in report


def test_audio_processing_names_missing_optional_libraries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("webrtcvad", reason="webrtcvad-wheels is not installed (speech extra)")
    pytest.importorskip("soxr", reason="soxr is not installed (speech extra)")
    assert "WebRTC VAD" in doctor.check_audio_processing().detail
    monkeypatch.setitem(sys.modules, "webrtcvad", None)
    monkeypatch.setitem(sys.modules, "soxr", None)
    detail = doctor.check_audio_processing().detail
    assert pip_install("webrtcvad-wheels") in detail
    assert pip_install("soxr") in detail


def test_installed_vosk_models_are_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    info = types.SimpleNamespace(lang="fr", name="vosk-model-small-fr-0.22")
    module = types.ModuleType("voice_host.speech.models")
    module.list_models = lambda: [  # type: ignore[attr-defined]
        types.SimpleNamespace(info=info, path=Path("/data/models/vosk-model-small-fr-0.22")),
        types.SimpleNamespace(info=types.SimpleNamespace(lang="en", name="x"), path=None),
    ]
    monkeypatch.setitem(sys.modules, "voice_host.speech.models", module)
    check = doctor.check_models()
    assert check.detail == "fr (vosk-model-small-fr-0.22) at /data/models/vosk-model-small-fr-0.22"
    module.list_models = lambda: []  # type: ignore[attr-defined]
    assert doctor.check_models().detail.startswith("none installed")


def test_whisper_models_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from voice_host.speech import whisper_models

    monkeypatch.setattr(whisper_models, "state", lambda name: "not installed")
    check = doctor.check_whisper_models()
    assert "tiny.en not installed" in check.detail
    assert extra_install("speech") in check.detail  # a command that runs as printed
    monkeypatch.setattr(whisper_models, "state", lambda name: "installed")
    check = doctor.check_whisper_models()
    assert check.detail == "tiny.en installed, base installed"


@pytest.mark.model
def test_french_round_trip_with_whisper_base_passes(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from voice_host.speech import whisper_models

    pytest.importorskip("ctranslate2", reason="ctranslate2 is not installed (speech extra)")
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    if whisper_models.state("base") == "not installed":
        pytest.skip("the Whisper base model packages are not installed")
    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path))  # joins the parts here
    out = io.StringIO()
    code = doctor.run(_args("--tts", "espeak-ng", "--lang", "fr", "--asr", "whisper",
                            "--whisper-model", "base"), out=out, sd=FakeSoundDevice())
    report = out.getvalue()
    assert "[ok  ] round trip" in report, report
    # understood as the vote, or heard word for word and refused only as heard through the
    # prompt (espeak-ng's French is hard for base), which the report says
    assert ("understood as a vote yes" in report
            or ('heard "je vote oui"' in report and "prompt" in report)), report
    assert code == 0, report
