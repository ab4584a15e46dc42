"""Who is talking, by voice: the table's enrolment and what the session does with a voice.

At the start of a game (and again on "host, learn my voice") the host asks each player in
turn for a short sentence and keeps its voice print (:class:`~voice_host.speech.speakers.
SpeakerId`); silence or "skip" leaves that player out, and a game whose players all skip
plays as without voices. Every later utterance with audio gets the most likely seat and a
confidence (:meth:`VoiceDesk.guess`), which the session uses in three ways:

* an utterance that names no speaker is the confident voice's player's (a bare "yes" is
  that player's vote; "me" is that player);
* a move that names its own actor ("Ada yes") said in another enrolled player's confident
  voice is asked about ("Cleo, was that your vote, or Ada's?") instead of taken;
* an utterance confidently attributed refines that player's print.

The prints are saved with the game (vectors only, never audio)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from voice_host.host.core.adapter import Prompt, PromptKind
from voice_host.host.core.choice import PendingChoice
from voice_host.host.core.commands import UNIVERSAL
from voice_host.host.core.values import Heard, Stop, Voice
from voice_host.intent import IntentMatch
from voice_host.speech.speakers import (
    MAX_ENROLMENT,
    Embedder,
    SpeakerGuess,
    SpeakerId,
    SpeakerModelUnavailable,
    VoicePrintError,
)

__all__ = ["ENROL_PHASE", "SpeakerGuess", "VoiceDesk", "asked_whose", "hear", "logged",
           "on_silence", "prints", "prompt", "take"]

if TYPE_CHECKING:
    from voice_host.games import GameState
    from voice_host.host.core.session import Session

ENROL_PHASE = "voice_enrolment"
"""The phase name of the enrolment prompts (a free recording: nothing is decoded)."""
SKIP_WORDS = frozenset({"skip", "pass", "next", "passe", "passer", "suivant"})
"""Typed enrolment answers that skip the player without a word (any other typed line skips
them too, saying that a voice is learnt from speech only)."""


@dataclass
class VoiceDesk:
    """The table's voices and the enrolment in progress."""

    ids: SpeakerId
    """The prints."""
    queue: list[str] = field(default_factory=list)
    """Players still to be asked for a sentence, in order."""
    asked: set[str] = field(default_factory=set)
    """Players asked once already in this enrolment (a second silence skips them)."""

    @classmethod
    def start(cls, embedder: Embedder, saved: dict[str, Any] | None = None, *,
              enrol: Sequence[str] = ()) -> VoiceDesk:
        """A desk with ``embedder``: with the prints of a resumed game when they are
        readable and made by the same model, else empty; ``enrol``: the players asked for a
        sentence before the game's first prompt (a new game's)."""
        desk = cls(SpeakerId(embedder))
        if saved:
            try:
                desk = cls(SpeakerId.from_json(saved, embedder))
            except VoicePrintError:
                pass
        if enrol and not desk.ids.enrolled():
            desk.begin(enrol)
        return desk

    # enrolment ---------------------------------------------------------------------
    def begin(self, players: Sequence[str]) -> None:
        """Ask ``players`` (in this order) for a sentence each, their old prints dropped."""
        for player in players:
            self.ids.forget(player)
        self.queue = list(players)
        self.asked = set()

    @property
    def enrolling(self) -> bool:
        return bool(self.queue)

    def next_prompt(self, s: Session) -> Prompt:
        """The prompt that asks the next player for a sentence."""
        player = self.queue[0]
        key = "common.voice_enrol_first" if not self.ids.enrolled() and not self.asked \
            else "common.voice_enrol_next"
        lines = (s.narrator.line(key, player=player),)
        return Prompt(lines=lines, phase=ENROL_PHASE, expected=(player,),
                      key=f"{ENROL_PHASE}:{player}", kind=PromptKind.RECORD,
                      reminder=(s.narrator.line("common.voice_enrol_next", player=player),))

    def take(self, s: Session, heard: Heard) -> Stop | None:
        """The answer to an enrolment prompt: the recording is the player's sentence; a
        typed "skip" or a recording without speech skips the player."""
        player = self.queue[0]
        audio = heard.recording
        if audio is None or not len(audio):  # typed: no voice to learn ("skip", a name)
            if heard.text.strip().lower().strip(".!") not in SKIP_WORDS:
                s.say_key("common.voice_enrol_no_audio", player=player)
            self.skip(s, player)
            return None
        try:
            count = self.ids.enrol(player, audio)
        except SpeakerModelUnavailable as exc:
            s.log.write("voice_unavailable", reason=str(exc))
            self.queue = []
            s.say_key("common.voice_unavailable")
            return None
        if count == 0:  # too little speech to learn from
            if player in self.asked:
                self.skip(s, player)
            else:
                self.asked.add(player)
                s.say_key("common.voice_enrol_again", player=player)
            return None
        s.log.write("voice_enrolled", player=player, count=count)
        self.queue.pop(0)
        self.finish_if_done(s, thanked=player)
        return None

    def on_silence(self, s: Session) -> None:
        """Nobody answered the enrolment prompt: ask once more, then skip the player."""
        player = self.queue[0]
        if player in self.asked:
            self.skip(s, player)
        else:
            self.asked.add(player)
            s.say_key("common.voice_enrol_next", player=player)

    def skip(self, s: Session, player: str) -> None:
        s.log.write("voice_skipped", player=player)
        self.queue.pop(0)
        self.finish_if_done(s, skipped=player)

    def finish_if_done(self, s: Session, *, thanked: str | None = None,
                       skipped: str | None = None) -> None:
        if self.queue:
            if thanked:
                s.say_key("common.voice_thanks", player=thanked)
            elif skipped:
                s.say_key("common.voice_skipped", player=skipped)
            return
        enrolled = self.ids.enrolled()
        if enrolled:
            s.say_key("common.voice_enrol_done", players=s.narrator.names(list(enrolled)))
        else:
            s.say_key("common.voice_enrol_none")
        s.save()

    # identification ----------------------------------------------------------------
    def guess(self, heard: Heard) -> SpeakerGuess | None:
        """The voice's guess for ``heard`` (None without audio or before anyone enrolled,
        or when the model cannot run)."""
        if heard.recording is None or not len(heard.recording) or not self.ids.enrolled():
            return None
        try:
            return self.ids.identify(heard.recording)
        except SpeakerModelUnavailable:
            return None

    def logged(self, heard: Heard) -> dict[str, Any]:
        """The voice of ``heard`` as its ``heard`` event records it (:func:`logged`)."""
        return logged(self.guess(heard))

    def confident_seat(self, guess: SpeakerGuess | None, players: Sequence[str]
                       ) -> str | None:
        """The player the voice names with confidence (None otherwise)."""
        if guess is None or not guess.is_confident(self.ids.tuning):
            return None
        return guess.seat if guess.seat in players else None

    def refine(self, heard: Heard, seat: str) -> None:
        """Learn from an utterance confidently attributed to ``seat``: it becomes an
        enrolment print while the seat has fewer than three, else a refinement."""
        if heard.recording is None:
            return
        try:
            vector = self.ids.embed(heard.recording)
        except SpeakerModelUnavailable:
            return
        if vector is None:
            return
        if self.ids.enrolment_count(seat) < MAX_ENROLMENT:
            self.ids.enrol_print(seat, vector)
        else:
            self.ids.refine_print(seat, vector)


def logged(guess: SpeakerGuess | None) -> dict[str, Any]:
    """What a ``heard`` event records of its voice, as plain values: the seat the voice was
    attributed to (None: too close to call) and the confidence; nothing when there is no
    guess (no audio, or nobody enrolled)."""
    if guess is None:
        return {}
    return {"voice_seat": guess.seat, "voice_confidence": round(guess.confidence, 3)}


def prints(desk: VoiceDesk | None) -> dict[str, Any]:
    """What the save keeps of the voices: the prints (empty when nobody enrolled)."""
    return desk.ids.to_json() if desk is not None and desk.ids.enrolled() else {}


def prompt(s: Session) -> Prompt | None:
    """The enrolment's prompt while players are still to be asked, else None."""
    return s.voices.next_prompt(s) if s.voices is not None and s.voices.enrolling else None


def take(s: Session, heard: Heard) -> Stop | None:
    """An answer to an enrolment prompt (:meth:`VoiceDesk.take`)."""
    return s.voices.take(s, heard) if s.voices is not None else None


def on_silence(s: Session) -> Stop | None:
    """Nobody answered an enrolment prompt (:meth:`VoiceDesk.on_silence`); the game goes
    on (None)."""
    if s.voices is not None and s.voices.enrolling:
        s.voices.on_silence(s)
    return None


def hear(s: Session, heard: Heard) -> Heard:
    """``heard`` with its voice (:attr:`Heard.voice`): the player the voice names with the
    confidence the host acts on, else no seat. The full guess is kept as ``s.voice`` and
    logged. ``heard`` as it is without audio, voices, or a voice already known."""
    desk = s.voices
    s.voice = desk.guess(heard) if desk is not None else None
    if desk is None or s.voice is None or heard.voice is not None:
        return heard
    s.log.write("voice", seat=s.voice.seat, best=s.voice.best,
                confidence=round(s.voice.confidence, 3), source=heard.source)
    seat = desk.confident_seat(s.voice, s.state.players)
    return replace(heard, voice=Voice(seat, s.voice.confidence if seat else 0.0))


def asked_whose(s: Session, prompt: Prompt, match: IntentMatch, heard: Heard,
                speaker: str | None, voice: str | None) -> bool:
    """Before a move is taken: when it names one player as its actor and the confident
    voice is another player's, ask whose move it is (:func:`ask_whose`; True). Otherwise
    (False) an utterance the voice attributes to its speaker refines that voice."""
    if voice is None or match.intent in UNIVERSAL or s.voices is None:
        return False
    other = contradiction(s, match, voice)
    if other is not None:
        ask_whose(s, prompt, match, voice, *other)
        return True
    if speaker == voice:
        s.voices.refine(heard, voice)
    return False


OwnMove = Callable[["GameState", IntentMatch], "tuple[str, IntentMatch] | None"]
"""An adapter's optional ``own_move``: for a reading that names the one player making the
move ("Ada yes"), that player and the same move with nobody named ("yes"); else None."""


def contradiction(s: Session, match: IntentMatch, voice: str | None
                  ) -> tuple[str, IntentMatch] | None:
    """When ``match`` names one player as the actor of its move and the confident voice
    (``voice``) is another enrolled player's: the named player and the voice's own reading
    of the move. None otherwise (no voice, the voice agrees, or the game names no actor)."""
    if voice is None:
        return None
    own_move: OwnMove | None = getattr(s.adapter, "own_move", None)
    if own_move is None:
        return None
    found = own_move(s.state, match)
    if found is None or found[0] == voice:
        return None
    return found


def ask_whose(s: Session, prompt: Prompt, match: IntentMatch, voice: str,
              named: str, own: IntentMatch) -> None:
    """Ask "Cleo, was that your vote, or Ada's?" and take neither yet. The answer names one
    of the two moves (:class:`~voice_host.host.core.choice.PendingChoice`): "mine", "Cleo"
    or "the first" for the speaker's own, "Ada" or "the second" for the named player's; or
    the players say the move again."""
    mine = IntentMatch(own.intent, dict(own.slots), own.confidence,
                       s.narrator.text("common.voice_own_words", player=voice))
    theirs = IntentMatch(match.intent, dict(match.slots), match.confidence, named)
    question = (s.narrator.line("common.voice_whose", speaker=voice, named=named),)
    s.log.write("voice_contradicts", voice=voice, named=named, intent=match.intent)
    s.choosing = PendingChoice(prompt.phase, (mine, theirs), voice, question)
    s.say(question)
