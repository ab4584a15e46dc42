"""Whole-table vote lists said aloud (espeak-ng, and Festival's voices when installed) through
Whisper and the host's reading, in a seven-player game whose names end the decoder's prompt:
over the set, a list with both yes and no votes is read as meant or asked about, and
(nearly) never taken unasked as another vote. A rate over a set; nothing is timed."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

from tests.support import needs
from voice_host.games.resistance import CastVote
from voice_host.host.core.adapter import Decision
from voice_host.host.core.agreement import Doubt, doubt, phase_vocabulary
from voice_host.host.core.confirm import CONFIRM_BELOW, Why, said_plainly, why_confirm
from voice_host.host.core.understanding import understand
from voice_host.host.core.values import HeardKind, ListenRequest
from voice_host.host.io.listening import PhaseEars
from voice_host.intent import SlotValues, load_grammar
from voice_host.speech import whisper_models
from voice_host.speech.decision import Verdict
from voice_host.speech.wav import decode_wav, resample, to_int16

needs.espeak()
needs.whisper_tiny_en()

pytestmark = pytest.mark.model

SEATS = ("Grace", "Amelie", "Sam", "Ingrid", "Chloe", "Olivia", "Nina")
LISTS = [
    ("Sam, Ingrid, Olivia and Nina no; Chloe, Grace and Amelie yes",
     {"Sam": False, "Ingrid": False, "Olivia": False, "Nina": False, "Chloe": True,
      "Grace": True, "Amelie": True}),
    ("Grace, Amelie and Sam yes; Ingrid, Chloe, Olivia and Nina no",
     {"Grace": True, "Amelie": True, "Sam": True, "Ingrid": False, "Chloe": False,
      "Olivia": False, "Nina": False}),
    ("Chloe and Nina no, the rest yes",
     {"Chloe": False, "Nina": False, "Grace": True, "Amelie": True, "Sam": True,
      "Ingrid": True, "Olivia": True}),
]
FESTIVAL = ("ked_diphone", "cmu_us_slt_arctic_hts")
VOICES = ["en-us", "en-gb", *(FESTIVAL if shutil.which("text2wave") else ())]


def speak(text: str, voice: str) -> np.ndarray:
    if voice in FESTIVAL:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "speech.wav"
            subprocess.run(["text2wave", "-eval", f"(voice_{voice})", "-o", str(path)],
                           input=text.encode(), check=True, capture_output=True)
            raw = path.read_bytes()
    else:
        raw = subprocess.run(["espeak-ng", "-v", voice, "-s", "150", "--stdout", text],
                             check=True, capture_output=True).stdout
    audio, rate = decode_wav(raw)
    return to_int16(resample(audio, rate, 16_000))


def votes_of(match) -> dict[str, bool]:  # type: ignore[no-untyped-def]
    """The votes a reading of the whole table's list names (a group's, then the rest)."""
    slots = match.slots
    out: dict[str, bool] = {}
    for group in ("1", "2", "3"):
        for name in slots.get(f"p{group}", ()):
            out[name] = slots[f"v{group}"] == "yes"
    for name in SEATS:
        if "vr" in slots and name not in out:
            out[name] = slots["vr"] == "yes"
    return out


def test_mixed_vote_lists_are_read_as_meant_or_asked_about() -> None:
    from voice_host.speech.whisper_asr import WhisperRecognizer

    ears = PhaseEars(WhisperRecognizer(whisper_models.ensure("tiny.en"), model_name="tiny.en"))
    pg = load_grammar("resistance", "en").phase("vote", SlotValues(players=SEATS))
    request = ListenRequest(grammar=pg, grammar_name="resistance.vote", expected=SEATS)
    said = wrong_unasked = right_or_asked = 0
    for voice in VOICES:
        for text, meant in LISTS:
            heard = ears.hear(speak(text, voice), request, source=voice)
            said += 1
            if heard.kind is not HeardKind.SPEECH:
                continue
            understood = understand(heard, pg.matcher, speaker="Sam")
            best = understood.best
            if best is None:
                continue  # not read: the host says so (a re-ask), nothing is taken
            if understood.verdict is Verdict.ASK:
                right_or_asked += 1
                continue
            judgement = heard.judgement
            evidence = doubt(best, understood,
                             grammar_text=judgement.reading.text
                             if judgement and judgement.reading else "",
                             free_text=judgement.free_text if judgement else "",
                             vocabulary=phase_vocabulary(pg),
                             unprompted_text=judgement.unprompted_text if judgement else "")
            why = why_confirm(Decision(action=CastVote("Sam", True)),
                              confidence=understood.confidence,
                              plain=said_plainly(heard, best, understood),
                              doubt=Doubt.PROMPT if evidence is Doubt.PROMPT else Doubt.NONE)
            asked = why is not Why.NONE or understood.confidence < CONFIRM_BELOW
            if votes_of(best) == meant or asked:
                right_or_asked += 1
            else:
                wrong_unasked += 1
    assert said == len(VOICES) * len(LISTS)
    figures = f"{right_or_asked}/{said} read as meant or asked, {wrong_unasked} taken wrongly"
    assert wrong_unasked <= said // 12, figures  # at most one list in twelve
    assert right_or_asked >= said // 2, figures
