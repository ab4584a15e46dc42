"""Grammar files, templates, JSGF output, vocabulary, samples and help phrases."""

from __future__ import annotations

import random
import re
import shutil
from importlib import resources
from pathlib import Path

import pytest

from tests.support.intent_matchers import matcher, slot_values
from voice_host.intent import (
    GrammarError,
    Matcher,
    SlotValues,
    TemplateError,
    as_spoken,
    load_grammar,
)
from voice_host.intent.expand import expand
from voice_host.intent.grammar import GRAMMARS_ENV, forget_loaded
from voice_host.intent.normalize import tokenize
from voice_host.intent.template import Alt, Word, parse_template, spelled_alike

PHASES = {"resistance": ("team", "vote", "count", "mission", "accuse", "answer"),
          "ici-londres": ("guess", "answer"),
          "codenames": ("clue", "guess", "colour", "answer")}
UNIVERSAL = {"help", "repeat", "score", "status", "read_board", "undo", "pause", "resume",
             "quit", "slower", "faster", "louder", "quieter", "move_code", "learn_voice"}
ALL = [(g, p) for g, phases in PHASES.items() for p in phases]


def test_each_grammar_declares_the_games_phases() -> None:
    for game, phases in PHASES.items():
        assert load_grammar(game).phases == phases


@pytest.mark.parametrize(("game", "phase"), ALL)
def test_every_phase_has_the_universal_commands(game: str, phase: str) -> None:
    intents = set(load_grammar(game).phase(phase, slot_values(game)).intents)
    assert UNIVERSAL <= intents
    assert ("list_tried" in intents) == (game == "ici-londres")


def test_phase_specific_intents() -> None:
    def own(game: str, phase: str) -> set[str]:
        return set(load_grammar(game).phase(phase).intents) - UNIVERSAL - {"list_tried"}
    assert own("resistance", "team") == {"propose_team"}
    assert own("resistance", "vote") == {"vote", "votes"}
    assert own("resistance", "count") == {"vote_count", "vote", "votes"}
    assert own("resistance", "mission") == {"mission_result"}
    assert own("resistance", "accuse") == {"accuse"}
    assert own("codenames", "guess") == {"guess", "pass"}
    assert own("codenames", "clue") == {"clue", "clue_two_words", "clue_number_word",
                                        "clue_no_number"}
    assert own("codenames", "colour") == {"colour"}
    assert own("ici-londres", "guess") == {"pick", "stray_answer"}
    for game, phase in (("resistance", "answer"), ("ici-londres", "answer"),
                        ("codenames", "answer")):
        assert own(game, phase) == {"answer"}


@pytest.mark.parametrize(("game", "phase"), ALL)
def test_jsgf_is_well_formed(game: str, phase: str) -> None:
    grammar = load_grammar(game).phase(phase, slot_values(game))
    jsgf = grammar.jsgf()
    if game == "codenames" and phase == "clue":
        assert jsgf is None  # open vocabulary for the clue word
        return
    assert jsgf is not None
    assert jsgf.startswith("#JSGF V1.0;")
    assert "public <command> =" in jsgf
    body = re.sub(r"<[a-z_]+>", " ", jsgf.split("\n", 1)[1])
    body = re.sub(r"grammar [a-z_]+;|public|[()\[\]|=;*+]", " ", body)
    words = set(body.split())
    assert words, "no words"
    for word in words:
        assert re.fullmatch(r"[a-z']+", word), word
    assert words <= grammar.vocabulary()
    assert "()" not in jsgf.replace(" ", "") and "||" not in jsgf.replace(" ", "")


def test_names_are_normalized_for_the_recognizer() -> None:
    grammar = load_grammar("resistance").phase(
        "team", SlotValues(players=("Zoë", "Jean-Luc", "Mary Ann", "O'Neil")))
    vocab = grammar.vocabulary()
    assert {"zoe", "jean", "luc", "mary", "ann", "o'neil"} <= vocab
    jsgf = grammar.jsgf()
    assert jsgf is not None and "zoe" in jsgf and "Zoë" not in jsgf
    best = Matcher(grammar).match("I pick zoe and jean luc").best
    assert best is not None and best.slots == {"players": ("Zoë", "Jean-Luc")}


def test_french_icons_in_the_french_grammar() -> None:
    grammar = load_grammar("ici-londres", "fr").phase("guess", slot_values("ici-londres", "fr"))
    assert {"coeur", "elephant", "cle", "l'"} <= grammar.vocabulary()
    assert grammar.jsgf() is not None


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("game", "phase"), ALL)
def test_generated_samples_match_their_own_reading(lang: str, game: str, phase: str) -> None:
    grammar = load_grammar(game, lang).phase(phase, slot_values(game, lang))
    samples = grammar.sample(random.Random(7), 60)
    assert len(samples) == 60
    m = matcher(game, phase, lang)
    wrong = []
    for s in samples:
        result = m.match(s.text, speaker="Hannah")
        best = result.best
        got = (best.intent, dict(best.slots)) if best else None
        if got != (s.intent, dict(s.slots)) or result.ambiguous:
            wrong.append((s.text, got, s.intent, dict(s.slots)))
    assert wrong == []


def test_help_phrases_cover_every_intent() -> None:
    grammar = load_grammar("resistance").phase("vote", slot_values("resistance"))
    phrases = grammar.help_phrases()
    assert set(phrases) == set(grammar.intents)
    assert all(phrases[intent] for intent in grammar.intents)
    assert "I vote yes" in phrases["vote"]


@pytest.mark.parametrize(("game", "phase"), ALL)
def test_help_phrases_are_understood(game: str, phase: str) -> None:
    grammar = load_grammar(game).phase(phase, slot_values(game))
    m = matcher(game, phase)
    for intent, phrases in grammar.help_phrases().items():
        for phrase in phrases:
            best = m.match(phrase, speaker="Hannah").best
            assert best is not None and best.intent == intent, phrase


def test_template_syntax() -> None:
    node = parse_template("[i] (vote|say) {yesno:choice} [please]")
    sentences = {" ".join(t.key for t in sk) for sk in expand(node, {}, keep_optional=False)}
    assert "i vote {yesno}" in sentences and "say {yesno} please" in sentences
    assert len(sentences) == 8
    with pytest.raises(TemplateError):
        parse_template("(unclosed | group")
    with pytest.raises(TemplateError):
        parse_template("bad {slot name}")


def test_words_said_alike_are_each_other_s_choice() -> None:
    alike = {"whose": ("whose", "who's"), "who's": ("who's", "whose")}
    node = spelled_alike(parse_template("(whose|who's) turn [is it]"), alike)
    sentences = {" ".join(t.key for t in sk) for sk in expand(node, {}, keep_optional=False)}
    assert sentences == {"whose turn", "who's turn", "whose turn is it", "who's turn is it"}
    assert spelled_alike(parse_template("whose"), alike) == Alt((Word("whose"),
                                                                  Word("who's")), alike=True)
    assert spelled_alike(parse_template("whose"), {}) == Word("whose")
    # a generated sentence says the word as the template wrote it
    said = {" ".join(t.key for t in sk)
            for sk in expand(node, {}, keep_optional=False, spellings=False)}
    assert said == {"whose turn", "who's turn", "whose turn is it", "who's turn is it"}
    assert [" ".join(t.key for t in sk) for sk in expand(
        spelled_alike(parse_template("whose go"), alike), {}, keep_optional=False,
        spellings=False)] == ["whose go"]


def test_other_spellings_leave_the_generated_sentences_as_they_were(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark's spoken test set is generated from the grammars: a word said alike
    but written apart adds no sentence to say, and draws nothing more from the seed."""
    root = resources.files("voice_host") / "grammars"
    with resources.as_file(root) as folder:
        shutil.copytree(folder, tmp_path / "grammars")
    common = tmp_path / "grammars" / "en" / "common.toml"
    text = common.read_text()
    assert "spelled_alike" in text
    common.write_text(re.sub(r"(?m)^spelled_alike = .*$", "", text))

    def samples() -> list[tuple[str, str]]:
        out = []
        for game, phases in PHASES.items():
            for phase in phases:
                grammar = load_grammar(game).phase(phase, slot_values(game))
                out += [(s.text, s.intent) for s in grammar.sample(random.Random(3), 40)]
                out += [(p, i) for i, ps in grammar.help_phrases().items() for p in ps]
        return out

    with_them = samples()
    monkeypatch.setenv(GRAMMARS_ENV, str(tmp_path / "grammars"))
    forget_loaded()
    try:
        without = samples()
    finally:
        monkeypatch.delenv(GRAMMARS_ENV)
        forget_loaded()
    assert with_them == without


def test_a_sentence_takes_the_spelling_a_recognizer_writes() -> None:
    """Whisper writes "who's turn is it now" where the grammar said "whose": the matcher
    reads it exactly, as typed, and the recognizer's grammar has the path."""
    m = matcher("resistance", "team")
    for line in ("who's turn is it now", "whose turn is it now", "who's go is it",
                 "whose go is it now"):
        best = m.match(line).best
        assert best is not None and best.intent == "status", line
        assert best.confidence == 1.0, line
    phase = load_grammar("resistance").phase("team", slot_values("resistance"))
    jsgf = phase.jsgf()
    assert jsgf is not None and "who's" in jsgf and "whose" in jsgf
    assert phase.settings.alike["its"] == ("its", "it's")
    assert {"its", "it's"} <= phase.settings.fillers  # the word classes hold the group


def test_tokenize() -> None:
    assert tokenize("Zoë, Jean-Luc!") == ("zoe", "jean", "luc")
    assert tokenize("l'éléphant") == ("l'", "elephant")
    assert tokenize("I'll GO") == ("i'll", "go")
    assert tokenize("cœur") == ("coeur",)


def test_unknown_game_phase_or_language() -> None:
    with pytest.raises(GrammarError):
        load_grammar("chess")
    with pytest.raises(GrammarError):
        load_grammar("resistance").phase("night")
    with pytest.raises(GrammarError):
        load_grammar("resistance", "de")


def test_open_phase_offers_a_likely_word_grammar_to_the_recognizer() -> None:
    from voice_host.intent import SlotValues

    pg = load_grammar("codenames").phase("clue", SlotValues(open_words=("lantern",)))
    assert pg.jsgf() is None  # the matcher still takes any word
    jsgf = pg.recognition_jsgf()
    assert jsgf is not None and " lantern " in jsgf and " ocean " in jsgf
    board = as_spoken("board_word", ("piano",))
    closed = load_grammar("codenames").phase("guess", SlotValues(lists=(board,)))
    assert closed.recognition_jsgf() == closed.jsgf()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_help_and_the_recognizer_leave_out_the_diagnostic_clue_sentences(lang: str) -> None:
    pg = load_grammar("codenames", lang).phase("clue", slot_values("codenames", lang))
    assert pg.diagnostic_intents == {"clue_two_words", "clue_number_word", "clue_no_number"}
    assert not set(pg.help_phrases()) & pg.diagnostic_intents
    assert "clue" in pg.help_phrases()
    for jsgf in (pg.recognition_jsgf(), pg.open_slot_jsgf("any_word")):
        if jsgf is not None:
            assert "<i_clue>" in jsgf
            assert "clue_two_words" not in jsgf and "clue_no_number" not in jsgf
