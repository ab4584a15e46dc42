"""Ici Londres through the real session loop: the broadcast, the recorded sentence, turn
prompts in each transmission type, hit/miss at the table, scoring, rotation, French
narration, bad inputs, undo and resume."""

from __future__ import annotations

import io
import json
import random
import string
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.support.ici_londres_table import (
    DRAWS,
    PLAYERS3,
    PLAYERS4,
    ListListener,
    Run,
    options,
    play,
    seed_drawing,
)
from tests.support.scripted import game_over_of
from voice_host.games.base import Deal
from voice_host.games.ici_londres import Draw, IciLondresRefusal, IciLondresState, Pick, TimeUp
from voice_host.host.adapters.ici_londres import (
    Adapter,
    coded_sentence,
    new_game,
    refusal_words,
)
from voice_host.host.core.adapter import PromptKind
from voice_host.host.core.messages import caption
from voice_host.host.core.narration import Narrator, catalogue
from voice_host.host.core.refusals import refusal_text
from voice_host.host.core.registry import registration
from voice_host.host.core.secrets import Delivery, Via
from voice_host.host.core.session import Session, SessionOptions, Stop
from voice_host.host.core.store import EventLog, load_game, rng_from_json
from voice_host.host.core.values import Heard, HeardKind, ListenRequest, Style
from voice_host.host.io.terminal import TextOutput

# --------------------------------------------------------------------------- worked example


@pytest.mark.parametrize("confirm", ["never", "auto"])
def test_worked_example_from_the_rules(tmp_path: Path, confirm: str) -> None:
    """Heart + book, "Il adorait ses kilos": the Wehrmacht says elephant (miss), the next
    player heart (+1/+1), the next book (+1/+1); both found, the round ends."""
    opts = options()
    opts["seed"] = seed_drawing(opts, ("heart", "book"))
    run = play(tmp_path, opts, ["Il adorait ses kilos", "the elephant", "heart",
                                "I'll go with the book"], confirm=confirm)
    assert run.stop is Stop.FINISHED
    end = run.game_over()
    assert end["winner"] == ["Ada"]
    assert end["scores"] == {"Ada": 2, "Ben": 0, "Cleo": 1, "Dan": 1}
    picks = [a for a in run.actions() if a["type"] == "Pick"]
    assert [(a["player"], a["icons"]) for a in picks] == [
        ("Ben", ["elephant"]), ("Cleo", ["heart"]), ("Dan", ["book"])]
    text = run.text
    assert "No card for the elephant" in text
    assert "The heart is in the message! Cleo scores 1 point, and Ada 1 point" in text
    # the second hit in a shorter form, with the same facts: the icon and who scores
    hits = [line for line in text.splitlines() if "the book" in line.lower()
            and "Dan" in line and "Ada" in line and "point" in line]
    assert hits, text
    assert "Message decoded: the heart and the book" in text
    assert "The winner is Ada" in text
    # the secret went to Ada's file only, never to the table
    assert [(s.to, s.style) for s in run.secrets] == [("Ada", Style.PRIVATE)]
    assert "the heart and the book" in run.secrets[0].text
    before_picks = text.split("Ben names the elephant")[0]
    assert "heart" not in before_picks and "Ada, your secret is in the file with your name" \
        in before_picks and "secret-Ada.txt" not in text  # no file name is spoken


def test_broadcast_order_radio_lines_and_record_prompt(tmp_path: Path) -> None:
    opts = options(deal="table")
    run = play(tmp_path, opts, ["Pâques donnera la solution"])
    lines = run.text.splitlines()
    order = [i for i, line in enumerate(lines) if any(k in line for k in (
        "(tuning)", "(V motif) [radio] Ici Londres ! Les Français parlent aux Français.",
        "your coded sentence", "[radio] Je répète.", "[radio] Pâques donnera la solution"))]
    assert len(order) == 5 and order == sorted(order), run.text
    assert "draw two message cards" in run.text  # table mode: physical cards
    assert run.secrets == []
    record = [r for r in run.listener.requests if r.record]
    assert len(record) == 1 and record[0].expected == ("Ada",) and record[0].grammar is None
    assert run.session.adapter.host_state == {"aired": 1, "recorded": 1,
                                              "sentence": "Pâques donnera la solution"}


def test_recorded_audio_is_played_back_through_the_radio_effect_and_never_saved(
        tmp_path: Path) -> None:
    audio = np.zeros(1600, dtype=np.int16)
    opts = options(deal="table")
    adapter = Adapter(opts)
    state = new_game(opts)
    state.apply(Draw(None))
    adapter.host_step(state)
    prompt = adapter.prompt(state)
    assert prompt is not None and prompt.kind is PromptKind.RECORD
    recording = adapter.on_recording(state, Heard(HeardKind.SPEECH, text="", recording=audio))
    assert recording.taken
    lines = recording.lines
    assert len(lines) == 1
    assert lines[0].recording is audio and lines[0].effect == "radio"
    assert (lines[0].lang, lines[0].style, lines[0].text) == ("fr", Style.RADIO, "Je répète.")
    json.dumps(adapter.host_state)  # JSON-able: no audio in it
    assert adapter.host_state["sentence"] == ""
    after = adapter.prompt(state)
    assert after is not None and after.phase == "guess" and after.expected == ("Ben",)


def test_only_the_speaker_can_record_the_message(tmp_path: Path) -> None:
    run = play(tmp_path, options(deal="table"), ["Ben: the cat eats the moon",
                                                 "Ada: the sailor hides the key"])
    assert "Only Ada, the Speaker, sends the message this round." in run.text
    assert run.session.adapter.host_state["sentence"] == "the sailor hides the key"


# --------------------------------------------------------------------------- complete games


def test_fragments_game_then_competing_after_a_cycle(tmp_path: Path) -> None:
    opts = options(players=PLAYERS3, mode="fragments", rounds=4)
    script = [
        # round 1: Ada speaks, Ben (Wehrmacht) and Cleo guess
        "Easter hides the library", "heart", "elephant", "rose", "book",
        # round 2: Ben speaks, Cleo (Wehrmacht) and Ada guess
        "The church gives the solution", "star", "bell", "owl", "egg",
        # round 3: Cleo speaks, Ada (Wehrmacht) and Ben guess
        "The astronaut loves the beach", "moon", "the sun",
        # round 4, Réseaux concurrents: Ada speaks, Ben and Cleo at once
        "Nine lives for the shepherd", "Cleo: the cat and the fish", "Ben: wolf",
    ]
    run = play(tmp_path, opts, script, draws=DRAWS)
    end = run.game_over()
    assert end["scores"] == {"Ada": 5, "Ben": 6, "Cleo": 3}
    assert end["winner"] == ["Ben"]
    text = run.text
    assert "Intercepted! Ben, the Wehrmacht, found the heart and takes 2 points." in text
    assert "Ben is now the Speaker, and Cleo the Wehrmacht." in text
    assert "Cleo is now the Speaker, and Ada the Wehrmacht." in text
    assert "the transmission type is now Réseaux concurrents" in text
    assert "Everyone at once!" in text
    assert text.count("Ici Londres ! Les Français parlent aux Français.") == 4


def test_competing_game_with_names(tmp_path: Path) -> None:
    opts = options(players=PLAYERS3, mode="competing", rounds=4)
    script = [
        "The lover reads", "the elephant",  # nobody said who: the host asks
        "Cleo: the heart", "Ben: book and rose",
        "The church rings", "Ada: star and owl", "Cleo picks the egg and the fish",
        "The astronaut sunbathes", "Ben takes the moon", "Ada: sun and star",
        # round 4, Double 0
        "Cats and wolves", "the owl and the egg", "cat and wolf",
    ]
    run = play(tmp_path, opts, script, draws=DRAWS)
    end = run.game_over()
    assert end["scores"] == {"Ada": 5, "Ben": 3, "Cleo": 4}
    assert end["winner"] == ["Ada"]
    assert "Who is speaking? Please start with your name." in run.text
    assert "Round 2 is over. Nobody found an icon" in run.text
    assert "the transmission type is now Double 0" in run.text
    picks = [(a["player"], tuple(a["icons"])) for a in run.actions() if a["type"] == "Pick"]
    assert picks[:2] == [("Cleo", ("heart",)), ("Ben", ("book", "rose"))]
    assert ("Ada", ("sun", "star")) in picks


def test_double_zero_game_then_countdown_with_time_up(tmp_path: Path) -> None:
    opts = options(players=PLAYERS3, mode="double-zero", rounds=4)
    script = [
        "Love is a pound", "heart and book",
        "Easter keys", "bell and star", "the key and the owl",
        "The moon and the sun", "rose and egg", "fish and cat",
        # round 4, Contre la montre: Ben runs out of time, Cleo names one then runs out
        "Cats howl", None, "cat", None,
    ]
    run = play(tmp_path, opts, script, draws=DRAWS)
    end = run.game_over()
    assert end["scores"] == {"Ada": 2, "Ben": 5, "Cleo": 3}
    assert end["winner"] == ["Ben"]
    assert [a for a in run.actions() if a["type"] == "TimeUp"] == [
        {"type": "TimeUp", "player": "Ben"}, {"type": "TimeUp", "player": "Cleo"}]
    assert "Time is up! Ben loses 2 picks." in run.text
    assert "Time is up! Cleo loses 1 pick." in run.text
    countdowns = [r.countdown for r in run.listener.requests if r.countdown]
    assert countdowns and set(countdowns) == {10}
    assert "(tick) 10" in run.text


def test_countdown_game_at_the_table_with_hit_and_miss(tmp_path: Path) -> None:
    opts = options(players=PLAYERS3, mode="countdown", rounds=4, deal="table")
    script = [
        # round 1: Ada speaks; Ben names two, Ada answers each; Cleo's time runs out
        "Love weighs a pound", "heart and book", "hit", "miss", None,
        # round 2: Ben speaks; Cleo names one (miss), then the second (hit)
        "Easter solution", "bell", "miss", "key", "it's a hit", "star and owl", "yes",
        # round 3: Cleo speaks
        "Moonlight", "moon and sun", "no", "no", "egg and fish", "yes", "no",
        # round 4, Bribes de message
        "Wolves", "cat", "miss", "wolf", "hit", "rose", "miss", "apple", "miss",
    ]
    run = play(tmp_path, opts, script)
    end = run.game_over()
    assert end["scores"] == {"Ada": 2, "Ben": 4, "Cleo": 4}
    assert end["winner"] == ["Ben", "Cleo"]
    assert "Ada, is the heart one of your cards? Say hit or miss." in run.text
    assert "The winners, tied, are Ben and Cleo." in run.text
    judged = [(a["icon"], a["hit"]) for a in run.actions() if a["type"] == "JudgePick"]
    assert judged[:2] == [("heart", True), ("book", False)]
    # the owl came with the second found icon: a miss without asking the Speaker
    assert ("owl", False) not in judged
    after_star = run.text.split("The star is in the message!")[1].split("Round 2 is over")[0]
    assert "(miss)" in after_star and "owl" in after_star


def test_a_hit_answer_from_someone_else_than_the_speaker_is_refused(tmp_path: Path) -> None:
    opts = options(players=PLAYERS3, deal="table")
    run = play(tmp_path, opts, ["Love", "heart", "Ben: hit", "Ada: miss"])
    assert "Only Ada, the Speaker, says hit or miss." in run.text
    judged = [a for a in run.actions() if a["type"] == "JudgePick"]
    assert judged == [{"type": "JudgePick", "player": "Ada", "icon": "heart", "hit": False}]


def test_countdown_silence_makes_time_up_and_pause_stops_the_clock(tmp_path: Path) -> None:
    opts = options(players=PLAYERS3, mode="countdown")
    run = play(tmp_path, opts, ["A sentence", "pause", None, None, "resume", None],
               draws=DRAWS)
    timeups = [a for a in run.actions() if a["type"] == "TimeUp"]
    assert timeups == [{"type": "TimeUp", "player": "Ben"}]
    assert run.state.picks_left == {"Ben": 0, "Cleo": 2}
    assert "Cleo, name two icons. Ten seconds!" in run.text


class TimedListener(ListListener):
    """Each utterance takes its player some seconds; one that would end after the
    countdown's seconds is cut off by the clock (silence, as the microphone reports it)."""

    def __init__(self, items: Iterable[tuple[float, str | None]]) -> None:
        timed = list(items)
        super().__init__([text for _, text in timed])
        self.seconds = [t for t, _ in timed]
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    def listen(self, request: ListenRequest) -> Heard:
        if self.items and request.countdown and self.seconds[0] > request.countdown:
            self.requests.append(request)
            self.now += request.countdown
            self.items.pop(0)
            self.seconds.pop(0)
            return Heard(HeardKind.SILENCE, source="test")
        if self.seconds:
            self.now += self.seconds.pop(0)
        return super().listen(request)


def test_countdown_is_one_clock_for_the_whole_answer(tmp_path: Path) -> None:
    """Ten seconds for both icons: neither the first icon nor a line the host did not
    understand starts the clock again."""
    opts = options(players=PLAYERS3, mode="countdown")
    listener = TimedListener([(5.0, "A sentence"), (4.0, "heart"), (3.0, "the giraffe"),
                              (4.0, "book")])
    run = play(tmp_path, opts, [], draws=DRAWS, listener=listener, clock=listener.clock)
    assert [a for a in run.actions() if a["type"] == "Pick"] == [
        {"type": "Pick", "player": "Ben", "icons": ["heart"]}]
    assert {"type": "TimeUp", "player": "Ben"} in run.actions()
    assert "Time is up! Ben loses 1 pick." in run.text
    countdowns = [r.countdown for r in listener.requests if r.countdown]
    assert countdowns[:3] == [10, 6, 3]


def test_hannah_names_herself_in_competing_networks(tmp_path: Path) -> None:
    opts = options(players=["Ada", "Hannah", "Ben"], mode="competing")
    run = play(tmp_path, opts, ["Love in the library", "Hannah: heart and book"],
               draws=DRAWS)
    end = run.game_over()
    assert end["scores"] == {"Ada": 0, "Hannah": 4, "Ben": 0}  # Hannah is the Wehrmacht
    assert end["winner"] == ["Hannah"]
    prompts = [e for e in run.log if e["event"] == "prompt" and e["phase"] == "guess"]
    assert prompts[0]["expected"] == ["Hannah", "Ben"]


# --------------------------------------------------------------------------- bad inputs


def _state_after(run: Run) -> dict[str, Any]:
    return run.session.state.to_json()


@pytest.mark.parametrize(("mode", "bad", "reason"), [
    # table talk is silent; said to the host, it gets the helpful answer (an icon the
    # game does not have: which word is not an icon)
    ("fragments", "host, the giraffe", "There is no icon called giraffe."),
    ("fragments", "Cleo: heart", "Cleo, it is Ben's turn to guess."),
    ("fragments", "Ada: heart", "Ada is the Speaker and cannot guess."),
    ("fragments", "heart and book", "In Bribes de message you name one icon at a time."),
    ("double-zero", "heart", "In Double 0 you name two icons at once."),
    # the matcher folds a repeated icon into one: still not two icons
    ("double-zero", "heart and heart", "In Double 0 you name two icons at once."),
    ("fragments", "host, pass me the chips", "not a command I know"),
])
def test_bad_pick_gets_a_reason_and_changes_nothing(tmp_path: Path, mode: str, bad: str,
                                                    reason: str) -> None:
    opts = options(mode=mode)
    good = play(tmp_path, opts, ["A sentence"], draws=DRAWS, name="good")
    bad_run = play(tmp_path, opts, ["A sentence", bad], draws=DRAWS, name="bad")
    assert reason in bad_run.text.split("Ben, name")[-1] or reason in bad_run.text
    assert _state_after(bad_run) == _state_after(good)
    assert [e for e in bad_run.log if e["event"] == "action"] == [
        e for e in good.log if e["event"] == "action"]


def test_icon_already_named_is_refused(tmp_path: Path) -> None:
    opts = options(players=PLAYERS3, mode="fragments")
    run = play(tmp_path, opts, ["A sentence", "elephant", "the elephant"], draws=DRAWS)
    assert "The elephant was already named this round." in run.text
    assert run.state.named_icons == ("elephant",)
    competing = options(players=PLAYERS3, mode="competing")
    run = play(tmp_path, competing, ["A sentence", "Ben: elephant", "Cleo: elephant and heart"],
               draws=DRAWS, name="competing")
    assert "The elephant is already taken by Ben." in run.text
    assert run.state.named_icons == ("elephant",)


def test_picking_before_the_message_is_recorded_is_not_a_pick(tmp_path: Path) -> None:
    opts = options(deal="table")
    adapter = Adapter(opts)
    state = new_game(opts)
    state.apply(Draw(None))
    from voice_host.intent import IntentMatch
    decision = adapter.interpret(state, IntentMatch("pick", {"icons": ("heart",)}, 1.0,
                                                    "heart"), "Ben")
    assert decision.action is None and "Wait for the message" in decision.reply[0].text


# --------------------------------------------------------------------------- universal commands


def test_tried_board_score_status_and_undo(tmp_path: Path) -> None:
    opts = options(players=PLAYERS3)
    run = play(tmp_path, opts, [
        "A sentence", "what has been tried", "elephant", "what has been tried",
        "list the icons", "score", "status", "heart", "undo", "whose turn"],
        draws=DRAWS)
    text = run.text
    assert "No icon has been named yet this round." in text
    assert "Named this round: the elephant by Ben, missed." in text
    assert "Card 1: the heart, the book, the bell and the key." in text
    assert "Card 9: the sun, the sword, the clock and the snake." in text
    assert text.count("Card ") == 9
    assert "Scores: Ada 0 points, Ben 0 points and Cleo 0 points." in text
    assert "It is Cleo's turn: one icon." in text
    assert "The message was: A sentence." in text
    assert "Done, I took back the last move: Cleo names the heart." in text
    # Cleo's heart was undone: scores back to zero, Cleo to guess again
    assert run.state.scores == {"Ada": 0, "Ben": 0, "Cleo": 0}
    assert run.state.named_icons == ("elephant",)
    assert text.splitlines()[-2] == "HOST: It is Cleo's turn: one icon."


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_undo_after_the_coded_sentence_takes_back_only_the_sentence(
        tmp_path: Path, lang: str) -> None:
    opts = options(players=PLAYERS3, rounds=2, lang=lang)
    heart, book, undo = (("heart", "book", "undo") if lang == "en"
                         else ("coeur", "livre", "annule"))
    run = play(tmp_path, opts, ["A sentence", heart, book, "Second sentence", undo],
               draws=DRAWS)
    assert run.state.round_number == 2
    assert run.state.scores == {"Ada": 1, "Ben": 2, "Cleo": 1}  # round 1's hits stay
    assert run.state.named_icons == ()
    assert "recorded" not in run.session.adapter.host_state or \
        run.session.adapter.host_state["recorded"] != 2
    # the Speaker is asked for the sentence again
    asked = "Ben, your coded sentence, please" if lang == "en" else "Ben, votre phrase codée"
    assert run.text.count(asked) == 2, run.text
    # a message is a move without words of its own: the generic sentence says it is undone
    assert ("Done: the last move is undone." if lang == "en"
            else "C'est fait : le dernier coup est annulé.") in run.text


@pytest.mark.parametrize(("lang", "help_word", "said"), [
    ("en", "help", "Ada, say your coded sentence now, a subject, a verb and an object"),
    ("fr", "aide", "Ada, dites maintenant votre phrase codée, un sujet, un verbe et un"),
])
def test_help_while_the_speaker_composes_says_what_to_do(
        tmp_path: Path, lang: str, help_word: str, said: str) -> None:
    run = play(tmp_path, options(players=PLAYERS3, lang=lang), [help_word, "A sentence"],
               draws=DRAWS)
    assert said in run.text
    assert "for example: hit" not in run.text and "par exemple : touché" not in run.text
    assert run.session.adapter.host_state["sentence"] == "A sentence"


class BotListener:
    """The demo's players: each answer is the registered bots' utterance for the current prompt."""

    def __init__(self, adapter: Adapter, rng: random.Random) -> None:
        self.adapter = adapter
        self.rng = rng
        self.session: Session | None = None

    def listen(self, request: ListenRequest) -> Heard:
        assert self.session is not None
        state = self.session.state
        prompt = self.adapter.prompt(state)
        assert prompt is not None
        speaker, text = registration(self.adapter.game).bots(
            self.adapter, state, prompt, self.rng)
        assert speaker in prompt.expected
        return Heard(HeardKind.SPEECH, text=text, speaker=speaker)

    def close(self) -> None:
        pass


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("mode", ["fragments", "competing", "double-zero", "countdown"])
def test_bot_utterances_play_whole_games_the_grammar_understands(
        tmp_path: Path, lang: str, mode: str) -> None:
    """Demo players: every utterance is a legal, understood move, and the game ends."""
    opts = options(players=PLAYERS4, mode=mode, rounds=4, lang=lang, seed=7)
    adapter = Adapter(opts, secret_sink=lambda line: Delivery(Via.FILE, "secret.txt"))
    bots = BotListener(adapter, random.Random(3))
    log_path = tmp_path / "bots.jsonl"
    log = EventLog(log_path)
    session = Session(adapter=adapter, state=new_game(opts), rng=random.Random(7),
                      output=TextOutput(io.StringIO()), listener=bots, log=log,
                      options=SessionOptions(confirm="never"))
    bots.session = session
    assert session.run() is Stop.FINISHED
    log.close()
    events = [json.loads(x) for x in log_path.read_text(encoding="utf-8").splitlines()]
    heard = [e for e in events if e["event"] == "heard"]
    assert heard and all(e["intent"] == "pick" for e in heard), heard
    assert not [e for e in events if e["event"] == "refused"]
    assert len([e for e in events if e["event"] == "recorded"]) == 4
    assert [e for e in events if e["event"] == "game_over"]


def test_coded_sentences_hint_at_the_drawn_icons() -> None:
    adapter = Adapter(options())
    rng = random.Random(0)
    sentences = {coded_sentence(adapter, ("bell", "key"), rng) for _ in range(20)}
    assert all(any(w in s for w in ("Easter", "church")) for s in sentences)
    assert all(any(w in s for w in ("solution", "lock")) for s in sentences)
    assert len(sentences) > 1
    french = coded_sentence(Adapter(options(lang="fr")), ("bell", "key"), rng)
    assert any(w in french for w in ("Pâques", "sacristain"))


# --------------------------------------------------------------------------- French


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_french_narration_has_every_english_key_with_the_same_fields() -> None:
    en = {k: v for k, v in catalogue("en", "ici-londres").items()
          if k.startswith("ici_londres.")}
    fr = {k: v for k, v in catalogue("fr", "ici-londres").items()
          if k.startswith("ici_londres.")}
    assert len(en) > 100
    assert set(en) == set(fr)
    for key, value in en.items():
        en_variants = value if isinstance(value, list) else [value]
        fr_value = fr[key]
        fr_variants = fr_value if isinstance(fr_value, list) else [fr_value]
        wanted = set().union(*(_fields(v) for v in en_variants))
        if wanted & {"icon", "icon_cap"}:  # the adapter always passes both forms
            wanted |= {"icon", "icon_cap"}
        for variant in fr_variants:
            assert _fields(variant) <= wanted | {"the"}, key
    common_en = {k for k in catalogue("en", "ici-londres") if k.startswith("common.")}
    common_fr = {k for k in catalogue("fr", "ici-londres") if k.startswith("common.")}
    assert common_en <= common_fr


def test_a_french_game_is_narrated_in_french(tmp_path: Path) -> None:
    opts = options(lang="fr")
    opts["seed"] = seed_drawing(opts, ("heart", "book"))
    run = play(tmp_path, opts, ["Il adorait ses kilos", "l'éléphant", "le cœur",
                                "je prends le livre", "Ben: touché"])
    assert run.game_over()["scores"] == {"Ada": 2, "Ben": 0, "Cleo": 1, "Dan": 1}
    text = run.text
    for expected in ("Manche 1 sur 1.", "Pas de carte pour l'éléphant.",
                     "Le cœur est dans le message ! Cleo marque un point",
                     "Message décodé : le cœur et le livre.", "Vainqueur : Ada."):
        assert expected in text
    for english in ("Round ", "The winner", "names the", "Scores:"):
        assert english not in text
    assert "vos deux icônes sont le cœur et le livre" in run.secrets[0].text


# --------------------------------------------------------------------------- resume


def test_resume_in_the_middle_gives_the_same_rest_of_the_game(tmp_path: Path) -> None:
    opts = options(players=PLAYERS3, rounds=3, seed=11)  # real shuffled draws from the seed
    first_half = ["A sentence", "heart", "elephant", "rose", "book", "Second sentence",
                  "star"]
    second_half = ["bell", "owl", "egg", "Third sentence", "moon", "sun", "cat", "wolf"]
    whole = play(tmp_path, opts, first_half + second_half, name="whole")
    part = play(tmp_path, opts, first_half, name="part")
    assert part.stop is Stop.INPUT_ENDED
    saved = load_game(tmp_path / "part.json")
    assert saved.host_state == {"aired": 2, "recorded": 2, "sentence": "Second sentence"}
    rng = random.Random()
    rng.setstate(rng_from_json(saved.rng))
    rest = play(tmp_path, opts, second_half, name="rest",
                state=IciLondresState.from_json(saved.state), fresh=False,
                host_state=saved.host_state, rng=rng)
    assert rest.game_over() == whole.game_over()
    assert rest.session.state == whole.session.state
    done = len(part.actions())
    assert rest.actions() == whole.actions()[done:]
    assert rest.text.startswith("HOST: Welcome back.")
    # round 2's broadcast is not aired again; round 3's is
    assert "Ici Londres" not in rest.text.split("Round 3 of 3")[0]
    assert rest.text.count("Ici Londres !") == 1


def test_new_game_options_match_first_speaker_case_blind() -> None:
    state = new_game(options(first="cleo"))
    assert state.speaker == "Cleo"
    assert state.deal is Deal.HOST
    assert isinstance(Adapter(options()).describe(state, Pick("Dan", ("heart", "book"))), str)
    assert Adapter(options()).describe(state, TimeUp("Dan")) == "Dan's time is up"


# --------------------------------------------------------------------------- command line


def test_cli_plays_a_table_game_from_a_script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from voice_host.cli import main

    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    script = tmp_path / "game.txt"
    script.write_text("Ada: Love weighs a pound\nheart\nhit\nCleo: book\nAda: hit\n",
                      encoding="utf-8")
    log = tmp_path / "log.jsonl"
    code = main(["play", "ici-londres", "--players", "Ada,Ben,Cleo", "--rounds", "1",
                 "--input", "text", "--script", str(script), "--output", "text",
                 "--confirm", "never", "--seed", "4", "--log", str(log)])
    out = capsys.readouterr().out
    assert code == 0, out
    end = game_over_of([json.loads(line) for line in
                        log.read_text(encoding="utf-8").splitlines()])
    assert end["winner"] == ["Ben"] and end["scores"] == {"Ada": 1, "Ben": 2, "Cleo": 1}
    assert "Ici Londres ! Les Français parlent aux Français." in out
    assert "Intercepted! Ben, the Wehrmacht, found the heart" in out


def test_cli_host_deal_writes_the_speakers_icons_to_a_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from voice_host.cli import main

    monkeypatch.setenv("VOICE_HOST_DATA", str(tmp_path / "data"))
    script = tmp_path / "game.txt"
    script.write_text("Ada: a coded sentence\n", encoding="utf-8")
    save = tmp_path / "game.json"
    code = main(["play", "ici-londres", "--players", "Ada,Ben,Cleo", "--deal", "host",
                 "--input", "text", "--script", str(script), "--output", "text",
                 "--confirm", "never", "--seed", "4", "--save", str(save)])
    out = capsys.readouterr().out
    assert code == 3  # the script ends before the game
    saved = load_game(save)
    icons = saved.state["drawn"]
    files = list(tmp_path.glob("game-secrets/*Ada*"))
    assert len(files) == 1 and "Ada, your secret is in the file with your name" in out
    assert files[0].name not in out  # said in words; the folder is on the screen
    secret = files[0].read_text(encoding="utf-8")
    adapter = Adapter(options())
    assert all(adapter.icon(i) in secret for i in icons)
    assert not any(adapter.icon(i) in out for i in icons)


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "That is too long for a coded sentence. Ada, one sentence of at most 30 words"),
    ("fr", "C'est trop long pour une phrase codée. Ada, une seule phrase de 30 mots au plus"),
])
def test_a_coded_sentence_too_long_is_refused_with_a_sentence(tmp_path: Path, lang: str,
                                                              said: str) -> None:
    long = "word " * 1000
    recording = Heard(HeardKind.SPEECH, text="", recording=np.zeros(16000 * 60, np.int16),
                      source="test")
    run = play(tmp_path, options(players=PLAYERS3, lang=lang),
               [long.strip(), recording, "The cat ate the key"], draws=DRAWS)
    assert run.text.count(said) == 2
    assert long.strip() not in run.text  # never read back
    assert run.session.adapter.host_state["sentence"] == "The cat ate the key"


def test_countdown_at_the_keyboard_keeps_the_clock_in_the_prompt_and_drops_late_typing(
        tmp_path: Path) -> None:
    """On a terminal the seconds left are redrawn in the prompt itself (not on the line the
    player types on), and what was half typed when time ran out does not join the next
    answer."""
    import os
    import pty

    from voice_host.host.io.terminal import TextListener

    master, slave = pty.openpty()
    try:
        stream = os.fdopen(slave, "r", encoding="utf-8", closefd=False)
        echo = io.StringIO()
        listener = TextListener(stream=stream, echo=echo)
        request = ListenRequest(grammar=None, grammar_name="x", expected=("Ben",),
                                countdown=1)
        os.write(master, b"hea")                      # typed, never entered
        assert listener.listen(request).kind is HeardKind.SILENCE
        os.write(master, b"moon\n")
        heard = listener.listen(request)
        assert heard.kind is HeardKind.SPEECH and heard.text == "moon"
        shown = echo.getvalue()
        assert shown.startswith("[ 1 s] > \n[ 1 s] > ")
        assert "(tick)" not in shown
    finally:
        os.close(master)
        os.close(slave)


# --------------------------------------------------------------------------- refusals in French


def _english_fragments() -> set[str]:
    """Every literal piece of every English refusal, the engine's and the host's own (what a
    French game must never say)."""
    templates = list(IciLondresRefusal.messages.values())
    templates += [v for k, v in catalogue("en", "ici-londres").items()
                  if k.startswith(("ici_londres.refusal.", "ici_londres.refuse."))
                  and isinstance(v, str)]
    return {literal.strip(" ,.") for template in templates
            for literal, _, _, _ in string.Formatter().parse(template)
            if len(literal.strip(" ,.")) >= 4}


def _said_in_french(code: str, **params: Any) -> str:
    return refusal_text(Narrator("ici-londres", "fr"), IciLondresRefusal(code, **params),
                        refusal_words)


@pytest.mark.parametrize(("deal", "mode", "script", "code", "params"), [
    ("host", "fragments", ["Cleo: le cœur"], "not_your_turn", {"player": "Cleo", "turn": "Ben"}),
    ("host", "fragments", ["Ada: le cœur"], "speaker_cannot_guess", {"player": "Ada"}),
    ("host", "fragments", ["l'éléphant et le cœur"], "one_at_a_time", {}),
    ("host", "double-zero", ["le cœur"], "two_at_once", {}),
    # the matcher folds a repeated icon into one: still not two icons
    ("host", "double-zero", ["le cœur et le cœur"], "two_at_once", {}),
    ("host", "fragments", ["l'éléphant", "l'éléphant"], "already_named", {"icon": "elephant"}),
    ("host", "competing", ["Ben: l'éléphant", "Cleo: la rose et l'éléphant"], "already_taken",
     {"icon": "elephant", "player": "Ben"}),
    ("host", "competing", ["Ben: l'éléphant et la rose", "Ben: la lune"], "no_picks_left",
     {"player": "Ben"}),
    ("host", "countdown", ["l'éléphant", "le soleil et la lune"], "one_pick_left",
     {"player": "Ben"}),
    ("table", "fragments", ["le cœur", "Ada: touché", "Ben: la lune"], "not_your_turn",
     {"player": "Ben", "turn": "Cleo"}),
])
def test_a_french_game_refuses_every_move_in_french(
        tmp_path: Path, deal: str, mode: str, script: list[str], code: str,
        params: dict[str, Any]) -> None:
    """Each refusal the rules make is said from the French table, never in English, and
    changes nothing."""
    opts = options(deal=deal, mode=mode, lang="fr")
    good = play(tmp_path, opts, ["Une phrase", *script[:-1]], draws=DRAWS, name="good")
    run = play(tmp_path, opts, ["Une phrase", *script], draws=DRAWS, name="bad")
    refused = [e for e in run.log if e["event"] == "refused"]
    assert [(e["code"], e["params"]) for e in refused] == [(code, params)]
    said = _said_in_french(code, **params)
    assert f"{caption('fr')}{said}" in run.text.splitlines()
    assert said != refused[0]["reason"]  # the engine's English, kept for the log only
    assert refused[0]["reason"] not in run.text
    assert not [piece for piece in _english_fragments() if piece in run.text]
    assert _state_after(run) == _state_after(good)


def test_french_refusals_name_icons_in_french_with_their_capital() -> None:
    assert _said_in_french("already_named", icon="elephant") == (
        "On a déjà proposé l'éléphant dans cette manche.")
    assert _said_in_french("already_taken", icon="owl", player="Ben") == (
        "Ben a déjà pris la chouette.")
    assert _said_in_french("twice", icon="heart") == "Vous avez dit le cœur deux fois."
    assert _said_in_french("answer_for", speaker="Ada", pending="owl", icon="sun") == (
        "Ada doit répondre pour la chouette, pas pour le soleil.")
    # an unknown word stays as it was said
    assert _said_in_french("unknown_icon", icon="licorne") == (
        "Il n'y a pas d'icône appelée licorne.")
    english = Narrator("ici-londres", "en")
    already = IciLondresRefusal("already_named", icon="bell")
    assert refusal_text(english, already, refusal_words) == (
        "The bell was already named this round.")
    assert refusal_text(english, IciLondresRefusal("twice", icon="bell"), refusal_words) == (
        "You named the bell twice.")


def test_every_french_refusal_is_french() -> None:
    """Every code of the engine, said in French with sample facts: no English piece, every
    icon in its French name."""
    sample = {"player": "Ben", "speaker": "Ada", "turn": "Cleo", "icon": "owl",
              "pending": "sun"}
    english = _english_fragments()
    for code, template in IciLondresRefusal.messages.items():
        fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        said = _said_in_french(code, **{name: sample[name] for name in fields})
        assert not [piece for piece in english if piece in said], (code, said)
        assert "owl" not in said and "sun" not in said, (code, said)
        assert said[0].isupper() and said.endswith("."), (code, said)


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Only Ada, the Speaker, says hit or miss."),
    ("fr", "Seul Ada, le Speaker, dit touché ou raté."),
])
def test_an_answer_only_the_speaker_gives_and_a_pick_before_the_sentence(
        tmp_path: Path, lang: str, said: str) -> None:
    """The host's own refusals (what it cannot turn into a move) in the game's language."""
    run = play(tmp_path, options(players=PLAYERS3, deal="table", lang=lang),
               ["Une phrase", "le cœur" if lang == "fr" else "heart", "Ben: touché"
                if lang == "fr" else "Ben: hit"])
    assert f"{caption(lang)}{said}" in run.text.splitlines()
    opts = options(deal="table", lang=lang)
    state = new_game(opts)
    state.apply(Draw(None))
    from voice_host.intent import IntentMatch
    decision = Adapter(opts).interpret(state, IntentMatch("pick", {"icons": ("heart",)}, 1.0,
                                                          "heart"), "Ben")
    wait = catalogue(lang, "ici-londres")["ici_londres.refuse.wait_message"]
    assert decision.action is None and decision.reply[0].text == wait


@pytest.mark.parametrize(("lang", "article"), [("en", "the"), ("fr", "le")])
def test_the_reask_examples_name_two_icons_each_said_once(tmp_path: Path, lang: str,
                                                          article: str) -> None:
    """What a re-ask gives as examples ("le cœur, ou le cœur et le livre"): a second icon
    is another icon, not another way of saying the first, and no article comes twice."""
    from voice_host.host.core.attention import needs

    said = {"en": "Ada: the pigeon flies to the moon", "fr": "Ada: le pigeon vole vers la lune"}
    run = play(tmp_path, options(lang=lang), [said[lang]], draws=DRAWS)
    one, two = needs(run.session, run.session.adapter.prompt(run.session.state), "Ben")[:2]
    words = two.split()
    assert one.startswith(article + " ") and two.startswith(one + " ")
    assert all(a != b for a, b in zip(words, words[1:], strict=False)), two
    assert len({w for w in words if w not in (article, "and", "et")}) == 2, two
