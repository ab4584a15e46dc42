"""Speaker identification: the decision on made-up voice prints (exact), the save round trip,
and, with the bundled model, a rate over real synthetic voices."""

from __future__ import annotations

import json

import numpy as np
import pytest

from voice_host.speech.speakers import (
    COSINE_TUNING,
    MAX_ENROLMENT,
    MAX_REFINED,
    NORMALIZED_TUNING,
    UNKNOWN,
    Cohort,
    SpeakerGuess,
    SpeakerId,
    SpeakerTuning,
    VoicePrintError,
    as_norm,
    decide,
    speech_mask,
    unit,
)

TUNING = SpeakerTuning(threshold=0.5, margin=0.05, temperature=0.05, confident=0.9)


def axis(i: int, dim: int = 8) -> np.ndarray:
    v = np.zeros(dim, dtype=np.float32)
    v[i] = 1.0
    return v


def near(i: int, j: int, w: float, dim: int = 8) -> np.ndarray:
    """Mostly axis i, with weight w of axis j."""
    return unit(axis(i, dim) + w * axis(j, dim))


def table() -> SpeakerId:
    ids = SpeakerId(tuning=TUNING, model="made-up", dim=8)
    for seat, i in (("Ada", 0), ("Ben", 1), ("Cleo", 2)):
        ids.enrol_print(seat, axis(i))
    return ids


def test_decide_names_the_best_seat_above_threshold_and_margin() -> None:
    guess = decide({"Ada": 0.9, "Ben": 0.4, "Cleo": 0.1}, TUNING)
    assert guess.seat == "Ada"
    assert guess.best == "Ada" and guess.runner_up == "Ben"
    assert 0.99 < guess.confidence <= 1.0
    assert guess.is_confident(TUNING)


def test_decide_is_unknown_below_threshold() -> None:
    guess = decide({"Ada": 0.45, "Ben": 0.1}, TUNING)
    assert guess.seat is None
    assert guess.best == "Ada"
    assert not guess.is_confident(TUNING)


def test_decide_is_unknown_when_too_close_to_call() -> None:
    guess = decide({"Ada": 0.80, "Ben": 0.77}, TUNING)
    assert guess.seat is None
    assert guess.confidence < 0.9


def test_decide_with_one_seat_uses_the_threshold_alone() -> None:
    assert decide({"Ada": 0.6}, TUNING).seat == "Ada"
    assert decide({"Ada": 0.4}, TUNING).seat is None


def test_decide_without_seats_is_unknown() -> None:
    assert decide({}, TUNING) == UNKNOWN


def test_confidence_is_a_softmax_over_the_scores() -> None:
    guess = decide({"Ada": 0.8, "Ben": 0.7}, TUNING)
    expected = 1.0 / (1.0 + np.exp(-0.1 / TUNING.temperature))
    assert guess.confidence == pytest.approx(expected)


def test_identify_print_scores_against_centroids() -> None:
    ids = table()
    guess = ids.identify_print(near(1, 0, 0.3))
    assert guess.seat == "Ben"
    assert set(guess.scores) == {"Ada", "Ben", "Cleo"}
    assert guess.scores["Ben"] > guess.scores["Ada"] > guess.scores["Cleo"]


def test_identify_before_enrolment_or_without_speech_is_unknown() -> None:
    assert SpeakerId(tuning=TUNING, dim=8).identify_print(axis(0)) == UNKNOWN
    assert table().identify_print(None) == UNKNOWN


def test_the_centroid_averages_enrolment_prints() -> None:
    ids = SpeakerId(tuning=TUNING, dim=8)
    ids.enrol_print("Ada", axis(0))
    ids.enrol_print("Ada", axis(1))
    score = ids.scores_of(axis(0))["Ada"]
    assert score == pytest.approx(1 / np.sqrt(2), abs=1e-5)


def test_enrolment_keeps_the_newest_three() -> None:
    ids = SpeakerId(tuning=TUNING, dim=8)
    counts = [ids.enrol_print("Ada", axis(i)) for i in range(5)]
    assert counts == [1, 2, 3, 3, 3]
    assert MAX_ENROLMENT == 3
    scores = ids.scores_of(axis(0))
    assert scores["Ada"] == pytest.approx(0.0, abs=1e-6)


def test_refinement_moves_the_centroid_and_is_capped() -> None:
    ids = table()
    before = ids.scores_of(near(0, 3, 1.0))["Ada"]
    for _ in range(MAX_REFINED + 4):
        ids.refine_print("Ada", near(0, 3, 1.0))
    after = ids.scores_of(near(0, 3, 1.0))["Ada"]
    assert after > before
    assert len(ids.to_json()["seats"]["Ada"]["refined"]) == MAX_REFINED
    ids.refine_print("Zed", axis(4))
    assert "Zed" not in ids.enrolled()


def test_forget_rename_keep_only() -> None:
    ids = table()
    ids.forget("Ben")
    assert ids.enrolled() == ("Ada", "Cleo")
    ids.rename({"Cleo": "Chloe"})
    assert ids.enrolled() == ("Ada", "Chloe")
    ids.keep_only(["Chloe"])
    assert ids.enrolled() == ("Chloe",)


def test_a_print_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ValueError):
        table().enrol_print("Dan", np.ones(5))


def test_json_round_trip_keeps_every_decision() -> None:
    ids = table()
    ids.refine_print("Ada", near(0, 1, 0.2))
    text = json.dumps(ids.to_json())
    back = SpeakerId.from_json(json.loads(text), tuning=TUNING)
    assert back.enrolled() == ids.enrolled()
    assert back.model == "made-up" and back.dim == 8
    rng = np.random.default_rng(3)
    for _ in range(50):
        probe = rng.normal(size=8)
        a, b = ids.identify_print(probe), back.identify_print(probe)
        assert a.seat == b.seat
        for seat in a.scores:
            assert a.scores[seat] == pytest.approx(b.scores[seat], abs=1e-4)


def test_json_holds_prints_only() -> None:
    data = table().to_json()
    assert set(data) == {"model", "dim", "seats"}
    assert set(data["seats"]["Ada"]) == {"enrolled", "refined"}
    assert all(len(row) == 8 for row in data["seats"]["Ada"]["enrolled"])


@pytest.mark.parametrize("bad", [
    None, [], {"model": "m"}, {"model": "m", "dim": 8, "seats": []},
    {"model": "m", "dim": 8, "seats": {"Ada": {"enrolled": [[1.0] * 7]}}},
    {"model": "m", "dim": 8, "seats": {"Ada": {"enrolled": [["x"] * 8]}}},
    {"model": "m", "dim": 8, "seats": {"Ada": {"enrolled": [[0.0] * 8]}}},
    {"model": "m", "dim": 8, "seats": {"Ada": {"enrolled": [[float("nan")] * 8]}}},
    {"model": "m", "dim": 8, "seats": {"Ada": {"enrolled": "no"}}},
])
def test_malformed_prints_are_refused_with_a_sentence(bad: object) -> None:
    with pytest.raises(VoicePrintError) as err:
        SpeakerId.from_json(bad)  # type: ignore[arg-type]
    assert str(err.value).endswith(".")


def test_prints_of_another_model_are_refused() -> None:
    class Other:
        name = "another"
        dim = 8

        def embed(self, audio: object) -> None:
            return None

    with pytest.raises(VoicePrintError, match="another speaker model"):
        SpeakerId.from_json(table().to_json(), Other())


def test_guess_is_a_plain_frozen_value() -> None:
    guess = SpeakerGuess("Ada", 0.9, {"Ada": 0.8})
    with pytest.raises(AttributeError):
        guess.seat = "Ben"  # type: ignore[misc]


# --------------------------------------------------------------------------- real voices

REAL_VOICES = (("jf_alpha", "Ada"), ("jf_gongitsune", "Ben"), ("jm_kumo", "Cleo"))
ENROL = ("I'm {me}.", "My name is {me}.", "{me}, ready to play.")
SAID = ("I vote yes", "count me out", "I propose Ada and Ben", "wait, undo that",
        "my clue is ocean, two", "no, that's wrong", "is there any more pizza left",
        "honestly i have no idea who it is")


def test_cohort_stats_are_the_mean_and_spread_of_the_similarities() -> None:
    cohort = Cohort(np.stack([axis(0), axis(1), axis(2), axis(3)]))
    mean, std = cohort.stats(axis(0))
    assert mean == pytest.approx(0.25)
    assert std == pytest.approx(np.sqrt(3) / 4, abs=1e-5)


def test_as_norm_averages_the_seat_and_the_utterance_normalizations() -> None:
    assert as_norm(0.9, (0.5, 0.2), (0.7, 0.1)) == pytest.approx(0.5 * (2.0 + 2.0))
    assert as_norm(0.5, (0.5, 0.2), (0.5, 0.4)) == pytest.approx(0.0)


def test_a_seat_close_to_every_voice_loses_its_lead() -> None:
    """Ada's print lies near the cohort's voices, Ben's far from them: an utterance a
    little closer to Ada by cosine is Ben's once both are measured against the cohort."""
    dim = 8
    ada = unit(axis(0, dim) + axis(4, dim) + 0.5 * axis(7, dim))
    ben = unit(axis(1, dim) + 0.5 * axis(5, dim))
    cohort = Cohort(np.stack([unit(w * axis(4, dim) + axis(k, dim))
                              for w, k in ((0.5, 5), (1.0, 6), (2.0, 7), (1.0, 3))]))
    plain = SpeakerId(model="made-up", dim=dim)
    normalized = SpeakerId(model="made-up", dim=dim, cohort=cohort)
    for ids in (plain, normalized):
        ids.enrol_print("Ada", ada)
        ids.enrol_print("Ben", ben)
    heard = unit(axis(0, dim) + axis(1, dim) + 0.5 * axis(4, dim))
    raw = plain.scores_of(heard)
    assert raw["Ada"] > raw["Ben"]
    scores = normalized.scores_of(heard)
    assert scores["Ben"] > scores["Ada"]
    for seat, print_ in (("Ada", ada), ("Ben", ben)):
        expected = as_norm(float(heard @ print_), cohort.stats(print_), cohort.stats(heard))
        assert scores[seat] == pytest.approx(expected, abs=1e-5)


def test_the_tuning_follows_the_scores() -> None:
    cohort = Cohort(np.stack([axis(4), axis(5)]))
    assert SpeakerId(model="m", dim=8).tuning == COSINE_TUNING
    assert SpeakerId(model="m", dim=8, cohort=cohort).tuning == NORMALIZED_TUNING
    assert SpeakerId(model="m", dim=8, cohort=cohort, tuning=TUNING).tuning == TUNING


def test_the_speech_mask_drops_quiet_frames() -> None:
    loud = np.full((5, 3), 2.0, dtype=np.float32)
    quiet = np.full((4, 3), -5.0, dtype=np.float32)
    mask = speech_mask(np.concatenate([quiet[:2], loud, quiet[2:]]))
    assert mask.tolist() == [False, False] + [True] * 5 + [False, False]


@pytest.mark.model
@pytest.mark.slow
def test_real_voices_are_told_apart_at_a_rate() -> None:
    """Three Kokoro voices (benchmarks/voices.py), three enrolment sentences each: most
    commands go to the right seat by their best score, and few are named for another
    seat with the confidence the host acts on (the benchmark measures the tables)."""
    import sys
    from pathlib import Path

    from voice_host.speech import speakers

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import voices

    reason = speakers.unavailable_reason() or voices.unavailable_reason()
    if reason:
        pytest.skip(f"needs the speaker model and the Kokoro test voices: {reason}")
    ids = SpeakerId(speakers.default_embedder())
    for voice, name in REAL_VOICES:
        for text in ENROL:
            assert ids.enrol(name, voices.synthesize(text.format(me=name), lang="en",
                                                     voice=voice)) > 0
    best = acted_wrong = total = 0
    for voice, name in REAL_VOICES:
        for text in SAID:
            guess = ids.identify(voices.synthesize(text, lang="en", voice=voice, speed=1.1))
            total += 1
            best += guess.best == name
            acted_wrong += guess.is_confident() and guess.seat != name
    assert best >= 0.75 * total, f"{best}/{total} to the right seat by best score"
    assert acted_wrong <= 0.1 * total, f"{acted_wrong}/{total} confidently wrong"
