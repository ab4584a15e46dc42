"""The Resistance host: scripted games through the real Session, narration, bad inputs."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.support import scripted
from tests.support.phone_votes import VotingPages
from tests.support.resistance import make_state, play_missions
from tests.support.scripted import Run, game_over_of
from voice_host.games import SetupError
from voice_host.games.resistance import (
    AccusationStarted,
    CastVote,
    MissionResult,
    ProposeTeam,
    ReportSabotages,
    ResistanceState,
    Role,
    Setup,
)
from voice_host.host.adapters import make_adapter, new_game
from voice_host.host.adapters.resistance import Adapter
from voice_host.host.core.adapter import Decision, Prompt, winner_json
from voice_host.host.core.registry import registration
from voice_host.host.core.secrets import Delivery, Via
from voice_host.host.core.session import Session, SessionOptions, Stop
from voice_host.host.core.store import SavedGame, load_game, rng_from_json
from voice_host.host.core.values import Line, Style
from voice_host.host.io.terminal import ScriptListener, TextOutput
from voice_host.intent import Matcher, load_grammar

PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve"]


def options(**over: Any) -> dict[str, Any]:
    opts: dict[str, Any] = {"deal": "table", "lang": "en", "players": list(PLAYERS),
                            "double_agent": True, "first": "Ada", "votes": "together", "seed": 7}
    opts.update(over)
    return opts


def run_script(tmp_path: Path, lines: list[str], *, confirm: str = "never",
               name: str = "script", save: Path | None = None, fresh: bool = True,
               state: ResistanceState | None = None, rng: random.Random | None = None,
               host_state: dict[str, Any] | None = None, undo: list[Any] | None = None,
               narration: dict[str, int] | None = None, **opts: Any) -> Run:
    return scripted.run_script(tmp_path, "resistance", options(**opts), lines,
                               confirm=confirm, name=name, save=save, fresh=fresh,
                               state=state, rng=rng, host_state=host_state, undo=undo,
                               narration=narration)


def votes(yes: int, total: int = 5, leader: str = "Ada") -> list[str]:
    """``yes`` yes-votes then no-votes, phrased variously, in calling order from the
    ``leader``. The first names its voter: right after the count-in the host asks the whole
    table, so a plain "yes" then is nobody's vote; after it, the host asks the next voter by
    name and a plain "yes" is theirs."""
    said_yes = ["yes", "I vote yes", "approve", "yeah"]
    said_no = ["no", "I vote no", "reject the team", "nope"]
    said = [said_yes[i % 4] if i < yes else said_no[i % 4] for i in range(total)]
    return [f"{leader}: {said[0]}", *said[1:]]


def host_roles(seed: int, **opts: Any) -> dict[str, Role]:
    """The roles the host deals for this seed (the session draws from Random(seed))."""
    game_opts = options(deal="host", seed=seed, **opts)
    state = new_game("resistance", game_opts)
    adapter = Adapter(game_opts)
    action = adapter.chance(state, random.Random(seed))
    assert isinstance(action, Setup) and action.roles is not None
    return dict(zip(game_opts["players"], action.roles, strict=True))


# --------------------------------------------------------------------------- whole games


def test_spies_win_with_three_failed_missions(tmp_path: Path) -> None:
    script = [
        "Ada and Ben", *votes(3), "one sabotage",                  # m1 fails, Ben leads
        "I choose Ben, Cleo and Dan", *votes(4, leader="Ben"), "two sabotages",  # Cleo leads
        "score",
        "my team is Cleo and Eve", *votes(5, leader="Cleo"), "all success",  # m3, Dan leads
        "Dan: Dan, Eve and Ada", *votes(3, leader="Dan"), "there was one sabotage card",
    ]
    run = run_script(tmp_path, script)
    assert run.stop is Stop.FINISHED
    over = run.game_over()
    assert over["winner"] == ["spies"]
    assert over["scores"] == {"heroes": 1, "spies": 3}
    assert over["reason"] == "three_failures"
    assert "Three missions have failed. The spies win!" in run.text
    assert "Missions won: heroes 0, spies 2." in run.text
    # asked in full once, then in short: the leader, the mission and the team's size
    assert any("Ben" in line and "ission 2" in line and " 3" in line
               for line in run.text.splitlines())
    assert "Yes: Ada, Ben and Cleo. No: Dan and Eve." in run.text
    assert any("4 to 1" in line and "Ada" in line for line in run.text.splitlines())
    assert "Mission 2 failed, with 2 sabotage cards." in run.text


def test_heroes_win_when_the_double_agent_is_missed(tmp_path: Path) -> None:
    script = [
        "Ada and Ben", *votes(5), "no sabotage",
        "Ben: Ben, Cleo and Dan", *votes(2, leader="Ben"), "Cleo and Dan and Eve",
        *votes(4, leader="Cleo"), "success",
        "Dan and Ada", *votes(4, leader="Dan"), "zero",
        "the double agent is Ben", "no it wasn't",
    ]
    run = run_script(tmp_path, script, confirm="never")
    over = run.game_over()
    assert over["winner"] == ["heroes"]
    assert over["scores"] == {"heroes": 3, "spies": 0}
    assert over["reason"] == "double_agent_missed"
    assert "Spies, turn your role cards face up now." in run.text
    assert "Ben, turn over your role card. Were you the double agent? Yes or no." in run.text
    assert "Ben was not the double agent." in run.text
    assert "That is the first rejection for this mission" in run.text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_only_the_accused_answers_whether_they_were_the_double_agent(
        tmp_path: Path, lang: str) -> None:
    yes, no = ("yes", "no") if lang == "en" else ("oui", "non")
    accuse = "the double agent is Dan" if lang == "en" else "l'agent double est Dan"
    script = [
        "Ada and Ben", *votes(5), "no sabotage",
        "Ben: Ben, Cleo and Dan", *votes(5, leader="Ben"), "success",
        "Cleo and Dan", *votes(5, leader="Cleo"), "zero",
        accuse, f"Ben: {yes}", f"Eve: {yes}", f"Dan: {no}",
    ]
    if lang == "fr":
        script = [line.replace("no sabotage", "aucun sabotage").replace("success", "réussite")
                  .replace("zero", "zéro").replace(" and ", " et ") for line in script]
        script = [{"yes": "oui", "no": "non", "I vote yes": "je vote oui", "approve": "pour",
                   "yeah": "ouais"}.get(line, line) for line in script]
    run = run_script(tmp_path, script, lang=lang)
    if lang == "en":
        assert "Ben, only Dan answers this. Dan, were you the double agent?" in run.text
        assert "Eve, only Dan answers this." in run.text
        assert "Dan was not the double agent." in run.text
    else:
        assert "Ben, seul Dan répond à cette question." in run.text
        assert "Eve, seul Dan répond à cette question." in run.text
    over = run.game_over()
    assert over["winner"] == ["heroes"] and over["reason"] == "double_agent_missed"
    answers = [a for a in run.events("action") if a["action"]["type"] == "ConfirmDoubleAgent"]
    assert len(answers) == 1


def test_confirmations_in_auto_mode(tmp_path: Path) -> None:
    """With --confirm auto a mission report, the accusation and the answer said plainly go
    ahead at once; the same moves said tentatively ("maybe") are confirmed first, and a
    "no" to the confirmation applies nothing."""
    script = [
        "Ada and Ben", *votes(5), "maybe one sabotage", "no", "no sabotage",
        "Ben, Cleo and Dan", *votes(5, leader="Ben"), "success",
        "Cleo and Dan", *votes(5, leader="Cleo"), "perhaps zero", "yes",
        "maybe we accuse Eve", "yes", "yes it was",
    ]
    run = run_script(tmp_path, script, confirm="auto")
    assert "I heard: mission 1 had one sabotage card. Is that right?" in run.text
    assert "All right, I have not done anything." in run.text
    assert "I heard: mission 3 had no sabotage card. Is that right?" in run.text
    assert "I heard: the spies say the double agent is Eve. Is that right?" in run.text
    plain = run.text.split("Not done: mission 1", 1)[1].split("I heard: mission 3")[0]
    assert "Is that right?" not in plain  # the plain reports of missions 1 and 2
    assert "Mission 1 succeeded" in plain and "Mission 2 succeeded" in plain
    assert "I heard: Eve was the double agent" not in run.text  # said plainly
    assert run.text.count("Is that right?") == 3
    asked = run.events("confirmation")
    assert [e["why"] for e in asked] == ["doubtful"] * 3
    assert [e["answer"] for e in asked] == [False, True, True]
    over = run.game_over()
    assert over["winner"] == ["spies"]
    assert over["reason"] == "double_agent_found"
    assert over["scores"] == {"heroes": 3, "spies": 0}


def test_five_rejections_make_the_spies_win(tmp_path: Path) -> None:
    script: list[str] = []
    teams = ["Ada and Ben", "Ben and Cleo", "Cleo and Dan", "Dan and Eve", "Eve and Ada"]
    for team in teams:
        script += [team, *votes(2, leader=team.split()[0])]
    run = run_script(tmp_path, script)
    over = run.game_over()
    assert over["winner"] == ["spies"]
    assert over["reason"] == "five_rejections"
    assert over["scores"] == {"heroes": 0, "spies": 0}
    assert "That is 2 rejections in a row; five and the spies win." in run.text
    assert "3 rejections" in run.text or "Rejections: 3" in run.text  # then in short
    assert "That is 4 rejections in a row. One more and the spies win!" in run.text
    assert "Five teams in a row were rejected. The spies win!" in run.text
    assert run.text.count("Turn one counting card face down.") == 4


def test_without_double_agent_three_successes_win(tmp_path: Path) -> None:
    script = [
        "Ada and Ben", *votes(5), "no sabotage",
        "Ben, Cleo and Dan", *votes(5, leader="Ben"), "all success",
        "Cleo and Dan", *votes(3, leader="Cleo"), "the mission succeeded",
    ]
    run = run_script(tmp_path, script, double_agent=False)
    over = run.game_over()
    assert over["winner"] == ["heroes"]
    assert over["reason"] == "three_successes"
    assert over["scores"] == {"heroes": 3, "spies": 0}
    assert "Double agent" not in run.text and "double agent" not in run.text.split(
        "Night falls")[1]
    assert "Spies, close your eyes." in run.text
    assert "We play without the double agent." in run.text


def test_host_deal_keeps_every_secret_off_the_air(tmp_path: Path) -> None:
    seed = 11
    roles = host_roles(seed)
    spies = [p for p, r in roles.items() if r is Role.SPY]
    heroes = [p for p, r in roles.items() if r is not Role.SPY]
    double_agent = next(p for p, r in roles.items() if r is Role.DOUBLE_AGENT)
    plain = [p for p in heroes if p != double_agent]
    leader_order = PLAYERS  # first leader Ada, then to the left
    hero_team = " and ".join(heroes[:2])
    spy_team3 = " and ".join([spies[0], *heroes[:2]])
    script = [
        hero_team, *votes(5), "one sabotage",   # impossible: only heroes on the team
        "no sabotage",                           # m1 succeeds
        f"{leader_order[1]}: {spy_team3}", *votes(5, leader=leader_order[1]),
        "one sabotage",                                                   # m2 fails
        " and ".join(heroes[:2]), *votes(5, leader=leader_order[2]), "all success",  # m3
        f"{spies[0]}, {heroes[0]} and {heroes[1]}", *votes(5, leader=leader_order[3]),
        "zero",                                                           # m4 succeeds
        f"{heroes[0]}: the double agent is {plain[0]}",   # a hero cannot accuse
        f"the double agent is {spies[1]}",                # a spy cannot be accused
        f"{spies[0]}: the double agent is {plain[0]}",
    ]
    run = run_script(tmp_path, script, deal="host", seed=seed)
    assert set(run.secrets) == set(PLAYERS)
    assert "you are a spy" in run.secrets[spies[0]][0]
    assert "double agent" in run.secrets[double_agent][0]
    assert "do not know who the spies are" in run.secrets[plain[0]][0]
    before_end = run.text.split("The spies have one last chance")[0]
    assert "you are a spy" not in run.text and "you are the double agent" not in run.text
    for spy in spies:  # no spy is ever named as a spy before the rules reveal them
        assert f"{spy}, spy" not in before_end
    # one line for every player: where their secrets are, in words
    assert ": your secrets are in the files with your names, in the folder shown" in run.text
    assert run.text.count("your secrets are in the files") == 1
    assert ".txt" not in run.text  # the host says where in words, never a file name
    assert "That number does not fit the cards that could be played." in run.text
    assert f"only the spies choose now: {' and '.join(spies)}" in run.text
    assert f"{spies[1]} is a spy; point at someone else." in run.text
    over = run.game_over()
    assert over["winner"] == ["heroes"]
    assert over["reason"] == "double_agent_missed"
    assert over["scores"] == {"heroes": 3, "spies": 1}
    assert f"The double agent was {double_agent}." in run.text
    assert all(f"{p} was " in run.text for p in PLAYERS)  # the recap reveals every role
    # the sabotage was charged to the only spy on the team, as one undoable move
    mission_cards = [e for e in run.log if e["event"] == "action"
                     and e["action"]["type"] == "PlayMissionCard"]
    assert len(mission_cards) == 2 + 3 + 2 + 3


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_votes_are_shown_together_then_taken_in_any_order(tmp_path: Path, lang: str) -> None:
    """Everyone shows their vote on the host's count; the host then takes the votes in any
    order (named, or from the player its prompt names), repeats back each sentence's votes
    with who is still to vote, and announces them all together."""
    if lang == "en":
        team, said = "Ada and Ben", ["Eve: no", "Cleo yes", "Dan votes no", "yes", "Ben: yes"]
    else:
        team, said = "Ada et Ben", ["Eve: non", "Cleo oui", "Dan vote non", "oui", "Ben: oui"]
    run = run_script(tmp_path, [team, *said], lang=lang)
    text = run.text
    countdown = "Three, two, one, vote!" if lang == "en" else "Trois, deux, un, votez !"
    assert countdown in text
    after = text.split(countdown, 1)[1]
    result = ("The team is approved, 3 to 2. Yes: Ada, Ben and Cleo. No: Dan and Eve."
              if lang == "en" else
              "L'équipe est acceptée, 3 contre 2. Oui : Ada, Ben et Cleo. Non : Dan et Eve.")
    assert result in after
    before_result = after.split(result, 1)[0]
    for word in (("yes", "no") if lang == "en" else ("oui", "non")):
        # each vote is repeated back as said, never as a yes/no question of its own
        assert f": {word}." not in before_result and f" : {word}." not in before_result
    if lang == "en":
        assert ("Tell me the votes, in any order, one by one or all at once, for example: "
                "Ada and Ben yes, Cleo no.") in after
        assert "Eve no. Still to vote: Ada, Ben, Cleo and Dan. Ada?" in before_result
        assert "Dan no. Still to vote: Ada and Ben. Ada?" in before_result
        assert "Ada yes. Ben, your vote?" in before_result
    voted = [(a["action"]["player"], a["action"]["approve"]) for a in run.events("action")
             if a["action"]["type"] == "CastVote"]
    assert voted == [("Eve", False), ("Cleo", True), ("Dan", False), ("Ada", True),
                     ("Ben", True)]
    assert run.state.phase() == "mission"


def test_a_second_vote_from_the_same_player_is_refused(tmp_path: Path) -> None:
    run = run_script(tmp_path, ["Ada and Ben", "Cleo: yes", "Cleo: no", "Cleo no",
                                "Ada: yes"])
    assert "Cleo, you have already voted." in run.text  # the engine's refusal
    # named by someone else: the whole sentence is refused with the reason
    assert "Cleo already voted yes, so I took none of these votes." in run.text
    assert run.state.votes == {"Cleo": True, "Ada": True}


def test_a_vote_sent_from_a_seats_page_enters_the_same_flow(tmp_path: Path) -> None:
    """The companion channel queues a seat's vote as ``CastVote(seat, approve)``; the session
    takes it before it listens again, like a spoken one, and says none of it."""

    pages = VotingPages([CastVote("Dan", False), CastVote("Eve", True)])
    opts = options()
    script = tmp_path / "s.txt"
    script.write_text("Ada and Ben\nAda yes\nBen yes\nCleo no\n", encoding="utf-8")
    out = io.StringIO()
    session = Session(adapter=make_adapter("resistance", {**opts, "companion": True}),
                      state=new_game("resistance", opts), rng=random.Random(7),
                      output=TextOutput(out), listener=ScriptListener(script),
                      options=SessionOptions(confirm="never"), companion=pages)
    session.run(fresh=True)
    text = out.getvalue()
    assert "or on your phone. Three, two, one, vote!" in text
    assert "Still to vote: Ada, Ben and Cleo. Ada?" in text  # the phones' votes are in
    assert "The team is approved, 3 to 2. Yes: Ada, Ben and Eve. No: Cleo and Dan." in text


def test_saved_games_from_the_one_by_one_vote_mode_vote_together(tmp_path: Path) -> None:
    # the one-by-one mode ("votes": "names") is gone: a game saved with it (save version 1)
    # is migrated to the vote together, and a new game cannot ask for it
    old = json.loads((Path(__file__).parent / "saves" / "v1-resistance-table.json").read_text(
        encoding="utf-8"))
    old["options"]["votes"] = "names"
    migrated = SavedGame.from_json(old)
    assert migrated.options["votes"] == "together"
    with pytest.raises(SetupError, match="--votes must be together or count, not names."):
        new_game("resistance", options(votes="names"))
    run = run_script(tmp_path, ["Ada and Ben", "Ben: no"], votes=migrated.options["votes"])
    assert "Three, two, one, vote!" in run.text
    assert run.state.votes == {"Ben": False}


def test_at_is_that_right_commands_are_answered_and_no_says_what_was_not_done(
        tmp_path: Path) -> None:
    script = ["Ada and Ben", *votes(5), "maybe one sabotage",
              "score", "four", "(silence)", "no",       # answered, asked again; then no
              "undo", "what's the score", "no",         # the vote stays
              "stop the game", "what", "no"]
    run = run_script(tmp_path, script, confirm="auto")
    text = run.text
    question = "I heard: mission 1 had one sabotage card. Is that right?"
    after = text.split(question, 1)[1]
    assert after.count(question) == 3  # after the score, after "four", after the silence
    assert "Missions won: heroes 0, spies 0." in after.split(question, 1)[0]
    assert "Please answer yes or no.\nHOST: " + question in text
    assert ("All right, I have not done anything. Not done: mission 1 had one sabotage card."
            in text)
    assert "Undo the last move?" in text and "All right, the last move stays." in text
    assert "All right, we go on." in text
    assert run.state.phase() == "mission" and len(run.state.vote_history) == 1
    assert run.stop is Stop.INPUT_ENDED


def test_a_yes_no_question_gives_up_after_three_answers_that_are_neither(
        tmp_path: Path) -> None:
    run = run_script(tmp_path, ["Ada and Ben", *votes(5), "maybe one sabotage", "four",
                                "five", "maybe", "no sabotage"], confirm="auto")
    assert run.text.count("Please answer yes or no.") == 2
    assert "Not done: mission 1 had one sabotage card." in run.text
    assert "Mission 1 succeeded" in run.text or "mission 1 succeeded" in run.text.lower()


def test_count_mode_votes(tmp_path: Path) -> None:
    script = [
        "Ada and Ben", "yes", "three voted yes", "no sabotage",
        "Ben, Cleo and Dan", "two said yes",             # rejected 2 to 3
        "Cleo and Dan and Eve", "we have four yes votes", "one sabotage",
        "Dan and Eve", "five yes", "all success",
        "Eve, Ada and Ben", "4 voted yes", "no sabotage",
        "it's Cleo", "no",
    ]
    run = run_script(tmp_path, script, votes="count")
    assert "Three, two, one, vote!" in run.text
    assert "Ada, how many voted yes?" in run.text
    assert "In this game the leader tells me how many voted yes. Ada, how many?" in run.text
    assert "The team is rejected, 2 votes to 3." in run.text
    assert "The team is approved, 3 votes to 2." in run.text
    over = run.game_over()
    assert over["winner"] == ["heroes"]
    assert over["scores"] == {"heroes": 3, "spies": 1}


# --------------------------------------------------------------------------- bad inputs


def test_wrong_team_size_is_refused_with_the_reason(tmp_path: Path) -> None:
    script = ["Ada and Ben", *votes(5), "no sabotage", "Ben and Cleo"]
    run = run_script(tmp_path, script)
    assert run.stop is Stop.INPUT_ENDED
    assert "The team for mission 2 needs 3 players, you named 2." in run.text
    assert run.state.phase() == "team" and run.state.mission == 2
    assert run.state.proposed_team is None
    # refused by the engine on the session's trial copy (nothing applied), with the rule's
    # code, its parameters and the engine's reason in the log
    refused = [e for e in run.log if e["event"] == "refused"]
    assert [(e["code"], e["params"]) for e in refused] == [
        ("wrong_team_size", {"mission": 2, "size": 3, "named": 2})]
    assert refused[0]["reason"] == "The team for mission 2 needs 3 players, you named 2."
    assert refused[0]["action"] == {"type": "ProposeTeam", "player": "Ben",
                                    "team": ["Ben", "Cleo"]}
    assert not [e for e in run.events("action") if e["action"]["type"] == "ProposeTeam"
                and e["action"]["team"] == ["Ben", "Cleo"]]


def test_unknown_name_chatter_and_silence_change_nothing(tmp_path: Path) -> None:
    script = ["Zed and Ada", "pass me the chips", "I don't trust Ben at all", "(silence)",
              "Ben: Ben and Cleo", "Ada and Ada", "three"]
    run = run_script(tmp_path, script)
    assert run.stop is Stop.INPUT_ENDED
    s = run.state
    assert s.phase() == "team" and s.proposed_team is None and s.leader == "Ada"
    # table talk gets no answer (it is logged), and one silence in a discussion says nothing
    assert "not a command I know" not in run.text
    assert "I did not catch a command" not in run.text
    ignored = [e["transcript"] for e in run.events("ignored")]
    assert "pass me the chips" in ignored and "I don't trust Ben at all" in ignored
    assert "I did not hear anything." not in run.text
    assert "Ben, Ada is the leader now. Ada, choose the team." in run.text
    assert "The team for mission 1 needs 2 players, you named 1." in run.text  # "Ada and Ada"
    applied = [e for e in run.log if e["event"] == "action"]
    assert [e["action"]["type"] for e in applied] == ["Setup"]


def test_votes_out_of_turn_and_twice(tmp_path: Path) -> None:
    script = ["Ada and Ben", "Cleo: no", "yes", "Cleo: yes", "status"]
    run = run_script(tmp_path, script)
    s = run.state
    assert s.votes == {"Cleo": False, "Ada": True}
    assert "Cleo, you have already voted." in run.text
    assert "Still to vote: Ben, Dan and Eve." in run.text


def test_undo_a_vote(tmp_path: Path) -> None:
    script = ["Ada and Ben", "Ada: yes", "no", "undo", "yes"]
    run = run_script(tmp_path, script)
    assert run.state.votes == {"Ada": True, "Ben": True}
    assert "Done: the last move is undone." in run.text


# --------------------------------------------------------------------------- resume


def test_resume_in_the_middle_gives_the_same_rest_of_game(tmp_path: Path) -> None:
    spy = next(p for p, r in host_roles(5).items() if r is Role.SPY)
    others = [p for p in PLAYERS if p != spy]
    first = [f"{spy} and {others[0]}", *votes(3), "one sabotage",
             f"Ben: {spy}, {others[1]} and {others[2]}", "Ben: yes", "no"]
    rest = ["yes", "yes", "no", "one sabotage", f"Cleo: {others[3]} and {spy}",
            *votes(2, leader="Cleo"), f"Dan: {spy} and {others[0]}", *votes(4, leader="Dan"),
            "one sabotage"]
    whole = run_script(tmp_path, first + rest, name="whole", deal="host", seed=5)
    save = tmp_path / "game.json"
    part = run_script(tmp_path, first, name="part", save=save, deal="host", seed=5)
    assert part.stop is Stop.INPUT_ENDED
    saved = load_game(save)
    rng = random.Random()
    rng.setstate(rng_from_json(saved.rng))
    resumed = run_script(tmp_path, rest, name="rest", fresh=False, save=save,
                         state=ResistanceState.from_json(saved.state), rng=rng,
                         host_state=saved.host_state, undo=saved.undo, deal="host", seed=5,
                         narration=saved.narration)
    assert resumed.state == whole.state
    assert resumed.game_over() == whole.game_over()
    assert "Night falls" not in resumed.text  # the night is not told twice
    tail = whole.text.split("HOST: ")[-25:]
    assert resumed.text.split("HOST: ")[-25:] == tail


# --------------------------------------------------------------------------- narration


def texts(lines: list[Line] | tuple[Line, ...]) -> str:
    return " ".join(line.text for line in lines)


def test_opening_names_the_role_pile_for_seven_players() -> None:
    opts = options(players=["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus"])
    adapter = Adapter(opts)
    said = texts(adapter.opening(new_game("resistance", opts)))
    assert "the nine, two, three and four of diamonds and the two, three and four of clubs" \
        in said
    assert "3 spies and 4 heroes" in said
    assert "ace, two, three, four and five of spades" in said
    host = Adapter(options(deal="host"))
    said = texts(host.opening(new_game("resistance", options(deal="host"))))
    assert "I deal the roles myself" in said and "diamonds" not in said


def test_night_has_timed_pauses_from_the_engine_steps() -> None:
    state, adapter = make_state()
    assert adapter.prompt(state) is None
    night = adapter.host_step(state)
    assert adapter.host_state["night_done"] is True
    assert [line.text for line in night][1:7] == [
        "Everyone, close your eyes.", "Spies, open your eyes and look at each other.",
        "Spies, close your eyes, and hold your thumb up.",
        "Double agent, open your eyes and see whose thumbs are up.",
        "Spies, put your thumbs down. Double agent, close your eyes.",
        "Everyone, open your eyes."]
    assert all(3.0 <= line.pause_after <= 5.0 for line in night[1:6])
    assert adapter.prompt(state) is not None
    plain_state, plain = make_state(double_agent=False)
    said = texts(plain.host_step(plain_state))
    assert "thumb" not in said and "Double agent" not in said


def test_team_prompt_says_when_two_sabotages_are_needed() -> None:
    state, adapter = make_state(7)
    adapter.host_state["night_done"] = True
    play_missions(state, 3)  # on to mission 4
    prompt = adapter.prompt(state)
    assert isinstance(prompt, Prompt)
    said = texts(prompt.lines)
    assert "you lead mission 4. Choose a team of 4." in said \
        or "leader for mission 4. Name 4 players" in said
    assert "Two sabotages are needed to fail this mission." in said
    lines = adapter.narrate(state, [MissionResult(4, ("Ada", "Ben", "Cleo", "Dan"), 1, True,
                                                  True, 2, 1)])
    assert "Mission 4 succeeded: there was one sabotage card, but two were needed" \
        in texts(lines)


def test_status_score_and_board() -> None:
    state, adapter = make_state()
    adapter.host_state["night_done"] = True
    state.apply(ProposeTeam("Ada", ("Ada", "Ben")))
    for p in PLAYERS:
        state.apply(CastVote(p, p != "Eve"))
    state.apply(ReportSabotages("Ada", 1))
    state.apply(ProposeTeam("Ben", ("Ben", "Cleo", "Dan")))
    for p in PLAYERS:
        state.apply(CastVote(p, p in ("Ben", "Cleo")))
    assert texts(adapter.score(state)) == ("Missions won: heroes 0, spies 1. "
                                           "Rejections in a row for this mission: 1 of 5.")
    assert "Mission 2: Cleo is the leader and chooses a team of 3." in texts(
        adapter.status(state))
    board = texts(adapter.board(state))
    assert "Mission 1, led by Ada with Ada and Ben: failed, one sabotage card." in board
    assert "Rejection track: 1 of 5" in board
    assert "Rejected teams for this mission: Ben's team Ben, Cleo and Dan." in board
    assert "Mission 5: a team of 3." in board


def test_describe_and_winner_json() -> None:
    state, adapter = make_state()
    assert adapter.describe(state, CastVote("Ben", True)) == "Ben votes yes"
    assert adapter.describe(state, ProposeTeam("Ada", ("Ada", "Ben"))) == \
        "Ada proposes Ada and Ben for mission 1"
    assert adapter.describe(state, ReportSabotages("Ada", 2)) == "mission 1 had 2 sabotage cards"
    events = adapter.narrate(state, [AccusationStarted(None)])
    assert "Spies, turn your role cards face up now" in texts(events)


# --------------------------------------------------------------------------- demo players


@pytest.mark.parametrize(("deal", "vote_mode", "double_agent", "n"), [
    ("table", "together", True, 5), ("host", "together", True, 7), ("table", "count", True, 8),
    ("host", "count", False, 10), ("table", "together", False, 6)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_bot_utterances_are_legal_moves_the_matcher_understands(
        deal: str, vote_mode: str, double_agent: bool, n: int, lang: str) -> None:
    names = ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo"][:n]
    grammar = load_grammar("resistance", lang)
    for seed in range(4):
        opts = options(players=names, deal=deal, votes=vote_mode, double_agent=double_agent,
                       first=None, seed=seed, lang=lang)
        state = new_game("resistance", opts)
        assert isinstance(state, ResistanceState)
        adapter = Adapter(opts)
        rng = random.Random(seed)
        state.apply(adapter.chance(state, rng))
        adapter.host_step(state)
        for _ in range(300):
            if state.is_terminal():
                break
            prompt = adapter.prompt(state)
            assert prompt is not None
            speaker, text = registration(adapter.game).bots(
            adapter, state, prompt, rng)
            assert speaker in state.players
            match = Matcher(grammar.phase(prompt.phase, adapter.slot_values(state))).match(
                text, speaker=speaker)
            assert match.best is not None, (prompt.phase, text)
            decision = adapter.interpret(state, match.best, speaker)
            assert isinstance(decision, Decision)
            assert decision.action is not None, (text, texts(decision.reply))
            for action in (decision.action, *decision.then):
                state.apply(action)
        assert state.is_terminal()
        outcome = state.outcome()
        assert outcome is not None and winner_json(outcome) in (["heroes"], ["spies"])


# --------------------------------------------------------------------------- the CLI


def test_cli_plays_a_scripted_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    from voice_host.cli import main

    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    script = tmp_path / "game.txt"
    lines = ["Ada and Ben", *votes(5), "one sabotage", "Ben, Cleo and Dan",
             *votes(5, leader="Ben"), "one sabotage", "Cleo and Dan", *votes(5, leader="Cleo"),
             "two sabotages"]
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log = tmp_path / "log.jsonl"
    code = main(["play", "resistance", "--players", ",".join(PLAYERS), "--first", "Ada",
                 "--input", "text", "--script", str(script), "--output", "text",
                 "--confirm", "never", "--seed", "3", "--log", str(log)])
    assert code == 0
    out = capsys.readouterr().out
    assert "Three missions have failed. The spies win!" in out
    last = game_over_of([json.loads(line) for line in
                         log.read_text(encoding="utf-8").splitlines()])
    assert last == {"event": "game_over", "winner": ["spies"],
                    "scores": {"heroes": 0, "spies": 3}, "reason": "three_failures"}


def test_cli_refuses_an_unknown_first_leader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from voice_host.cli import main

    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    code = main(["play", "resistance", "--players", ",".join(PLAYERS), "--first", "Zed",
                 "--input", "text", "--output", "text"])
    assert code == 2
    assert "Zed is not" in capsys.readouterr().err


def test_host_mode_sabotage_count_is_one_undoable_move(tmp_path: Path) -> None:
    roles = host_roles(11)
    spy = next(p for p, r in roles.items() if r is Role.SPY)
    hero = next(p for p, r in roles.items() if r is not Role.SPY)
    script = [f"{spy} and {hero}", *votes(5), "one sabotage", "undo"]
    run = run_script(tmp_path, script, deal="host", seed=11)
    s = run.state
    assert s.phase() == "mission" and s.mission == 1 and not s.mission_history
    assert s.proposed_team == (spy, hero)
    assert "Mission 1 failed, with one sabotage card." in run.text
    assert "Done: the last move is undone." in run.text


# --------------------------------------------------------------------------- French


def test_french_narration_has_every_key_with_the_same_fields() -> None:
    import string

    from voice_host.host.core.narration import catalogue

    def fields(value: str | list[str]) -> set[str]:
        texts = value if isinstance(value, list) else [value]
        return {f for t in texts for _, f, _, _ in string.Formatter().parse(t) if f}

    en = {k: v for k, v in catalogue("en", "resistance").items() if k.startswith("resistance.")}
    fr = {k: v for k, v in catalogue("fr", "resistance").items() if k.startswith("resistance.")}
    assert set(en) == set(fr)
    for key, value in en.items():
        assert fields(value) == fields(fr[key]), key


def test_a_french_game_to_the_end(tmp_path: Path) -> None:
    script = [
        "Ada et Ben", "Ada : oui", "oui", "oui", "non", "non", "un sabotage",
        "je choisis Ben, Cléo et Dan", "Ben : oui", "je vote oui", "oui", "oui", "non",
        "il y a eu deux sabotages",
        "Cléo et moi", "Dan et moi", "Cléo : pouce en bas", "non", "non", "oui", "oui",
        "Dan et Eve", "tout le monde oui", "un sabotage",
    ]
    run = run_script(tmp_path, script, lang="fr")
    over = run.game_over()
    assert over["winner"] == ["spies"] and over["scores"] == {"heroes": 0, "spies": 3}
    assert any("Ben" in line and "ission 2" in line and " 3" in line
               for line in run.text.splitlines())
    assert "L'équipe de la mission 3 compte 2 joueurs, vous en avez nommé 1." in run.text
    assert "C'est le premier refus pour cette mission" in run.text
    assert "Trois missions ont échoué. Les espions gagnent !" in run.text


# --------------------------------------------------------------------------- companion pages


def test_companion_pages_take_the_mission_cards() -> None:
    from voice_host.games.resistance import PlayMissionCard

    opts = options(deal="host", companion=True)
    state = new_game("resistance", opts)
    assert isinstance(state, ResistanceState)
    delivered: list[Line] = []

    def channel(line: Line) -> Delivery:
        delivered.append(line)
        return Delivery(Via.COMPANION, "your companion page")

    adapter = Adapter(opts, secret_sink=channel)
    assert "companion page" in texts(adapter.opening(state))
    events = state.apply(adapter.chance(state, random.Random(2)))
    said = texts(adapter.narrate(state, events))
    assert "Ada, your role is on your companion page." in said
    assert len(delivered) == 5 and all(line.style is Style.PRIVATE for line in delivered)
    assert "spy" not in said
    adapter.host_step(state)
    state.apply(ProposeTeam("Ada", ("Ada", "Ben")))
    for p in PLAYERS:
        state.apply(CastVote(p, True))
    prompt = adapter.prompt(state)
    assert prompt is not None and set(prompt.expected) == {"Ada", "Ben"}
    assert "choose your mission card on your companion page" in texts(prompt.lines)
    grammar = load_grammar("resistance", "en")
    match = Matcher(grammar.phase("mission", adapter.slot_values(state))).match("no sabotage")
    assert match.best is not None
    decision = adapter.interpret(state, match.best, "Ada")
    assert decision.action is None
    assert "chosen on the companion pages" in texts(decision.reply)
    said = texts(adapter.narrate(state, state.apply(PlayMissionCard("Ben", False))))
    assert said == "Ben has played. Still waiting for Ada."
    assert "Waiting for the mission cards of Ada." in texts(adapter.status(state))
    said = texts(adapter.narrate(state, state.apply(PlayMissionCard("Ada", False))))
    assert said.startswith("Mission 1 succeeded: no sabotage.")
