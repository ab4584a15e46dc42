"""`voice-host understand` with typed phrases."""

from __future__ import annotations

import argparse
import json

import pytest

from voice_host.host.cli import understand
from voice_host.host.core.understanding import Route
from voice_host.host.core.understanding import understand as understand_heard
from voice_host.host.core.values import Heard, HeardKind
from voice_host.intent.grammar import SlotValues, load_grammar
from voice_host.speech.decision import GrammarReading, Judgement, Rejection, Verdict


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    understand.add_arguments(parser)
    return understand.run(parser.parse_args(argv))


def test_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code = _run(["--game", "resistance", "--phase", "team", "--players", "Sophie,Thomas,Zoë",
                 "--speaker", "Zoë", "--json", "--text", "I choose Sophie and me",
                 "pass me the chips"])
    assert code == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert list(lines[0]) == ["input", "transcript", "intent", "slots", "confidence"]
    assert lines[0]["intent"] == "propose_team"
    assert lines[0]["slots"] == {"players": ["Sophie", "Zoë"]}
    assert 0.9 <= lines[0]["confidence"] <= 1.0
    assert lines[1]["intent"] is None and lines[1]["slots"] == {}


def test_default_board_and_icons(capsys: pytest.CaptureFixture[str]) -> None:
    from voice_host.games.codenames_words import WORD_LISTS
    word = WORD_LISTS["en"][3]
    assert _run(["--game", "codenames", "--phase", "guess", "--json", "--text",
                 f"guess {word}"]) == 0
    assert json.loads(capsys.readouterr().out)["slots"] == {"word": word}
    assert _run(["--game", "ici-londres", "--phase", "guess", "--json", "--text",
                 "heart in book"]) == 0
    assert json.loads(capsys.readouterr().out)["slots"] == {"icons": ["heart", "book"]}


def test_human_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["--game", "codenames", "--phase", "clue", "--text", "blue ocean too"]) == 0
    out = capsys.readouterr().out
    assert "intent:     clue" in out and "word=ocean" in out and "number=2" in out


def test_bad_phase_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["--game", "codenames", "--phase", "team", "--text", "x"]) == 2
    assert "no phase" in capsys.readouterr().err


@pytest.mark.model
def test_missing_wav_is_reported(capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    code = _run(["--game", "resistance", "--phase", "vote", str(tmp_path / "none.wav")])
    assert code in (1, 2)
    captured = capsys.readouterr()
    assert (captured.out + captured.err).strip()


def test_wav_inputs_go_through_the_recognizer(capsys: pytest.CaptureFixture[str], tmp_path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import numpy as np

    from voice_host.speech import recognizers
    from voice_host.speech.fakes import ScriptedRecognizer
    from voice_host.speech.wav import write_wav

    recognizer = ScriptedRecognizer(["both yes", "did you see his face"])
    monkeypatch.setattr(recognizers, "create_chosen", lambda choice, lang="en": recognizer)
    paths = []
    for name in ("a.wav", "b.wav"):
        path = tmp_path / name
        write_wav(path, np.zeros(8000, dtype=np.int16))
        paths.append(str(path))
    assert _run(["--game", "resistance", "--phase", "vote", "--json", *paths]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["transcript"] for line in lines] == ["both yes", "did you see his face"]
    assert lines[0]["intent"] == "vote" and lines[0]["slots"] == {"choice": "yes"}
    assert lines[1]["intent"] is None
    grammar = recognizer.grammar
    assert grammar is not None and grammar.jsgf is not None and "vote" in grammar.words
    # what --json adds for audio: the recognizer, the audio's length, the time from its end
    # to the intent, and the alternatives
    assert lines[0]["backend"] == "scripted"
    assert lines[0]["audio_seconds"] == pytest.approx(0.5)  # 8000 samples
    assert lines[0]["decode_ms"] >= 0
    assert lines[0]["alternatives"] == [] and lines[0]["heard_alternatives"] == []


def test_a_close_second_sentence_with_another_meaning_is_ambiguous() -> None:
    from voice_host.host.core.understanding import understand as understand_heard
    from voice_host.host.core.values import Heard, HeardKind
    from voice_host.intent import Matcher, SlotValues, as_spoken, load_grammar

    phase = load_grammar("codenames").phase("guess", SlotValues(
        lists=(as_spoken("board_word", ("piano", "pear", "ocean")),)))
    matcher = Matcher(phase)

    def heard(*alternatives: str) -> Heard:
        return Heard(HeardKind.SPEECH, text="guess piano", confidence=0.9, spoken=True,
                     closed_grammar=True, alternatives=alternatives)

    both = understand_heard(heard("guess pear"), matcher, speaker=None)
    assert both.result is not None and both.result.ambiguous
    assert [m.slots["word"] for m in both.result.alternatives] == ["piano", "pear"]
    # the same reading written another way, or nothing usable, is not a doubt
    for alternatives in (("i guess piano",), ("hmm",), ()):
        one = understand_heard(heard(*alternatives), matcher, speaker=None)
        assert one.best is not None and one.best.slots["word"] == "piano"
        assert one.result is not None and not one.result.ambiguous, alternatives


# --------------------------------------------------------------------------- two readings



def _vote_matcher():  # type: ignore[no-untyped-def]
    return load_grammar("resistance", "en").phase(
        "vote", SlotValues(players=("Sophie", "Thomas"))).matcher


def _heard(free: str, sentence: str | None, *, accepted: bool, margin: float = -0.1,
           free_logp: float = -0.1, looped: bool = False) -> Heard:
    reading = GrammarReading(sentence, margin, margin - 0.2, 4, 0.9) \
        if sentence is not None else None
    judgement = Judgement(free, free_logp, looped, reading, accepted,
                          Rejection.NONE if accepted else Rejection.LOW_MARGIN,
                          0.9 if accepted else 0.0)
    return Heard(HeardKind.SPEECH, text=sentence if accepted and sentence else free,
                 rejected=not accepted, closed_grammar=accepted, spoken=True,
                 judgement=judgement)


def test_readings_that_agree_are_taken() -> None:
    got = understand_heard(_heard("I vote yes.", "i vote yes", accepted=True),
                           _vote_matcher(), speaker=None)
    assert got.best is not None and dict(got.best.slots) == {"choice": "yes"}
    assert got.verdict is Verdict.AGREE and got.confidence > 0.75


def test_a_confident_free_transcript_outside_the_grammar_is_read_as_typed() -> None:
    # Whisper wrote the sentence exactly; the grammar could only force "yes" + end
    heard = _heard("yes i approve", "yes", accepted=False, margin=-1.5)
    got = understand_heard(heard, _vote_matcher(), speaker=None)
    # the unconfident grammar reading means the same: they agree
    assert got.verdict is Verdict.AGREE
    assert got.best is not None and dict(got.best.slots) == {"choice": "yes"}
    alone = understand_heard(_heard("yes i approve", None, accepted=False), _vote_matcher(),
                             speaker=None)
    assert alone.verdict is Verdict.FREE and alone.best is not None
    grammar_only = understand_heard(heard, _vote_matcher(), speaker=None, route=Route.GRAMMAR)
    assert grammar_only.best is None


def test_readings_that_disagree_are_asked_about() -> None:
    got = understand_heard(_heard("i vote no", "i vote yes", accepted=True),
                           _vote_matcher(), speaker=None)
    assert got.verdict is Verdict.ASK
    assert got.result is not None and got.result.ambiguous
    assert {dict(m.slots)["choice"] for m in got.result.alternatives} == {"yes", "no"}


def test_an_unsure_or_looping_free_transcript_alone_is_not_a_command() -> None:
    for heard in (_heard("i vote no", "i vote yes", accepted=False, margin=-2.0,
                         free_logp=-1.5),
                  _heard("i vote no", None, accepted=False, looped=True)):
        got = understand_heard(heard, _vote_matcher(), speaker=None)
        assert got.best is None and got.verdict is Verdict.NEITHER


def test_table_talk_is_no_command_by_either_reading() -> None:
    got = understand_heard(_heard("pass me the chips", "pass", accepted=False, margin=-2.5),
                           _vote_matcher(), speaker=None)
    assert got.best is None
    free_only = understand_heard(_heard("pass me the chips", "pass", accepted=False),
                                 _vote_matcher(), speaker=None, route=Route.FREE)
    assert free_only.best is None


def test_a_grammar_sentence_that_followed_the_decoders_loop_is_read_once() -> None:
    # the decoder wrote "thomas yes thomas yes" (looped); the search followed the loop
    # through the grammar's two groups of voters; the vote is Thomas's one yes
    heard = _heard("thomas yes", "thomas yes thomas yes", accepted=True, margin=0.0,
                   looped=True)
    got = understand_heard(heard, _vote_matcher(), speaker=None)
    assert got.best is not None and got.best.intent == "votes"
    assert dict(got.best.slots) == {"p1": ("Thomas",), "v1": "yes"}
    # without a loop, the sentence is read as it stands
    plain = understand_heard(_heard("thomas yes thomas yes", "thomas yes thomas yes",
                                    accepted=True), _vote_matcher(), speaker=None)
    assert plain.best is not None and set(dict(plain.best.slots)) >= {"p1", "p2"}


def test_the_readings_show_how_alike_the_sentence_sounds_when_that_was_measured() -> None:
    from dataclasses import replace

    heard = _heard("aïe vote yes", "i vote yes", accepted=True, margin=-1.3)
    assert heard.judgement is not None and heard.judgement.reading is not None
    got = understand_heard(heard, _vote_matcher(), speaker=None)
    plain = understand._readings(heard, got)
    assert plain["grammar_sound"] is None  # not measured: not shown
    assert "sounds" not in understand._human_readings(plain)
    sounded = replace(heard, judgement=replace(
        heard.judgement, reading=replace(heard.judgement.reading, sound=0.91)))
    record = understand._readings(sounded, understand_heard(sounded, _vote_matcher(),
                                                            speaker=None))
    assert record["grammar_sound"] == 0.91
    assert "sounds 0.91 alike, accepted" in understand._human_readings(record)
    assert not record["grammar_near"]
    # a sentence the near search found among those spelled nearest the free text says so
    near = replace(heard, judgement=replace(
        heard.judgement, reading=replace(heard.judgement.reading, near=True)))
    found = understand._readings(near, understand_heard(near, _vote_matcher(), speaker=None))
    assert found["grammar_near"]
    assert "among the sentences nearest the free text, accepted" in \
        understand._human_readings(found)


def test_the_readings_show_the_prompt_lift_and_why_a_primed_reading_was_refused() -> None:
    from dataclasses import replace

    heard = _heard("i vote no", "i vote no", accepted=True)
    assert heard.judgement is not None and heard.judgement.reading is not None
    plain = understand._readings(heard, understand_heard(heard, _vote_matcher(),
                                                         speaker=None))
    assert plain["grammar_prompt_lift"] is None and "prompt lift" not in \
        understand._human_readings(plain)
    # talk the phase's words prompted into "i vote no": refused, and the reason shown
    primed = replace(heard, judgement=replace(
        heard.judgement, accepted=False, reason=Rejection.PRIMED, free_lift=4.1,
        reading=replace(heard.judgement.reading, lift=4.05)))
    got = understand_heard(primed, _vote_matcher(), speaker=None)
    assert got.best is None
    record = understand._readings(primed, got)
    assert record["grammar_prompt_lift"] == 4.05 and record["free_prompt_lift"] == 4.1
    shown = understand._human_readings(record)
    assert "prompt lift +4.05, rejected: heard only through the prompt" in shown
    assert "(not confident); mean log-prob -0.10, prompt lift +4.10" in shown
