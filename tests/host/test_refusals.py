"""Every refusal of every game is data: a code with parameters, raised by the engine, said by
the host in the game's language from its own tables."""

from __future__ import annotations

import ast
import inspect
import string

import pytest

from voice_host.games import IllegalAction
from voice_host.host.core.narration import Narrator, catalogue
from voice_host.host.core.refusals import refusal_key, refusal_text
from voice_host.host.core.registry import game_names, registration


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def raised_codes(state_class: type) -> list[tuple[str, int]]:
    """(code, line) of every ``raise <Refusal>("code", ...)`` in the engine's module."""
    refusal = state_class.refusals.__name__
    tree = ast.parse(inspect.getsource(inspect.getmodule(state_class)))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in (refusal, "IllegalAction"):
            first = node.args[0] if node.args else None
            assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                f"line {node.lineno}: a refusal's code is a literal string")
            found.append((first.value, node.lineno))
    return found


@pytest.mark.parametrize("game", game_names())
def test_the_engine_raises_only_codes_of_its_table(game: str) -> None:
    cls = registration(game).state_class
    messages = cls.refusals.messages
    assert messages, f"{game} has no refusal table"
    unknown = [(code, line) for code, line in raised_codes(cls) if code not in messages]
    assert not unknown, f"codes raised but not in {cls.refusals.__name__}.messages: {unknown}"


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", game_names())
def test_every_refusal_has_a_sentence_in_every_language(game: str, lang: str) -> None:
    messages = registration(game).state_class.refusals.messages
    table = catalogue(lang, game)
    missing = [code for code in messages if refusal_key(game, code) not in table]
    assert not missing, f"no {lang} sentence for {game} refusals {missing}"
    for code, english in messages.items():
        said = table[refusal_key(game, code)]
        for template in said if isinstance(said, list) else [said]:
            assert fields(template) <= fields(english), (
                f"{lang} {game} {code}: {fields(template) - fields(english)} are not "
                "parameters of this refusal")


@pytest.mark.parametrize("game", game_names())
def test_an_unknown_code_is_a_bug_not_a_sentence(game: str) -> None:
    with pytest.raises(KeyError):
        registration(game).state_class.refusals("no_such_rule")


def test_names_are_joined_in_the_games_language() -> None:
    class Refused(IllegalAction):
        messages = {"twice": "You named {names} twice."}

    error = Refused("twice", names=("Ada", "Ben"))
    assert error.reason == "You named Ada and Ben twice."
    assert error.code == "twice" and error.params == {"names": ("Ada", "Ben")}
    # a code the host's tables do not have falls back to the engine's English
    assert refusal_text(Narrator("resistance", "fr"), error) == "You named Ada and Ben twice."


class NoAnswers:
    """A listener that must not be asked anything."""

    def listen(self, request: object) -> object:
        raise AssertionError("the host asked for a confirmation of a move it must refuse")

    def close(self) -> None:
        pass


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_move_whose_follow_up_is_illegal_is_refused_before_any_question(lang: str) -> None:
    """The session tries the move and its follow-ups on a copy first: nothing is asked,
    applied, saved or undoable, and the refusal is said in the game's language."""
    import io
    import random

    from voice_host.games.resistance import CastVote, ProposeTeam
    from voice_host.host.core.adapter import Decision, Prompt
    from voice_host.host.core.session import Session, SessionOptions
    from voice_host.host.core.values import Heard, HeardKind
    from voice_host.host.io.terminal import TextOutput
    from voice_host.intent import IntentMatch

    options = {"players": ["Ada", "Ben", "Cleo", "Dan", "Eve"], "lang": lang,
               "deal": "table", "seed": 1}
    from voice_host.host.core.registry import make_adapter, new_game

    state = new_game("resistance", options)
    rng = random.Random(1)
    while state.is_chance_node():  # the first leader is drawn
        state.apply(state.chance_action(rng))
    out = io.StringIO()
    session = Session(adapter=make_adapter("resistance", options), state=state, rng=rng,
                      output=TextOutput(out), listener=NoAnswers(),  # type: ignore[arg-type]
                      options=SessionOptions(confirm="auto"), game_options=options)
    leader = state.current_players()[0]
    before = state.to_json()
    mate = "Ben" if leader != "Ben" else "Ada"
    decision = Decision(action=ProposeTeam(leader, (leader, mate)),
                        then=(CastVote("Zoe", True),), confirm="the team")
    session.carry_out(decision, IntentMatch("propose_team", {}, 1.0, ""),
                      Prompt(lines=(), phase="team", expected=(leader,), key="k"),
                      Heard(HeardKind.SPEECH, text="x", spoken=True), leader)
    assert session.state.to_json() == before and not session.undo_stack
    expected = Narrator("resistance", lang).text("resistance.refusal.unknown_player", name="Zoe")
    assert out.getvalue().strip().endswith(expected)
