"""Phones act only when the rules and the host allow it now: a tap before the host asks (the
Speaker's coded sentence not yet recorded), after the phase changed (an undo, the next
round) or from a seat the host does not ask is refused at once with a sentence in the page's
language, and an input queued in one phase is never applied in a later one. Checked over
HTTP against the real server (the session's part, :class:`PhoneDesk`, is driven by hand)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from tests.support.companion_phone import page_origin

pytest.importorskip("starlette", reason="the companion extra (starlette) is not installed")
httpx = pytest.importorskip("httpx", reason="httpx (test client) is not installed")

pytestmark = pytest.mark.network  # a local server on 127.0.0.1

from voice_host.games import Deal  # noqa: E402
from voice_host.games.codenames import CodenamesState, GiveClue, Guess  # noqa: E402
from voice_host.games.ici_londres import IciLondresState, Pick  # noqa: E402
from voice_host.games.resistance import CastVote, ProposeTeam, ResistanceState  # noqa: E402
from voice_host.host.companion import CompanionChannel  # noqa: E402
from voice_host.host.companion.strings import page_text  # noqa: E402
from voice_host.host.core.adapter import Prompt  # noqa: E402
from voice_host.host.core.patience import Patience  # noqa: E402
from voice_host.host.core.values import Line  # noqa: E402


class Table:
    """A channel with every seat claimed and confirmed, and an HTTP client for its pages."""

    def __init__(self, game: str, state: Any, lang: str = "en") -> None:
        self.state = state
        self.channel = CompanionChannel(game, state.players, host="127.0.0.1", port=0,
                                        lang=lang)
        url, _ = self.channel.start()
        self.client = httpx.Client(base_url=url, headers=page_origin(url), timeout=10)
        self.tokens: dict[str, str] = {}
        for seat in state.players:
            body = self.client.post("/api/claim", json={"room": self.channel.room_code,
                                                        "seat": seat}).json()
            self.tokens[seat] = body["token"]
        for seat, token in self.tokens.items():
            assert self.client.post(f"/api/seat/{seat}/confirm", json={},
                                    headers={"X-Seat-Token": token}).status_code == 200
        self.channel.lock_seats()
        self.channel.open_turn(())  # the session's desk hands the turns to the host
        self.channel.publish(state)

    def act(self, seat: str, choice: str) -> httpx.Response:
        return self.client.post(f"/api/seat/{seat}/act", json={"choice": choice},
                                headers={"X-Seat-Token": self.tokens[seat]})

    def items(self, seat: str) -> list[dict[str, Any]]:
        got = self.client.get(f"/api/seat/{seat}", headers={"X-Seat-Token": self.tokens[seat]})
        assert got.status_code == 200
        return list(got.json()["items"])

    def choices(self, seat: str) -> list[str]:
        view = next(i for i in self.items(seat) if i["type"] == "view")
        return [c["id"] for c in view["choices"]]

    def publish(self) -> None:
        self.channel.publish(self.state)

    def close(self) -> None:
        self.client.close()
        self.channel.stop()


@pytest.fixture()
def tables() -> Iterator[Any]:
    made: list[Table] = []

    def make(game: str, state: Any, lang: str = "en") -> Table:
        made.append(Table(game, state, lang))
        return made[-1]

    yield make
    for table in made:
        table.close()


def ici_londres_round() -> IciLondresState:
    state = IciLondresState.new(["Ada", "Ben", "Cy"], deal=Deal.HOST)
    state.apply(state.chance_action(random.Random(3)))
    assert state.phase() == "guess"
    return state


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_pick_before_the_coded_sentence_is_refused_and_never_scored(
        tables: Any, lang: str) -> None:
    state = ici_londres_round()
    table = tables("ici-londres", state, lang)
    picker = state.current_players()[0]
    icon = next(i for i in state.legal_actions(picker) if isinstance(i, Pick)).icons[0]
    # the round's icons are drawn but the Speaker has not said the coded sentence: the host
    # asks nobody yet, so no phone shows an icon and a tap is refused with a sentence
    assert all(table.choices(p) == [] for p in state.players)
    early = table.act(picker, f"pick:{icon}")
    assert early.status_code == 422
    assert early.json()["reason"] == page_text(lang, "refusal.not_now")
    assert table.channel.pending() == 0
    # guessing opens: the early tap was not kept, so nothing is applied
    table.channel.open_turn((picker,))
    assert table.channel.take_actions(state) == []
    assert any(c.startswith("pick:") for c in table.choices(picker))
    others = [p for p in state.players if p != picker]
    assert all(table.choices(p) == [] for p in others)  # the host asks one receiver
    assert table.act(others[0], f"pick:{icon}").status_code == 422
    # now the asked player's tap is taken
    assert table.act(picker, f"pick:{icon}").status_code == 200
    assert table.channel.take_actions(state) == [Pick(picker, (icon,))]


def test_a_pick_left_in_the_queue_when_the_round_ends_is_dropped_not_replayed(
        tables: Any) -> None:
    state = ici_londres_round()
    table = tables("ici-londres", state)
    told: list[tuple[str, str]] = []
    table.channel.tell = lambda seat, text: told.append((seat, text))  # type: ignore[method-assign]
    picker = state.current_players()[0]
    table.channel.open_turn((picker,))
    legal = [a for a in state.legal_actions(picker) if isinstance(a, Pick)]
    assert table.act(picker, "pick:" + legal[0].icons[0]).status_code == 200
    # before the host takes it, the game moves to another phase (here: the round is
    # replaced by a fresh one, as after an undo of the draw and a new draw)
    fresh = IciLondresState.new(["Ada", "Ben", "Cy"], deal=Deal.HOST)
    table.state = fresh
    table.publish()  # the draw phase: every turn closes
    fresh.apply(fresh.chance_action(random.Random(4)))
    table.publish()
    table.channel.open_turn(fresh.current_players())
    assert table.channel.take_actions(fresh) == []
    assert (picker, page_text("en", "choice.too_late")) in told  # told privately why


def test_a_vote_queued_before_an_undo_is_not_counted_on_the_next_team(tables: Any) -> None:
    state = ResistanceState.new(["Ada", "Ben", "Cy", "Di", "Eve"], deal=Deal.HOST)
    state.apply(state.setup_action(random.Random(5), first_leader="Ada"))
    before = state.to_json()
    state.apply(ProposeTeam("Ada", ("Ada", "Ben")))
    table = tables("resistance", state)
    table.channel.open_turn(state.players)
    assert table.choices("Cy") == ["vote:yes", "vote:no"]
    assert table.act("Cy", "vote:no").status_code == 200
    # "undo": back to the team phase, and the leader proposes another team
    undone = ResistanceState.from_json(before)
    table.state = undone
    table.publish()
    assert table.choices("Cy") == []  # a stale button disappears with its phase
    assert table.act("Cy", "vote:yes").status_code == 422
    undone.apply(ProposeTeam("Ada", ("Ada", "Cy")))
    table.publish()
    table.channel.open_turn(undone.players)
    assert table.channel.take_actions(undone) == []  # Cy's old "no" is not on this team
    assert table.act("Cy", "vote:yes").status_code == 200
    assert table.channel.take_actions(undone) == [CastVote("Cy", True)]


def test_a_guess_is_taken_only_from_the_team_whose_turn_it_is(tables: Any) -> None:
    state = CodenamesState.new(["Ada", "Ben", "Cy", "Di"], deal=Deal.HOST, first="red")
    state.apply(state.chance_action(random.Random(2)))
    table = tables("codenames", state, "fr")
    word = state.uncovered_words()[0]
    # the clue is not given yet: nobody may guess
    operative = state.operatives(state.current_team)[0]
    assert table.act(operative, f"guess:{word}").status_code == 422
    state.apply(next(a for a in state.legal_actions() if isinstance(a, GiveClue)))
    table.publish()
    table.channel.open_turn(state.current_players())
    spymaster = state.spymaster(state.current_team)
    refused = table.act(spymaster, f"guess:{word}")  # a spymaster never guesses
    assert refused.status_code == 422
    assert refused.json()["reason"] == page_text("fr", "refusal.not_now")
    assert table.choices(spymaster) == []
    assert table.act(operative, f"guess:{word}").status_code == 200
    assert table.channel.take_actions(state) == [Guess(operative, word)]


def test_every_team_member_sees_the_same_card_buttons_in_both_languages(
        tables: Any) -> None:
    for lang in ("en", "fr"):
        state = ResistanceState.new(["Ada", "Ben", "Cy", "Di", "Eve"], deal=Deal.HOST)
        state.apply(state.setup_action(random.Random(5), first_leader="Ada"))
        spies = set(state.spies() or ())
        team = (next(p for p in state.players if p in spies),
                next(p for p in state.players if p not in spies))
        state.apply(ProposeTeam("Ada", team))
        for p in state.players:
            state.apply(CastVote(p, True))
        table = tables("resistance", state, lang)
        views = {}
        for seat in team:
            view = next(i for i in table.items(seat) if i["type"] == "view")
            views[seat] = view["choices"]
        assert views[team[0]] == views[team[1]]
        assert [c["id"] for c in views[team[0]]] == ["success", "sabotage"]
        hero = team[1]
        refused = table.act(hero, "sabotage")  # the rules, on the hero's page only
        assert refused.status_code == 422
        assert refused.json()["reason"] == {"en": "Heroes can only play success.",
                                            "fr": "Les héros ne peuvent jouer que succès."}[lang]
        assert table.act(hero, "success").status_code == 200  # and then success is taken


# --------------------------------------------------------------------------- a quiet host


class Said:
    """A stand-in session for :class:`Patience`: what the host says, nothing else."""

    def __init__(self, waiting: Line | None) -> None:
        self.lines: list[str] = []
        self.paused = False
        self.phones = SimpleNamespace(waiting_line=lambda prompt: waiting)
        self.log = SimpleNamespace(write=lambda *a, **k: None)
        self.narrator = SimpleNamespace(line=lambda key, **k: Line(f"<{key}>"))

    def say(self, lines: list[Line]) -> None:
        self.lines.extend(line.text for line in lines)

    def say_key(self, key: str, **params: Any) -> None:
        self.lines.append(f"<{key}>")

    def save(self) -> None:
        pass

    def reminder(self, prompt: Prompt) -> list[Line]:
        return list(prompt.reminder or prompt.lines)


def test_while_phones_vote_the_host_says_once_whom_it_waits_for() -> None:
    prompt = Prompt(lines=(Line("Vote now, aloud or on your phone."),), phase="vote",
                    expected=("Ada", "Ben"), key="vote|0|0")
    waiting = Line("Still waiting for Ada and Ben: on your phone, or aloud.")
    session = Said(waiting)
    patience = Patience(silence_timeout=12, pause_after=300)
    for _ in range(20):  # four minutes of a quiet table tapping phones
        patience.on_silence(session, prompt, 12)  # type: ignore[arg-type]
    assert session.lines == [waiting.text]
    assert "<common.silence>" not in session.lines
    # without phones the same silence gets "I did not hear anything" and the reminder
    aloud = Said(None)
    patience = Patience(silence_timeout=12, pause_after=300)
    patience.on_silence(aloud, prompt, 12)  # type: ignore[arg-type]
    assert aloud.lines == ["<common.silence>", prompt.lines[0].text]
