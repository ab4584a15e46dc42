"""The recognition benchmark's machinery on three utterances: synthesis, mixing at a measured
SNR, and the host's listening path (endpointer -> streamed decoder -> understand)."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pocketsphinx", reason="pocketsphinx is not installed")
needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="espeak-ng is needed to synthesize test speech")

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bench_recognition as bench  # noqa: E402

from voice_host.speech.decision import SearchTuning  # noqa: E402


def _cases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[bench.Case]:
    monkeypatch.setattr(bench, "CACHE", tmp_path)
    setup = bench.Setup("resistance", ("Sophie", "Thomas", "Hannah", "Lucas", "Emma"), "Emma")
    voice = bench.Voice("en-us", 160, 50)
    return [
        bench.Case(0, setup, "vote", "i vote yes", "vote", bench.canonical_slots(
            {"choice": "yes"}), voice, "clean", None),
        bench.Case(1, setup, "team", "i choose sophie and thomas", "propose_team",
                   bench.canonical_slots({"players": ("Sophie", "Thomas")}), voice, "pink", 18),
        bench.Case(2, setup, "vote", "the pizza is getting cold", None, "{}", voice,
                   "white", 12),
    ]


@pytest.mark.model
@needs_espeak
def test_mixing_hits_the_snr_and_the_host_path_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cases = _cases(tmp_path, monkeypatch)
    bench.synthesize_all([(c.text, c.voice) for c in cases])
    assert len(list(tmp_path.glob("*.wav"))) == 3  # cached by text and voice
    for case in cases[1:]:
        clean = bench.stream_for(bench.Case(case.ident, case.setup, case.phase, case.text,
                                            case.intent, case.slots, case.voice, "clean",
                                            None), None)
        mixed = bench.stream_for(case, None)
        assert len(mixed) == len(clean)
        assert not np.array_equal(mixed, clean)
        assert bench.measured_snr(mixed, clean) == pytest.approx(case.snr, abs=0.3)

    result = bench.run_system("pocketsphinx:grammar", cases)
    assert [o.ident for o in result.outcomes] == [0, 1, 2]
    first = result.outcomes[0]
    assert first.correct, first
    assert first.audio > 0 and first.cpu > 0 and first.latency >= 0
    assert result.peak_rss_mb > 0
    summary = bench.summarize({"pocketsphinx:grammar": result.outcomes}, {})
    assert summary["pocketsphinx:grammar"]["commands"] == 2
    assert summary["pocketsphinx:grammar"]["chatter"] == 1


def test_a_registered_game_gets_its_benchmark_rows_from_its_grammar(toy_registered: None) -> None:
    assert bench.game_phases()["ten"] == ("count",)
    assert bench.game_phases()["resistance"][:2] == ("team", "vote")
    cases = bench.build_cases(bench.QUICK, split="report", seed=3, languages=("en",))
    toy = [c for c in cases if c.setup.game == "ten"]
    assert {c.phase for c in toy} == {"count"}
    commands = [c for c in toy if c.intent is not None]
    assert len(commands) >= bench.QUICK.per_phase  # each in one or more conditions
    assert "add" in {c.intent for c in commands}  # its own intent, beside the common ones


def _whisper_outcome(ident: int, expected: str | None, *, g: list[object] | None,
                     f: list[object] | None, margin: float = -0.2,
                     free_logp: float = -0.2) -> bench.Outcome:
    import json

    # as the bench records it: the judgement's figures, then the matcher's two readings
    # (a free transcript alike, not spelled as the grammar sentence letter for letter)
    features = {"g_reading": g, "f_reading": f, "open_phase": 0, "looped": 0,
                "free_text": "x y v",
                "free_logp": free_logp, "heard": "x y z", "margin": margin, "score": -1.0,
                "steps": 5, "similarity": 0.9}
    return bench.Outcome(system="whisper:grammar", ident=ident, game="resistance",
                         phase="vote", condition="clean", voice="en-us/160/50", text="t",
                         expected=expected, expected_slots='{"choice": "yes"}'
                         if expected else "{}", features=json.dumps(features))


def test_the_routes_are_decided_again_from_the_recorded_readings() -> None:
    yes = ["vote", '{"choice": "yes"}', 1.0]
    no = ["vote", '{"choice": "no"}', 1.0]
    outcomes = [
        _whisper_outcome(0, "vote", g=yes, f=None),                      # grammar only
        _whisper_outcome(1, "vote", g=yes, f=yes, margin=-2.0),          # free only
        _whisper_outcome(2, "vote", g=yes, f=no),                        # both: ask
        _whisper_outcome(3, None, g=no, f=None, margin=-3.0),            # chatter, rejected
    ]
    routes = bench.route_results({"whisper:grammar": outcomes})
    assert set(routes) == {"whisper:grammar", "whisper:grammar/grammar",
                           "whisper:grammar/free"}
    grammar = [o.correct for o in routes["whisper:grammar/grammar"]]
    free = [o.correct for o in routes["whisper:grammar/free"]]
    both = [bench.redecide(o, "both", SearchTuning()) for o in outcomes]
    assert grammar == [True, False, True, False]
    assert free == [False, True, False, False]
    assert [o.correct for o in both] == [True, True, False, False]
    assert both[2].ambiguous and not both[3].acted


def test_the_ceiling_counts_the_commands_a_reading_meant_believed_or_not() -> None:
    yes = ["vote", '{"choice": "yes"}', 0.9]
    no = ["vote", '{"choice": "no"}', 1.0]
    outcomes = [_whisper_outcome(0, "vote", g=yes, f=None),    # the grammar reading meant it
                _whisper_outcome(1, "vote", g=no, f=yes),      # the free transcript did
                _whisper_outcome(2, "vote", g=no, f=None),     # neither did
                _whisper_outcome(3, None, g=yes, f=None)]      # chatter is no command
    assert [bench.readable(o) for o in outcomes[:3]] == [True, True, False]
    summary = bench.summarize({"whisper:grammar": outcomes}, {})
    clean = summary["whisper:grammar"]["per_condition"]["clean"]
    assert (clean["accepted"], clean["readable"], clean["commands"]) == (0, 2, 3)
    table = bench.ceiling_table(summary)
    assert any("| whisper:grammar | espeak-ng | 0 / 2 of 3 |" in line for line in table)


def test_the_calibration_keeps_only_combinations_within_the_chatter_limit() -> None:
    yes = ["vote", '{"choice": "yes"}', 1.0]
    outcomes = [_whisper_outcome(0, "vote", g=yes, f=None, margin=-0.9),
                _whisper_outcome(1, None, g=yes, f=None, margin=-0.95)]
    lines = bench.calibration(outcomes, limit=0.0, harmful_limit=0.0)
    rows = [line for line in lines[2:] if line.startswith("|")]
    assert rows, lines
    # the chatter line's margin is below every kept accept_margin
    assert all(float(row.split("|")[1]) > -0.95 for row in rows)


def test_a_subset_keeps_phases_and_every_kth_utterance(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cases = _cases(tmp_path, monkeypatch)
    assert {c.phase for c in bench.subset(cases, only="resistance.vote")} == {"vote"}
    assert len(bench.subset(cases, limit=1)) == 1
    idents = {c.ident for c in cases}
    half = len(idents) // 2 + 1  # one more than half: every other one, not all of them
    kept = {c.ident for c in bench.subset(cases, limit=half)}
    assert 0 < len(kept) <= half


def test_a_subset_keeps_conditions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cases = _cases(tmp_path, monkeypatch)
    present = sorted({c.condition for c in cases})
    kept = bench.subset(cases, conditions=f"{present[0]}, nothing like it")
    assert kept and {c.condition for c in kept} == {present[0]}


def test_whisper_settings_can_be_given_to_the_benchmark() -> None:
    from voice_host.speech.whisper_asr import WhisperTuning

    tuning = bench.with_values(WhisperTuning(), "fit_seconds=1.5, speculate_quiet_frames=4,"
                                                "speculate=0")
    assert (tuning.fit_seconds, tuning.speculate_quiet_frames, tuning.speculate) == \
        (1.5, 4, False)


def test_tuning_values_apply_to_each_language_s_own_settings() -> None:
    """``--tuning`` (decoding runs and ``--from-results``) starts from the language's own
    settings: French outcomes are decided with French thresholds, and ``window=`` sets the
    encoder window of a decoding run."""
    from voice_host.speech.whisper_languages import FRENCH

    assert FRENCH.search is not None
    french = bench.decision_tuning("whisper:grammar@fr")
    assert french.sure_alone == FRENCH.search.sure_alone != SearchTuning().sure_alone
    assert bench.decision_tuning("whisper:grammar") == bench.decision_tuning(
        "whisper:grammar", "window=30")  # a window is no decision threshold
    tuned = bench.whisper_tuning("fr", "window=30,sure_alone=-0.1,rounds=3")
    assert tuned.window_for("fr") == 30 and tuned.window_for("en") == 8
    assert tuned.search_for("fr").sure_alone == -0.1
    assert tuned.search_for("fr").rounds == 3 and isinstance(tuned.search_for("fr").rounds, int)
    assert tuned.search_for("fr").rescue_rounds == FRENCH.search.rescue_rounds
    assert tuned.search_for("en") == bench.whisper_tuning("en").search_for("en")
    # near=0|1 turns the search of the sentences nearest a rejected transcript off or on
    assert bench.whisper_tuning("en").search_for("en").near_sentences > 0
    assert bench.whisper_tuning("en", "near=0").search_for("en").near_sentences == 0
    assert bench.whisper_tuning("fr", "near=0").search_for("fr").near_sentences == 0
    with pytest.raises(ValueError, match="not a SearchTuning value"):
        bench.whisper_tuning("fr", "sure_alon=-0.1")
    # saved decodes can be decided again with any threshold, but not searched again
    assert bench.needs_decoding("window=30") and bench.needs_decoding("x=1,near=0")
    assert not bench.needs_decoding("sound_near=0,accept_margin=-0.8")


def test_the_noise_set_says_every_utterance_in_every_target_condition() -> None:
    """``--noise-set``: each utterance of the quick plan (the same texts and voices) in clean,
    babble 12 and 6 dB and the reverberant room, so those rows hold every command; ``--quick``
    alone keeps its own plan (one drawn condition per utterance)."""
    import argparse

    parser = argparse.ArgumentParser()
    bench.add_arguments(parser)
    assert bench.chosen_plan(parser.parse_args(["--quick"])) == bench.QUICK
    plan = bench.chosen_plan(parser.parse_args(["--quick", "--noise-set"]))
    quick = bench.build_cases(bench.QUICK, split="calib", seed=6, languages=("en",))
    noisy = bench.build_cases(plan, split="calib", seed=6, languages=("en",))
    said = {(c.ident, c.text, c.voice) for c in quick}
    assert {(c.ident, c.text, c.voice) for c in noisy} == said
    wanted = {"clean", "babble 12", "babble 6", "reverb"}
    per_utterance: dict[int, set[str]] = {}
    for case in noisy:
        per_utterance.setdefault(case.ident, set()).add(case.condition)
    assert all(conditions == wanted for conditions in per_utterance.values())
    assert len(noisy) == 4 * len(per_utterance)
    assert max(sum(c.condition == "babble 12" for c in quick), 1) < len(per_utterance) / 3


def test_the_oracle_segment_is_the_speech_span_with_the_noise_around_it() -> None:
    speech = np.zeros(16000, np.int16)
    speech[4000:8000] = 3000  # the synthesizer's silence before and after
    first, last = bench.speech_span(speech)
    pad = int(bench.ORACLE_PAD * 16000)
    assert abs(first - (4000 - pad)) <= 480 and abs(last - (8000 + pad)) <= 480
    stream = np.arange(20000, dtype=np.int16)
    source = bench.OracleSource(stream, 100, 900)
    got = source.listen()
    assert np.array_equal(got.samples, stream[100:900])
    from voice_host.speech.source import EndOfAudio
    with pytest.raises(EndOfAudio):
        source.listen()


def test_the_mbrola_voice_set_says_the_same_utterances_with_other_voices(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cases = _cases(tmp_path, monkeypatch)
    voices = tmp_path / "mbrola"
    monkeypatch.setattr(bench, "MBROLA", voices)
    assert bench.with_voice_set(cases, "mbrola") == []  # none installed: nothing to run
    assert bench.with_voice_set(cases, "") == cases
    for name in ("us1", "us3"):
        (voices / name).mkdir(parents=True)
        (voices / name / name).write_bytes(b"")
    said = bench.with_voice_set(cases, "mbrola")
    assert [(c.ident, c.text, c.condition) for c in said] == \
        [(c.ident, c.text, c.condition) for c in cases]
    assert {c.voice.name for c in said} == {"mb-us1", "mb-us3"}
    assert all(bench.synthesizer_of(c.voice.label) == "mbrola" for c in said)
    # every condition of one utterance is said by the same voice, at its drawn loudness
    for c, before in zip(said, cases, strict=True):
        twin = next(o for o in said if o.ident == c.ident)
        assert c.voice == twin.voice and c.voice.gain_db == before.voice.gain_db


def test_the_other_kokoro_voices_say_the_same_utterances(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cases = _cases(tmp_path, monkeypatch)
    said = bench.with_voice_set(cases, "kokoro-other")
    assert [(c.ident, c.text, c.condition) for c in said] == \
        [(c.ident, c.text, c.condition) for c in cases]
    assert {c.voice.name for c in said} <= set(bench.KOKORO_OTHER)
    assert not {c.voice.name for c in said} & set(bench.data.KOKORO_VOICES)
    assert all(bench.synthesizer_of(c.voice.label) == "kokoro" for c in said)
    for c, before in zip(said, cases, strict=True):
        assert c.voice.lang == before.setup.lang and c.voice.gain_db == before.voice.gain_db
        assert next(o for o in said if o.ident == c.ident).voice == c.voice


def test_the_diagnosis_scripts_take_the_noise_set_and_the_held_out_voices() -> None:
    parser = argparse.ArgumentParser()
    bench.add_case_arguments(parser, split="report", conditions="clean,reverb")
    quick = bench.chosen_cases(parser.parse_args([]))
    noise = bench.chosen_cases(parser.parse_args(["--noise-set"]))
    held_out = bench.chosen_cases(parser.parse_args(["--noise-set",
                                                     "--voice-set", "kokoro-other"]))
    commands = {c.ident for c in noise}
    # the noise set says every command in each condition; the quick plan draws one
    assert all(sum(c.condition == cond for c in noise) == len(commands)
               for cond in ("clean", "reverb"))
    assert len(quick) < len(noise)
    assert [(c.ident, c.condition, c.text) for c in held_out] == \
        [(c.ident, c.condition, c.text) for c in noise]
    assert {c.voice.name for c in held_out} <= set(bench.KOKORO_OTHER)


@pytest.mark.parametrize("script", ["oracle_search", "prompt_lift_check", "ensemble_check",
                                    "moonshine_check"])
def test_every_diagnosis_script_builds_its_options(script: str) -> None:
    # their options come partly from add_case_arguments: one spelled twice is an error
    done = subprocess.run([sys.executable, str(BENCHMARKS / f"{script}.py"), "--help"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "--voice-set" in done.stdout and "--noise-set" in done.stdout
