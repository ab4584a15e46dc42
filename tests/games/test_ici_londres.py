"""Ici Londres: one test per rule (shared/rules/ici-londres.md), named after the rule."""

from __future__ import annotations

import itertools
import json
import random
import re
import string
from collections import Counter

import pytest

from voice_host.games import lexicon
from voice_host.games.base import Deal, Event, IllegalAction, SetupError, event_to_json
from voice_host.games.ici_londres import (
    Draw,
    GameOver,
    IciLondresRefusal,
    IciLondresState,
    IconRevealed,
    IconsDrawn,
    JudgePick,
    Miss,
    Pick,
    PickMade,
    RoundEnded,
    RoundStarted,
    TimeUp,
    TimeUpEvent,
    Transmission,
    TransmissionChanged,
)
from voice_host.games.icons import ICON_NAMES, ICONS, KINDS, Icon, icon_by_name
from voice_host.host.core.registry import registration

NAMES = ("Ada", "Ben", "Cleo", "Dan", "Eve", "Finn")


def new(n: int = 4, *, deal: Deal = Deal.HOST, mode: Transmission = Transmission.FRAGMENTS,
        **options: object) -> IciLondresState:
    return IciLondresState.new(NAMES[:n], deal=deal, mode=mode, **options)  # type: ignore[arg-type]


def started(n: int = 4, *, icons: tuple[str, str] = ("heart", "book"),
            mode: Transmission = Transmission.FRAGMENTS, deal: Deal = Deal.HOST,
            **options: object) -> IciLondresState:
    state = new(n, deal=deal, mode=mode, **options)
    state.apply(Draw(icons if deal is Deal.HOST else None))
    return state


def snapshot(state: IciLondresState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def refuse(state: IciLondresState, action: object, code: str = "", **params: object) -> str:
    """Apply an action that must be refused; check the state did not change at all, that
    the refusal is a code of the engine's table (with exactly ``params`` when a code is
    given) and that its English is one sentence."""
    before = snapshot(state)
    with pytest.raises(IciLondresRefusal) as info:
        state.apply(action)  # type: ignore[arg-type]
    assert snapshot(state) == before
    error = info.value
    assert error.code in IciLondresRefusal.messages, error.code
    if code:
        assert (error.code, error.params) == (code, params), (error.code, error.params)
    reason = error.reason
    assert reason[0].isupper() and reason.endswith("."), reason
    return reason


def finish_round_with_misses(state: IciLondresState) -> list[Event]:
    """Every receiver names icons that are not in the message until the round ends."""
    events: list[Event] = []
    message = set(state.player_view(state.speaker).get("message", ()))
    start = state.round_number
    while state.round_number == start and not state.is_terminal():
        if state.phase() == "answer":
            pending = state.pending_icon
            assert pending is not None
            events += state.apply(JudgePick(state.speaker, pending[1], False))
            continue
        player = state.current_players()[0]
        size = 2 if state.mode is not Transmission.FRAGMENTS else 1
        size = min(size, state.picks_left[player])
        free = [i for i in ICON_NAMES if i not in state.named_icons and i not in message]
        events += state.apply(Pick(player, tuple(free[:size])))
    return events


def play_round(state: IciLondresState, icons: tuple[str, str] | None = None) -> list[Event]:
    if state.deal is Deal.HOST:
        draw = Draw(icons or ("heart", "book"))
    else:
        draw = Draw(None)
    events: list[Event] = list(state.apply(draw))
    return events + finish_round_with_misses(state)


# --------------------------------------------------------------------------- icons


def test_there_are_thirty_six_icons() -> None:
    assert len(ICONS) == 36
    assert len(ICON_NAMES) == 36
    assert all(isinstance(icon, Icon) for icon in ICONS)


def test_icons_contain_the_five_named_by_the_source() -> None:
    french = {icon.name: icon.french for icon in ICONS}
    assert french["heart"] == "cœur"
    assert french["book"] == "livre"
    assert french["bell"] == "cloche"
    assert french["key"] == "clé"
    assert french["elephant"] == "éléphant"


def test_icon_names_and_synonyms_are_never_shared() -> None:
    english = [w for icon in ICONS for w in (icon.name, *icon.synonyms)]
    french = [w for icon in ICONS for w in (icon.french, *icon.french_synonyms)]
    assert [w for w, c in Counter(english).items() if c > 1] == []
    assert [w for w, c in Counter(french).items() if c > 1] == []


def test_icon_english_words_are_single_lowercase_words() -> None:
    for icon in ICONS:
        for word in (icon.name, *icon.synonyms):
            assert re.fullmatch(r"[a-z]+", word), word
        assert icon.french and icon.french == icon.french.strip()


def test_icon_kind_is_one_of_the_designers_reasons() -> None:
    assert {icon.kind for icon in ICONS} == set(KINDS)


def test_icon_by_name_finds_each_icon_and_refuses_unknown() -> None:
    for icon in ICONS:
        assert icon_by_name(icon.name) is icon
    with pytest.raises(KeyError):
        icon_by_name("unicorn")


def test_icon_words_are_in_the_pronunciation_dictionary_and_sound_distinct() -> None:
    from rapidfuzz.distance import Levenshtein

    table = lexicon.pronunciations()
    assert table is not None, "the package's pronouncing dictionary is missing"
    phones = {word: list(spoken[0]) for word, spoken in table.items()}
    words = [(w, icon.name) for icon in ICONS for w in (icon.name, *icon.synonyms)]
    missing = [w for w, _ in words if w not in phones]
    assert missing == []
    close = []
    for (a, icon_a), (b, icon_b) in itertools.combinations(words, 2):
        if icon_a == icon_b:
            continue
        distance = Levenshtein.distance(phones[a], phones[b])
        if distance < 2 or distance / max(len(phones[a]), len(phones[b])) < 0.5:
            close.append((a, b))
    assert close == []


# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize("n", [2, 7])
def test_three_to_six_players(n: int) -> None:
    with pytest.raises(SetupError):
        IciLondresState.new(NAMES[:n] if n <= 6 else (*NAMES, "Gus"))
    assert IciLondresState.description.min_players == 3
    assert IciLondresState.description.max_players == 6
    assert IciLondresState.description.name == "ici-londres"
    assert registration("ici-londres").state_class is IciLondresState


@pytest.mark.parametrize(("n", "rounds"), [(3, 12), (4, 12), (5, 10), (6, 12)])
def test_twelve_rounds_ten_with_five_players(n: int, rounds: int) -> None:
    state = new(n)
    assert state.total_rounds == rounds
    played = 0
    while not state.is_terminal():
        play_round(state)
        played += 1
    assert played == rounds


def test_rounds_option_and_bad_values() -> None:
    assert new(4, rounds=3).total_rounds == 3
    for bad in (0, -1, "six", True):
        with pytest.raises(SetupError):
            new(4, rounds=bad)


def test_first_speaker_option_and_left_neighbour_is_wehrmacht() -> None:
    state = new(4, first_speaker="Cleo")
    assert state.speaker == "Cleo"
    assert state.wehrmacht == "Dan"
    assert state.receivers == ("Dan", "Ada", "Ben")
    assert new(4).speaker == "Ada"
    with pytest.raises(SetupError):
        new(4, first_speaker="Zoe")


def test_unknown_transmission_type_refused() -> None:
    with pytest.raises(SetupError):
        new(4, mode="telegraph")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- drawing


def test_host_draws_two_different_icons_seen_only_by_the_speaker() -> None:
    state = new(4)
    assert state.phase() == "draw" and state.is_chance_node()
    assert state.current_players() == ()
    action = state.chance_action(random.Random(5))
    assert isinstance(action, Draw) and action.icons is not None
    assert len(set(action.icons)) == 2 and set(action.icons) <= set(ICON_NAMES)
    events = state.apply(action)
    started_event = next(e for e in events if isinstance(e, RoundStarted))
    assert (started_event.speaker, started_event.wehrmacht) == ("Ada", "Ben")
    drawn = next(e for e in events if isinstance(e, IconsDrawn))
    assert drawn.icons == action.icons and drawn.audience == ("Ada",)
    assert state.phase() == "guess"


def test_table_mode_engine_knows_nothing_of_the_draw() -> None:
    state = new(4, deal=Deal.TABLE)
    assert state.chance_action(random.Random(1)) == Draw(None)
    assert state.legal_actions() == [Draw(None)]
    refuse(state, Draw(("heart", "book")), "speaker_draws")
    events = state.apply(Draw(None))
    assert next(e for e in events if isinstance(e, IconsDrawn)).icons is None


def test_draw_refuses_bad_messages() -> None:
    state = new(4)
    refuse(state, Draw(None), "draw_two")
    refuse(state, Draw(("heart", "heart")), "draw_different")
    refuse(state, Draw(("heart", "unicorn")), "unknown_icon", icon="unicorn")
    assert len(state.legal_actions()) == 36 * 35 // 2


def test_cards_return_to_the_pile_after_each_round() -> None:
    state = new(4)
    play_round(state, ("heart", "book"))
    assert state.phase() == "draw" and state.round_number == 2
    # the same two cards can be drawn again: the pile holds all 36 icons again
    assert Draw(("heart", "book")) in state.legal_actions()
    state.apply(Draw(("heart", "book")))
    assert state.player_view("Ben")["message"] == ["heart", "book"]


# --------------------------------------------------------------------------- worked example


def test_worked_example_message_fragments_heart_and_book() -> None:
    """'Il adorait ses kilos': the Wehrmacht names the elephant (no card), the next player
    the heart (1 + 1), the next the book (1 + 1); both found, the round ends."""
    state = started(4, icons=("heart", "book"), mode=Transmission.FRAGMENTS)
    assert (state.speaker, state.wehrmacht) == ("Ada", "Ben")
    assert state.current_players() == ("Ben",)
    events = state.apply(Pick("Ben", ("elephant",)))
    assert Miss("Ben", "elephant") in events
    events = state.apply(Pick("Cleo", ("heart",)))
    revealed = next(e for e in events if isinstance(e, IconRevealed))
    assert revealed.points == (("Cleo", 1), ("Ada", 1)) and revealed.found == 1
    events = state.apply(Pick("Dan", ("book",)))
    revealed = next(e for e in events if isinstance(e, IconRevealed))
    assert revealed.points == (("Dan", 1), ("Ada", 1)) and revealed.found == 2
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.complete and ended.found == ("heart", "book")
    assert state.scores == {"Ada": 2, "Ben": 0, "Cleo": 1, "Dan": 1}
    assert state.round_number == 2 and state.phase() == "draw"


def test_worked_example_at_the_table_with_hit_or_miss_answers() -> None:
    state = started(4, deal=Deal.TABLE)
    state.apply(Pick("Ben", ("elephant",)))
    assert state.phase() == "answer" and state.current_players() == ("Ada",)
    assert state.apply(JudgePick(state.speaker, "elephant", False)) == [Miss("Ben", "elephant")]
    state.apply(Pick("Cleo", ("heart",)))
    state.apply(JudgePick(state.speaker, "heart", True))
    state.apply(Pick("Dan", ("book",)))
    events = state.apply(JudgePick(state.speaker, "book", True))
    assert any(isinstance(e, RoundEnded) and e.complete for e in events)
    assert state.scores == {"Ada": 2, "Ben": 0, "Cleo": 1, "Dan": 1}


# --------------------------------------------------------------------------- turn order


@pytest.mark.parametrize("mode", [Transmission.FRAGMENTS, Transmission.DOUBLE_ZERO,
                                  Transmission.COUNTDOWN])
def test_wehrmacht_guesses_first(mode: Transmission) -> None:
    state = started(5, mode=mode, first_speaker="Dan")
    assert state.wehrmacht == "Eve"
    assert state.current_players() == ("Eve",)
    refuse(state, Pick("Ada", ("owl",) if mode is Transmission.FRAGMENTS else ("owl", "sun")),
           "not_your_turn", player="Ada", turn="Eve")


def test_fragments_one_icon_each_in_turn_then_a_second_lap() -> None:
    state = started(4, icons=("heart", "book"), first_speaker="Cleo")
    order = []
    for icon in ("owl", "sun", "moon", "egg", "fish", "cat"):
        player = state.current_players()[0]
        order.append(player)
        state.apply(Pick(player, (icon,)))
    assert order == ["Dan", "Ada", "Ben", "Dan", "Ada", "Ben"]
    assert state.round_number == 2  # everyone used both picks


def test_fragments_name_one_icon_at_a_time() -> None:
    state = started(4)
    refuse(state, Pick("Ben", ("owl", "sun")), "one_at_a_time")


def test_double_zero_two_icons_at_once_in_turn() -> None:
    state = started(4, mode=Transmission.DOUBLE_ZERO)
    refuse(state, Pick("Ben", ("owl",)), "two_at_once")
    state.apply(Pick("Ben", ("owl", "sun")))
    assert state.current_players() == ("Cleo",)
    state.apply(Pick("Cleo", ("moon", "egg")))
    assert state.current_players() == ("Dan",)


def test_countdown_player_keeps_the_turn_until_two_icons_named() -> None:
    state = started(4, mode=Transmission.COUNTDOWN)
    state.apply(Pick("Ben", ("owl",)))
    assert state.current_players() == ("Ben",)
    assert state.picks_left["Ben"] == 1
    refuse(state, Pick("Ben", ("sun", "moon")), "one_pick_left", player="Ben")
    state.apply(Pick("Ben", ("sun",)))
    assert state.current_players() == ("Cleo",)


def test_countdown_time_up_loses_the_missing_picks() -> None:
    state = started(4, mode=Transmission.COUNTDOWN)
    state.apply(Pick("Ben", ("owl",)))
    assert state.apply(TimeUp("Ben")) == [TimeUpEvent("Ben", 1)]
    assert state.picks_left["Ben"] == 0 and state.current_players() == ("Cleo",)
    assert state.apply(TimeUp("Cleo")) == [TimeUpEvent("Cleo", 2)]
    refuse(state, TimeUp("Cleo"), "not_their_time", turn="Dan", player="Cleo")
    events = state.apply(TimeUp("Dan"))
    assert any(isinstance(e, RoundEnded) and not e.complete for e in events)


def test_time_up_only_in_countdown() -> None:
    for mode in (Transmission.FRAGMENTS, Transmission.DOUBLE_ZERO, Transmission.COMPETING):
        refuse(started(4, mode=mode), TimeUp("Ben"), "no_clock")


def test_competing_networks_everyone_guesses_at_once() -> None:
    state = started(4, mode=Transmission.COMPETING)
    assert state.current_players() == ("Ben", "Cleo", "Dan")
    state.apply(Pick("Dan", ("owl", "sun")))
    assert state.current_players() == ("Ben", "Cleo")
    refuse(state, Pick("Dan", ("moon",)), "no_picks_left", player="Dan")


def test_competing_networks_occupied_icon_cannot_be_taken() -> None:
    state = started(4, mode=Transmission.COMPETING)
    state.apply(Pick("Cleo", ("owl",)))
    assert refuse(state, Pick("Ben", ("owl",)), "already_taken", icon="owl",
                  player="Cleo") == "The owl is already taken by Cleo."
    refuse(state, Pick("Dan", ("sun", "owl")), "already_taken", icon="owl", player="Cleo")


def test_competing_networks_one_icon_now_the_second_later() -> None:
    state = started(4, mode=Transmission.COMPETING, icons=("heart", "book"))
    state.apply(Pick("Cleo", ("owl",)))
    assert "Cleo" in state.current_players() and state.picks_left["Cleo"] == 1
    state.apply(Pick("Ben", ("sun", "moon")))
    events = state.apply(Pick("Cleo", ("heart",)))
    assert any(isinstance(e, IconRevealed) for e in events)
    assert state.picks_left["Cleo"] == 0


# --------------------------------------------------------------------------- picks


def test_at_most_two_picks_per_receiver() -> None:
    state = started(4, mode=Transmission.COMPETING)
    refuse(state, Pick("Ben", ("owl", "sun", "moon")), "at_most_two")
    state.apply(Pick("Ben", ("owl", "sun")))
    assert refuse(state, Pick("Ben", ("moon",)), "no_picks_left",
                  player="Ben") == "Ben has already named two icons."


def test_no_icon_named_twice_in_a_round() -> None:
    state = started(4)
    state.apply(Pick("Ben", ("bell",)))
    assert refuse(state, Pick("Cleo", ("bell",)), "already_named",
                  icon="bell") == "The bell was already named this round."
    dz = started(4, mode=Transmission.DOUBLE_ZERO)
    refuse(dz, Pick("Ben", ("bell", "bell")), "twice", icon="bell")


def test_icons_can_be_named_again_in_the_next_round() -> None:
    state = started(4)
    finish_round_with_misses(state)
    state.apply(Draw(("heart", "book")))
    first = state.current_players()[0]
    state.apply(Pick(first, ("owl",)))  # owl was named in round 1
    assert "owl" in state.named_icons


def test_unknown_icon_refused() -> None:
    assert refuse(started(4), Pick("Ben", ("unicorn",)), "unknown_icon",
                  icon="unicorn") == "There is no icon called unicorn."


def test_empty_pick_refused() -> None:
    assert refuse(started(4, mode=Transmission.COMPETING), Pick("Ben", ()),
                  "no_icon") == "Name an icon."


def test_speaker_cannot_guess() -> None:
    refuse(started(4, mode=Transmission.COMPETING), Pick("Ada", ("owl",)),
           "speaker_cannot_guess", player="Ada")


def test_unknown_player_refused() -> None:
    refuse(started(4, mode=Transmission.COMPETING), Pick("Zoe", ("owl",)),
           "unknown_player", player="Zoe")


def test_guessing_out_of_turn_refused() -> None:
    assert refuse(started(4), Pick("Cleo", ("owl",)), "not_your_turn", player="Cleo",
                  turn="Ben") == "Cleo, it is Ben's turn to guess."


def test_no_guess_before_the_draw() -> None:
    refuse(new(4), Pick("Ben", ("owl",)), "not_drawn", speaker="Ada")


# --------------------------------------------------------------------------- scoring


def test_wehrmacht_finding_an_icon_takes_two_points() -> None:
    state = started(4, icons=("bell", "key"))
    events = state.apply(Pick("Ben", ("key",)))
    revealed = next(e for e in events if isinstance(e, IconRevealed))
    assert revealed.by_wehrmacht and revealed.points == (("Ben", 2),)
    assert state.scores == {"Ada": 0, "Ben": 2, "Cleo": 0, "Dan": 0}


def test_resistant_finding_an_icon_scores_one_and_speaker_one() -> None:
    state = started(4, icons=("bell", "key"))
    state.apply(Pick("Ben", ("owl",)))
    events = state.apply(Pick("Cleo", ("bell",)))
    revealed = next(e for e in events if isinstance(e, IconRevealed))
    assert not revealed.by_wehrmacht and revealed.points == (("Cleo", 1), ("Ada", 1))
    assert state.scores == {"Ada": 1, "Ben": 0, "Cleo": 1, "Dan": 0}


def test_guessing_stops_when_both_icons_are_found() -> None:
    state = started(5, icons=("bell", "key"), mode=Transmission.DOUBLE_ZERO)
    events = state.apply(Pick("Ben", ("bell", "key")))
    assert state.scores["Ben"] == 4
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.complete and ended.next_speaker == "Ben" and ended.next_wehrmacht == "Cleo"
    assert state.round_number == 2  # the others never guessed


def test_guessing_stops_when_every_receiver_used_two_picks() -> None:
    state = started(4, icons=("bell", "key"), mode=Transmission.DOUBLE_ZERO)
    state.apply(Pick("Ben", ("owl", "sun")))
    state.apply(Pick("Cleo", ("bell", "moon")))
    events = state.apply(Pick("Dan", ("egg", "fish")))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.found == ("bell",) and not ended.complete
    assert state.scores == {"Ada": 1, "Ben": 0, "Cleo": 1, "Dan": 0}


def test_second_icon_of_a_pick_after_the_message_is_complete_is_a_miss() -> None:
    state = started(4, icons=("bell", "key"), mode=Transmission.DOUBLE_ZERO)
    state.apply(Pick("Ben", ("bell", "owl")))
    events = state.apply(Pick("Cleo", ("key", "sun")))
    assert Miss("Cleo", "sun") in events
    table = started(4, deal=Deal.TABLE, mode=Transmission.DOUBLE_ZERO)
    table.apply(Pick("Ben", ("bell", "owl")))
    table.apply(JudgePick(table.speaker, "bell", True))
    table.apply(JudgePick(table.speaker, "owl", False))
    table.apply(Pick("Cleo", ("key", "sun")))
    events = table.apply(JudgePick(table.speaker, "key", True))
    assert Miss("Cleo", "sun") in events
    assert any(isinstance(e, RoundEnded) and e.complete for e in events)
    assert table.scores == {"Ada": 1, "Ben": 2, "Cleo": 1, "Dan": 0}  # Ben is the Wehrmacht


def test_unfound_icons_stay_secret_after_the_round() -> None:
    state = started(4, icons=("bell", "key"))
    events = finish_round_with_misses(state)
    for event in events:
        assert "bell" not in json.dumps(event_to_json(event))
    assert "bell" not in json.dumps(state.public_view())


# --------------------------------------------------------------------------- table mode


def test_table_mode_speaker_answers_hit_or_miss_for_each_icon() -> None:
    state = started(4, deal=Deal.TABLE, mode=Transmission.DOUBLE_ZERO)
    events = state.apply(Pick("Ben", ("owl", "sun")))
    assert [e for e in events if isinstance(e, PickMade)] == [
        PickMade("Ben", "owl", 1, True), PickMade("Ben", "sun", 0, True)]
    assert state.pending_icon == ("Ben", "owl")
    assert state.legal_actions() == [JudgePick("Ada", "owl", True),
                                     JudgePick("Ada", "owl", False)]
    assert state.legal_actions("Ben") == []
    refuse(state, JudgePick("Ada", "sun", False), "answer_for", speaker="Ada", pending="owl",
           icon="sun")
    refuse(state, JudgePick("Ben", "owl", True), "only_speaker_answers", speaker="Ada",
           player="Ben")
    refuse(state, Pick("Cleo", ("moon", "egg")), "answer_first", speaker="Ada", icon="owl")
    state.apply(JudgePick(state.speaker, "owl", False))
    assert state.pending_icon == ("Ben", "sun")
    state.apply(JudgePick(state.speaker, "sun", True))
    assert state.phase() == "guess" and state.current_players() == ("Cleo",)
    assert state.scores["Ben"] == 2


def test_host_mode_needs_no_answer() -> None:
    state = started(4)
    refuse(state, JudgePick(state.speaker, "owl", True), "host_holds_cards")


def test_no_answer_without_a_named_icon() -> None:
    refuse(started(4, deal=Deal.TABLE), JudgePick("Ada", "owl", True), "nothing_to_answer",
           speaker="Ada")


# --------------------------------------------------------------------------- rotation


def test_roles_move_one_seat_clockwise_each_round() -> None:
    state = new(4, first_speaker="Cleo")
    seen = []
    for _ in range(5):
        seen.append((state.speaker, state.wehrmacht))
        play_round(state)
    assert seen == [("Cleo", "Dan"), ("Dan", "Ada"), ("Ada", "Ben"), ("Ben", "Cleo"),
                    ("Cleo", "Dan")]


def test_transmission_type_changes_after_every_full_cycle_of_speakers() -> None:
    state = new(3, mode=Transmission.COMPETING)
    modes = []
    changes = []
    while not state.is_terminal():
        modes.append(state.mode)
        events = play_round(state)
        changes += [e for e in events if isinstance(e, TransmissionChanged)]
    assert modes == [Transmission.COMPETING] * 3 + [Transmission.DOUBLE_ZERO] * 3 + [
        Transmission.COUNTDOWN] * 3 + [Transmission.FRAGMENTS] * 3
    assert [(c.round, c.old, c.new) for c in changes] == [
        (4, Transmission.COMPETING, Transmission.DOUBLE_ZERO),
        (7, Transmission.DOUBLE_ZERO, Transmission.COUNTDOWN),
        (10, Transmission.COUNTDOWN, Transmission.FRAGMENTS)]


def test_transmission_order_wraps_from_countdown_to_fragments() -> None:
    state = new(6, mode=Transmission.COUNTDOWN)
    assert [state.mode_of_round(r) for r in (1, 6, 7, 12)] == [
        Transmission.COUNTDOWN, Transmission.COUNTDOWN, Transmission.FRAGMENTS,
        Transmission.FRAGMENTS]
    assert Transmission.COUNTDOWN.next() is Transmission.FRAGMENTS
    assert Transmission.DOUBLE_ZERO.french_title == "Double 0"


# --------------------------------------------------------------------------- end


def _play_scripted(state: IciLondresState, finders: list[str | None]) -> list[Event]:
    """One round per entry: the named receiver finds both icons (None: nobody finds)."""
    events: list[Event] = []
    for finder in finders:
        events += state.apply(Draw(("bell", "key")))
        if finder is None:
            events += finish_round_with_misses(state)
            continue
        start = state.round_number
        while state.round_number == start:
            player = state.current_players()[0]
            if player == finder:
                events += state.apply(Pick(player, tuple(
                    i for i in ("bell", "key") if i not in state.found_icons)[:1]))
            else:
                free = [i for i in ICON_NAMES if i not in state.named_icons
                        and i not in ("bell", "key")]
                events += state.apply(Pick(player, (free[0],)))
    return events


def test_highest_total_after_the_last_round_wins() -> None:
    state = new(3, rounds=3)
    # round 1: Ada speaks, Ben (Wehrmacht) finds both: Ben 4
    events = _play_scripted(state, ["Ben", None, None])
    assert state.is_terminal() and state.phase() == "over"
    over = [e for e in events if isinstance(e, GameOver)]
    assert len(over) == 1 and over[0].winners == ("Ben",)
    assert over[0].scores == (("Ada", 0), ("Ben", 4), ("Cleo", 0))
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("Ben",)
    assert outcome.reason == "rounds_played" and outcome.scores["Ben"] == 4
    assert state.legal_actions() == [] and state.current_players() == ()


def test_tied_highest_totals_share_the_win() -> None:
    state = new(3, rounds=2)
    # round 1 (Ada speaks): Cleo finds both -> Cleo 2, Ada 2; round 2: nobody finds
    _play_scripted(state, ["Cleo", None])
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("Ada", "Cleo")


def test_nothing_is_allowed_after_the_game_is_over() -> None:
    state = new(3, rounds=1)
    play_round(state)
    assert state.is_terminal() and state.outcome() is not None
    refuse(state, Draw(("bell", "key")), "game_over")
    refuse(state, Pick("Ben", ("owl",)), "game_over")
    refuse(state, TimeUp("Ben"), "game_over")


# --------------------------------------------------------------------------- robustness


def test_illegal_actions_leave_the_state_unchanged() -> None:
    """refuse() checks to_json() before and after; here a spread of wrong actions over a
    whole random game in both knowledge models."""
    for deal in (Deal.HOST, Deal.TABLE):
        state = new(4, deal=deal)
        rng = random.Random(11)
        while not state.is_terminal():
            wrong: list[object] = [
                Pick("Zoe", ("owl",)), Pick(state.speaker, ("owl",)), TimeUp("Zoe"),
                JudgePick("Ada", "unicorn", True), Draw(("owl", "owl")), "not an action",
                Pick(state.receivers[0], ("unicorn", "owl")),
                Pick(state.receivers[0], ("owl", "sun", "moon")),
            ]
            if state.phase() != "draw":
                wrong.append(Draw(None))
            for action in wrong:
                refuse(state, action)
            state.apply(state.random_action(rng))


def test_refusals_are_codes_with_the_engines_own_english() -> None:
    """The host says refusals from their code; alone, the engine still speaks English."""
    assert IciLondresState.refusals is IciLondresRefusal
    assert issubclass(IciLondresRefusal, IllegalAction)
    sample = {"player": "Ben", "speaker": "Ada", "turn": "Cleo", "icon": "owl",
              "pending": "sun"}
    for code, template in IciLondresRefusal.messages.items():
        fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        error = IciLondresRefusal(code, **{name: sample[name] for name in fields})
        assert error.reason[0].isupper() and error.reason.endswith("."), code
        assert "{" not in error.reason, code
    assert IciLondresRefusal("twice", icon="bell").reason == "You named the bell twice."


def test_every_legal_action_is_accepted() -> None:
    rng = random.Random(3)
    for mode in Transmission:
        for deal in (Deal.HOST, Deal.TABLE):
            state = new(4, mode=mode, deal=deal)
            while not state.is_terminal():
                if not state.is_chance_node():
                    for action in rng.sample(state.legal_actions(), 2):
                        IciLondresState.from_json(state.to_json()).apply(action)
                    for player in state.current_players():
                        assert state.legal_actions(player)
                state.apply(state.random_action(rng))


def test_json_round_trip_at_every_step() -> None:
    rng = random.Random(8)
    for deal in (Deal.HOST, Deal.TABLE):
        state = new(5, deal=deal, mode=Transmission.COUNTDOWN)
        while True:
            copy = IciLondresState.from_json(json.loads(json.dumps(state.to_json())))
            assert copy == state and copy.public_view() == state.public_view()
            assert copy.phase() == state.phase()
            if state.is_terminal():
                break
            seed = rng.random()
            a = state.apply(state.random_action(random.Random(seed)))
            b = copy.apply(copy.random_action(random.Random(seed)))
            assert a == b
        assert copy.outcome() == state.outcome()
        assert copy.history == state.history and len(state.history) > 20


def test_damaged_save_refused() -> None:
    state = started(4)
    state.apply(Pick("Ben", ("owl",)))
    data = state.to_json()
    for key, value in (("scores", {"Ada": 1}), ("round", 99), ("found", ["owl"]),
                       ("picks_left", {"Ben": 5, "Cleo": 2, "Dan": 2}), ("game", "chess"),
                       ("drawn", ["heart", "unicorn"])):
        with pytest.raises(ValueError):
            IciLondresState.from_json({**data, key: value})


def test_history_replays_to_the_same_state() -> None:
    state = new(4)
    rng = random.Random(2)
    for _ in range(30):
        state.apply(state.random_action(rng))
    replay = new(4)
    for action in state.history:
        replay.apply(action)
    assert replay == state


# --------------------------------------------------------------------------- views


def test_public_view_shows_what_everyone_knows() -> None:
    state = started(4, icons=("bell", "key"), mode=Transmission.COMPETING)
    state.apply(Pick("Cleo", ("bell", "owl")))
    view = state.public_view()
    assert view["speaker"] == "Ada" and view["wehrmacht"] == "Ben"
    assert view["receivers"] == ["Ben", "Cleo", "Dan"]
    assert view["mode"] == "competing" and view["round"] == 1 and view["total_rounds"] == 12
    assert view["current_players"] == ["Ben", "Dan"]
    assert view["named"] == [{"player": "Cleo", "icon": "bell", "hit": True},
                             {"player": "Cleo", "icon": "owl", "hit": False}]
    assert view["found"] == ["bell"]
    assert view["picks_left"] == {"Ben": 2, "Cleo": 0, "Dan": 2}
    assert view["scores"] == {"Ada": 1, "Ben": 0, "Cleo": 1, "Dan": 0}
    assert "key" not in json.dumps(view)


def test_only_the_speaker_sees_the_message() -> None:
    state = started(4, icons=("bell", "key"))
    assert state.player_view("Ada")["message"] == ["bell", "key"]
    for other in ("Ben", "Cleo", "Dan"):
        assert "message" not in state.player_view(other)
    with pytest.raises(IciLondresRefusal) as info:
        state.player_view("Zoe")
    assert (info.value.code, info.value.params) == ("unknown_player", {"player": "Zoe"})


def test_views_never_leak_the_drawn_icons_to_non_speakers() -> None:
    rng = random.Random(21)
    state = new(5, mode=Transmission.COMPETING)
    while not state.is_terminal():
        events = state.apply(state.random_action(rng))
        secret = set(state.to_json()["drawn"] or ()) - set(state.found_icons)
        for player in state.players:
            if player == state.speaker and state.phase() != "draw":
                continue
            text = json.dumps(state.player_view(player))
            assert not any(f'"{icon}"' in text for icon in secret), (player, secret, text)
        for event in events:
            if not hasattr(event, "audience"):
                text = json.dumps(event_to_json(event))
                assert not any(f'"{icon}"' in text for icon in secret), event


def test_table_mode_views_hold_no_message() -> None:
    state = started(4, deal=Deal.TABLE)
    for player in state.players:
        view = state.player_view(player)
        assert "message" not in view
        view.pop("you")
        assert view == state.public_view()
