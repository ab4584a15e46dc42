"""Listening with a recognizer: the host's listen request turned into what the speech
layer's :class:`~voice_host.speech.ears.Ears` expect, its transcript into a
:class:`~voice_host.host.core.values.Heard`, recorded utterances (scripts) and the
endpointed microphone."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

from voice_host.host.core.narration import Quantity
from voice_host.host.core.understanding import decoder_prompt, understand
from voice_host.host.core.values import (
    Heard,
    HeardKind,
    ListenRequest,
    Output,
    Wants,
    heard_from_transcript,
)
from voice_host.intent import IntentMatch, PhaseGrammar
from voice_host.speech.ears import Ears, EarsStream, Expected
from voice_host.speech.source import (
    AudioSource,
    EndOfAudio,
    EndpointedSource,
    SilenceTimeout,
    utterance_problem,
)
from voice_host.speech.types import (
    ANY_WORD_RULE,
    SPEECH_MESSAGES,
    RecognitionGrammar,
    Recognizer,
    RecordingTooShort,
    Samples,
    SpeechError,
    Transcript,
)
from voice_host.speech.wav import read_utterance_wav

SECONDS = "common.seconds"
"""The narration unit of a recording's length."""


def coded_error(exc: SpeechError, *, source: str) -> Heard:
    """An ERROR for a speech error: its English, and its code and values, by which the host
    says it in the game's language."""
    return Heard(HeardKind.ERROR, error=str(exc), error_code=exc.code,
                 error_params=tuple(exc.params.items()), source=source)


class PhaseEars:
    """The speech layer's Ears, listening for the current phase's grammar; what they heard
    comes back as a Heard (with the audio when the request keeps it).

    ``open_vocabulary`` decodes with the recognizer's full language model instead of the
    phase's grammar (the benchmark's baseline; the matcher is the same)."""

    def __init__(self, recognizer: Recognizer, *, open_vocabulary: bool = False) -> None:
        self.ears = Ears(recognizer, open_vocabulary=open_vocabulary)
        self._last: tuple[PhaseGrammar, str, Expected] | None = None

    @property
    def recognizer(self) -> Recognizer:
        return self.ears.recognizer

    def expected(self, request: ListenRequest) -> Expected | None:
        """What the recognizer listens for (None: a free recording, nothing to decode)."""
        pg = request.grammar
        if pg is None:
            return None
        last = self._last
        if last is not None and last[0] is pg and last[1] == request.grammar_name:
            return last[2]
        expected = Expected(RecognitionGrammar(
            # for an open phase (the clue word) the likely-word grammar, tried first
            name=request.grammar_name, jsgf=pg.recognition_jsgf(), words=pg.vocabulary(),
            open_jsgf=pg.open_slot_jsgf(ANY_WORD_RULE), spellings=pg.written_forms(),
            lead_words=pg.settings.lead_fillers, prompt=decoder_prompt(pg)),
            open_retry=pg.open_vocabulary)
        self._last = (pg, request.grammar_name, expected)
        return expected

    def use(self, request: ListenRequest) -> None:
        expected = self.expected(request)
        if expected is not None:
            self.ears.use(expected)

    def hear(self, samples: Samples, request: ListenRequest, *, source: str) -> Heard:
        expected = self.expected(request)
        if expected is None:  # a free recording: keep the audio, no decoding
            return Heard(HeardKind.SPEECH, text="", recording=samples, source=source)
        return self.heard(self.ears.recognize(samples, expected), samples, request,
                          source=source)

    def stream(self, request: ListenRequest) -> PhaseStream | None:
        """A decoder fed frame by frame while the player talks (None when the recognizer
        does not stream or there is nothing to decode)."""
        expected = self.expected(request)
        stream = None if expected is None else self.ears.stream(expected)
        return None if stream is None else PhaseStream(self, stream, request)

    @staticmethod
    def heard(transcript: Transcript, samples: Samples, request: ListenRequest, *,
              source: str) -> Heard:
        """The Heard of a transcript of ``samples``."""
        # the audio comes along: a free recording is the message, and any utterance's
        # voice tells who spoke (VoiceDesk.guess)
        return heard_from_transcript(transcript, source=source, recording=samples,
                                     closed_grammar=transcript.closed_grammar)

    def decode_wav(self, path: Path, request: ListenRequest) -> Heard:
        """A recorded utterance through the recognizer; a broken, cut-off or too short
        recording is an ERROR with its sentence, never decoded (a fragment of a word can be
        heard as a confident "no")."""
        try:
            samples = read_utterance_wav(path)
        except RecordingTooShort as exc:
            if exc.declared is not None:
                return Heard(HeardKind.ERROR, error=str(exc), source=str(path),
                             error_key="common.recording_cut_short",
                             error_params=(("declared", Quantity(exc.declared, SECONDS)),
                                           ("actual", Quantity(exc.actual, SECONDS))))
            return Heard(HeardKind.ERROR, error=str(exc), source=str(path),
                         error_key="common.recording_too_short",
                         error_params=(("actual", Quantity(exc.actual, SECONDS, 2)),))
        except SpeechError as exc:
            return coded_error(exc, source=str(path))
        return self.hear(samples, request, source=str(path))


class PhaseStream:
    """One utterance decoded while it is spoken (:class:`~voice_host.speech.ears.EarsStream`),
    finished as a Heard."""

    def __init__(self, ears: PhaseEars, stream: EarsStream, request: ListenRequest) -> None:
        self.ears = ears
        self.stream = stream
        self.request = request

    @property
    def frames_fed(self) -> int:
        """Frames decoded so far in the current attempt."""
        return self.stream.frames_fed

    def feed(self, frame: Samples, restart: bool = False, quiet: int | None = None) -> None:
        """Decode one more frame; ``restart`` drops what was fed before; ``quiet``: the
        endpointer's frames without speech up to this one."""
        self.stream.feed(frame, restart, quiet)

    def finish(self, samples: Samples, *, source: str) -> Heard:
        """The Heard of the utterance whose audio is ``samples``."""
        return self.ears.heard(self.stream.finish(samples), samples, self.request,
                               source=source)


LIST_HOLD_SECONDS = 1.0
"""How long after the endpointer's cut (itself ``trailing_silence`` after the last word) the
microphone waits for the rest of an answer heard short (``Wants``): a pause of up to 1.5 s
in the middle of a team, or between a clue's word and its number, is bridged."""

SENTENCE_HOLD_SECONDS = 1.0
"""How long the microphone waits, after a line that is no command of the phase, for the
speaker to go on: a pause of up to 1.5 s in the middle of a command ("marc, yes ... julien,
not at all ...", "I vote ... yes") is bridged. The host says nothing in the meantime, so
it never talks over the rest of a sentence, and a line that stays no command costs only
this wait before its answer (table talk gets none)."""


def heard_as(heard: Heard, request: ListenRequest) -> IntentMatch | None:
    """What the host would understand ``heard`` as (its best reading), for this request."""
    if request.grammar is None or heard.kind is not HeardKind.SPEECH:
        return None
    speaker = request.expected[0] if len(request.expected) == 1 else None
    return understand(heard, request.grammar.matcher, speaker=speaker).best


def shortfall(reading: IntentMatch | None, wants: Wants | None) -> int | None:
    """How much of the answer ``wants`` describes ``reading`` leaves out: the things its
    list lacks (one for an answer's first part, a clue's word without its number); None
    when it is not short (another command, not a command, a whole list, nothing wanted)."""
    if wants is None or reading is None or reading.intent != wants.intent:
        return None
    if wants.slot is None:
        return 1
    short = wants.count - len(reading.slots.get(wants.slot) or ())
    return short if short > 0 else None


def continues(whole: IntentMatch | None, start: IntentMatch, wants: Wants) -> bool:
    """``whole`` (the reading of an answer heard short, ``start``, and what was said after
    it, heard as one) continues it and leaves out less: it keeps what the first named (the
    players, the clue's word) and is a longer list of the same command or, for an answer's
    first part, a command that is more than that part."""
    short = shortfall(start, wants)
    if whole is None or short is None:
        return False
    for slot, value in start.slots.items():
        got = whole.slots.get(slot)
        kept = set(value) <= set(got or ()) if isinstance(value, tuple | list) \
            else got == value
        if not kept:
            return False
    if wants.slot is None:
        return whole.intent != wants.intent
    return whole.intent == wants.intent and (shortfall(whole, wants) or 0) < short


def completes(joined: IntentMatch | None, whole: Heard, *, first: Heard) -> bool:
    """Whether ``whole`` (a line that was no command, ``first``, and what followed it, heard
    as one) is that line completed: a command, and heard as more words than the first part
    was. A decode of the two that came out shorter is no continuation: babble at 6 dB
    decoded "can somebody open the window" + "it's hot in here" as the one word "miss"."""
    return joined is not None and len(whole.text.split()) > len(first.text.split())


class MicListener:
    """The microphone, endpointed, through the recognizer. During a countdown the host
    ticks once a second while it keeps listening.

    An answer heard shorter than the prompt wants (a team of one for a mission of two, a
    clue's word without its number) may be the speaker's pause, not their answer: the
    listener waits ``list_hold`` seconds more, and an utterance that starts within them is
    heard with the first as one ("myself" + "and Hugo", "ocean" + "two"). It is kept only
    when it leaves out less (:func:`continues`); otherwise the first is the answer and
    the second is heard next, as it was said. A line that is no command of the phase may
    be the first half of one cut at a pause ("marc, yes" + "julien, not at all ..."): the
    listener waits ``sentence_hold`` seconds, and keeps the two heard as one when together
    they are a command that goes on from the first (:func:`completes`)."""

    listens_in_slices = True
    """It honours a short timeout, so the host can listen while it waits for the phones."""

    def __init__(self, ears: PhaseEars, source: AudioSource, output: Output, *,
                 list_hold: float = LIST_HOLD_SECONDS,
                 sentence_hold: float = SENTENCE_HOLD_SECONDS) -> None:
        self.ears = ears
        self.source = source
        self.output = output
        self.list_hold = list_hold
        self.sentence_hold = sentence_hold

    def listen(self, request: ListenRequest) -> Heard:
        self.ears.use(request)
        stop_ticks = threading.Event()
        if request.countdown:
            self._start_ticks(request.countdown, stop_ticks)
        timeout = float(request.countdown) if request.countdown else request.timeout
        stream = self.ears.stream(request) if isinstance(self.source, EndpointedSource) \
            else None
        try:  # the countdown ticks on until the answer is heard, its list's rest included
            try:
                if stream is not None and isinstance(self.source, EndpointedSource):
                    utterance = self.source.listen(timeout=timeout, on_frame=stream.feed)
                else:
                    utterance = self.source.listen(timeout=timeout)
            except SilenceTimeout:
                return Heard(HeardKind.SILENCE, source="microphone")
            except EndOfAudio:
                return Heard(HeardKind.END, source="microphone")
            except SpeechError as exc:
                return coded_error(exc, source="microphone")
            problem = utterance_problem(utterance)
            if stream is not None:
                heard = stream.finish(utterance.samples, source="microphone")
            else:
                heard = self.ears.hear(utterance.samples, request, source="microphone")
            if problem is None:
                heard = self._rest_of_answer(heard, utterance.samples, request)
        finally:
            stop_ticks.set()
        if problem and (heard.kind is not HeardKind.SPEECH or heard.rejected):
            # clipped or cut off and not understood: say what was wrong with the audio
            return Heard(HeardKind.ERROR, error=SPEECH_MESSAGES[problem], error_code=problem,
                         source="microphone")
        return heard

    def _rest_of_answer(self, heard: Heard, samples: Samples,
                        request: ListenRequest) -> Heard:
        """``heard``, or both utterances heard as one when the speaker goes on after a
        pause: after an answer short of what the request wants (within ``list_hold``
        seconds; kept when it leaves out less, :func:`continues`), or after a line that is
        no command of the phase (within ``sentence_hold``; kept when the two together are
        one, :func:`completes`)."""
        source = self.source
        if not isinstance(source, EndpointedSource) or request.grammar is None \
                or heard.kind is not HeardKind.SPEECH:
            return heard
        start, wants = heard_as(heard, request), request.wants
        keeps: Callable[[IntentMatch | None, Heard], bool]
        if start is None:
            hold, mark = self.sentence_hold, "sentence_joined"
            keeps = lambda joined, whole: completes(joined, whole, first=heard)  # noqa: E731
        elif wants is not None and shortfall(start, wants) is not None:
            hold, mark = self.list_hold, "list_joined"
            keeps = lambda joined, _whole: continues(joined, start, wants)  # noqa: E731
        else:
            return heard  # a whole command: acted on at once
        if hold <= 0:
            return heard
        waited = replace(heard, details={**heard.details, "held": 1})
        try:
            more = source.listen(timeout=hold)
        except (SilenceTimeout, EndOfAudio, SpeechError):
            return waited  # nothing more (the end of input, if it is, comes next time)
        if utterance_problem(more) is None:
            whole = self.ears.hear(np.concatenate([samples, more.samples]), request,
                                   source="microphone")
            if keeps(heard_as(whole, request), whole):
                return replace(whole, details={**whole.details, "held": 1, mark: 1})
        source.put_back(more)  # not the rest of the answer: the next thing said
        return waited

    def _start_ticks(self, seconds: int, stop: threading.Event) -> None:
        def run() -> None:
            for remaining in range(seconds - 1, -1, -1):
                if stop.wait(1.0):
                    return
                self.output.tick(remaining)

        threading.Thread(target=run, name="voice-host-countdown", daemon=True).start()

    def close(self) -> None:
        self.source.close()
