"""Recognition policy: the recognizer switched to each phase's grammar, and what to do when
that grammar does not fit (an open phase listens again with the full vocabulary).

Speech-side types only: the host turns its listen request into an :class:`Expected` and the
transcript back into what it heard (``host/io/listening.py``)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from voice_host.speech.types import (
    HearsEndpointer,
    RecognitionGrammar,
    Recognizer,
    Samples,
    StreamingRecognizer,
    Transcript,
)


@dataclass(frozen=True)
class Expected:
    """What the recognizer should listen for in one phase."""

    grammar: RecognitionGrammar
    """The phase's sentences (for an open phase, with the open slot drawn from its likely
    words first)."""
    open_retry: bool = False
    """The phase takes any word: when its grammar rejects the audio or hears nothing, decode
    again with the full vocabulary, so a word nobody listed can still be heard."""


class Ears:
    """The recognizer, switched to each request's grammar.

    ``open_vocabulary`` decodes with the recognizer's full language model instead of the
    phase's grammar (the benchmark's baseline; the matcher is the same)."""

    def __init__(self, recognizer: Recognizer, *, open_vocabulary: bool = False) -> None:
        self.recognizer = recognizer
        self.open_vocabulary = open_vocabulary
        self._grammar_key: tuple[str, str] | None = None

    def use(self, expected: Expected) -> None:
        """Set the recognizer's grammar for ``expected`` (no-op when it is already set)."""
        grammar = expected.grammar
        if self.open_vocabulary:
            grammar = replace(grammar, name=grammar.name + ".open", jsgf=None, open_jsgf=None)
        key = (grammar.name,
               grammar.jsgf if grammar.jsgf is not None else str(sorted(grammar.words)))
        if key != self._grammar_key:
            self.recognizer.set_grammar(grammar)
            self._grammar_key = key

    def recognize(self, samples: Samples, expected: Expected) -> Transcript:
        """The transcript of one whole utterance."""
        self.use(expected)
        return self._checked(self.recognizer.recognize(samples), samples, expected)

    def stream(self, expected: Expected) -> EarsStream | None:
        """A decoder fed frame by frame while the player talks (None when the recognizer
        does not declare the streaming interface)."""
        if not isinstance(self.recognizer, StreamingRecognizer):
            return None
        self.use(expected)
        return EarsStream(self, self.recognizer, expected)

    def _checked(self, transcript: Transcript, samples: Samples,
                 expected: Expected) -> Transcript:
        if (transcript.closed_grammar and expected.open_retry and len(samples)
                and (transcript.rejected or not transcript.text.strip())):
            # the likely words did not fit: listen again with the full vocabulary
            transcript = replace(self._open_decode(samples, expected), closed_grammar=False)
        return transcript

    def _open_decode(self, samples: Samples, expected: Expected) -> Transcript:
        grammar = expected.grammar
        self.recognizer.set_grammar(RecognitionGrammar(
            name=grammar.name + ".open", jsgf=None, words=grammar.words))
        self._grammar_key = None  # the next request switches back to its own grammar
        return self.recognizer.recognize(samples)


class EarsStream:
    """One utterance decoded while it is spoken: the source passes frames to ``feed`` as
    they arrive, and only the end of the search is left when the utterance ends."""

    def __init__(self, ears: Ears, recognizer: StreamingRecognizer,
                 expected: Expected) -> None:
        self.ears = ears
        self.recognizer = recognizer
        """The ears' recognizer, as the streaming interface it declares."""
        self.expected = expected
        self.frames_fed = 0
        """Frames decoded so far in the current attempt."""

    def feed(self, frame: Samples, restart: bool = False, quiet: int | None = None) -> None:
        """Decode one more frame; ``restart`` drops what was fed before; ``quiet`` is the
        endpointer's count of frames without speech up to this one (None: not known)."""
        if restart or self.frames_fed == 0:
            self.recognizer.start_utterance()
            self.frames_fed = 0
        if quiet is not None and isinstance(self.recognizer, HearsEndpointer):
            self.recognizer.feed_heard(frame, quiet)
        else:
            self.recognizer.feed(frame)
        self.frames_fed += 1

    def finish(self, samples: Samples) -> Transcript:
        """The transcript of the utterance whose audio is ``samples`` (decoded whole if no
        frame was streamed)."""
        if self.frames_fed == 0:
            return self.ears.recognize(samples, self.expected)
        transcript = self.recognizer.finish()
        self.frames_fed = 0
        return self.ears._checked(transcript, samples, self.expected)
