"""Every phase's JSGF loads in PocketSphinx with its bundled dictionary."""

from __future__ import annotations

import pytest

from tests.support.intent_matchers import slot_values
from voice_host.host.core.registry import registrations
from voice_host.intent import load_grammar

pocketsphinx = pytest.importorskip("pocketsphinx", reason="pocketsphinx is not installed")

PHASES = {r.name: load_grammar(r.grammar_name).phases for r in registrations()}


pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def decoder():  # type: ignore[no-untyped-def]
    return pocketsphinx.Decoder(loglevel="ERROR")


def _fixed_words(game: str, phase: str) -> set[str]:
    """Words of the grammar files themselves (not the run-time names/icons/board words)."""
    grammar = load_grammar(game).phase(phase)
    return set(grammar.vocabulary())


@pytest.mark.parametrize(("game", "phase"),
                         [(g, p) for g, phases in PHASES.items() for p in phases])
def test_fixed_words_are_in_the_dictionary(decoder, game: str, phase: str) -> None:  # type: ignore[no-untyped-def]
    missing = sorted(w for w in _fixed_words(game, phase) if decoder.lookup_word(w) is None)
    assert missing == [], f"words missing from the PocketSphinx dictionary: {missing}"


@pytest.mark.parametrize(("game", "phase"),
                         [(g, p) for g, phases in PHASES.items() for p in phases])
def test_jsgf_loads_with_the_game_values(decoder, game: str, phase: str) -> None:  # type: ignore[no-untyped-def]
    grammar = load_grammar(game).phase(phase, slot_values(game))
    jsgf = grammar.jsgf()
    if jsgf is None:
        assert grammar.open_vocabulary
        return
    missing = sorted(w for w in grammar.vocabulary() if decoder.lookup_word(w) is None)
    if missing:  # run-time words need generated pronunciations (speech layer)
        pytest.skip(f"run-time words without a pronunciation here: {missing}")
    decoder.add_jsgf_string(f"{game}_{phase}".replace("-", "_"), jsgf)


def test_escape_path_loads_and_avoids_command_words(decoder) -> None:  # type: ignore[no-untyped-def]
    grammar = load_grammar("resistance").phase("vote")
    jsgf = grammar.jsgf(garbage_weight=0.05)
    assert jsgf is not None and "<garbage>" in jsgf
    garbage = jsgf.split("<g_word> = ", 1)[1].rstrip(";\n").split(" | ")
    assert garbage and not set(garbage) & grammar.vocabulary()
    assert all(decoder.lookup_word(w) is not None for w in garbage)
    decoder.add_jsgf_string("resistance_vote_escape", jsgf)


@pytest.mark.parametrize(("lang", "sentences"), [
    ("en", ["hannah and thomas yes sophie no", "everyone yes", "all yes except oliver",
            "yes hannah thomas emma the rest no", "hannah yes the others no"]),
    ("fr", ["hannah et thomas oui sophie non", "tout le monde oui", "tous oui sauf oliver",
            "oui hannah thomas emma les autres non", "hannah oui les autres non"]),
])
def test_whole_table_votes_are_sentences_of_the_recognizer_grammar(
        decoder, tmp_path, lang: str, sentences: list[str]) -> None:  # type: ignore[no-untyped-def]
    from voice_host.intent import SlotValues

    grammar = load_grammar("resistance", lang).phase("vote", SlotValues(
        players=("Hannah", "Thomas", "Sophie", "Oliver", "Emma")))
    jsgf = grammar.jsgf()
    assert jsgf is not None
    path = tmp_path / "vote.gram"
    path.write_text(jsgf, encoding="utf-8")
    document = pocketsphinx.Jsgf(str(path))
    name = jsgf.split("grammar ", 1)[1].split(";", 1)[0]
    fsg = document.build_fsg(document.get_rule(f"{name}.command"), decoder.logmath, 7.5)
    assert [s for s in sentences if not fsg.accept(s)] == []
    assert not fsg.accept("hannah banana")
