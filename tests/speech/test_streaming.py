"""The speech seam: every recognizer declares what it offers (``Recognizer``, or
``StreamingRecognizer`` when it can decode while the player talks) and carries the sentence
that describes it; the host streams exactly to those that declare it."""

from __future__ import annotations

import numpy as np
import pytest

from voice_host.host.core.values import HeardKind, ListenRequest
from voice_host.host.io.listening import MicListener, PhaseEars
from voice_host.host.io.terminal import TextOutput
from voice_host.intent import load_grammar
from voice_host.intent.grammar import SlotValues
from voice_host.speech.fakes import ScriptedRecognizer, StreamingScriptedRecognizer
from voice_host.speech.pocketsphinx_asr import PocketSphinxRecognizer
from voice_host.speech.source import ArraySource
from voice_host.speech.types import SAMPLE_RATE, Recognizer, StreamingRecognizer
from voice_host.speech.vosk_asr import VoskRecognizer
from voice_host.speech.whisper_asr import WhisperRecognizer

PLAYERS = ("Ada", "Ben", "Cleo", "Dan", "Eve")


def _request() -> ListenRequest:
    pg = load_grammar("resistance").phase("vote", SlotValues(players=PLAYERS))
    return ListenRequest(grammar=pg, grammar_name="resistance.vote", expected=("Ada",))


@pytest.mark.parametrize(("backend", "interface"), [
    (WhisperRecognizer, StreamingRecognizer),
    (VoskRecognizer, StreamingRecognizer),
    (PocketSphinxRecognizer, StreamingRecognizer),
    (StreamingScriptedRecognizer, StreamingRecognizer),
    (ScriptedRecognizer, Recognizer),
])
def test_every_backend_declares_its_interface(backend: type, interface: type) -> None:
    # declared by subclassing the protocol (mypy then checks each member), not guessed
    assert interface in backend.__mro__
    if interface is Recognizer:
        assert StreamingRecognizer not in backend.__mro__


def test_a_recognizer_that_does_not_stream_is_decoded_whole() -> None:
    recognizer = ScriptedRecognizer(["i vote yes"])
    assert not isinstance(recognizer, StreamingRecognizer)
    ears = PhaseEars(recognizer)
    assert ears.stream(_request()) is None
    heard = ears.hear(np.zeros(SAMPLE_RATE, np.int16), _request(), source="test")
    assert heard.text == "i vote yes"


def test_a_streaming_recognizer_is_fed_while_the_player_talks() -> None:
    recognizer = StreamingScriptedRecognizer(["i vote no"])
    ears = PhaseEars(recognizer)
    stream = ears.stream(_request())
    assert stream is not None
    assert recognizer.grammar is not None and "vote" in recognizer.grammar.words
    frames = [np.full(480, i, np.int16) for i in range(5)]
    for i, frame in enumerate(frames):
        stream.feed(frame, restart=i == 2)  # the endpointer changed its mind at frame 2
    assert recognizer.utterances_started == 2 and stream.frames_fed == 3
    heard = stream.finish(np.concatenate(frames), source="test")
    assert heard.kind is HeardKind.SPEECH and heard.text == "i vote no"
    # what was decoded is the frames since the restart, not the whole recording
    assert np.array_equal(recognizer.audio[-1], np.concatenate(frames[2:]))
    assert stream.frames_fed == 0


def test_nothing_streamed_is_decoded_whole() -> None:
    recognizer = StreamingScriptedRecognizer(["i vote yes"])
    stream = PhaseEars(recognizer).stream(_request())
    assert stream is not None
    audio = np.ones(SAMPLE_RATE, np.int16)
    assert stream.finish(audio, source="test").text == "i vote yes"
    assert recognizer.utterances_started == 0 and np.array_equal(recognizer.audio[-1], audio)


def _burst(seconds: float) -> np.ndarray:
    t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    return (6000 * np.sin(2 * np.pi * 180 * t) * (1.2 + np.sin(2 * np.pi * 3 * t)) / 2.2
            ).astype(np.int16)


@pytest.mark.parametrize("streaming", [True, False])
def test_the_microphone_path_streams_only_to_a_streaming_recognizer(streaming: bool) -> None:
    silence = np.zeros(SAMPLE_RATE, np.int16)
    audio = np.concatenate([silence, _burst(1.0), silence, silence])
    recognizer = StreamingScriptedRecognizer(["i vote yes"]) if streaming \
        else ScriptedRecognizer(["i vote yes"])
    listener = MicListener(PhaseEars(recognizer), ArraySource(audio), TextOutput())
    heard = listener.listen(_request())
    assert heard.kind is HeardKind.SPEECH and heard.text == "i vote yes"
    assert len(recognizer.audio) == 1
    if isinstance(recognizer, StreamingScriptedRecognizer):
        assert recognizer.utterances_started >= 1  # frames went in while it was spoken
    # the decoded audio holds the burst (about a second), not the silence around it
    assert 0.8 * SAMPLE_RATE < len(recognizer.audio[0]) < 2.5 * SAMPLE_RATE


@pytest.mark.model
def test_the_description_is_set_when_the_recognizer_is_built() -> None:
    assert ScriptedRecognizer().description == "Speech recognition: scripted."
    assert StreamingScriptedRecognizer(description="Speech recognition: a test.").description \
        == "Speech recognition: a test."
    pytest.importorskip("pocketsphinx", reason="pocketsphinx is not installed")
    assert PocketSphinxRecognizer().description.startswith("Speech recognition: PocketSphinx")
    said = "Speech recognition: PocketSphinx, chosen for this test."
    assert PocketSphinxRecognizer(description=said).description == said
