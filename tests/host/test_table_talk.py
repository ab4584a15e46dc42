"""A host that fits a real table: table talk gets no answer (it is logged), a line said to
the host, typed at its keyboard or aimed at the phase gets the helpful one; silence in a
discussion never pauses the game and the re-prompts grow apart; outside discussions the game
pauses only after a long absence, and a move while paused is taken. Sessions run on scripted
Heards and an injected clock: nothing sleeps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.table_talk import (
    TIMEOUT,
    helped,
    play,
    resistance,
)
from voice_host.host.core.attention import KEYBOARD, addressed
from voice_host.host.core.messages import caption
from voice_host.host.core.patience import DEFAULT_PAUSE_AFTER, DISCUSSION_CAP, DISCUSSION_FIRST
from voice_host.host.core.session import Stop
from voice_host.host.core.values import Heard, HeardKind, Voice
from voice_host.host.io.terminal import parse_script_line
from voice_host.speech.decision import GrammarReading, Judgement, Rejection

# --------------------------------------------------------------------------- table talk

CHATTER = {
    "en": ["Ada: pass me the crisps please", "Ben: I really don't trust Cleo",
           "Dan: this team looks a bit risky to me", "Eve: whose turn is it to get drinks"],
    "fr": ["Ada: tu me passes les chips", "Ben: je ne fais pas du tout confiance à Cleo",
           "Dan: cette équipe me paraît risquée", "Eve: c'est à qui d'aller chercher à boire"],
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_table_talk_gets_no_answer_and_is_logged(tmp_path: Path, lang: str) -> None:
    run = play(tmp_path, CHATTER[lang], opts=resistance(lang))
    assert run.stop is Stop.INPUT_ENDED
    assert not helped(run.text, lang)
    assert run.after_opening().count(caption(lang)) == 1  # only the "input ended" line
    assert "HOST" not in run.text or lang == "en"  # a French game's captions are French
    ignored = run.events("ignored")
    assert [e["transcript"] for e in ignored] == [parse_script_line(c)[1] for c in CHATTER[lang]]
    assert {e["why"] for e in ignored} == {"no_match"}
    assert not run.events("action")[1:]  # only the set-up: nothing changed the game


@pytest.mark.parametrize(("lang", "said", "answer"), [
    ("en", "Ben: host, what can I say", "You can say, for example"),
    ("en", "Ben: hey host, help", "You can say, for example"),
    ("fr", "Ben: l'hôte, qu'est-ce que je peux dire", "Vous pouvez dire par exemple"),
    ("fr", "Ben: animateur, aide", "Vous pouvez dire par exemple"),
])
def test_said_to_the_host_gets_help(tmp_path: Path, lang: str, said: str, answer: str) -> None:
    run = play(tmp_path, [said], opts=resistance(lang))
    assert answer in run.after_opening()
    assert not run.events("ignored")


@pytest.mark.parametrize(("lang", "said", "answer"), [
    ("en", "Ben: host, what a lovely evening", "not a command I know"),
    ("fr", "Ben: l'hôte, quelle belle soirée", "pas une commande que je connais"),
    ("en", "Ben: host", "Yes? Say what you want"),
    ("fr", "Ben: l'hôte ?", "Oui ? Dites ce que vous voulez"),
])
def test_a_line_addressed_to_the_host_is_answered_even_when_not_a_command(
        tmp_path: Path, lang: str, said: str, answer: str) -> None:
    run = play(tmp_path, [said], opts=resistance(lang))
    assert answer in run.after_opening() or helped(run.after_opening(), lang)
    assert answer.split("?")[0] in run.text
    assert not run.events("ignored")


def test_the_address_words_are_only_a_call_at_the_start() -> None:
    assert addressed("Host, what can I say?", "en").rest == "what can i say"  # type: ignore[union-attr]
    assert addressed("L'hôte, aide", "fr").rest == "aide"  # type: ignore[union-attr]
    assert addressed("Le maître du jeu : aide", "fr").rest == "aide"  # type: ignore[union-attr]
    assert addressed("you are a good host", "en") is None
    assert addressed("the host is slow tonight", "en") is None
    assert addressed("l'animateur est lent ce soir", "fr") is None


def test_a_move_addressed_to_the_host_is_taken(tmp_path: Path) -> None:
    run = play(tmp_path, ["Ada: host, Ada and Ben"])
    proposals = [e for e in run.events("action") if e["action"]["type"] == "ProposeTeam"]
    assert proposals and proposals[0]["action"]["team"] == ["Ada", "Ben"]


def test_typed_at_the_keyboard_keeps_helping(tmp_path: Path) -> None:
    """A person typing at the host's terminal talks to the host: no address word needed."""
    typed = Heard(HeardKind.SPEECH, text="what a lovely evening", source=KEYBOARD)
    run = play(tmp_path, [typed])
    assert helped(run.after_opening(), "en")
    assert not run.events("ignored")


def _judgement(free: str, *, free_logp: float, reading: str | None,
               accepted: bool) -> Judgement:
    return Judgement(
        free_text=free, free_logp=free_logp, looped=False,
        reading=None if reading is None else GrammarReading(
            text=reading, margin=-9.0, score=-9.0, steps=5, similarity=0.2),
        accepted=accepted, reason=Rejection.NONE if accepted else Rejection.LOW_MARGIN,
        confidence=0.9 if accepted else 0.0)


def _spoken(free: str, judgement: Judgement, speaker: str = "Ben") -> Heard:
    return Heard(HeardKind.SPEECH, text=free, speaker=speaker, spoken=True, source="mic",
                 judgement=judgement, confidence=judgement.confidence)


def test_a_near_miss_gets_help_and_a_rejected_chatter_stays_silent(tmp_path: Path) -> None:
    """The free transcript reads as a command of the phase but the recognizer was unsure:
    words aimed at the game, answered. Table talk the grammar search forced onto a team
    sentence and rejected: silent."""
    near = _spoken("Ada and Ben", _judgement("ada and ben", free_logp=-3.0,
                                              reading="ada and dan", accepted=False))
    chatter = _spoken("I really wonder about tonight",
                      _judgement("i really wonder about tonight", free_logp=-0.2,
                                 reading="ada and eve", accepted=False))
    run = play(tmp_path, [near])
    assert helped(run.after_opening(), "en")
    assert not run.events("ignored")
    run = play(tmp_path, [chatter])
    assert not helped(run.after_opening(), "en")
    assert [e["why"] for e in run.events("ignored")] == ["not_confident"]
    rejected = Heard(HeardKind.SPEECH, text="no idea honestly", spoken=True, rejected=True,
                     source="mic")
    run = play(tmp_path, [rejected])
    assert not helped(run.after_opening(), "en")
    assert [e["why"] for e in run.events("ignored")] == ["rejected_by_recognizer"]


TALK = "I am so tired today after all that work"
"""A line that is clearly talk: sure words, longer than a command."""


def reasks(run: Any) -> list[str | None]:
    return [e["speaker"] for e in run.events("reask")]


def test_the_player_asked_by_name_is_reasked_and_their_talk_gets_only_the_cue(
        tmp_path: Path) -> None:
    """Outside a discussion, a line from the player the host asked that it cannot read gets
    a short re-ask naming what it needs; clear talk from that player (words mostly not the
    phase's, or a long sentence) gets the listening cue, never words; the others' talk gets
    nothing."""
    run = play(tmp_path, ["Ada: Ada and Ben", "Ben: what a long day", "Ada: boss",
                          "Ada: so tired today", f"Ada: {TALK}"],
               opts=resistance(votes="count"))
    assert run.events("prompt")[-1]["expected"] == ["Ada"]  # Ada is asked for the count
    assert not helped(run.text, "en")
    ignored = run.events("ignored")
    assert [(e["speaker"], e["cue"]) for e in ignored] == [
        ("Ben", False), ("Ada", True), ("Ada", True)]
    assert run.text.count("HOST: (listening) \n") == 2
    assert reasks(run) == ["Ada"]
    assert "Sorry, Ada: " in run.text


def test_the_reask_goes_to_the_voters_awaited_and_to_an_unknown_voice_when_one_is_asked(
        tmp_path: Path) -> None:
    """The vote waits for every voter still to vote: any of them is re-asked (their talk
    gets the cue), a player who voted gets nothing. A microphone does not know who spoke:
    a prompt waiting for one player alone re-asks any line that is no answer, a prompt
    waiting for several never does."""
    unnamed = Heard(HeardKind.SPEECH, text="boss", spoken=True, source="mic")
    run = play(tmp_path, ["Ada: Ada and Ben", "Ben: what a long day", "Ada: boss",
                          "Cleo: bus", "Dan: Dan yes", "Dan: boss"])
    assert run.events("prompt")[-1]["expected"][0] == "Ada"  # "Tell me the votes ... Ada?"
    assert [(e["speaker"], e["cue"]) for e in run.events("ignored")] == [
        ("Ben", True), ("Dan", False)]
    assert reasks(run) == ["Ada", "Cleo"]
    run = play(tmp_path, ["Ada: Ada and Ben", unnamed])
    assert [e["cue"] for e in run.events("ignored")] == [False]  # several voters expected
    assert not reasks(run)
    run = play(tmp_path, ["Ada: Ada and Ben", unnamed], opts=resistance(votes="count"))
    assert reasks(run) == ["Ada"]  # only Ada gives the count
    run = play(tmp_path, [unnamed])
    assert [e["cue"] for e in run.events("ignored")] == [False]  # a discussion: never
    assert not reasks(run)


def test_a_voice_known_to_be_awaited_is_reasked_and_another_voice_is_not(
        tmp_path: Path) -> None:
    def said(seat: str) -> Heard:
        return Heard(HeardKind.SPEECH, text="boss", spoken=True, source="mic",
                     voice=Voice(seat, 0.95))

    run = play(tmp_path, ["Ada: Ada and Ben", said("Dan"), said("Zed")])
    assert reasks(run) == ["Dan"]  # Dan still has to vote; nobody called Zed does


def test_reasks_vary_and_say_more_after_two_misses(tmp_path: Path) -> None:
    run = play(tmp_path, ["Ada: Ada and Ben", "Ada: boss", "Ada: bus",
                          "Ada: hmm well", "Ada: uh"], opts=resistance(votes="count"))
    lines = [line for line in run.text.splitlines() if "Ada" in line and (
        "?" in line or "say" in line.lower() or "Try this" in line)][-4:]
    assert [e["misses"] for e in run.events("reask")] == [1, 2, 3, 4]
    said = run.text.split("HOST: ")
    reasked = [x.strip() for x in said if x.startswith(("Sorry, Ada", "Ada, I missed",
                                                        "Once more, Ada", "I didn't catch",
                                                        "Ada, say for example",
                                                        "Ada, you can say", "Try this, Ada"))]
    assert len(reasked) == 4, lines
    assert all(a != b for a, b in zip(reasked, reasked[1:], strict=False))
    assert "for example" not in reasked[0]
    assert "Or say help" in reasked[1] or "say help" in reasked[1]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_reask_text_exists_in_both_languages(lang: str) -> None:
    from voice_host.host.core.narration import catalogue

    table = catalogue(lang, "resistance")
    for key in ("reask", "reask_plain", "reask_example"):
        variants = table[f"common.{key}"]
        assert isinstance(variants, list) and len(variants) >= 3


# --------------------------------------------------------------------------- patience


def test_silence_in_a_discussion_never_pauses_and_reprompts_grow_apart(tmp_path: Path) -> None:
    silences = 120  # 24 minutes of nobody saying anything during the team proposal
    run = play(tmp_path, [None] * silences)
    assert not run.session.paused
    assert not run.events("paused") and "Say resume" not in run.text
    reprompts = run.events("reprompt")
    assert reprompts and all(e["discussion"] for e in reprompts)
    # the seconds of silence at which each re-prompt is due: 45 s, then twice as long each
    # time, capped
    due, t, since = [], 0.0, 0.0
    for _ in range(silences):
        t += TIMEOUT
        since += TIMEOUT
        if since >= min(DISCUSSION_CAP, DISCUSSION_FIRST * 2 ** len(due)):
            due.append(t)
            since = 0.0
    assert len(reprompts) == len(due) and 5 <= len(due) <= 10
    assert due[0] >= DISCUSSION_FIRST
    gaps = [b - a for a, b in zip(due, due[1:], strict=False)]
    assert gaps == sorted(gaps) and gaps[0] > DISCUSSION_FIRST
    assert gaps[-1] <= DISCUSSION_CAP + TIMEOUT
    # the reminder only, never "I did not hear anything"; the help hint exactly once
    assert "I did not hear anything." not in run.text
    assert run.text.count("start with host, for example: host, help.") == 1
    assert run.text.count("Ada, name 2 players for mission 1.") == len(reprompts)


def test_reprompts_follow_the_injected_clock(tmp_path: Path) -> None:
    """Three silences of 12 s are 36 s: no re-prompt yet in a discussion (the first comes
    after 45 s); a fourth makes 48 s."""
    assert not play(tmp_path, [None] * 3).events("reprompt")
    assert len(play(tmp_path, [None] * 4).events("reprompt")) == 1


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_discussion_hint_is_said_in_the_games_language(tmp_path: Path, lang: str) -> None:
    run = play(tmp_path, [None] * 4, opts=resistance(lang))
    hint = {"en": "When you want me, start with host",
            "fr": "Pour vous adresser à moi, commencez par l'hôte"}[lang]
    assert hint in run.text


def test_talk_starts_the_quiet_time_again(tmp_path: Path) -> None:
    """People talking is a discussion going on: no re-prompt while they do."""
    items: list[str | None] = []
    for _ in range(10):
        items += [None, None, None, "Ben: I am still not sure about Cleo"]
    run = play(tmp_path, items)
    assert not run.events("reprompt")


def _to_the_count() -> list[str | Heard | None]:
    return ["Ada: Ada and Ben"]  # the team is proposed: the leader is asked for the count


def test_outside_a_discussion_a_pause_comes_only_after_a_long_absence(tmp_path: Path) -> None:
    needed = int(DEFAULT_PAUSE_AFTER // TIMEOUT)  # 25 silences of 12 s are 300 s
    run = play(tmp_path, [*_to_the_count(), *[None] * (needed - 1)])
    assert not run.session.paused and not run.events("paused")
    reprompts = run.events("reprompt")
    assert reprompts and not any(e["discussion"] for e in reprompts)
    assert len(reprompts) < needed // 3  # 12 s, then 24, 48, 96, 120: rarely
    run = play(tmp_path, [*_to_the_count(), *[None] * needed])
    assert run.session.paused
    assert [e["reason"] for e in run.events("paused")] == ["absence"]
    assert "I will wait. Say resume when you are ready." in run.text


def test_the_pause_after_option_sets_the_absence(tmp_path: Path) -> None:
    run = play(tmp_path, [*_to_the_count(), *[None] * 5], pause_after=60)
    assert run.session.paused


def test_a_valid_move_while_paused_resumes_the_game_and_is_taken(tmp_path: Path) -> None:
    run = play(tmp_path, ["Dan: pause", "Ada: Ada and Ben"])
    assert "Paused." in run.text
    assert not run.session.paused
    assert "Let's go on." in run.text and "We are paused" not in run.text
    proposals = [e for e in run.events("action") if e["action"]["type"] == "ProposeTeam"]
    assert proposals and proposals[0]["action"]["team"] == ["Ada", "Ben"]
    assert [e["by"] for e in run.events("resumed")] == ["propose_team"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_chatter_while_paused_stays_silent_and_keeps_the_pause(tmp_path: Path,
                                                              lang: str) -> None:
    pause = {"en": "Dan: pause", "fr": "Dan: pause"}[lang]
    run = play(tmp_path, [pause, CHATTER[lang][0]], opts=resistance(lang))
    assert run.session.paused
    assert not helped(run.text, lang)
    assert len(run.events("ignored")) == 1


def test_a_countdown_keeps_its_clock(tmp_path: Path) -> None:
    """Ici Londres' transmission against the clock: silence still makes the time run out,
    whatever the patience elsewhere."""
    opts = {"players": ["Ada", "Ben", "Cleo", "Dan"], "deal": "host", "mode": "countdown",
            "rounds": 1, "lang": "en", "seed": 1, "first": None}
    run = play(tmp_path, ["A cat eats a fish", None, None], game="ici-londres", opts=opts)
    assert run.events("timeout")
    assert not run.events("paused") and not run.events("reprompt")


def test_a_french_reask_is_french_and_names_what_is_needed(tmp_path: Path) -> None:
    run = play(tmp_path, ["Ada: Ada et Ben", "Ada: bosse"], opts=resistance("fr", votes="count"))
    assert reasks(run) == ["Ada"]
    reasked = [x for x in run.text.split("HÔTE : ") if x.startswith("Pardon, Ada : ")]
    assert len(reasked) == 1 and reasked[0].rstrip().endswith("?")
    assert " ou " in reasked[0] or reasked[0].count(":") == 1
