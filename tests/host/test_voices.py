"""Who spoke, by voice, through the real Session: enrolment at the start, a bare vote is the
speaker's own, "me" is the speaker, a name the voice contradicts is asked about, skipping,
learning a voice again, and the prints in the save (never audio). The speaker model is the
tone stand-in of ``speech.fakes`` (each voice a pure tone), so every decision is exact."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from voice_host.host.adapters import make_adapter, new_game
from voice_host.host.cli.doctor import check_saved_voices
from voice_host.host.core.session import Session, SessionOptions, Stop
from voice_host.host.core.store import EventLog, SessionRecord, load_game
from voice_host.host.core.values import Heard, HeardKind, ListenRequest
from voice_host.host.core.voices import VoiceDesk
from voice_host.host.io.terminal import TextOutput
from voice_host.speech.fakes import ToneEmbedder, voice_tone

PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve"]
VOICE = {name: i for i, name in enumerate(PLAYERS)}


def said(text: str, who: str | None = None, *, named: str | None = None) -> Heard:
    """``text`` said in ``who``'s voice (no audio when None), optionally with a name."""
    audio = voice_tone(VOICE[who]) if who is not None else None
    return Heard(HeardKind.SPEECH, text=text, recording=audio, speaker=named,
                 source="test")


def enrol_all() -> list[Heard]:
    return [said("", p) for p in PLAYERS]


class Listener:
    def __init__(self, items: Sequence[Heard]) -> None:
        self.items = list(items)
        self.requests: list[ListenRequest] = []

    def listen(self, request: ListenRequest) -> Heard:
        self.requests.append(request)
        return self.items.pop(0) if self.items else Heard(HeardKind.END)

    def close(self) -> None:
        pass


def play(tmp_path: Path, items: Sequence[Heard], *, lang: str = "en",
         saved: dict[str, Any] | None = None, fresh: bool = True, confirm: str = "never"
         ) -> tuple[Session, str, list[dict[str, Any]]]:
    opts: dict[str, Any] = {"deal": "table", "lang": lang, "players": list(PLAYERS),
                            "double_agent": True, "first": "Ada", "votes": "together",
                            "seed": 7}
    out = io.StringIO()
    log_path = tmp_path / "log.jsonl"
    log = EventLog(log_path)
    desk = VoiceDesk.start(ToneEmbedder(), saved, enrol=() if saved else PLAYERS)
    session = Session(adapter=make_adapter("resistance", opts), state=new_game("resistance", opts),
                      rng=random.Random(7), output=TextOutput(out, lang=lang),
                      listener=Listener(items), log=log, game_options=opts,
                      saved=SessionRecord(),
                      options=SessionOptions(confirm=confirm, save_path=tmp_path / "save.json"),
                      voices=desk)
    assert session.run(fresh=fresh) is Stop.INPUT_ENDED
    log.close()
    events = [json.loads(x) for x in log_path.read_text(encoding="utf-8").splitlines()]
    return session, out.getvalue(), events


def cast(events: list[dict[str, Any]]) -> list[tuple[str, bool]]:
    return [(e["action"]["player"], e["action"]["approve"]) for e in events
            if e["event"] == "action" and e["action"]["type"] == "CastVote"]


PROPOSE = said("Ada and Ben", "Ada")


def test_each_player_is_asked_for_a_sentence_before_the_game(tmp_path: Path) -> None:
    session, text, events = play(tmp_path, enrol_all())
    assert "Before we start, I will learn your voices" in text
    assert "Ada, please say a short sentence" in text
    assert "Ben, please say a short sentence" in text
    assert "I know the voices of Ada, Ben, Cleo, Dan and Eve." in text
    assert [e["player"] for e in events if e["event"] == "voice_enrolled"] == PLAYERS
    assert session.voices is not None and session.voices.ids.enrolled() == tuple(PLAYERS)


def test_a_bare_vote_is_the_speakers_own(tmp_path: Path) -> None:
    _, _, events = play(tmp_path, [*enrol_all(), PROPOSE, said("yes", "Cleo"),
                                   said("count me out", "Eve")])
    assert cast(events) == [("Cleo", True), ("Eve", False)]


def test_me_is_the_speaker(tmp_path: Path) -> None:
    _, _, events = play(tmp_path, [*enrol_all(), PROPOSE, said("me yes", "Dan")])
    assert cast(events) == [("Dan", True)]


@pytest.mark.parametrize(("answer", "voter"), [("mine", "Cleo"), ("Ada", "Ada"),
                                               ("the first one", "Cleo")])
def test_a_name_the_voice_contradicts_is_asked_about(tmp_path: Path, answer: str,
                                                     voter: str) -> None:
    items = [*enrol_all(), PROPOSE, said("Ada yes", "Cleo")]
    _, before, events = play(tmp_path / "a", items)
    assert "Cleo, was that your vote, or Ada's?" in before
    assert cast(events) == []  # nothing taken while it is asked
    _, _, events = play(tmp_path / "b", [*items, said(answer, "Cleo")])
    assert cast(events) == [(voter, True)]


def test_a_name_the_voice_confirms_is_taken(tmp_path: Path) -> None:
    _, text, events = play(tmp_path, [*enrol_all(), PROPOSE, said("Ada yes", "Ada")])
    assert "was that your vote" not in text
    assert cast(events) == [("Ada", True)]


def test_each_heard_event_records_its_voice_seat_and_confidence(tmp_path: Path) -> None:
    _, _, events = play(tmp_path, [*enrol_all(), said("maybe Ada and Ben", "Ada"),
                                   said("yes", "Ben"), said("yes", named="Dan")],
                        confirm="auto")
    heard = [e for e in events if e["event"] == "heard"]
    assert [(e["transcript"], e.get("voice_seat")) for e in heard] == [
        ("maybe Ada and Ben", "Ada"), ("yes", "Ben"), ("yes", None)]
    assert heard[1]["intent"] == "answer"  # the answer to "Is that right?" too
    assert [e["answer"] for e in events if e["event"] == "confirmation"] == [True]
    assert all(0.9 <= e["voice_confidence"] <= 1 for e in heard[:2])
    assert "voice_confidence" not in heard[2]  # typed: no audio, no voice


def test_heard_events_record_no_voice_when_nobody_enrolled(tmp_path: Path) -> None:
    _, _, events = play(tmp_path, [*[said("skip") for _ in PLAYERS], said("Ada and Ben", "Ada")])
    heard = [e for e in events if e["event"] == "heard"]
    assert heard and not any("voice_seat" in e or "voice_confidence" in e for e in heard)


def test_french_asks_in_french(tmp_path: Path) -> None:
    items = [*[said("", p) for p in PLAYERS], said("Ada et Ben", "Ada"),
             said("Ada oui", "Cleo")]
    _, text, events = play(tmp_path, items, lang="fr")
    assert "Avant de commencer, je vais apprendre vos voix" in text
    assert "Cleo, était-ce votre vote, ou celui d'Ada ?" in text
    assert cast(events) == []
    _, _, events = play(tmp_path / "oui", [*items[:-1], said("oui", "Cleo")], lang="fr")
    assert cast(events) == [("Cleo", True)]


def test_skipping_enrolment_plays_as_before(tmp_path: Path) -> None:
    skips = [said("skip") for _ in PLAYERS]
    session, text, events = play(tmp_path, [*skips, said("Ada and Ben"), said("yes")])
    assert "All right, no voices. Please say your name with your moves." in text
    assert "Whose vote is that?" in text  # a bare yes is nobody's without voices
    assert cast(events) == []
    assert session.voices is not None and session.voices.ids.enrolled() == ()
    assert "voices" not in json.loads((tmp_path / "save.json").read_text())


def test_silence_asks_again_then_skips_the_player(tmp_path: Path) -> None:
    silent = Heard(HeardKind.SILENCE)
    items = [said("", "Ada"), silent, silent, *[said("", p) for p in PLAYERS[2:]]]
    session, text, _ = play(tmp_path, items)
    assert "All right, I will not learn Ben's voice." in text
    assert session.voices is not None
    assert session.voices.ids.enrolled() == ("Ada", "Cleo", "Dan", "Eve")


def test_a_typed_sentence_cannot_teach_a_voice(tmp_path: Path) -> None:
    session, text, _ = play(tmp_path, [said("I'm Ada"), *[said("", p) for p in PLAYERS[1:]]])
    assert "I can only learn Ada's voice from speech" in text
    assert session.voices is not None and "Ada" not in session.voices.ids.enrolled()


def test_learn_my_voice_asks_the_speaker_again(tmp_path: Path) -> None:
    items = [*enrol_all(), PROPOSE, said("host, learn my voice", "Dan"), said("", "Dan"),
             said("yes", "Dan")]
    _, text, events = play(tmp_path, items)
    relearn = [e for e in events if e["event"] == "voice_relearn"]
    assert relearn and relearn[0]["players"] == "Dan"
    assert text.count("Dan, please say a short sentence") == 2
    assert cast(events) == [("Dan", True)]


def test_the_save_keeps_prints_only_and_doctor_names_them(tmp_path: Path) -> None:
    play(tmp_path, [*enrol_all(), PROPOSE, said("yes", "Cleo")])
    saved = load_game(tmp_path / "save.json")
    assert set(saved.voices) == {"model", "dim", "seats"}
    assert set(saved.voices["seats"]) == set(PLAYERS)
    rows = saved.voices["seats"]["Cleo"]["enrolled"]
    assert all(len(row) == ToneEmbedder.dim for row in rows)
    check = check_saved_voices(tmp_path / "save.json")
    # the proposal and the vote, confidently theirs, taught Ada and Cleo a second sentence
    assert check.ok and "Ada (2), Ben (1), Cleo (2)" in check.detail


def test_resumed_prints_identify_without_enrolling_again(tmp_path: Path) -> None:
    play(tmp_path / "first", [*enrol_all()])
    saved = load_game(tmp_path / "first" / "save.json")
    _, text, events = play(tmp_path / "second", [PROPOSE, said("yes", "Eve")],
                           saved=saved.voices)
    assert "please say a short sentence" not in text
    assert cast(events) == [("Eve", True)]


def test_damaged_prints_in_a_save_are_refused_with_a_sentence(tmp_path: Path) -> None:
    play(tmp_path, [*enrol_all()])
    path = tmp_path / "save.json"
    data = json.loads(path.read_text())
    data["voices"]["seats"]["Ada"]["enrolled"] = [["x"]]
    path.write_text(json.dumps(data))
    check = check_saved_voices(path)
    assert not check.ok and "not readable" in check.detail


def test_prints_of_another_model_are_dropped_on_resume() -> None:
    saved = {"model": "another", "dim": 8,
             "seats": {"Ada": {"enrolled": [[1.0] + [0.0] * 7], "refined": []}}}
    desk = VoiceDesk.start(ToneEmbedder(), saved)
    assert desk.ids.enrolled() == () and not desk.enrolling


@pytest.mark.parametrize(("voices", "script", "wanted"), [
    ("off", False, False), ("auto", True, False), ("on", True, True), ("auto", False, True)])
def test_voices_are_learnt_when_asked_and_audio_comes_in(tmp_path: Path, voices: str,
                                                         script: bool, wanted: bool,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    from voice_host.host.core.config import SessionConfig
    from voice_host.host.io import wiring
    from voice_host.speech import speakers

    monkeypatch.setattr(speakers, "default_embedder", ToneEmbedder)
    config = SessionConfig(game="resistance", options={"players": PLAYERS},
                           script=tmp_path / "s.txt" if script else None, voices=voices)
    io_ = wiring.HostIO(output=TextOutput(io.StringIO()), listener=Listener([]),
                        secret_sink=None, hears_audio=True)
    state = new_game("resistance", {"deal": "table", "lang": "en", "players": PLAYERS,
                                    "double_agent": True, "first": "Ada", "votes": "together",
                                    "seed": 1})
    desk = wiring.voice_desk(config, io_, state, None)
    assert (desk is not None) is wanted
    if desk is not None:
        assert desk.queue == PLAYERS
    silent = wiring.HostIO(output=TextOutput(io.StringIO()), listener=Listener([]),
                           secret_sink=None, hears_audio=False)
    assert wiring.voice_desk(config, silent, state, None) is None  # typed lines: no voices
