"""A French game of Resistance speaks only French, refusals included.

Every move the rules refuse that a table can reach — by voice (the wrong leader, a team of
the wrong size, a second vote, too many sabotages, a spy accused, too many yes votes), by a
phone's page (a late vote, a card in table mode) or a team naming one player twice — is said
with the French table's sentence, and no English refusal reaches the players."""

from __future__ import annotations

import io
import random
import re
import string
import tomllib
from pathlib import Path
from typing import Any

import pytest

from voice_host.games.base import Deal
from voice_host.games.resistance import (
    CastVote,
    PlayMissionCard,
    ProposeTeam,
    ResistanceRefusal,
    ResistanceState,
    Role,
    Setup,
)
from voice_host.host.adapters import make_adapter
from voice_host.host.adapters.resistance import refusal_words
from voice_host.host.core.adapter import Prompt
from voice_host.host.core.narration import Narrator
from voice_host.host.core.refusals import refusal_text
from voice_host.host.core.session import Session, SessionOptions
from voice_host.host.core.store import EventLog
from voice_host.host.core.values import Heard, HeardKind
from voice_host.host.io.terminal import ScriptListener, TextOutput
from voice_host.intent import IntentMatch

PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve"]
LANG = Path(__file__).parents[2] / "voice_host" / "host" / "lang"
FR = Narrator("resistance", "fr")


def options(**over: Any) -> dict[str, Any]:
    opts: dict[str, Any] = {"deal": "table", "lang": "fr", "players": list(PLAYERS),
                            "double_agent": True, "first": "Ada", "votes": "together", "seed": 7}
    opts.update(over)
    return opts


def english_fragments() -> set[str]:
    """Literal pieces of every English refusal: the engine's table and the host's English
    tables (refusals and the game's narration), long enough to be English and not a name."""
    templates = list(ResistanceRefusal.messages.values())
    en = tomllib.loads((LANG / "en" / "resistance.toml").read_text(encoding="utf-8"))
    for value in en["resistance"].values():
        if isinstance(value, str):
            templates.append(value)
        elif isinstance(value, list):
            templates.extend(v for v in value if isinstance(v, str))
        elif isinstance(value, dict) and value is en["resistance"].get("refusal"):
            templates.extend(value.values())
    pieces = {literal.strip(" .,;:!?") for template in templates
              for literal, _, _, _ in string.Formatter().parse(template)}
    return {p for p in pieces if len(p) >= 12}


def french(code: str, **params: Any) -> str:
    return refusal_text(FR, ResistanceRefusal(code, **params), refusal_words)


class French:
    """A French session on ``lines``, whose output can be read while it is driven further."""

    def __init__(self, tmp_path: Path, lines: list[str], *, state: ResistanceState | None = None,
                 **opts: Any) -> None:
        game_opts = options(**opts)
        script = tmp_path / "script.txt"
        script.write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.out = io.StringIO()
        self.log_path = tmp_path / "log.jsonl"
        self.log = EventLog(self.log_path)
        adapter = make_adapter("resistance", game_opts, secret_sink=None)
        if state is not None:
            adapter.host_state["night_done"] = True
        self.session = Session(
            adapter=adapter,
            state=state if state is not None else ResistanceState.new(
                PLAYERS, deal=Deal(game_opts["deal"])),
            rng=random.Random(game_opts["seed"]),
            output=TextOutput(self.out, lang=game_opts.get("lang", "en")),
            listener=ScriptListener(script), log=self.log, game_options=game_opts,
            options=SessionOptions(confirm="never"))
        self.session.run(fresh=state is None)

    @property
    def text(self) -> str:
        return self.out.getvalue()

    def refusals(self) -> list[tuple[str, dict[str, Any]]]:
        """(code, params) of every refusal the engine gave, as the log has them."""
        import json
        self.log.close()
        events = [json.loads(x) for x in self.log_path.read_text(encoding="utf-8").splitlines()]
        return [(e["code"], e["params"]) for e in events if e["event"] == "refused"
                and e["code"] is not None]

    def say_match(self, intent: str, slots: dict[str, Any], speaker: str) -> None:
        """An understood utterance, carried out by the session as if heard."""
        prompt = self.session.adapter.prompt(self.session.state)
        assert isinstance(prompt, Prompt)
        match = IntentMatch(intent, slots, 1.0, " ".join(map(str, slots.values())))
        decision = self.session.adapter.interpret(self.session.state, match, speaker)
        self.session.carry_out(decision, match, prompt,
                               Heard(HeardKind.SPEECH, text=match.text, speaker=speaker),
                               speaker)


def said_lines(text: str) -> list[str]:
    return [line.split(": ", 1)[1] for line in text.splitlines() if ": " in line]


def assert_only_french(run: French, expected: list[tuple[str, dict[str, Any]]]) -> None:
    """Every refusal logged is ``expected`` and said with its French sentence; no English
    refusal (or English narration) is said at all."""
    refused = run.refusals()
    assert refused == [(code, params) for code, params in expected]
    lines = said_lines(run.text)
    for code, params in expected:
        fixed = {k: tuple(v) if isinstance(v, list) else v for k, v in params.items()}
        sentence = french(code, **fixed)
        assert sentence != ResistanceRefusal(code, **fixed).reason
        assert sentence in lines, f"{code}: {sentence!r} not said"
    leaked = sorted(p for p in english_fragments() if p in run.text)
    assert not leaked, f"English said in a French game: {leaked}"


def test_a_french_table_game_refuses_in_french(tmp_path: Path) -> None:
    run = French(tmp_path, [
        "Ben: Ben et Cleo",            # Ben is not the leader
        "Ada et Ben et Cleo",          # mission 1 needs 2
        "Ada et Ben",
        "Cleo: non", "Cleo: oui",      # Cleo votes twice
        "Ada: oui", "Ben: oui", "Dan: oui", "Eve: non",
        "il y a eu trois sabotages",   # 2 cards on mission 1
        "aucun sabotage",
        "Ben, Cleo et Dan", "tous oui",
        "trois sabotages",             # 3 cards, but only 2 spies
        "que des succès",
    ])
    state = run.session.state
    assert state.mission == 3 and state.successes == 2
    # a team naming a player twice (the matcher folds repeats away; a recognizer's
    # transcript or another input need not)
    run.say_match("propose_team", {"players": ("Cleo", "Cleo")}, "Cleo")
    # phones: a vote sent late, a mission card at a table that counts the cards itself
    assert not run.session.apply(CastVote("Eve", True))
    assert state.phase() == "team" and state.proposed_team is None
    run.say_match("propose_team", {"players": ("Cleo", "Dan")}, "Cleo")
    for voter in PLAYERS:
        run.session.apply(CastVote(voter, True))
    assert not run.session.apply(PlayMissionCard("Cleo", False))
    assert state.phase() == "mission"
    assert_only_french(run, [
        ("not_leader", {"leader": "Ada", "player": "Ben"}),
        ("wrong_team_size", {"mission": 1, "size": 2, "named": 3}),
        ("already_voted", {"player": "Cleo"}),
        ("too_many_sabotages_team", {"mission": 1, "size": 2}),
        ("too_many_sabotages_spies", {"spies": 2}),
        ("named_twice", {"name": "Cleo"}),
        ("team_first", {"leader": "Cleo", "mission": 3}),
        ("cards_at_table", {}),
    ])
    assert "Vous avez nommé Cleo deux fois." in said_lines(run.text)
    assert "You named" not in run.text


def test_a_french_count_game_refuses_too_many_yes_votes_in_french(tmp_path: Path) -> None:
    run = French(tmp_path, ["Ada et Ben", "six ont voté oui", "trois ont voté oui"],
                 votes="count")
    assert run.session.state.phase() == "mission"
    assert_only_french(run, [("yes_count_range", {"players": 5})])
    assert "Il n'y a que 5 joueurs, donc entre zéro et 5 votes pour." in run.text


def _host_game_at_the_accusation() -> tuple[ResistanceState, list[str], list[str]]:
    roles = (Role.SPY, Role.DOUBLE_AGENT, Role.HERO, Role.SPY, Role.HERO)
    state = ResistanceState.new(PLAYERS, deal=Deal.HOST)
    state.apply(Setup("Ada", roles))
    heroes = ["Ben", "Cleo", "Eve"]
    for _ in range(3):
        team = tuple(p for p in PLAYERS if p in heroes[: state.team_size()])
        state.apply(ProposeTeam(state.leader or "", team))
        for p in PLAYERS:
            state.apply(CastVote(p, True))
        for p in team:
            state.apply(PlayMissionCard(p, False))
    assert state.phase() == "accuse"
    return state, ["Ada", "Dan"], heroes


def test_a_french_host_game_refuses_a_spy_accused_in_french(tmp_path: Path) -> None:
    state, spies, _ = _host_game_at_the_accusation()
    run = French(tmp_path, ["Ben: l'agent double c'est Cleo",   # only the spies choose
                            "Ada: l'agent double c'est Dan",     # Dan is a spy
                            "Ada: l'agent double c'est Cleo"],
                 state=state, deal="host")
    assert run.session.state.is_terminal()
    assert "Ben, seuls les espions choisissent maintenant" in run.text
    assert_only_french(run, [("only_spies_accuse", {"player": "Ben", "spies": ["Ada", "Dan"]}),
                             ("accused_is_spy", {"player": "Dan"})])


@pytest.mark.parametrize("code", sorted(ResistanceRefusal.messages))
def test_every_refusal_has_its_own_french_sentence(code: str) -> None:
    """Each code's French sentence is not the English one and holds no English piece."""
    template = ResistanceRefusal.messages[code]
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    samples = {"players": 5, "mission": 2, "size": 3, "named": 2, "spies": 2,
               "voters": ("Ben", "Cleo")}
    params = {name: samples.get(name, "Cleo") for name in names}
    sentence = french(code, **params)
    assert sentence != ResistanceRefusal(code, **params).reason
    assert not re.search(r"\b(the|is|are|you|must|already|only|players?)\b", sentence), \
        sentence
    assert not [p for p in english_fragments() if p in sentence]


def test_a_count_the_dealt_roles_cannot_give_is_answered_in_french_naming_nobody(
        tmp_path: Path) -> None:
    """Host deal without phones: the leader's count becomes secret cards; a count that the
    team's roles cannot produce (more than its cards, or a sabotage on a team of heroes) is
    answered in French without a rule's reason, which could tell who the spies are."""
    state = ResistanceState.new(PLAYERS, deal=Deal.HOST)
    state.apply(Setup("Ada", (Role.SPY, Role.DOUBLE_AGENT, Role.HERO, Role.SPY, Role.HERO)))
    state.apply(ProposeTeam("Ada", ("Ben", "Cleo")))
    for p in PLAYERS:
        state.apply(CastVote(p, True))
    run = French(tmp_path, ["il y a eu cinq sabotages", "un sabotage", "aucun sabotage"],
                 state=state, deal="host")
    not_fit = FR.text("resistance.mission_not_fit")
    assert said_lines(run.text).count(not_fit) == 2
    assert run.session.state.successes == 1
    assert_only_french(run, [])
