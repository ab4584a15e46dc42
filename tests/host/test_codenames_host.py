"""The Codenames host: scripted games through the real Session (host and table mode), clue
validation with its reason, refusals that change nothing, undo, penalty, resume, the CLI, and
the demo players."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.support.codenames_game import (
    dealt,
    key_of,
    options,
    play,
    valid_clues,
)
from tests.support.scripted import game_over_of
from voice_host.games.codenames import CodenamesState, Colour, Team
from voice_host.games.codenames_words import WORD_LISTS
from voice_host.host.adapters import make_adapter, new_game
from voice_host.host.adapters.codenames.bots import DEMO_CLUES, UNHEARD_CLUES
from voice_host.host.core.confirm import PLAIN_RECOGNIZER
from voice_host.host.core.registry import registration
from voice_host.host.core.secrets import Delivery, Via
from voice_host.host.core.session import Session, SessionOptions, Stop
from voice_host.host.core.store import load_game, rng_from_json
from voice_host.host.core.values import Heard, HeardKind, Line, ListenRequest
from voice_host.host.io.terminal import ScriptListener, TextOutput
from voice_host.intent import Matcher, load_grammar


def red_sweep(state: CodenamesState) -> list[str]:
    """Red finds all nine agents on one unlimited clue."""
    k = key_of(state)
    clue = valid_clues(state)[0]
    return [f"Hannah: {clue} unlimited", *[f"Thomas: guess {w}" for w in k[Colour.RED]]]


# --------------------------------------------------------------------------- host mode games


@pytest.mark.parametrize("confirm", ["never", "auto"])
def test_host_mode_red_wins_by_finding_all_agents(tmp_path: Path, confirm: str) -> None:
    opts = options(first="red")
    state = dealt(opts)
    run = play(tmp_path, opts, red_sweep(state), confirm=confirm)
    assert run.stop is Stop.FINISHED
    over = run.game_over()
    assert over["winner"] == ["red"] and over["scores"] == {"red": 9, "blue": 0}
    assert over["reason"] == "all_agents_found"
    assert "The red team has found all its agents. Red wins!" in run.text
    assert "(game over)" in run.text and run.text.count("(hit)") == 9
    # the key went to the two spymasters only, never to the table
    assert set(run.secrets) == {"Hannah", "Sophie"}
    assert all(w in " ".join(run.secrets["Sophie"]) for w in key_of(state)[Colour.BLUE])
    assert "Assassin:" not in run.text
    assert "Hannah and Sophie: your secrets are in the files with your names" in run.text
    assert "secret-Hannah.txt" not in run.text


def test_host_mode_grid_is_read_by_row(tmp_path: Path) -> None:
    opts = options(first="blue")
    state = dealt(opts)
    run = play(tmp_path, opts, [])
    assert run.stop is Stop.INPUT_ENDED
    rows = state.rows()
    assert f"Row one: {', '.join(rows[0])}." in run.text
    assert f"Row five: {', '.join(rows[4])}." in run.text
    assert "The blue team starts, with nine agents to find." in run.text
    assert "Sophie, blue spymaster: your clue, one word and a number." in run.text


def test_assassin_loses_the_game_for_the_team_that_touches_it(tmp_path: Path) -> None:
    opts = options(first="blue", seed=11)
    state = dealt(opts)
    k = key_of(state)
    clue = valid_clues(state)[0]
    script = [f"Sophie: my clue is {clue} for two", f"Oliver: we'll go with {k[Colour.BLUE][0]}",
              f"Oliver: {k[Colour.ASSASSIN][0]}"]
    run = play(tmp_path, opts, script)
    over = run.game_over()
    assert over["winner"] == ["red"] and over["reason"] == "assassin"
    assert over["scores"] == {"red": 0, "blue": 1}
    assert f"{k[Colour.ASSASSIN][0].capitalize()} is the assassin!" in run.text
    assert "The blue team touched the assassin, so the red team wins!" in run.text


def test_the_other_teams_mistake_can_hand_over_the_win(tmp_path: Path) -> None:
    opts = options(first="red", seed=3)
    state = dealt(opts)
    k = key_of(state)
    reds, blues = k[Colour.RED], k[Colour.BLUE]
    c1, c2 = valid_clues(state)[:2]
    script = [f"Hannah: {c1} eight", *[f"Thomas: {w}" for w in reds[:8]], "Thomas: we're done",
              f"Sophie: {c2} two", f"Oliver: guess {blues[0]}", f"Oliver: guess {reds[8]}"]
    run = play(tmp_path, opts, script)
    over = run.game_over()
    assert over["winner"] == ["red"] and over["reason"] == "all_agents_found"
    assert over["scores"] == {"red": 9, "blue": 1}
    assert "The blue team uncovered the last red agent, so the red team wins!" in run.text
    assert "The red team stops guessing." in run.text


def test_turns_change_on_a_miss_and_when_guesses_run_out(tmp_path: Path) -> None:
    opts = options(first="red", seed=5)
    state = dealt(opts)
    k = key_of(state)
    c1, c2 = valid_clues(state)[:2]
    script = [f"Hannah: {c1} one", f"Thomas: {k[Colour.RED][0]}", f"Thomas: {k[Colour.RED][1]}",
              f"Sophie: {c2} two", f"Oliver: {k[Colour.NEUTRAL][0]}"]
    run = play(tmp_path, opts, script)
    assert "You have two guesses." in run.text
    assert "One guess left, or say pass." in run.text
    assert "That was the red team's last guess." in run.text
    assert f"{k[Colour.NEUTRAL][0].capitalize()} is an innocent bystander." in run.text
    assert "The blue turn is over." in run.text
    assert run.text.count("(turn)") == 3  # red, blue, red again
    assert run.state.phase() == "clue" and run.state.current_team is Team.RED


# --------------------------------------------------------------------------- table mode games


def test_table_mode_spymasters_state_colours_and_red_wins(tmp_path: Path) -> None:
    opts = options(deal="table", first="red", seed=21)
    state = dealt(opts)
    words = list(state.words)
    c1, c2, c3 = valid_clues(state)[:3]
    script = [f"Hannah: {c1} two", f"Thomas: guess {words[0]}", "Hannah: red",
              f"Thomas: {words[1]}", "Hannah: it's red", "Thomas: pass",
              f"Sophie: {c2} one", f"Oliver: {words[2]}", "Sophie: that one is red",
              f"Hannah: {c3} unlimited"]
    for w in words[3:9]:
        script += [f"Thomas: {w}", "Hannah: red"]
    run = play(tmp_path, opts, script)
    over = run.game_over()
    assert over["winner"] == ["red"] and over["scores"] == {"red": 9, "blue": 0}
    assert f"Hannah, what colour is {words[0]}?" in run.text
    assert "Spymasters: choose a key card with red lights on its edges" in run.text
    assert "Lay the words out in five rows of five" in run.text
    assert "The blue team uncovered the last red agent" not in run.text
    assert run.secrets == {}  # no key is dealt in table mode


def test_table_mode_assassin_is_confirmed_and_colour_counts_are_checked(
        tmp_path: Path) -> None:
    opts = options(deal="table", first="blue", seed=4)
    state = dealt(opts)
    words = list(state.words)
    c1 = valid_clues(state)[0]
    script = [f"Sophie: {c1} two", f"Oliver: {words[0]}",
              "Hannah: blue",                      # not the spymaster who must answer
              "Sophie: assassin", "no",            # refused at the confirmation
              "Sophie: neutral",
              f"Hannah: {valid_clues(state)[1]} one", f"Thomas: {words[1]}",
              "Hannah: the assassin", "yes"]
    run = play(tmp_path, opts, script, confirm="auto")
    assert "Hannah, only Sophie can see the key." in run.text
    assert f"I heard: {words[0]} is the assassin. Is that right?" in run.text
    assert "All right, I have not done anything." in run.text
    over = run.game_over()
    assert over["winner"] == ["blue"] and over["reason"] == "assassin"


def test_table_mode_a_colour_beyond_the_key_counts_is_refused(tmp_path: Path) -> None:
    opts = options(deal="table", first="red", seed=8)
    state = dealt(opts)
    words = list(state.words)
    clues = valid_clues(state, 2)
    script: list[str] = []
    for turn in range(8):  # seven bystanders, then an eighth stated
        team = Team.RED if turn % 2 == 0 else Team.BLUE
        spymaster, operative = state.team_players(team)
        script += [f"{spymaster}: {clues[turn % 2]} one", f"{operative}: {words[turn]}",
                   f"{spymaster}: neutral"]
    script.append("Sophie: it's red")
    run = play(tmp_path, opts, script)
    assert "All 7 bystanders are already covered." in run.text
    s = run.state
    assert s.covered_count(Colour.NEUTRAL) == 7 and s.covered_colour(words[7]) is Colour.RED
    assert s.phase() == "clue" and s.current_team is Team.RED


# --------------------------------------------------------------------------- refusals


def test_invalid_clue_is_refused_with_its_reason_and_nothing_changes(tmp_path: Path) -> None:
    opts = options(first="red", seed=9)
    state = dealt(opts)
    board_word = next(w for w in state.words if " " not in w and "-" not in w)
    plural = board_word + "s"
    script = [f"Hannah: {plural} two", f"Hannah: {board_word} one"]
    run = play(tmp_path, opts, script)
    assert run.stop is Stop.INPUT_ENDED
    assert f"Not allowed: {plural.capitalize()} is just {board_word} with a different ending." \
        in run.text
    assert f"Not allowed: {board_word.capitalize()} is on the board." in run.text
    assert "Hannah, another clue please." in run.text
    assert [a["action"]["type"] for a in run.events("action")] == ["DealGrid"]
    assert run.state.phase() == "clue" and run.state.clues == ()
    assert run.state.to_json() == dealt(opts).to_json()


@pytest.mark.parametrize(("lang", "script", "said"), [
    ("en", ["Hannah: ice cream 2", "Hannah: sea monster two", "Hannah: my clue is sea monster "
            "for two", "Hannah: seven two", "Hannah: ocean", "Hannah: the clue is ocean"],
     ["A clue is one word, and ice cream is two. Hannah, one word and a number, please.",
      "A clue is one word, and sea monster is two.",
      "Number words are not allowed as clues: seven cannot be told from the number by ear.",
      "Say a number too, Hannah: ocean for how many words?"]),
    ("fr", ["Hannah: glace vanille deux", "Hannah: pomme de terre deux", "Hannah: sept deux",
            "Hannah: océan"],
     ["Un indice, c'est un seul mot, et glace vanille en fait deux.",
      "Un indice, c'est un seul mot, et pomme de terre en fait trois.",
      "Les nombres ne sont pas permis comme indice : on ne distingue pas sept du nombre",
      "Dites aussi un nombre, Hannah : océan, pour combien de mots ?"]),
])
def test_a_clue_that_is_not_one_word_and_a_number_gets_its_reason(
        tmp_path: Path, lang: str, script: list[str], said: list[str]) -> None:
    opts = options(first="red", seed=9, lang=lang, words=lang)
    run = play(tmp_path, opts, script)
    for sentence in said:
        assert sentence in run.text
    assert "not a command I know" not in run.text and "pas une commande" not in run.text
    assert run.state.clues == () and run.state.to_json() == dealt(opts).to_json()
    assert [a["action"]["type"] for a in run.events("action")] == ["DealGrid"]


def test_a_malformed_clue_from_another_player_is_answered_as_the_wrong_speaker(
        tmp_path: Path) -> None:
    run = play(tmp_path, options(first="red", seed=9), ["Thomas: ice cream 2"])
    assert "Thomas, only Hannah, the red spymaster, gives the clue now." in run.text


def test_bad_guesses_are_refused_and_change_nothing(tmp_path: Path) -> None:
    opts = options(first="red", seed=13)
    state = dealt(opts)
    k = key_of(state)
    first = k[Colour.RED][0]
    off_board = next(w for w in WORD_LISTS["en"] if w not in state.words and " " not in w
                     and all(not w.startswith(b[:4]) for b in state.words))
    script = [f"Hannah: {valid_clues(state)[0]} three",
              "Thomas: pass",                        # before any guess
              f"Sophie: {k[Colour.BLUE][0]}",        # other team
              f"Hannah: {first}",                    # the spymaster
              f"Thomas: {first}",
              f"Thomas: guess {first}",              # covered now
              f"Thomas: {off_board}",                # not on the board
              "Zed: pass"]                           # unknown player, one operative awaited
    run = play(tmp_path, opts, script)
    text = run.text
    assert "You must touch at least one word before passing." in text
    assert "Sophie, it is the red team's turn to guess." in text
    assert "Hannah, spymasters don't guess. Thomas, which word?" in text
    assert f"{first.capitalize()} is already covered: it is red." in text
    # the word off the board, from Thomas, who was asked: said to be off the board
    assert "that was not a command I know" not in text
    assert f"HOST: {off_board} is not on the board.\n" in text
    assert not run.events("ignored") and run.events("refused")
    assert "Zed" in text.splitlines()[-2]  # the unknown name is answered, nothing applied
    s = run.state
    assert s.phase() == "guess" and s.guesses_made == 1 and len(s.uncovered_words()) == 24
    assert len(run.events("action")) == 3  # deal, clue, one guess


def test_wrong_speaker_for_the_clue_is_refused(tmp_path: Path) -> None:
    opts = options(first="red", seed=2)
    state = dealt(opts)
    run = play(tmp_path, opts, [f"Thomas: {valid_clues(state)[0]} two",
                                f"Sophie: {valid_clues(state)[1]} two"])
    assert "Thomas, only Hannah, the red spymaster, gives the clue now." in run.text
    assert "Sophie, only Hannah, the red spymaster, gives the clue now." in run.text
    assert run.state.clues == ()


def test_a_guess_is_the_operative_who_spoke_or_the_team_and_the_engine_judges_who(
        tmp_path: Path) -> None:
    opts = options(first="red", seed=2, red=["Hannah", "Thomas", "Emma"])
    state = dealt(opts)
    k = key_of(state)
    clue = valid_clues(state)[0]
    run = play(tmp_path, opts, [f"Hannah: {clue} three", f"Hannah: {k[Colour.RED][0]}",
                                f"Oliver: {k[Colour.RED][0]}", f"Emma: {k[Colour.RED][0]}",
                                k[Colour.RED][1]])
    # the spymaster and the other team are refused by the engine, with its codes
    refused = [(e["code"], e["action"]["player"]) for e in run.events("refused")]
    assert refused == [("spymaster_cannot_guess", "Hannah"), ("other_team_guesses", "Oliver")]
    assert "Hannah, spymasters don't guess. Thomas and Emma, which word?" in run.text
    assert "Oliver, it is the red team's turn to guess." in run.text
    guesses = [e["action"] for e in run.events("action") if e["action"]["type"] == "Guess"]
    # Emma guessed by name; the unnamed voice speaks for the team (its first operative)
    assert [g["player"] for g in guesses] == ["Emma", "Thomas"]


def test_undo_of_a_guess_with_confirmation(tmp_path: Path) -> None:
    opts = options(first="red", seed=17)
    state = dealt(opts)
    k = key_of(state)
    reds = k[Colour.RED]
    clue = valid_clues(state)[0]
    script = [f"Hannah: {clue} unlimited", f"Thomas: {reds[0]}",
              f"Thomas: {k[Colour.NEUTRAL][0]}",      # a miss: blue's turn now
              "Sophie: undo", "yes",                  # the table takes it back
              *[f"Thomas: {w}" for w in reds[1:]]]
    run = play(tmp_path, opts, script, confirm="auto")
    miss = k[Colour.NEUTRAL][0]
    # the question and the answer say which move: the one taken back
    assert f"Undo the last move: the red team touches {miss}?" in run.text
    assert f"Done, I took back the last move: the red team touches {miss}." in run.text
    over = run.game_over()
    assert over["winner"] == ["red"] and over["scores"] == {"red": 9, "blue": 0}
    assert [e["move"] for e in run.events("undo")] == [f"the red team touches {miss}"]
    assert run.state.covered_colour(k[Colour.NEUTRAL][0]) is None


def test_undo_refused_at_the_confirmation_keeps_the_guess(tmp_path: Path) -> None:
    opts = options(first="red", seed=17)
    state = dealt(opts)
    k = key_of(state)
    script = [f"Hannah: {valid_clues(state)[0]} two", f"Thomas: {k[Colour.RED][0]}",
              "Thomas: undo", "no"]
    run = play(tmp_path, opts, script, confirm="auto")
    assert run.state.covered_colour(k[Colour.RED][0]) is Colour.RED
    assert run.events("undo") == []


# --------------------------------------------------------------------------- penalty option


def test_penalty_option_ends_the_turn_and_the_other_spymaster_covers_a_word(
        tmp_path: Path) -> None:
    opts = options(first="red", seed=19, invalid_clue="penalty")
    state = dealt(opts)
    k = key_of(state)
    board_word = next(w for w in state.words if " " not in w and "-" not in w)
    script = [f"Hannah: {board_word} two",
              f"Sophie: {k[Colour.RED][0]}",       # not a blue word: refused
              "Sophie: pass",                      # the penalty needs a word
              f"Sophie: {k[Colour.BLUE][0]}"]
    run = play(tmp_path, opts, script)
    text = run.text
    assert f"{board_word.capitalize()} is not a valid clue: {board_word.capitalize()} is on " \
           "the board. The red turn ends at once." in text
    assert "Sophie, blue spymaster: as the penalty, cover one of your blue words." in text
    assert f"{k[Colour.RED][0].capitalize()} is not a blue word: name one of your own blue " \
           "words." in text
    assert "Sophie, the penalty needs one of your blue words." in text
    assert f"Sophie covers {k[Colour.BLUE][0]} with a blue agent." in text
    s = run.state
    assert s.phase() == "clue" and s.current_team is Team.BLUE and s.remaining(Team.BLUE) == 7


def test_penalty_invalid_clue_is_confirmed_in_auto_mode(tmp_path: Path) -> None:
    opts = options(first="red", seed=19, invalid_clue="penalty")
    state = dealt(opts)
    board_word = next(w for w in state.words if " " not in w and "-" not in w)
    run = play(tmp_path, opts, [f"Hannah: {board_word} two", "no"], confirm="auto")
    assert "which is not allowed and ends the red turn. Is that right?" in run.text
    assert run.state.phase() == "clue" and run.state.current_team is Team.RED


# --------------------------------------------------------------------------- universal commands


def test_board_score_status_and_clues_on_request(tmp_path: Path) -> None:
    opts = options(first="red", seed=23)
    state = dealt(opts)
    k = key_of(state)
    clue = valid_clues(state)[0]
    guessed = k[Colour.RED][0]
    script = [f"Hannah: {clue} two", f"Thomas: {guessed}", "Thomas: read the board",
              "Thomas: score", "Thomas: status", "Thomas: help"]
    run = play(tmp_path, opts, script)
    text = run.text
    rows = state.rows()
    row_of = next(i for i, r in enumerate(rows) if guessed in r)
    said_row = ", ".join(f"{w} (covered: red)" if w == guessed else w for w in rows[row_of])
    assert f"Row {['one', 'two', 'three', 'four', 'five'][row_of]}: {said_row}." in text
    assert "Still to find: red 8, blue 8. 24 words are still uncovered." in text
    assert "Agents left to find: red 8, blue 8. Found so far: red 1, blue 0." in text
    assert f"The red team is guessing. The clue is {clue}, two. Two guesses left, or say " \
           "pass." in text
    assert "You can say, for example:" in text
    adapter = run.session.adapter
    assert adapter.tried(run.state)[0].text == f"Clues so far: red {clue} two."


# --------------------------------------------------------------------------- resume and CLI


def test_resume_in_the_middle_gives_the_same_rest_of_game(tmp_path: Path) -> None:
    opts = options(first="blue", seed=29)
    state = dealt(opts)
    k = key_of(state)
    c1, c2 = valid_clues(state)[:2]
    script = [f"Sophie: {c1} two", f"Oliver: {k[Colour.BLUE][0]}",
              f"Oliver: {k[Colour.RED][0]}", f"Hannah: {c2} unlimited",
              *[f"Thomas: {w}" for w in k[Colour.RED][1:]]]
    whole = play(tmp_path, opts, script, name="whole")
    assert whole.game_over()["winner"] == ["red"]
    first_part = play(tmp_path, opts, script[:3], name="part")
    assert first_part.stop is Stop.INPUT_ENDED
    saved = load_game(tmp_path / "part.json")
    rest = tmp_path / "rest.txt"
    rest.write_text("\n".join(script[3:]) + "\n", encoding="utf-8")
    rng = random.Random()
    rng.setstate(rng_from_json(saved.rng))
    out = io.StringIO()
    adapter = make_adapter("codenames", saved.options)
    adapter.host_state.update(saved.host_state)
    session = Session(adapter=adapter, state=CodenamesState.from_json(saved.state), rng=rng,
                      output=TextOutput(out), listener=ScriptListener(rest),
                      options=SessionOptions(confirm="never"), game_options=saved.options,
                      saved=saved.record())
    assert session.run(fresh=False) is Stop.FINISHED
    assert session.state.to_json() == whole.state.to_json()
    assert "Welcome back." in out.getvalue()


def test_cli_play_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    from voice_host.cli import main

    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    opts = options(first=None, seed=31)
    state = dealt(opts)
    k = key_of(state)
    first = state.first
    assert first is not None
    spymaster = state.spymaster(first)
    operative = state.operatives(first)[0]
    clue = valid_clues(state)[0]
    script = tmp_path / "script.txt"
    script.write_text("\n".join([f"{spymaster}: {clue} unlimited",
                                 *[f"{operative}: {w}" for w in k[Colour(first.value)]]]),
                      encoding="utf-8")
    log = tmp_path / "log.jsonl"
    save = tmp_path / "game.json"
    code = main(["play", "codenames", "--red", "Hannah,Thomas", "--blue", "Sophie,Oliver",
                 "--deal", "host", "--input", "text", "--script", str(script), "--output",
                 "text", "--confirm", "never", "--seed", "31", "--log", str(log),
                 "--save", str(save)])
    assert code == 0
    last = game_over_of([json.loads(line) for line in
                         log.read_text(encoding="utf-8").splitlines()])
    assert last == {"event": "game_over", "winner": [first.value],
                    "scores": {first.value: 9, first.other.value: 0},
                    "reason": "all_agents_found"}
    printed = capsys.readouterr().out
    assert "Row one:" in printed and "Assassin:" not in printed
    secret = tmp_path / "game-secrets" / "secret-Hannah.txt"
    assert secret.is_file()
    assert k[Colour.ASSASSIN][0] in secret.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- demo players


class BotListener:
    """Demo players typed straight into the matcher (no audio): every utterance must be
    understood and legal for the game to finish."""

    def __init__(self, adapter: Any, rng: random.Random, yes: str = "yes") -> None:
        self.adapter = adapter
        self.rng = rng
        self.yes = yes
        self.session: Session | None = None
        self.said: list[tuple[str, str]] = []

    def listen(self, request: ListenRequest) -> Heard:
        assert self.session is not None
        if len(self.said) > 600:
            return Heard(HeardKind.END)
        if request.purpose == "confirm":
            return Heard(HeardKind.SPEECH, text=self.yes)
        speaker, text = registration(self.adapter.game).bots(
            self.adapter, self.session.state, request.prompt, self.rng)
        self.said.append((speaker, text))
        return Heard(HeardKind.SPEECH, text=text, speaker=speaker)

    def close(self) -> None:
        pass


def bot_game(deal: str, seed: int, lang: str = "en"
             ) -> tuple[Stop, str, list[tuple[str, str]]]:
    opts = options(deal=deal, seed=seed, lang=lang, words=lang)
    adapter = make_adapter("codenames", opts,
                           secret_sink=lambda line: Delivery(Via.COMPANION, "x"))
    bots = BotListener(adapter, random.Random(seed + 100), "oui" if lang == "fr" else "yes")
    out = io.StringIO()
    session = Session(adapter=adapter, state=new_game("codenames", opts),
                      rng=random.Random(seed), output=TextOutput(out, lang=lang), listener=bots,
                      options=SessionOptions(confirm="auto"), game_options=opts)
    bots.session = session
    stop = session.run(fresh=True)
    return stop, out.getvalue(), bots.said


@pytest.mark.parametrize(("deal", "seed"), [("host", 1), ("host", 2), ("table", 4)])
def test_demo_players_finish_a_game_with_every_utterance_accepted(deal: str, seed: int) -> None:
    stop, text, said = bot_game(deal, seed)
    assert stop is Stop.FINISHED
    for refusal in ("Not allowed", "not a command I know", "I did not catch", "already covered",
                    "before passing", "does not fit"):
        assert refusal not in text
    assert said


def test_demo_games_show_hits_misses_passes_and_varied_phrasing() -> None:
    texts: list[str] = []
    said: list[str] = []
    for seed in (1, 2, 3):
        _stop, text, lines = bot_game("host", seed)
        texts.append(text)
        said.extend(t for _s, t in lines)
    text = "\n".join(texts)
    assert "(hit)" in text and "(miss)" in text and "stops guessing" in text
    assert "is the assassin" not in text  # demo operatives never touch the assassin
    assert len({s.split()[0] for s in said}) >= 5  # not one phrasing for everything


def test_demo_clue_words_are_valid_and_phrases_parse() -> None:
    grammar = load_grammar("codenames", "en")
    for seed in range(6):
        opts = options(seed=seed)
        state = dealt(opts)
        adapter = make_adapter("codenames", opts)
        prompt = adapter.prompt(state)
        assert prompt is not None and prompt.phase == "clue"
        pg = grammar.phase("clue", adapter.slot_values(state))
        speaker, text = registration(adapter.game).bots(
            adapter, state, prompt, random.Random(seed))
        assert speaker == state.spymaster(state.current_team)
        match = Matcher(pg).match(text, speaker=speaker).best
        assert match is not None and match.intent == "clue", text
        assert state.clue_problem(str(match.slots["word"])) is None
        assert match.slots["number"] in (1, 2)


FRENCH_NUMBERS = {"un": 1, "deux": 2}


def test_a_french_spymaster_gives_its_clue_in_french_and_the_french_grammar_reads_it() -> None:
    grammar = load_grammar("codenames", "fr")
    said: list[str] = []
    for seed in range(12):
        opts = options(seed=seed, lang="fr", words="fr")
        state = dealt(opts)
        adapter = make_adapter("codenames", opts)
        prompt = adapter.prompt(state)
        assert prompt is not None and prompt.phase == "clue"
        speaker, text = registration(adapter.game).bots(
            adapter, state, prompt, random.Random(seed))
        said.append(text)
        number = FRENCH_NUMBERS[text.split()[-1]]  # the clue's number, said in French
        clue = [w for w in DEMO_CLUES["fr"] if w in text.replace(",", " ").split()]
        assert len(clue) == 1, text  # one clue word, one of the French demo words
        match = Matcher(grammar.phase("clue", adapter.slot_values(state))).match(
            text, speaker=speaker).best
        assert match is not None and (match.intent, match.slots["number"]) == ("clue", number)
        assert match.slots["word"] == clue[0], text
        assert state.clue_problem(clue[0]) is None
    assert not any(english in " ".join(said).split()
                   for english in ("clue", "for", "one", "two", "is", "my", "the"))
    assert len({s.split()[0] for s in said}) >= 3  # several phrasings


def test_every_french_clue_phrasing_reads_every_clue_word_a_bot_may_give() -> None:
    from voice_host.games.codenames_words import WORD_LISTS
    from voice_host.host.core.narration import catalogue
    from voice_host.text import lookup_key

    opts = options(seed=3, lang="fr", words="fr")
    state = dealt(opts)
    matcher = Matcher(load_grammar("codenames", "fr").phase(
        "clue", make_adapter("codenames", opts).slot_values(state)))
    phrasings = catalogue("fr", "codenames")["codenames.bot.clue"]
    words = [w for w in (*DEMO_CLUES["fr"], *WORD_LISTS["fr"]) if " " not in w
             and "-" not in w and w not in UNHEARD_CLUES["fr"]]
    for phrasing in phrasings:
        for word in words:
            match = matcher.match(phrasing.format(word=word, number="deux"),
                                  speaker="Hannah").best
            assert match is not None and match.intent == "clue", (phrasing, word)
            assert (lookup_key(str(match.slots["word"])), match.slots["number"]) == (
                lookup_key(word), 2), (phrasing, word)


def test_french_demo_players_finish_a_game_in_french_with_every_utterance_accepted() -> None:
    stop, text, said = bot_game("host", 3, "fr")
    assert stop is Stop.FINISHED
    for refusal in ("Pardon", "pas compris", "pas saisi", "déjà couvert", "Refusé"):
        assert refusal not in text
    words = " ".join(t for _s, t in said).split()
    assert "on" in words and not {"guess", "clue", "pass", "done"} & set(words)


# --------------------------------------------------------------------------- WAV lines


@pytest.mark.parametrize("confidence", [0.85, 0.97])
def test_wav_script_lines_go_through_the_recognizer_with_each_phase_grammar(
        tmp_path: Path, confidence: float) -> None:
    import numpy as np

    from voice_host.host.io.listening import PhaseEars
    from voice_host.speech.fakes import ScriptedRecognizer
    from voice_host.speech.wav import write_wav

    opts = options(first="red", seed=37)
    state = dealt(opts)
    k = key_of(state)
    clue = valid_clues(state)[0]
    heard = [f"the clue is {clue} unlimited", *[f"guess {w}" for w in k[Colour.RED]]]
    tone = (np.sin(np.arange(8000) * 0.05) * 3000).astype(np.int16)
    script_lines = []
    for i, _text in enumerate(heard):
        wav = tmp_path / f"u{i}.wav"
        write_wav(wav, tone)
        who = 'Hannah' if i == 0 else 'Thomas'
        script_lines.append(f"{who}: {wav.name}")
        if confidence < PLAIN_RECOGNIZER:
            # a clue or a guess heard with less than plain confidence is confirmed: neither
            # can be taken back once the table heard it
            script_lines.append(f"{who}: yes")
    script = tmp_path / "wav-script.txt"
    script.write_text("\n".join(script_lines) + "\n", encoding="utf-8")
    recognizer = ScriptedRecognizer(heard, confidence=confidence)
    ears = PhaseEars(recognizer)
    out = io.StringIO()
    adapter = make_adapter("codenames", opts,
                           secret_sink=lambda line: Delivery(Via.COMPANION, "x"))
    session = Session(adapter=adapter,
                      state=new_game("codenames", opts), rng=random.Random(opts["seed"]),
                      output=TextOutput(out),
                      listener=ScriptListener(script, decode_wav=ears.decode_wav),
                      options=SessionOptions(confirm="auto"), game_options=opts)
    assert session.run(fresh=True) is Stop.FINISHED
    outcome = session.state.outcome()
    assert outcome is not None and outcome.winners == ("red",)
    assert ("I heard: Hannah gives the clue" in out.getvalue()) is (
        confidence < PLAIN_RECOGNIZER)
    assert len(recognizer.audio) == len(heard)
    names = [g.name for g in recognizer.grammars]
    assert names[0] == "codenames.clue" and "codenames.guess" in names
    clue_grammar = recognizer.grammars[0]
    guess_grammar = next(g for g in recognizer.grammars if g.name == "codenames.guess")
    # the clue word is open vocabulary: the recognizer first tries the likely clue words,
    # the matcher still takes any word
    assert clue_grammar.jsgf is not None and " ocean " in clue_grammar.jsgf
    assert guess_grammar.jsgf is not None
    assert all(w.split()[0].lower() in guess_grammar.words for w in state.words)


# --------------------------------------------------------------------------- narration data


def test_every_narration_key_has_the_same_fields_in_french() -> None:
    import string

    from voice_host.host.core.narration import catalogue

    def fields(value: str | list[str]) -> set[str]:
        texts = value if isinstance(value, list) else [value]
        return {f for t in texts for _lit, f, _spec, _conv in string.Formatter().parse(t) if f}

    en = {k: v for k, v in catalogue("en", "codenames").items() if k.startswith("codenames.")}
    fr = {k: v for k, v in catalogue("fr", "codenames").items() if k.startswith("codenames.")}
    assert set(fr) == set(en)
    for key, value in fr.items():
        assert fields(value) <= fields(en[key]), key


def test_french_narration_of_a_turn() -> None:
    from voice_host.games.codenames import GiveClue, Guess

    opts = options(first="red", seed=41, lang="fr")
    state = dealt(opts)
    k = key_of(state)
    adapter = make_adapter("codenames", opts)
    prompt = adapter.prompt(state)
    assert prompt is not None
    assert prompt.lines[0].text == \
        "Hannah, maître-espion de l'équipe rouge : votre indice, un mot et un nombre."
    assert prompt.lines[0].lang == "fr"
    events = state.apply(GiveClue(state.spymaster(Team.RED), valid_clues(state)[0], 2))
    guess = adapter.prompt(state)
    assert guess is not None and "Vous avez trois essais." in guess.lines[0].text
    events = state.apply(Guess(state.operatives(Team.RED)[0], k[Colour.BLUE][0]))
    said = " ".join(line.text for line in adapter.narrate(state, events))
    assert "un agent de l'équipe bleue" in said and "Le tour de l'équipe rouge est terminé." in said
    board = " ".join(line.text for line in adapter.board(state))
    assert board.startswith("Rangée un : ") and f"{k[Colour.BLUE][0]} (couvert : bleu)" in board


def test_key_sent_to_a_private_channel_that_is_not_a_file() -> None:
    opts = options(first="red", seed=43, companion=True)
    sent: list[Line] = []

    def page(line: Line) -> Delivery:
        sent.append(line)
        return Delivery(Via.COMPANION, "your companion page")

    adapter = make_adapter("codenames", opts, secret_sink=page)
    state = new_game("codenames", opts)
    opening = " ".join(line.text for line in adapter.opening(state))
    assert "on their companion pages" in opening
    events = state.apply(state.chance_action(random.Random(1)))
    lines = adapter.narrate(state, events)
    assert [line.to for line in sent] == ["Hannah", "Sophie"]
    assert all(line.style == "private" and "Assassin:" in line.text for line in sent)
    said = [line.text for line in lines]
    assert "Hannah, your key is on your companion page." in said
    assert not any("Assassin:" in text or "file" in text for text in said)


def test_without_a_secret_sink_the_key_stays_a_private_line() -> None:
    opts = options(first="red", seed=43)
    adapter = make_adapter("codenames", opts)
    state = new_game("codenames", opts)
    lines = adapter.narrate(state, state.apply(state.chance_action(random.Random(1))))
    private = [line for line in lines if line.style == "private"]
    assert [line.to for line in private] == ["Hannah", "Sophie"]
    out = io.StringIO()
    TextOutput(out).emit(lines)
    assert "Assassin:" not in out.getvalue()
    assert "Hannah and Sophie: I have given you the key privately." in out.getvalue()


@pytest.mark.parametrize(("red", "blue", "says"), [
    ("Ada", "Cleo,Dan,Eve", "the red team has 1. Move a player to it, for example --red "
                            "Ada,Eve --blue Cleo,Dan."),
    ("Ada,Ben,Cleo", "Dan", "the blue team has 1. Move a player to it, for example --red "
                            "Ada,Ben --blue Dan,Cleo."),
])
def test_cli_says_how_to_fix_a_team_that_is_too_small(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], red: str, blue: str,
        says: str) -> None:
    from voice_host.cli import main

    code = main(["play", "codenames", "--red", red, "--blue", blue, "--input", "text",
                 "--output", "text", "--save", str(tmp_path / "g.json")])
    err = capsys.readouterr().err
    assert code == 2
    assert "Each team needs at least 2 players, a spymaster and an operative; " + says in err
    assert not (tmp_path / "g.json").exists()
