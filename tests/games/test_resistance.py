"""Rules of Resistance with a double agent (shared/rules/resistance.md), one test per rule."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from voice_host.games.base import Action, Deal, Event, IllegalAction, SetupError, event_to_json
from voice_host.games.resistance import (
    NIGHT_STEPS,
    ROLE_TABLE,
    TEAM_SIZES,
    AccusationMade,
    AccusationResult,
    AccusationStarted,
    Accuse,
    CastVote,
    ConfirmDoubleAgent,
    GameOver,
    LeaderChanged,
    MissionCardPlayed,
    MissionResult,
    PlayMissionCard,
    ProposeTeam,
    RecordVoteCount,
    ReportSabotages,
    ResistanceRefusal,
    ResistanceState,
    Role,
    RoleDealt,
    Setup,
    Suit,
    Team,
    VoteCast,
    VoteResult,
    night_steps,
    role_counts,
    role_pile,
    team_size,
    two_sabotages_needed,
)

NAMES = ("Anna", "Bob", "Carl", "Dina", "Emil", "Frida", "Gustav", "Hanna", "Ivar", "Julie")
ROLE_LETTERS = {"D": Role.DOUBLE_AGENT, "H": Role.HERO, "S": Role.SPY}

# The rules' tables, written out again from shared/rules/resistance.md.
RULES_ROLE_ROWS = {5: (1, 2, 2), 6: (1, 3, 2), 7: (1, 3, 3), 8: (1, 4, 3), 9: (1, 5, 3),
                   10: (1, 5, 4)}
RULES_TEAM_ROWS = {5: (2, 3, 2, 3, 3), 6: (2, 3, 4, 3, 4), 7: (2, 3, 3, 4, 4),
                   8: (3, 4, 4, 5, 5), 9: (3, 4, 4, 5, 5), 10: (3, 4, 4, 5, 5)}


# --------------------------------------------------------------------------- helpers


def table_game(n: int = 5, *, double_agent: bool = True, leader: str = "Anna") -> ResistanceState:
    state = ResistanceState.new(NAMES[:n], deal=Deal.TABLE, double_agent=double_agent)
    state.apply(Setup(first_leader=leader, roles=None))
    return state


def host_game(roles: str = "DHHSS", *, double_agent: bool = True,
              leader: str = "Anna") -> ResistanceState:
    """A host-dealt game; ``roles`` is one letter per seat: D double agent, H hero, S spy."""
    state = ResistanceState.new(NAMES[: len(roles)], deal=Deal.HOST, double_agent=double_agent)
    state.apply(Setup(first_leader=leader, roles=tuple(ROLE_LETTERS[c] for c in roles)))
    return state


def propose(state: ResistanceState, team: Sequence[str] | None = None) -> list[Event]:
    if team is None:
        team = state.players[: state.team_size()]
    assert state.leader is not None
    return state.apply(ProposeTeam(state.leader, tuple(team)))


def approve(state: ResistanceState, team: Sequence[str] | None = None) -> None:
    propose(state, team)
    state.apply(RecordVoteCount(state.leader, len(state.players)))


def reject(state: ResistanceState) -> list[Event]:
    propose(state)
    return state.apply(RecordVoteCount(state.leader, 0))


def table_mission(state: ResistanceState, sabotages: int) -> list[Event]:
    approve(state)
    return state.apply(ReportSabotages(state.leader, sabotages))


def host_mission(state: ResistanceState, team: Sequence[str], saboteurs: Sequence[str] = ()
                 ) -> list[Event]:
    approve(state, team)
    events: list[Event] = []
    for p in team:
        events += state.apply(PlayMissionCard(p, p in saboteurs))
    return events


def assert_illegal(state: ResistanceState, action: Action, code: str | None = None,
                   **params: Any) -> IllegalAction:
    """``action`` is refused with ``code`` and exactly ``params`` (when a code is given),
    and the state did not change."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    assert state.to_json() == before
    error = info.value
    assert isinstance(error, ResistanceRefusal) and error.code in ResistanceRefusal.messages
    if code is not None:
        assert (error.code, error.params) == (code, params)
    assert error.reason.endswith(".")
    return error


def of_type(events: Sequence[Event], cls: type) -> list:
    return [e for e in events if isinstance(e, cls)]


def random_game(seed: int, n: int, deal: Deal, double_agent: bool) -> ResistanceState:
    state = ResistanceState.new(NAMES[:n], deal=deal, double_agent=double_agent)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(state.random_action(rng))
    return state


# --------------------------------------------------------------------------- setup and tables


@pytest.mark.parametrize("n", [5, 6, 7, 8, 9, 10])
def test_role_table_row(n: int) -> None:
    da, heroes, spies = RULES_ROLE_ROWS[n]
    row = ROLE_TABLE[n]
    assert (row.double_agents, row.heroes, row.spies) == (da, heroes, spies)
    state = ResistanceState.new(NAMES[:n], deal=Deal.HOST)
    state.apply(state.chance_action(random.Random(n)))
    dealt = Counter(state.role_of(p) for p in state.players)
    assert dealt == Counter({Role.DOUBLE_AGENT: da, Role.HERO: heroes, Role.SPY: spies})


@pytest.mark.parametrize("n", [5, 6, 7, 8, 9, 10])
def test_variant_without_double_agent_replaces_double_agent_by_hero(n: int) -> None:
    da, heroes, spies = RULES_ROLE_ROWS[n]
    state = ResistanceState.new(NAMES[:n], deal=Deal.HOST, double_agent=False)
    state.apply(state.chance_action(random.Random(n)))
    dealt = Counter(state.role_of(p) for p in state.players)
    assert dealt == Counter({Role.HERO: heroes + 1, Role.SPY: spies})
    assert role_counts(n, double_agent=False).double_agents == 0


@pytest.mark.parametrize("n", [5, 6, 7, 8, 9, 10])
def test_role_pile_uses_nine_of_diamonds_diamonds_and_clubs(n: int) -> None:
    da, heroes, spies = RULES_ROLE_ROWS[n]
    pile = role_pile(n)
    assert len(pile) == n
    assert len({c.label for c in pile}) == n
    assert [c.label for c in pile if c.role is Role.DOUBLE_AGENT] == ["9♦"]
    assert all(c.suit is Suit.DIAMONDS and c.rank != "9" for c in pile if c.role is Role.HERO)
    assert sum(c.role is Role.HERO for c in pile) == heroes
    assert all(c.suit is Suit.CLUBS for c in pile if c.role is Role.SPY)
    assert sum(c.role is Role.SPY for c in pile) == spies
    plain = role_pile(n, double_agent=False)
    assert "9♦" not in [c.label for c in plain]
    assert sum(c.role is Role.HERO for c in plain) == heroes + 1


@pytest.mark.parametrize("n", [4, 11])
def test_five_to_ten_players(n: int) -> None:
    names = [f"P{i}" for i in range(n)]
    with pytest.raises(SetupError):
        ResistanceState.new(names)


def test_setup_is_a_chance_node_choosing_a_random_first_leader() -> None:
    leaders = set()
    for seed in range(40):
        state = ResistanceState.new(NAMES[:5])
        assert state.is_chance_node() and state.phase() == "setup"
        assert state.current_players() == ()
        action = state.chance_action(random.Random(seed))
        assert isinstance(action, Setup) and action.roles is None
        state.apply(action)
        assert state.phase() == "team"
        leaders.add(state.leader)
    assert leaders == set(NAMES[:5])


def test_host_may_choose_the_first_leader() -> None:
    state = ResistanceState.new(NAMES[:6], deal=Deal.HOST)
    action = state.setup_action(random.Random(3), first_leader="Dina")
    events = state.apply(action)
    assert state.leader == "Dina"
    assert of_type(events, LeaderChanged) == [LeaderChanged("Dina", None)]


def test_setup_refuses_roles_that_do_not_match_the_table() -> None:
    state = ResistanceState.new(NAMES[:5], deal=Deal.HOST)
    bad = (Role.DOUBLE_AGENT, Role.HERO, Role.SPY, Role.SPY, Role.SPY)
    assert_illegal(state, Setup("Anna", bad), "roles_mismatch")
    assert_illegal(state, Setup("Anna", bad[:4]), "roles_count", players=5)
    assert_illegal(state, Setup("Anna", None), "roles_missing")
    assert_illegal(state, Setup("Zed", (Role.DOUBLE_AGENT, Role.HERO, Role.HERO,
                                        Role.SPY, Role.SPY)), "unknown_player", name="Zed")
    table = ResistanceState.new(NAMES[:5], deal=Deal.TABLE)
    assert_illegal(table, Setup("Anna", (Role.DOUBLE_AGENT, Role.HERO, Role.HERO,
                                         Role.SPY, Role.SPY)), "roles_at_table")


def test_host_deals_each_role_privately() -> None:
    state = ResistanceState.new(NAMES[:7], deal=Deal.HOST)
    events = state.apply(state.chance_action(random.Random(5)))
    dealt = of_type(events, RoleDealt)
    assert [e.player for e in dealt] == list(NAMES[:7])
    for e in dealt:
        assert e.audience == (e.player,)
        assert e.role is state.role_of(e.player)
    others = [e for e in events if not isinstance(e, RoleDealt)]
    text = json.dumps([dataclasses.asdict(e) for e in others])
    assert "spy" not in text and "double_agent" not in text


# --------------------------------------------------------------------------- night phase


def test_night_steps_in_order() -> None:
    assert [s.id for s in NIGHT_STEPS] == [
        "all_close", "spies_open", "spies_close_thumbs", "double_agent_open",
        "thumbs_down_double_agent_close", "all_open",
    ]
    assert [s.id for s in night_steps(double_agent=True)] == [s.id for s in NIGHT_STEPS]


def test_without_double_agent_night_steps_three_to_five_are_skipped() -> None:
    assert [s.id for s in night_steps(double_agent=False)] == [
        "all_close", "spies_open", "all_open"]


def test_spies_learn_the_other_spies() -> None:
    state = host_game("SDHSHHS")
    for spy in ("Anna", "Dina", "Gustav"):
        k = state.night_knowledge(spy)
        assert k.role is Role.SPY and k.team is Team.SPIES
        assert k.spies == ("Anna", "Dina", "Gustav")
        assert "spies_open" in k.steps


def test_double_agent_learns_the_spies() -> None:
    state = host_game("SDHSHHS")
    k = state.night_knowledge("Bob")
    assert k.role is Role.DOUBLE_AGENT and k.team is Team.HEROES
    assert k.spies == ("Anna", "Dina", "Gustav")
    assert "double_agent_open" in k.steps and "spies_open" not in k.steps


def test_plain_heroes_learn_nothing() -> None:
    state = host_game("SDHSHHS")
    k = state.night_knowledge("Carl")
    assert k.role is Role.HERO and k.spies == () and k.steps == ("all_close", "all_open")


def test_nobody_learns_the_double_agent() -> None:
    # Moving the double agent among the heroes changes nobody else's knowledge.
    a, b = host_game("SDHSHHS"), host_game("SHDSHHS")
    for p in ("Anna", "Dina", "Emil", "Frida", "Gustav"):
        assert a.night_knowledge(p) == b.night_knowledge(p)
        assert a.player_view(p) == b.player_view(p)


def test_table_mode_engine_knows_no_roles() -> None:
    state = table_game(6)
    for p in state.players:
        k = state.night_knowledge(p)
        assert k.role is None and k.spies == ()
        assert state.player_view(p)["role"] is None


# --------------------------------------------------------------------------- team proposal


@pytest.mark.parametrize(("n", "mission"), [(n, m) for n in range(5, 11) for m in range(1, 6)])
def test_team_size_table_row(n: int, mission: int) -> None:
    expected = RULES_TEAM_ROWS[n][mission - 1]
    assert TEAM_SIZES[n][mission - 1] == expected == team_size(n, mission)
    state = table_game(n)
    for result in [0, 1, 0, 1][: mission - 1]:  # success, failure, ... never ends the game
        table_mission(state, result * (2 if state.two_sabotages_needed() else 1))
    assert state.mission == mission and state.team_size() == expected
    assert state.leader is not None
    too_few = state.players[: expected - 1]
    error = assert_illegal(state, ProposeTeam(state.leader, too_few), "wrong_team_size",
                           mission=mission, size=expected, named=expected - 1)
    assert error.reason == (f"The team for mission {mission} needs {expected} players, "
                            f"you named {expected - 1}.")
    assert_illegal(state, ProposeTeam(state.leader, state.players[: expected + 1]),
                   "wrong_team_size", mission=mission, size=expected, named=expected + 1)
    propose(state)
    assert state.phase() == "vote" and len(state.proposed_team or ()) == expected


@pytest.mark.parametrize(("n", "mission"), [(n, m) for n in range(5, 11) for m in range(1, 6)])
def test_two_sabotages_needed_only_on_mission_four_with_seven_or_more(n: int,
                                                                      mission: int) -> None:
    assert two_sabotages_needed(n, mission) == (mission == 4 and n >= 7)


@pytest.mark.parametrize("n", [5, 6, 7, 8, 9, 10])
def test_mission_four_with_one_sabotage(n: int) -> None:
    state = table_game(n)
    for sabotages in (0, 1, 0):
        table_mission(state, sabotages)
    assert state.mission == 4
    events = table_mission(state, 1)
    result = of_type(events, MissionResult)[0]
    assert result.two_needed == (n >= 7)
    assert result.succeeded == (n >= 7)


def test_starred_mission_fails_with_two_sabotages() -> None:
    state = table_game(7)
    for sabotages in (0, 1, 0):
        table_mission(state, sabotages)
    result = of_type(table_mission(state, 2), MissionResult)[0]
    assert result.two_needed and not result.succeeded and result.sabotages == 2


def test_leader_may_pick_themself() -> None:
    state = table_game(5, leader="Carl")
    propose(state, ("Carl", "Anna"))
    assert state.proposed_team == ("Carl", "Anna")


def test_leader_may_leave_themself_out() -> None:
    state = table_game(5, leader="Carl")
    propose(state, ("Dina", "Emil"))
    assert state.phase() == "vote"


def test_only_the_leader_proposes() -> None:
    state = table_game(5, leader="Carl")
    assert_illegal(state, ProposeTeam("Anna", ("Anna", "Bob")), "not_leader", leader="Carl",
                   player="Anna")
    assert state.legal_actions("Anna") == []
    assert all(isinstance(a, ProposeTeam) for a in state.legal_actions("Carl"))


def test_team_with_a_name_twice_is_refused() -> None:
    state = table_game(5)
    assert_illegal(state, ProposeTeam("Anna", ("Bob", "Bob")), "named_twice", name="Bob")


def test_team_with_an_unknown_name_is_refused() -> None:
    state = table_game(5)
    assert_illegal(state, ProposeTeam("Anna", ("Bob", "Zed")), "unknown_player", name="Zed")


def test_legal_teams_are_every_team_of_the_right_size() -> None:
    state = table_game(10)
    teams = state.legal_actions()
    assert len(teams) == 120  # 10 choose 3
    assert all(isinstance(a, ProposeTeam) and len(a.team) == 3 for a in teams)


# --------------------------------------------------------------------------- vote


def test_everyone_votes_including_the_leader() -> None:
    state = table_game(5, leader="Bob")
    propose(state)
    assert state.current_players() == NAMES[:5]
    for p in NAMES[:4]:
        state.apply(CastVote(p, True))
        assert state.phase() == "vote"
    events = state.apply(CastVote("Emil", False))
    assert state.phase() == "mission"
    assert of_type(events, VoteResult)[0].yes_count == 4


def test_votes_may_come_in_any_order() -> None:
    state = table_game(5)
    propose(state)
    for p in ("Emil", "Anna", "Dina", "Bob", "Carl"):
        state.apply(CastVote(p, p != "Emil"))
    assert state.phase() == "mission"


def test_votes_are_public() -> None:
    state = table_game(5)
    propose(state)
    events: list[Event] = []
    for p, v in zip(NAMES[:5], (True, False, True, False, True), strict=True):
        events += state.apply(CastVote(p, v))
    assert of_type(events, VoteCast)[0] == VoteCast("Anna", True, ("Bob", "Carl", "Dina", "Emil"))
    result = of_type(events, VoteResult)[0]
    assert result.yes == ("Anna", "Carl", "Emil") and result.no == ("Bob", "Dina")
    assert state.public_view()["votes"][0]["yes"] == ["Anna", "Carl", "Emil"]


def test_a_second_vote_by_the_same_player_is_refused() -> None:
    state = table_game(5)
    propose(state)
    state.apply(CastVote("Anna", True))
    assert_illegal(state, CastVote("Anna", False), "already_voted", player="Anna")


def test_strict_majority_approves_team() -> None:
    state = table_game(5)
    propose(state)
    events = state.apply(RecordVoteCount(state.leader, 3))
    result = of_type(events, VoteResult)[0]
    assert result.approved and (result.yes_count, result.no_count) == (3, 2)
    assert state.phase() == "mission"


def test_minority_rejects_team() -> None:
    state = table_game(7)
    propose(state)
    events = state.apply(RecordVoteCount(state.leader, 3))
    assert not of_type(events, VoteResult)[0].approved
    assert state.phase() == "team"


def test_tie_vote_rejects_team() -> None:
    state = table_game(6)
    propose(state)
    for p, v in zip(NAMES[:6], (True, True, True, False, False, False), strict=True):
        events = state.apply(CastVote(p, v))
    result = of_type(events, VoteResult)[0]
    assert not result.approved and result.rejections == 1
    assert state.phase() == "team" and state.rejections == 1


def test_vote_count_mode_resolves_at_once() -> None:
    state = table_game(8)
    propose(state)
    events = state.apply(RecordVoteCount(state.leader, 5))
    result = of_type(events, VoteResult)[0]
    assert result.approved and result.yes == () and result.no_count == 3
    assert of_type(events, VoteCast) == []


def test_vote_count_out_of_range_is_refused() -> None:
    state = table_game(5)
    propose(state)
    assert_illegal(state, RecordVoteCount(state.leader, 6), "yes_count_range", players=5)
    assert_illegal(state, RecordVoteCount(state.leader, -1), "yes_count_range", players=5)


def test_vote_count_after_individual_votes_is_refused() -> None:
    state = table_game(5)
    propose(state)
    state.apply(CastVote("Bob", True))
    state.apply(CastVote("Anna", False))
    error = assert_illegal(state, RecordVoteCount(state.leader, 3), "voted_one_by_one",
                           voters=("Bob", "Anna"))
    assert error.reason == "Bob and Anna already voted one by one; please finish the vote that way."


# --------------------------------------------------------------------------- leadership


def test_leadership_passes_left_after_a_rejected_vote() -> None:
    state = table_game(5, leader="Carl")
    events = reject(state)
    assert state.leader == "Dina"
    assert of_type(events, LeaderChanged) == [LeaderChanged("Dina", "Carl")]


def test_leadership_passes_left_once_after_an_approved_vote_and_its_mission() -> None:
    state = table_game(5, leader="Carl")
    propose(state)
    events = state.apply(RecordVoteCount(state.leader, 5))
    assert of_type(events, LeaderChanged) == []
    assert state.leader == "Carl"  # the leader hands out the action cards
    events = state.apply(ReportSabotages(state.leader, 0))
    assert of_type(events, LeaderChanged) == [LeaderChanged("Dina", "Carl")]


def test_leadership_passes_exactly_once_per_vote() -> None:
    for seed in range(20):
        state = ResistanceState.new(NAMES[:7], deal=Deal.HOST)
        rng = random.Random(seed)
        state.apply(state.random_action(rng))
        start = state.players.index(state.leader or "")
        changes = 0
        while not state.is_terminal():
            changes += len(of_type(state.apply(state.random_action(rng)), LeaderChanged))
        votes = len(state.vote_history)
        assert changes == votes - 1  # the last vote's leadership change never comes
        assert state.players.index(state.leader or "") == (start + votes - 1) % 7


def test_leadership_wraps_around_the_table() -> None:
    state = table_game(5, leader="Emil")
    reject(state)
    assert state.leader == "Anna"


# --------------------------------------------------------------------------- rejection track


def test_rejection_turns_a_counting_card() -> None:
    state = table_game(5)
    for i in range(1, 5):
        reject(state)
        assert state.rejections == i
        assert state.public_view()["rejections"] == i


def test_five_rejections_spies_win() -> None:
    state = table_game(5)
    for _ in range(4):
        reject(state)
    events = reject(state)
    assert state.is_terminal() and state.phase() == "over"
    over = of_type(events, GameOver)
    assert over == [GameOver(("spies",), "five_rejections", (("heroes", 0), ("spies", 0)))]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("spies",)


def test_rejection_track_resets_after_each_mission() -> None:
    state = table_game(5)
    for _ in range(4):
        reject(state)
    table_mission(state, 0)
    assert state.rejections == 0 and state.mission == 2
    for _ in range(4):
        reject(state)
    assert not state.is_terminal() and state.rejections == 4


def test_rejection_track_is_not_reset_by_an_approved_vote_before_the_mission() -> None:
    state = table_game(5)
    reject(state)
    approve(state)
    assert state.phase() == "mission" and state.rejections == 1
    state.apply(ReportSabotages(state.leader, 0))
    assert state.rejections == 0


# --------------------------------------------------------------------------- missions


def test_heroes_cannot_sabotage() -> None:
    state = host_game("DHHSS")
    approve(state, ("Bob", "Dina"))
    assert_illegal(state, PlayMissionCard("Bob", True), "heroes_play_success")
    assert PlayMissionCard("Bob", True) not in state.legal_actions("Bob")


def test_double_agent_cannot_sabotage() -> None:
    state = host_game("DHHSS")
    approve(state, ("Anna", "Dina"))
    assert_illegal(state, PlayMissionCard("Anna", True), "heroes_play_success")


def test_spies_may_play_success_or_sabotage() -> None:
    state = host_game("DHHSS")
    approve(state, ("Dina", "Emil"))
    assert set(state.legal_actions("Dina")) == {PlayMissionCard("Dina", True),
                                                PlayMissionCard("Dina", False)}
    state.apply(PlayMissionCard("Dina", False))
    events = state.apply(PlayMissionCard("Emil", True))
    result = of_type(events, MissionResult)[0]
    assert result.sabotages == 1 and not result.succeeded


def test_only_team_members_play_mission_cards() -> None:
    state = host_game("DHHSS")
    approve(state, ("Anna", "Dina"))
    assert_illegal(state, PlayMissionCard("Bob", False), "not_on_team", player="Bob", mission=1)
    state.apply(PlayMissionCard("Anna", False))
    assert_illegal(state, PlayMissionCard("Anna", False), "already_played", player="Anna")


def test_mission_result_reveals_only_the_number_of_sabotages() -> None:
    state = host_game("DHSSHSH")  # 7 players: Carl, Dina, Frida are spies
    events = host_mission(state, ("Carl", "Dina"), saboteurs=("Dina",))
    for e in of_type(events, MissionCardPlayed):
        assert set(dataclasses.asdict(e)) == {"player", "waiting"}
    result = of_type(events, MissionResult)[0]
    assert result.sabotages == 1
    assert state.public_view()["played_card"] == []
    # The same count from the other spy gives exactly the same public record.
    other = host_game("DHSSHSH")
    host_mission(other, ("Carl", "Dina"), saboteurs=("Carl",))
    assert other.public_view() == state.public_view()


def test_mission_succeeds_when_all_cards_are_success() -> None:
    state = host_game("DHHSS")
    events = host_mission(state, ("Dina", "Emil"))
    assert of_type(events, MissionResult)[0].succeeded


def test_mission_fails_with_one_sabotage() -> None:
    state = table_game(5)
    result = of_type(table_mission(state, 1), MissionResult)[0]
    assert not result.succeeded and state.failures == 1


def test_reported_sabotages_cannot_exceed_team_or_spies() -> None:
    state = table_game(5)
    approve(state)
    assert_illegal(state, ReportSabotages(state.leader, 3), "too_many_sabotages_team", mission=1,
                   size=2)
    assert_illegal(state, ReportSabotages(state.leader, -1), "sabotages_from_zero")
    state2 = table_game(5)
    table_mission(state2, 0)
    approve(state2)  # mission 2: team of 3, only 2 spies
    assert_illegal(state2, ReportSabotages(state2.leader, 3), "too_many_sabotages_spies", spies=2)


def test_table_mode_takes_a_count_not_cards() -> None:
    state = table_game(5)
    approve(state)
    assert_illegal(state, PlayMissionCard("Anna", False), "cards_at_table")
    host = host_game("DHHSS")
    approve(host)
    assert_illegal(host, ReportSabotages(host.leader, 0), "cards_to_host")


# --------------------------------------------------------------------------- end of the game


def test_three_failures_spies_win() -> None:
    state = table_game(5)
    for sabotages in (1, 0, 1):
        table_mission(state, sabotages)
    events = table_mission(state, 2)
    assert of_type(events, GameOver) == [
        GameOver(("spies",), "three_failures", (("heroes", 1), ("spies", 3)))]
    assert state.is_terminal()


def test_three_successes_win_for_heroes_without_double_agent() -> None:
    state = table_game(5, double_agent=False)
    for _ in range(2):
        table_mission(state, 0)
    events = table_mission(state, 0)
    assert of_type(events, GameOver) == [
        GameOver(("heroes",), "three_successes", (("heroes", 3), ("spies", 0)))]
    assert of_type(events, AccusationStarted) == []


def test_three_successes_lead_to_the_spies_accusation() -> None:
    state = table_game(5)
    for _ in range(3):
        events = table_mission(state, 0)
    assert state.phase() == "accuse" and not state.is_terminal()
    assert of_type(events, AccusationStarted) == [AccusationStarted(None)]


def test_game_ends_after_five_missions() -> None:
    state = table_game(6)
    for sabotages in (0, 1, 0, 1):
        table_mission(state, sabotages)
    assert state.mission == 5 and not state.is_terminal()
    table_mission(state, 1)
    assert state.is_terminal() and len(state.mission_history) == 5
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "three_failures"


def _host_three_successes(roles: str) -> ResistanceState:
    state = host_game(roles)
    heroes = [p for p, c in zip(state.players, roles, strict=True) if c != "S"]
    for _ in range(3):
        host_mission(state, heroes[: state.team_size()])
    assert state.phase() == "accuse"
    return state


def test_spies_reveal_themselves_for_the_accusation() -> None:
    state = host_game("DHHSS")
    for _ in range(3):
        events = host_mission(state, ("Anna", "Bob", "Carl")[: state.team_size()])
    assert of_type(events, AccusationStarted) == [AccusationStarted(("Dina", "Emil"))]
    assert state.public_view()["revealed_spies"] == ["Dina", "Emil"]
    assert state.current_players() == ("Dina", "Emil")


def test_spies_find_the_double_agent_spies_win() -> None:
    state = _host_three_successes("HDHSS")
    events = state.apply(Accuse(state.current_players()[0], "Bob"))
    assert of_type(events, AccusationMade) == [AccusationMade("Bob")]
    assert of_type(events, AccusationResult) == [AccusationResult("Bob", True, "Bob")]
    assert of_type(events, GameOver) == [
        GameOver(("spies",), "double_agent_found", (("heroes", 3), ("spies", 0)))]


def test_spies_miss_the_double_agent_heroes_win() -> None:
    state = _host_three_successes("HDHSS")
    events = state.apply(Accuse(state.current_players()[0], "Carl"))
    assert of_type(events, AccusationResult) == [AccusationResult("Carl", False, "Bob")]
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winners, outcome.reason) == (("heroes",), "double_agent_missed")


def test_host_mode_spies_cannot_accuse_a_spy() -> None:
    state = _host_three_successes("HDHSS")
    assert_illegal(state, Accuse(state.current_players()[0], "Dina"), "accused_is_spy",
                   player="Dina")
    assert_illegal(state, Accuse(state.current_players()[0], "Zed"), "unknown_player", name="Zed")


def test_table_mode_accused_answers_whether_they_were_double_agent() -> None:
    for answer, winners, reason in ((True, ("spies",), "double_agent_found"),
                                    (False, ("heroes",), "double_agent_missed")):
        state = table_game(5)
        for _ in range(3):
            table_mission(state, 0)
        events = state.apply(Accuse(state.current_players()[0], "Carl"))
        assert events == [AccusationMade("Carl")]
        assert state.phase() == "answer" and state.current_players() == ("Carl",)
        assert_illegal(state, Accuse(state.current_players()[0], "Bob"), "answer_first",
                       player="Carl")
        events = state.apply(ConfirmDoubleAgent(state.accused, answer))
        over = of_type(events, GameOver)[0]
        assert (over.winners, over.reason) == (winners, reason)


def test_only_the_spies_accuse_and_only_the_accused_answers() -> None:
    state = _host_three_successes("HDHSS")  # the spies are Dina and Emil
    assert state.current_players() == ("Dina", "Emil")
    assert {a.player for a in state.legal_actions()} == {"Dina", "Emil"}
    assert_illegal(state, Accuse("Anna", "Bob"), "only_spies_accuse", player="Anna",
                   spies=("Dina", "Emil"))
    assert_illegal(state, Accuse("Zed", "Bob"), "unknown_player", name="Zed")
    state.apply(Accuse("Emil", "Bob"))
    assert state.is_terminal()
    table = table_game(5)
    for _ in range(3):
        table_mission(table, 0)
    table.apply(Accuse("Bob", "Carl"))  # the host cannot know the spies: anyone's word
    assert_illegal(table, ConfirmDoubleAgent("Bob", True), "only_accused_answers",
                   player="Bob", accused="Carl")
    assert table.legal_actions("Bob") == [] and len(table.legal_actions("Carl")) == 2
    table.apply(ConfirmDoubleAgent("Carl", False))
    assert table.is_terminal()


def test_only_the_leader_counts_the_votes_and_reports_the_mission() -> None:
    state = table_game(5, leader="Carl")
    propose(state)
    assert_illegal(state, RecordVoteCount("Anna", 5), "leader_counts", leader="Carl",
                   player="Anna")
    assert {a.player for a in state.legal_actions() if isinstance(a, RecordVoteCount)} == {
        "Carl"}
    state.apply(RecordVoteCount("Carl", 5))
    assert_illegal(state, ReportSabotages("Anna", 0), "leader_reports", leader="Carl",
                   player="Anna")
    assert_illegal(state, ReportSabotages("Zed", 0), "unknown_player", name="Zed")
    state.apply(ReportSabotages("Carl", 0))
    host = host_game("DHHSS", leader="Anna")
    approve(host, ("Anna", "Bob"))
    # in host mode the team plays cards; a report is refused for who says it first
    assert_illegal(host, ReportSabotages("Bob", 0), "leader_reports", leader="Anna",
                   player="Bob")


def test_no_accusation_without_double_agent() -> None:
    state = table_game(5, double_agent=False)
    for _ in range(3):
        table_mission(state, 0)
    assert_illegal(state, Accuse("Anna", "Bob"), "game_over")


# --------------------------------------------------------------------------- robustness


def test_actions_in_the_wrong_phase_are_refused() -> None:
    fresh = ResistanceState.new(NAMES[:5])
    assert_illegal(fresh, ProposeTeam("Anna", ("Anna", "Bob")), "not_started")
    state = table_game(5)
    error = assert_illegal(state, CastVote("Anna", True), "team_first", leader="Anna",
                           mission=1)
    assert error.reason == "Anna must first propose a team for mission 1."
    assert_illegal(state, Setup("Anna", None), "team_first", leader="Anna", mission=1)
    assert_illegal(state, ReportSabotages(state.leader, 0), "team_first", leader="Anna", mission=1)
    assert_illegal(state, Accuse(state.current_players()[0], "Bob"), "team_first", leader="Anna",
                   mission=1)
    assert_illegal(state, ConfirmDoubleAgent(state.accused, True), "team_first", leader="Anna",
                   mission=1)
    with pytest.raises(IllegalAction) as info:
        state.setup_action(random.Random(1))
    assert info.value.code == "already_started"
    propose(state)
    assert_illegal(state, ProposeTeam("Anna", ("Anna", "Carl")), "vote_first")
    state.apply(RecordVoteCount(state.leader, 5))
    assert_illegal(state, CastVote("Bob", True), "mission_first", mission=1)


def test_a_move_of_another_phase_says_what_must_happen_first() -> None:
    state = _host_three_successes("HDHSS")
    assert_illegal(state, ProposeTeam("Anna", ("Anna", "Bob")), "accusation_first")
    table = table_game(5)
    for _ in range(3):
        table_mission(table, 0)
    table.apply(Accuse(table.current_players()[0], "Carl"))
    error = assert_illegal(table, ReportSabotages(table.leader, 0), "answer_first", player="Carl")
    assert error.reason == "Carl must first say whether they were the double agent."


def test_values_that_are_not_yes_or_no_are_refused() -> None:
    state = table_game(5)
    propose(state)
    assert_illegal(state, CastVote("Anna", 1), "vote_yes_or_no")  # type: ignore[arg-type]
    host = host_game("DHHSS")
    approve(host, ("Dina", "Emil"))
    assert_illegal(host, PlayMissionCard("Dina", "yes"),  # type: ignore[arg-type]
                   "success_or_sabotage")
    table = table_game(5)
    for _ in range(3):
        table_mission(table, 0)
    table.apply(Accuse(table.current_players()[0], "Carl"))
    assert_illegal(table, ConfirmDoubleAgent(table.accused, None),
                   "answer_yes_or_no")  # type: ignore[arg-type]


def test_every_refusal_code_has_an_english_sentence_with_its_params() -> None:
    error = ResistanceRefusal("too_many_sabotages_team", mission=2, size=3)
    assert error.reason == "Mission 2 had 3 cards, so there can be at most 3 sabotages."
    assert all(text.endswith(".") for text in ResistanceRefusal.messages.values())


def test_foreign_action_is_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class Shout(Action):
        word: str

    state = table_game(5)
    assert_illegal(state, Shout("hi"), "not_a_move")


def test_unknown_voter_is_refused() -> None:
    state = table_game(5)
    propose(state)
    assert_illegal(state, CastVote("Zed", True), "unknown_player", name="Zed")


@pytest.mark.parametrize("deal", [Deal.HOST, Deal.TABLE])
@pytest.mark.parametrize("double_agent", [True, False])
def test_random_play_always_ends_with_a_valid_outcome(deal: Deal, double_agent: bool) -> None:
    for seed in range(30):
        n = 5 + seed % 6
        state = random_game(seed, n, deal, double_agent)
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.winners in (("heroes",), ("spies",))
        assert state.successes <= 3 and state.failures <= 3
        assert state.legal_actions() == []
        if outcome.reason in ("double_agent_found", "double_agent_missed"):
            assert double_agent and state.successes == 3


def test_random_actions_are_legal_actions() -> None:
    for seed in range(10):
        state = ResistanceState.new(NAMES[:8], deal=Deal.HOST)
        rng = random.Random(seed)
        state.apply(state.random_action(rng))
        while not state.is_terminal():
            action = state.random_action(rng)
            assert action in state.legal_actions()
            actors = [p for p in state.players if action in state.legal_actions(p)]
            assert actors and set(actors) <= set(state.current_players())
            state.apply(action)


@pytest.mark.slow
@pytest.mark.parametrize("deal", [Deal.HOST, Deal.TABLE])
def test_json_round_trip_at_every_step_gives_the_same_future(deal: Deal) -> None:
    for seed in range(8):
        state = ResistanceState.new(NAMES[: 5 + seed % 6], deal=deal)
        rng = random.Random(seed)
        while True:
            data = json.loads(json.dumps(state.to_json()))
            copy = ResistanceState.from_json(data)
            assert copy == state and copy.to_json() == state.to_json()
            if state.is_terminal():
                break
            rng_state = rng.getstate()
            action = state.random_action(rng)
            rng.setstate(rng_state)
            assert copy.random_action(rng) == action
            assert copy.apply(action) == state.apply(action)


def test_events_are_json_friendly_and_only_role_events_carry_secrets() -> None:
    rng = random.Random(4)
    seen: set[str] = set()
    for deal in (Deal.HOST, Deal.TABLE):
        for n in range(5, 11):
            state = ResistanceState.new(NAMES[:n], deal=deal)
            while not state.is_terminal():
                for event in state.apply(state.random_action(rng)):
                    assert type(event) in ResistanceState.event_types
                    data = json.loads(json.dumps(event_to_json(event)))
                    seen.add(data["type"])
                    if isinstance(event, RoleDealt):
                        assert event.audience == (event.player,)
                    else:
                        assert "audience" not in data
    assert {"RoleDealt", "TeamProposed", "VoteResult", "MissionResult", "GameOver"} <= seen


def test_illegal_action_in_every_phase_leaves_state_unchanged() -> None:
    rng = random.Random(11)
    wrong = [ProposeTeam("Zed", ("Zed",)), CastVote("Zed", True), RecordVoteCount("Zed", 99),
             PlayMissionCard("Zed", True), ReportSabotages("Zed", 99), Accuse("Zed", "Zed"),
             Setup("Zed", None)]
    for deal in (Deal.HOST, Deal.TABLE):
        state = ResistanceState.new(NAMES[:6], deal=deal)
        while not state.is_terminal():
            for action in wrong:
                assert_illegal(state, action)
            state.apply(state.random_action(rng))
        for action in [*wrong, ConfirmDoubleAgent("Zed", True)]:
            assert_illegal(state, action)


# --------------------------------------------------------------------------- views


def _play_same_public_game(roles: str) -> ResistanceState:
    """Roles differ, public history the same: a rejection, a successful mission, a vote."""
    state = host_game(roles)
    reject(state)
    host_mission(state, ("Anna", "Bob"))
    propose(state)
    state.apply(CastVote("Carl", True))
    return state


def test_public_view_holds_no_roles() -> None:
    a, b = _play_same_public_game("DHHSS"), _play_same_public_game("SSHHD")
    assert a.public_view() == b.public_view()
    json.dumps(a.public_view())


def test_hero_view_holds_no_roles_of_others() -> None:
    # Carl is a plain hero in both games; everyone else's role differs.
    a, b = _play_same_public_game("DHHSS"), _play_same_public_game("SSHDH")
    assert a.player_view("Carl") == b.player_view("Carl")
    view = a.player_view("Carl")
    assert view["role"] == "hero" and view["known_spies"] == []


def test_spy_view_shows_the_spies_but_not_the_double_agent() -> None:
    a, b = _play_same_public_game("DHHSS"), _play_same_public_game("HHDSS")
    assert a.player_view("Dina") == b.player_view("Dina")
    view = a.player_view("Dina")
    assert view["role"] == "spy" and view["known_spies"] == ["Dina", "Emil"]


def test_double_agent_view_shows_the_spies() -> None:
    state = _play_same_public_game("DHHSS")
    view = state.player_view("Anna")
    assert view["role"] == "double_agent" and view["known_spies"] == ["Dina", "Emil"]


def test_views_never_show_who_played_which_mission_card() -> None:
    a = host_game("DHHSS")
    b = host_game("DHHSS")
    host_mission(a, ("Dina", "Emil"), saboteurs=("Dina",))
    host_mission(b, ("Dina", "Emil"), saboteurs=("Emil",))
    assert a.public_view() == b.public_view()
    for p in ("Anna", "Bob", "Carl"):
        assert a.player_view(p) == b.player_view(p)


def test_own_mission_card_shows_only_in_own_view() -> None:
    state = host_game("DHHSS")
    approve(state, ("Dina", "Emil"))
    state.apply(PlayMissionCard("Dina", True))
    assert state.player_view("Dina")["my_mission_card"] == "sabotage"
    assert state.player_view("Emil")["my_mission_card"] is None
    assert "my_mission_card" not in state.public_view()
    assert state.public_view()["played_card"] == ["Dina"]


def test_table_mode_views_hold_no_secrets() -> None:
    state = table_game(5)
    table_mission(state, 1)
    for p in state.players:
        view = state.player_view(p)
        assert view["role"] is None and view["known_spies"] == []
