"""The recognition policy of speech/ears.py on its own speech-side types: the grammar is
set once per phase, the benchmark's open-vocabulary baseline drops the phase's sentences,
and an open phase listens again with the full vocabulary when its likely words do not fit."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from voice_host.speech.ears import Ears, Expected
from voice_host.speech.fakes import ScriptedRecognizer, StreamingScriptedRecognizer
from voice_host.speech.types import RecognitionGrammar

AUDIO = np.zeros(1600, dtype=np.int16)
VOTE = RecognitionGrammar(name="resistance.vote", jsgf="#JSGF V1.0; grammar g; public <s> = yes;",
                          words=frozenset({"yes", "no"}))
CLUE = RecognitionGrammar(name="codenames.clue", jsgf="#JSGF V1.0; grammar g; public <s> = ice;",
                          words=frozenset({"ice", "one"}), open_jsgf="(open)")


def test_the_grammar_is_set_once_for_a_phase() -> None:
    recognizer = ScriptedRecognizer(["yes", "no"])
    ears = Ears(recognizer)
    ears.recognize(AUDIO, Expected(VOTE))
    ears.recognize(AUDIO, Expected(replace(VOTE)))  # an equal grammar, built again
    assert [g.name for g in recognizer.grammars] == ["resistance.vote"]


def test_the_open_vocabulary_baseline_drops_the_sentences() -> None:
    recognizer = ScriptedRecognizer(["yes"])
    Ears(recognizer, open_vocabulary=True).recognize(AUDIO, Expected(CLUE))
    (grammar,) = recognizer.grammars
    assert grammar.name == "codenames.clue.open"
    assert grammar.jsgf is None and grammar.open_jsgf is None and grammar.words == CLUE.words


def test_an_open_phase_listens_again_when_its_likely_words_do_not_fit() -> None:
    rejected = replace(ScriptedRecognizer(["x"]).recognize(AUDIO), text="", rejected=True,
                       closed_grammar=True)
    recognizer = ScriptedRecognizer([rejected, "volcano two"])
    ears = Ears(recognizer)
    heard = ears.recognize(AUDIO, Expected(CLUE, open_retry=True))
    assert heard.text == "volcano two" and not heard.closed_grammar
    assert [g.name for g in recognizer.grammars] == ["codenames.clue", "codenames.clue.open"]
    ears.recognize(AUDIO, Expected(CLUE, open_retry=True))  # back to the phase's grammar
    assert recognizer.grammars[-1].name == "codenames.clue"


def test_a_closed_phase_keeps_a_rejection() -> None:
    rejected = replace(ScriptedRecognizer(["x"]).recognize(AUDIO), text="", rejected=True,
                       closed_grammar=True)
    recognizer = ScriptedRecognizer([rejected, "yes"])
    heard = Ears(recognizer).recognize(AUDIO, Expected(VOTE))
    assert heard.rejected and len(recognizer.audio) == 1


def test_streaming_only_for_a_recognizer_that_declares_it() -> None:
    assert Ears(ScriptedRecognizer()).stream(Expected(VOTE)) is None
    recognizer = StreamingScriptedRecognizer(["yes"])
    stream = Ears(recognizer).stream(Expected(VOTE))
    assert stream is not None
    stream.feed(AUDIO[:800])
    stream.feed(AUDIO[800:])
    assert stream.finish(AUDIO).text == "yes"
    assert len(recognizer.audio[-1]) == len(AUDIO)
