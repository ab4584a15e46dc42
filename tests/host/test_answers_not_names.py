"""Answers are not names: "hit", "miss", "yes", "no", "touché", "raté" are never read as an
icon, a board word or a player, and an answer said to a question it does not answer gets
that question again, aloud (in both languages)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import scripted
from tests.support.ici_londres_table import PLAYERS3, options, play
from voice_host.host.core.registry import registration
from voice_host.intent import Matcher, SlotValues, load_grammar


@pytest.mark.parametrize(("game", "phase", "lang"), [
    ("ici-londres", "guess", "en"), ("ici-londres", "guess", "fr"),
    ("codenames", "guess", "en"), ("codenames", "guess", "fr"),
    ("resistance", "team", "en"), ("resistance", "accuse", "fr"),
])
def test_answer_words_are_never_values(game: str, phase: str, lang: str) -> None:
    reg = registration(game)
    board = ("mist", "hint", "kiss", "ratio", "touch", "note", "yes", "piano", "castle")
    players = ("Mia", "Misha", "Noah", "Yves", "Hilda", "Tom", "Rafa")
    values = SlotValues(players=players, speaker="Tom",
                        lists=reg.example_lists(lang, board_word=board))
    matcher = Matcher(load_grammar(reg.grammar_name, lang).phase(phase, values))
    words = {"en": ["miss", "missed", "hit", "no", "nope", "yeah", "the miss"],
             "fr": ["raté", "touché", "oui", "non", "manqué", "trouvé", "le raté"]}[lang]
    for word in words:
        readings = matcher.match(word).alternatives
        assert not [r for r in readings if r.intent in ("pick", "propose_team", "accuse",
                                                        "guess")], (word, readings)


def test_miss_at_an_icon_prompt_is_no_mouse_and_the_question_comes_again(
        tmp_path: Path) -> None:
    run = play(tmp_path, options(players=PLAYERS3, deal="table"),
               ["Love", "miss", "heart", "hit"])
    picks = [a for a in run.actions() if a["type"] == "Pick"]
    assert [p["icons"] for p in picks] == [["heart"]]  # never the mouse
    after = run.text.split("\nHOST: That sounds like an answer", 1)
    assert len(after) == 2, run.text
    assert "but I did not ask a yes-or-no question." in after[1].splitlines()[0]
    judged = [a for a in run.actions() if a["type"] == "JudgePick"]
    assert judged == [{"type": "JudgePick", "player": "Ada", "icon": "heart", "hit": True}]


def test_hit_to_the_hosts_yes_or_no_question_gets_the_question_again(tmp_path: Path) -> None:
    run = play(tmp_path, options(players=PLAYERS3, deal="table"),
               ["Love", "maybe the bell", "hit", "no", "heart", "hit"], confirm="auto")
    picks = [a["icons"] for a in run.actions() if a["type"] == "Pick"]
    assert picks == [["heart"]]  # the bell was not taken on "hit"
    assert "Hit or miss answers a guess; here I need a yes or a no." in run.text


def test_french_rate_and_touche(tmp_path: Path) -> None:
    run = play(tmp_path, options(players=PLAYERS3, deal="table", lang="fr"),
               ["Amour", "raté", "peut-être la cloche", "touché", "non", "le cœur", "touché"],
               confirm="auto")
    picks = [a["icons"] for a in run.actions() if a["type"] == "Pick"]
    assert picks == [["heart"]]
    assert "On dirait une réponse, mais je n'ai pas posé de question par oui ou par non." \
        in run.text
    assert "Touché ou raté répond à une proposition ; ici, il me faut un oui ou un non." \
        in run.text


@pytest.mark.parametrize(("lang", "said", "says"), [
    ("en", "yes", "That sounds like an answer, but I did not ask a yes-or-no question."),
    ("fr", "non", "On dirait une réponse, mais je n'ai pas posé de question par oui ou par "
                  "non."),
])
def test_yes_to_a_how_many_question_gets_the_question_again(
        tmp_path: Path, lang: str, said: str, says: str) -> None:
    opts = {"deal": "table", "lang": lang, "players": ["Ada", "Ben", "Cleo", "Dan", "Eve"],
            "double_agent": True, "first": "Ada", "votes": "together", "seed": 7}
    moves = ["Ada and Ben", "everyone yes"] if lang == "en" else \
        ["Ada et Ben", "tout le monde oui"]
    run = scripted.run_script(tmp_path, "resistance", opts, [*moves, said])
    assert says in run.text
    again = run.text.split(says, 1)[1]
    asked = ("Ada, tell me how many sabotage cards" if lang == "en" else
             "Ada, dites-moi combien de cartes sabotage")
    assert asked in again.split("\n", 2)[1]  # the question again, right after
    assert run.state.phase() == "mission"  # nothing taken
