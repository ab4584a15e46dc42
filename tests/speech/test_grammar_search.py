"""The phase grammar as a constraint on a subword decoder (no model needed: a small made-up
vocabulary stands for Whisper's)."""

from __future__ import annotations

import random

import pytest

from voice_host.intent.grammar import SlotValues, load_grammar
from voice_host.intent.normalize import is_jsgf_token
from voice_host.speech.grammar_search import (
    JsgfError,
    TokenConstraint,
    TokenTrie,
    WordGraph,
    fold_text,
    nearest_sentences,
    parse_jsgf,
    phase_tokens,
    spelling_cost,
    with_lead_words,
)
from voice_host.speech.types import ANY_WORD_RULE

VOTE = """#JSGF V1.0;
grammar vote;
public <command> = <i_vote> | <i_help>;
<i_vote> = ( [ i ] vote <l_yesno> ) | ( <l_yesno> );
<i_help> = help [ me | us ];
<l_yesno> = yes | no | thumbs up;
"""

TEAM = """#JSGF V1.0;
grammar team;
public <command> = my team is <l_player> ( [ and ] <l_player> )*;
<l_player> = sophie | thomas | zoe;
"""

CLUE = f"""#JSGF V1.0;
grammar clue;
public <command> = <{ANY_WORD_RULE}> <l_number> | pass;
<l_number> = one | two | three;
"""


def walk(constraint: TokenConstraint, text: str) -> frozenset:  # type: ignore[type-arg]
    return constraint.advance(constraint.start, fold_text(text))


def test_jsgf_is_read_with_weights_tags_and_comments() -> None:
    rules, public = parse_jsgf("#JSGF V1.0;\ngrammar g; // a comment\n"
                               "public <a> = /0.5/ one {tag} | /2/ two <b>;\n<b> = three+;")
    assert public == ["a"]
    assert set(rules) == {"a", "b"}
    graph = WordGraph("#JSGF V1.0; grammar g; public <a> = one | two three+;")
    assert set(graph.next_words(graph.start)) == {"one", "two"}
    after_two = graph.next_words(graph.start)["two"]
    assert not graph.is_final(after_two)
    after_three = graph.next_words(after_two)["three"]
    assert graph.is_final(after_three)
    assert "three" in graph.next_words(after_three)  # the + repeats


@pytest.mark.parametrize("document", [
    "grammar g;",  # no public rule
    "public <a> = ( one ;",  # unbalanced
    "public <a> = <missing>;",  # undefined rule
    "public <a> = one |* two;",
])
def test_broken_grammars_are_refused(document: str) -> None:
    with pytest.raises(JsgfError):
        WordGraph(document)


def test_sentences_of_the_grammar_in_the_way_whisper_writes_them() -> None:
    constraint = TokenConstraint(WordGraph(VOTE))
    for text in (" I vote yes.", " Yes!", "yes", " I vote, yes.", " Thumbs up.",
                 " Help me.", " HELP"):
        positions = walk(constraint, text)
        assert positions, text
        assert constraint.can_end(positions), text
    # a prefix is alive but may not end; anything else is out
    assert walk(constraint, " I vote") and not constraint.can_end(walk(constraint, " I vote"))
    assert walk(constraint, " I vo") and not constraint.can_end(walk(constraint, " I vo"))
    for text in (" I wrote yes.", " yes please", " vote", " I vote maybe", " yesno"):
        positions = walk(constraint, text)
        assert not positions or not constraint.can_end(positions), text


def test_repeats_names_accents_and_digits() -> None:
    constraint = TokenConstraint(WordGraph(TEAM))
    assert constraint.can_end(walk(constraint, " My team is Sophie, Thomas and Zoë."))
    assert constraint.can_end(walk(constraint, " my team is sophie thomas zoe sophie"))
    assert not walk(constraint, " My team is Sophia")
    clue = TokenConstraint(WordGraph(CLUE), {"two": ("2",)})
    assert clue.can_end(walk(clue, " Ocean 2."))
    assert clue.can_end(walk(clue, " Lighthouse, two."))
    assert clue.can_end(walk(clue, " Pass."))
    assert not clue.can_end(walk(clue, " Ocean 4."))
    assert not walk(clue, " Sea monster two")


def test_french_elisions_and_accents() -> None:
    graph = WordGraph("#JSGF V1.0; grammar g; public <a> = ( je choisis | c'est ) "
                      "( l' elephant | le coeur ) | je repete;")
    constraint = TokenConstraint(graph)
    for text in (" Je choisis l'éléphant.", " C'est le cœur.", " je répète", " C'est l' éléphant"):
        assert constraint.can_end(walk(constraint, text)), text


def _vocabulary() -> dict[int, str]:
    pieces = [" I", " vote", " yes", ".", " Yes", " v", "ote", " no", " wrote", ",", " help",
              " Help", " me", "!", " thumbs", " up", " th", "umbs", " Ocean", " 2", " two",
              " pass", " Pass", " é", "lé", " sea", " monster", " Zo", "ë", " and", " Sophie"]
    return dict(enumerate(pieces))


def test_allowed_tokens_follow_the_grammar() -> None:
    texts = _vocabulary()
    ids = {text: token for token, text in texts.items()}
    trie = TokenTrie(texts)
    constraint = TokenConstraint(WordGraph(VOTE))
    first = constraint.allowed(constraint.start, trie)
    for text in (" I", " vote", " yes", " Yes", " v", " no", " help", " Help", " thumbs", " th"):
        assert ids[text] in first, text
    for text in ("ote", " wrote", " me", " up", " Ocean", "umbs"):
        assert ids[text] not in first, text
    after_v = first[ids[" v"]]
    assert ids["ote"] in constraint.allowed(after_v, trie)
    arrays = constraint.allowed_arrays(constraint.start, trie)
    assert sorted(arrays.ids.tolist()) == sorted(first)
    # " yes" and " Yes" are the same word: one group
    group = {int(t): int(g) for t, g in zip(arrays.ids, arrays.groups, strict=True)}
    assert group[ids[" yes"]] == group[ids[" Yes"]]
    assert group[ids[" yes"]] != group[ids[" no"]]
    ascii_trie = TokenTrie(texts, ascii_only=True)
    assert ascii_trie.size < trie.size


def _positions_along(constraint: TokenConstraint, texts: list[str]) -> list[frozenset]:  # type: ignore[type-arg]
    """Every set of positions met while writing these texts character by character."""
    found = []
    for text in texts:
        positions = constraint.start
        for char in fold_text(text):
            positions = constraint.advance(positions, char)
            if not positions:
                break
            found.append(positions)
    return found


@pytest.mark.parametrize("document", [CLUE, TEAM, VOTE])
def test_allowed_tokens_are_what_writing_them_gives_whatever_was_walked_before(
        document: str) -> None:
    # the walk keeps what it found below each first character; the tokens allowed, the
    # positions after each and their order must not depend on what was walked before
    texts = {**_vocabulary(), 100: " Lighthouse", 101: "house", 102: " ocean", 103: "ean",
             104: " oc", 105: "ocean", 106: " lights", 107: " is", 108: " my", 109: " team",
             110: " sophie", 111: " thomas", 112: " zoe", 113: " one", 114: " three",
             115: " s", 116: "ophie", 117: " t", 118: "eam", 119: " My"}
    trie = TokenTrie(texts)
    graph = WordGraph(document)
    sentences = [" Ocean two.", " Lighthouse 2", " oc ean three", " my team is sophie and zoe",
                 " My team is Thomas, Sophie", " I vote yes", " thumbs up", " Pass."]
    warm = TokenConstraint(graph, {"two": ("2",)})
    visited = _positions_along(warm, sentences)
    assert len(visited) > 10
    for positions in reversed(visited):
        warm.allowed(positions, trie)
    for positions in [warm.start, *visited]:
        expected = {token: warm.advance(positions, fold_text(text))
                    for token, text in texts.items()
                    if fold_text(text) and warm.advance(positions, fold_text(text))}
        got = warm.allowed(positions, trie)
        assert got == expected
        assert list(got) == _plain_walk(warm, positions, trie)


def _plain_walk(constraint: TokenConstraint, positions: frozenset,  # type: ignore[type-arg]
                trie: TokenTrie) -> list[int]:
    """The tokens a walk of the whole trie finds, nothing kept between walks, in its order
    (depth first, a node's children's own tokens before their subtrees, the last child's
    subtree first)."""
    out: list[int] = []
    stack = [(trie.root, positions)]
    while stack:
        node, here = stack.pop()
        for char, child in node.children.items():
            after = frozenset(p for position in here for p in constraint.step(position, char))
            if after:
                out.extend(child.tokens)
                if child.children:
                    stack.append((child, after))
    return out


def test_phase_tokens_cover_every_sentence_and_leave_out_the_rest() -> None:
    texts = _vocabulary()
    ids = {text: token for token, text in texts.items()}
    keep = phase_tokens(WordGraph(VOTE), {}, texts)
    assert keep is not None
    for text in (" I", " vote", " yes", " Yes", ".", ",", " v", "ote", " help", " me",
                 " thumbs", " up", " th", "umbs", " no"):
        assert ids[text] in keep, text
    for text in (" wrote", " Ocean", " sea", " monster", " pass"):
        assert ids[text] not in keep, text
    assert phase_tokens(WordGraph(CLUE), {}, texts) is None  # an open slot takes any word


def test_every_sentence_of_every_phase_is_inside_its_constraint() -> None:
    from voice_host.host.core.registry import game_names, registration

    for lang in ("en", "fr"):
        for game in game_names():
            lists = registration(game).example_lists(lang, board_word=("piano", "ocean", "bell"))
            values = SlotValues(players=("Sophie", "Thomas", "Zoë", "Ben", "Ada"), lists=lists,
                                speaker="Ada")
            grammar = load_grammar(registration(game).grammar_name, lang)
            for phase in grammar.phases:
                pg = grammar.phase(phase, values)
                document = pg.open_slot_jsgf(ANY_WORD_RULE) or pg.recognition_jsgf()
                assert document, (lang, game, phase)
                constraint = TokenConstraint(WordGraph(document), pg.written_forms())
                for utterance in pg.sample(random.Random(3), 5):
                    if utterance.intent in pg.diagnostic_intents:
                        continue  # ("ice cream two") left out of the recognizer's grammar
                    positions = walk(constraint, utterance.text)
                    # the recognizer grammar leaves out what JSGF cannot spell (digits)
                    if all(is_jsgf_token(t) for t in utterance.text.split()):
                        assert constraint.can_end(positions), (lang, game, phase,
                                                               utterance.text)


def test_whisper_loops_are_cut_from_a_free_transcript() -> None:
    pytest.importorskip("ctranslate2", reason="ctranslate2 is not installed (speech extra)")
    from voice_host.speech.decision import without_loops

    assert without_loops("for the full full full full full") == "for the full"
    assert without_loops("i wrote yes i wrote yes i wrote yes") == "i wrote yes"
    assert without_loops("ocean two") == "ocean two"
    assert without_loops("yes no yes") == "yes no yes"  # not a repeat in a row


FRENCH = """#JSGF V1.0;
grammar vote;
public <command> = ( [ je ] vote <l_choice> ) | ( j' accepte [ l' equipe ] ) | ( deja dit )
    | ( qui mene );
<l_choice> = oui | non;
"""


def test_nearest_sentences_step_over_split_and_merged_words() -> None:
    graph = WordGraph(FRENCH)
    # a decoder that split, merged or misspelled the words still lands nearest the sentence
    assert nearest_sentences(graph, "jacksept")[0][0] == ("j'", "accepte")
    assert nearest_sentences(graph, "des jadi")[0][0] == ("deja", "dit")
    assert nearest_sentences(graph, "kimen")[0][0] == ("qui", "mene")
    assert nearest_sentences(graph, "Je vote oui !")[0] == (("je", "vote", "oui"), 0.0)
    # an inserted word costs its letters: the sentence with the word is still nearest
    best, cost = nearest_sentences(graph, "j'accepte l'équipe")[0]
    assert best == ("j'", "accepte", "l'", "equipe") and cost == 0.0


def test_nearest_sentences_are_ranked_bounded_and_far_talk_finds_none() -> None:
    graph = WordGraph(FRENCH)
    near = nearest_sentences(graph, "vote non", limit=2)
    assert [words for words, _ in near] == [("vote", "non"), ("je", "vote", "non")]
    assert near[0][1] < near[1][1]
    assert nearest_sentences(graph, "il fait beau dehors aujourd'hui") == []
    assert nearest_sentences(graph, "") == []
    # a wider bound lets farther sentences in, never fewer
    assert len(nearest_sentences(graph, "vote", max_cost=0.9, limit=10)) >= \
        len(nearest_sentences(graph, "vote", max_cost=0.3, limit=10))


def test_nearest_sentences_drop_only_what_could_not_end_near_enough(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # hypotheses costing more than max_cost x max(text, longest sentence) are dropped
    # early; without that bound the search returns the same sentences and costs
    graph = WordGraph(FRENCH)
    assert graph.most_letters() == len("jaccepteléquipe") + 3  # letters, and a space a word
    texts = ["jacksept", "des jadi", "kimen", "vote non", "je votte oui", "j'accepte l'équipe",
             "il fait beau dehors aujourd'hui", "oui", "je vote oui je vote oui je vote oui"]
    for max_cost in (0.3, 0.5, 0.9):
        bounded = [nearest_sentences(graph, t, max_cost=max_cost, limit=10) for t in texts]
        monkeypatch.setattr(WordGraph, "most_letters", lambda self: None)
        unbounded = [nearest_sentences(graph, t, max_cost=max_cost, limit=10) for t in texts]
        monkeypatch.undo()
        assert bounded == unbounded
        assert any(bounded)


def test_nearest_sentences_never_take_an_open_slot() -> None:
    graph = WordGraph(CLUE)
    assert nearest_sentences(graph, "ocean two") == []
    assert nearest_sentences(graph, "pas")[0][0] == ("pass",)


def test_spelling_cost_is_a_letter_distance_per_letter() -> None:
    assert spelling_cost("End turn.", "end turn") == 0.0  # case, spaces, punctuation
    assert spelling_cost("and turn", "end turn") == pytest.approx(0.5 / 7)  # a vowel
    assert spelling_cost("the turn", "end turn") == pytest.approx(3.0 / 7)
    assert spelling_cost("and do please", "undo please") == pytest.approx(1.5 / 11)
    assert spelling_cost("", "end turn") == 1.0
    assert spelling_cost("", "") == 0.0


def test_lead_words_may_open_any_sentence_once_or_twice() -> None:
    document = with_lead_words(VOTE, ("um", "so", "okay"))
    constraint = TokenConstraint(WordGraph(document))
    for text in (" Um, I vote yes.", " So, okay, help me.", " Okay. Yes.", " I vote no."):
        assert constraint.can_end(walk(constraint, text)), text
    for text in (" Um, so, okay, yes.", " Um.", " I vote um yes.", " Yes, um."):
        positions = walk(constraint, text)
        assert not positions or not constraint.can_end(positions), text
    assert with_lead_words(VOTE, ()) == VOTE


def test_a_french_lead_phrase_keeps_its_elision() -> None:
    graph = WordGraph(with_lead_words(
        "#JSGF V1.0; grammar g; public <a> = la cloche | oui;", ("euh", "bon", "d' accord")))
    constraint = TokenConstraint(graph)
    for text in (" D'accord, oui.", " Bon, euh, la cloche.", " Euh... oui"):
        assert constraint.can_end(walk(constraint, text)), text
    assert not constraint.can_end(walk(constraint, " Accord, oui."))
