"""The answer to "Did you mean X, or Y?": the players name one reading ("the first one",
"the second", the word that tells them apart, "gold") or neither, or say the move again.
Until then nothing changes the game; the question lapses with its prompt or when another
command is understood."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.support.codenames_table import OPTS, Table, clue_word, dealt, table_session
from voice_host.host.adapters import make_adapter
from voice_host.host.core.adapter import Prompt
from voice_host.host.core.choice import PendingChoice, answer_or_drop
from voice_host.host.core.session import Session, Stop
from voice_host.host.core.values import Heard, HeardKind, Line
from voice_host.intent import IntentMatch, load_grammar
from voice_host.intent.grammar import CHOICE_WORD_LIST, GrammarError

RIVAL = "called"  # a clue word that is not on the seed-7 board (asserted below)


def _two(word: str, rival: str = RIVAL) -> Heard:
    """A clue heard two ways by a one-reading recognizer: "<word> one" or "<rival> one"."""
    return Heard(HeardKind.SPEECH, text=f"{word} one", spoken=True, speaker="Hannah",
                 confidence=0.95, alternatives=(f"{rival} one",))


def _said(text: str, speaker: str | None = "Hannah") -> Heard:
    return Heard(HeardKind.SPEECH, text=text, spoken=True, speaker=speaker, confidence=0.95)


def _play(tmp_path: Path, heard: Sequence[Heard]) -> tuple[Session, str, Table]:
    assert RIVAL not in dealt().words
    session, out, table = table_session(tmp_path, heard)
    assert session.run(fresh=True) is Stop.INPUT_ENDED
    return session, out.getvalue(), table


def _question(text: str) -> str:
    """The host's "Did you mean X, or Y?" line."""
    return next(line for line in text.splitlines() if "Did you mean" in line)


@pytest.mark.parametrize(("answer", "which"), [
    ("the first one", 0), ("first", 0), ("I meant the first", 0), ("the former", 0),
    ("the second one", 1), ("second", 1), ("the latter", 1),
    ("WORD", 0), ("I said WORD", 0), (RIVAL, 1), (f"the {RIVAL} one", 1),
])
def test_the_answer_names_one_reading(tmp_path: Path, answer: str, which: int) -> None:
    word = clue_word(dealt())
    session, text, table = _play(tmp_path, [_two(word), _said(answer.replace("WORD", word))])
    asked = _question(text)
    assert asked.index(word) < asked.index(RIVAL)  # the move in words, in the readings' order
    assert session.state.clue == ((word, 1), (RIVAL, 1))[which]
    # named by the players: no yes/no question about the words after it
    assert "Is that right?" not in text
    assert not [r for r in table.requests if r.purpose == "confirm"]


def test_neither_takes_no_move_and_says_what_is_awaited(tmp_path: Path) -> None:
    word = clue_word(dealt())
    session, text, _ = _play(tmp_path, [_two(word), _said("neither")])
    assert session.state.clue is None
    assert "All right, neither." in text


def test_the_move_said_again_is_taken_as_usual(tmp_path: Path) -> None:
    word = clue_word(dealt())
    session, _, _ = _play(tmp_path, [_two(word), _said(f"{word} one")])
    assert session.state.clue == (word, 1)


def test_table_talk_between_leaves_the_question_waiting(tmp_path: Path) -> None:
    word = clue_word(dealt())
    session, _, _ = _play(tmp_path, [_two(word), _said("hmm which one did I say"),
                                     _said("the second one")])
    assert session.state.clue == (RIVAL, 1)


def test_a_choice_word_is_no_command_once_the_question_has_lapsed(tmp_path: Path) -> None:
    """Another command understood ends the question: "second" then means nothing."""
    word = clue_word(dealt())
    session, _, _ = _play(tmp_path, [_two(word), _said("what's the score"),
                                     _said("the second one")])
    # a universal command keeps it waiting ...
    assert session.state.clue == (RIVAL, 1)
    session, text, _ = _play(tmp_path, [_two(word), _said("neither"), _said("the second one")])
    # ... an answer ends it
    assert session.state.clue is None


def test_repeat_asks_the_question_again(tmp_path: Path) -> None:
    word = clue_word(dealt())
    session, text, _ = _play(tmp_path, [_two(word), _said("say that again"), _said("first")])
    assert text.count(_question(text)) == 2
    assert session.state.clue == (word, 1)


def test_nothing_of_the_choice_is_heard_without_the_question() -> None:
    state = dealt()
    slots = make_adapter("codenames", OPTS).slot_values(state)
    grammar = load_grammar("codenames", "en")
    plain = grammar.phase("clue", slots)
    assert "choose" not in plain.intents
    best = plain.matcher.match("the first one").best
    assert best is None or best.intent != "choose"
    with pytest.raises(GrammarError):
        grammar.phase("choosing", slots)


def test_the_words_that_tell_two_readings_apart() -> None:
    a = IntentMatch("clue", {"word": "gold", "number": 1}, 1.0, "my clue is gold for one")
    b = IntentMatch("clue", {"word": "called", "number": 1}, 1.0, "my clue is called for one")
    words = PendingChoice("clue", (a, b), "Hannah", ()).words
    assert words.name == CHOICE_WORD_LIST
    assert [(v.value, v.spoken) for v in words.values] == [("first", ("gold",)),
                                                           ("second", ("called",))]
    # a reading with no word of its own is named by its place only
    c = IntentMatch("clue", {"word": "gold", "number": 1}, 1.0, "gold for one")
    d = IntentMatch("clue", {"word": "gold", "number": 1}, 1.0, "gold gold for one")
    assert [v.value for v in PendingChoice("clue", (c, d), None, ()).words.values] == []


@pytest.mark.parametrize(("answer", "picked"), [
    ("le premier", "Ada"), ("la première", "Ada"), ("le second", "Ben"),
    ("la deuxième", "Ben"), ("aucun des deux", None), ("ni l'un ni l'autre", None)])
def test_french_answers(answer: str, picked: str | None) -> None:
    grammar = load_grammar("resistance", "fr")
    a = IntentMatch("accuse", {"player": "Ada"}, 1.0, "ada")
    b = IntentMatch("accuse", {"player": "Ben"}, 1.0, "ben")
    choice = PendingChoice("accuse", (a, b), None, ())
    from voice_host.intent import SlotValues
    pg = grammar.phase("accuse", SlotValues(players=("Ada", "Ben", "Cleo"),
                                            lists=(choice.words,)), choosing=True)
    best = pg.matcher.match(answer).best
    assert best is not None and best.intent == "choose"
    got = choice.pick(best.slots["which"])
    assert (got.slots["player"] if got else None) == picked


def test_french_readings_are_said_in_the_game_s_words(tmp_path: Path) -> None:
    """The matcher folds "clé" to "cle"; the question says the move as the game does, with
    its accents, so the narrator does not read "cle" aloud."""
    import io
    import random

    from voice_host.host.adapters import new_game
    from voice_host.host.core.secrets import Delivery, Via
    from voice_host.host.core.session import SessionOptions
    from voice_host.host.core.store import EventLog
    from voice_host.host.io.terminal import TextOutput

    opts = {**OPTS, "lang": "fr", "words": "fr"}
    state = new_game("codenames", opts)
    state.apply(state.chance_action(random.Random(opts["seed"])))
    accented = sorted(w for w in state.words if any(c in w for c in "éèêàçô"))
    plain = sorted(w for w in state.words if w.isascii() and w != "ocean")
    assert accented and plain
    word, other = accented[0], plain[0]
    heard = [_said("océan deux"),
             Heard(HeardKind.SPEECH, text=f"je touche {word}", spoken=True, speaker="Thomas",
                   confidence=0.95, alternatives=(f"je touche {other}",)),
             _said("le premier", "Thomas")]
    out = io.StringIO()
    session = Session(adapter=make_adapter("codenames", opts, secret_sink=lambda line: Delivery(
        Via.COMPANION, "x")), state=new_game("codenames", opts), rng=random.Random(opts["seed"]),
        output=TextOutput(out), listener=Table(heard), options=SessionOptions(confirm="auto"),
        game_options=opts, log=EventLog(tmp_path / "log.jsonl"))
    session.run(fresh=True)
    text = out.getvalue()
    asked = next(line for line in text.splitlines() if "Vouliez-vous dire" in line)
    assert word in asked and other in asked, asked
    assert session.state.covered_colour(word) is not None  # the first reading was touched
    assert session.state.covered_colour(other) is None


class _Said:
    """The part of a session :func:`answer_or_drop` uses: what it says and logs."""

    def __init__(self, choice: PendingChoice | None) -> None:
        from voice_host.host.core.narration import Narrator

        self.choosing = choice
        self.narrator = Narrator("codenames", "en")
        self.said: list[str] = []
        self.logged: list[str] = []
        self.log = self

    def write(self, event: str, **fields: object) -> None:
        self.logged.append(event)

    def say(self, lines: Sequence[Line]) -> None:
        self.said.extend(line.text for line in lines)

    def reminder(self, prompt: Prompt) -> list[Line]:
        return list(prompt.lines)


def test_a_question_answered_twice_by_a_refusal_is_dropped_with_what_is_awaited() -> None:
    """"neither" heard as "alpha" twice: the refusal once, then the question is dropped
    (said, with what the host waits for) instead of staying open for ever."""
    reading = IntentMatch("give_clue", {"word": "ocean", "number": 1}, 0.9, "ocean one")
    other = IntentMatch("give_clue", {"word": "called", "number": 1}, 0.9, "called one")
    prompt = Prompt(lines=(Line("Hannah: your clue."),), phase="clue", expected=("Hannah",),
                    key="clue")
    s = _Said(PendingChoice("clue", (reading, other), "Hannah", (Line("Did you mean?"),)))
    refusal = [Line("There is no icon called alpha.")]
    answer_or_drop(s, prompt, refusal)  # type: ignore[arg-type]
    assert s.said == ["There is no icon called alpha."] and s.choosing is not None
    answer_or_drop(s, prompt, refusal)  # type: ignore[arg-type]
    assert s.choosing is None and s.logged == ["choice_dropped"]
    assert s.said[1:] == ["Let's leave that question.", "Hannah: your clue."]
    # no question waiting (or one asked in another phase): the reply as it is
    s = _Said(None)
    answer_or_drop(s, prompt, refusal)  # type: ignore[arg-type]
    assert s.said == ["There is no icon called alpha."]
