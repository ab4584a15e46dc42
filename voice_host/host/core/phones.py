"""The players' phones in a session: what the loop needs of the companion page (the
:class:`Companion` protocol, implemented by ``host/companion``'s ``CompanionChannel``), and
the :class:`PhoneDesk` that coordinates it with the voice: seats claimed and confirmed
before anything secret, inputs from the phones applied between two listens, secret input
waited for while spoken commands are still heard."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from voice_host.games import Action, GameState
from voice_host.host.core.adapter import Prompt, PromptKind
from voice_host.host.core.commands import UNIVERSAL
from voice_host.host.core.questions import answer_question
from voice_host.host.core.understanding import understand
from voice_host.host.core.values import HeardKind, Line, ListenRequest, SlicedListener, Stop

if TYPE_CHECKING:
    from voice_host.host.core.session import Session

LISTEN_SLICE = 1.5
"""While phones may answer, a listener that can stop early (the microphone, a terminal)
listens this many seconds at a time, so a phone's input waits no longer than that."""
SEAT_REMINDERS = 0
"""How many times the host names the seats still missing again, unasked, after saying it
once: none (a table that is picking up phones hears it once, then when it asks)."""


class SeatState(Protocol):
    """One seat as anyone with the room code may know it."""

    @property
    def name(self) -> str: ...

    @property
    def claimed(self) -> bool: ...

    @property
    def confirmed(self) -> bool: ...


class SeatNews(Protocol):
    """Something that happened to a seat, said aloud by the host."""

    @property
    def kind(self) -> str:
        """``"claimed"``, ``"moved"``, ``"released"``, ``"confirmed"`` or ``"rotated"``."""
        ...

    @property
    def seat(self) -> str: ...


class Seats(Protocol):
    """The seats of the companion page."""

    @property
    def locked(self) -> bool:
        """Every player confirmed their seat: only then are secrets shown."""
        ...

    def seats(self) -> Sequence[SeatState]: ...

    def all_confirmed(self) -> bool: ...


class Companion(Protocol):
    """What the session loop needs of the companion page."""

    @property
    def seats(self) -> Seats: ...

    @property
    def wait_for_everyone(self) -> bool:
        """Nothing secret is shown before every seat is claimed and confirmed."""
        ...

    def publish(self, state: GameState) -> None:
        """The game changed: every page gets its view of ``state``."""
        ...

    def recap(self, lines: Sequence[str]) -> None:
        """The end of game's recap, for the table's end screen and every seat."""
        ...

    def private_turn(self, state: GameState) -> tuple[str, ...]:
        """The players whose secret input (a mission card) only the phones take now."""
        ...

    def phone_turn(self, state: GameState) -> tuple[str, ...]:
        """The players who may answer the current prompt on their phone as well as aloud."""
        ...

    def open_turn(self, seats: Sequence[str]) -> None:
        """The host asks ``seats`` now: only they may send a (non-secret) input from their
        phone, and only until the phase changes; anything else is refused on the page."""
        ...

    def pending(self) -> int:
        """Inputs from the phones waiting for the host."""
        ...

    def take_actions(self, state: GameState | None = None) -> list[Action]:
        """Every waiting input, oldest first, checked again against ``state``."""
        ...

    def wait_for_action(self, timeout: float, state: GameState | None = None) -> Action | None:
        """The oldest waiting input, waiting up to ``timeout`` seconds; None if none."""
        ...

    def take_seat_events(self) -> Sequence[SeatNews]: ...

    def wait_for_seat_event(self, timeout: float) -> None: ...

    def lock_seats(self) -> None: ...

    def try_lock_seats(self) -> bool:
        """Lock the seats if every one is confirmed, in one step (True when locked)."""
        ...

    def game_started(self) -> None:
        """A player's move was taken: with physical cards the seats lock now."""
        ...

    def move_code(self, seat: str) -> str | None:
        """The seat's current move code (shown on the host's screen only)."""
        ...

    def say_seat_news(self, session: Session) -> bool:
        """Say in ``session`` what changed on the seats and ask the table about a phone
        that asks for a seat (the page's own rules); True when anything was said."""
        ...

    def show_move_code(self, session: Session, name: str) -> None:
        """Show one seat's move code on the host's own screen (typed requests only)."""
        ...


class PhoneDesk:
    """The companion page's side of one session."""

    def __init__(self, session: Session, companion: Companion) -> None:
        self.session = session
        self.companion = companion
        companion.open_turn(())  # nobody is asked before the first prompt

    def slices(self) -> bool:
        """Whether the listener can listen a short while and stop (then phones and voice
        are taken together); a script or a pipe cannot, so it is read only when nothing
        is expected from the phones."""
        listener = self.session.listener
        return isinstance(listener, SlicedListener) and listener.listens_in_slices

    def before_listening(self, prompt: Prompt) -> tuple[bool, Stop | None]:
        """Between two listens: say the seats' news, apply what the phones sent, or wait
        for a secret input. (True, stop) when the loop should go round again (or stop):
        to hear the answer to the table's question about a seat, too."""
        s = self.session
        self.seat_news()
        if s.question is not None:  # a phone asks for a seat: the loop hears the answer
            return True, None
        self.companion.open_turn(self.asked(prompt))
        if self.take_inputs():
            return True, None
        if self.companion.private_turn(s.state):
            return True, self.wait_private(prompt)
        return False, None

    def asked(self, prompt: Prompt) -> tuple[str, ...]:
        """The seats that may act on their phone during ``prompt``: whoever owes a secret
        input, and the players the prompt asks when it takes a move they may tap."""
        state = self.session.state
        seats = set(self.companion.private_turn(state))
        if prompt.kind is PromptKind.COMMAND:
            may = set(self.companion.phone_turn(state))
            seats |= may & set(prompt.expected) if prompt.expected else may
        return tuple(p for p in state.players if p in seats)

    def answers_too(self, prompt: Prompt) -> bool:
        """Whether phones may answer this prompt while the host listens."""
        return (self.slices() and not prompt.countdown and prompt.kind is PromptKind.COMMAND
                and bool(self.companion.phone_turn(self.session.state)))

    def take_inputs(self) -> bool:
        """Apply what the phones sent (votes, picks, guesses, cards), oldest first, each
        checked again against the game. True when anything was applied."""
        s = self.session
        if not self.companion.pending():
            return False
        applied = False
        for action in self.companion.take_actions(s.state):
            if s.apply(action):
                applied = True
                s.paused = False
                s.patience.heard()
        return applied

    def wait_private(self, prompt: Prompt) -> Stop | None:
        """Secret input (a mission card) comes from the companion pages, checked by the
        engine there. The host still listens for spoken commands meanwhile when the
        listener allows it; silence re-prompts, then waits quietly."""
        s = self.session
        if not self.slices():
            action = self.companion.wait_for_action(s.options.silence_timeout, s.state)
            if action is None:
                s.on_silence(prompt)
                return None
            s.paused = False
            s.patience.heard()
            s.apply(action)
            return None
        return self.listen_while_waiting(prompt, lambda: self.companion.pending() > 0)

    def listen_while_waiting(self, prompt: Prompt, done: Callable[[], bool]) -> Stop | None:
        """Listen in short slices until ``done()`` (phones answered) or the silence timeout;
        a spoken command is carried out, anything else gets the waiting reminder."""
        s = self.session
        waited = 0.0
        while not done():
            self.seat_news()  # seat news, and a phone asking for a seat
            if s.question is not None:  # its answer is the loop's next listen
                return None
            pg, matcher = s.phase_grammar(prompt.phase)
            request = ListenRequest(
                grammar=pg, grammar_name=f"{s.adapter.game}.{prompt.phase}",
                expected=prompt.expected, timeout=LISTEN_SLICE, prompt=prompt,
                purpose="slice", wants=prompt.wants)
            heard = s.listen(request)
            if heard.kind is HeardKind.SILENCE:
                waited += LISTEN_SLICE
                if waited >= s.options.silence_timeout:
                    return s.on_silence(prompt)
                continue
            return s.handle(prompt, heard, matcher)
        return None

    def wait_for_seats(self) -> Stop | None:
        """Before anything secret exists (or, in a resumed game, is shown): every seat is
        claimed on a phone, each claim said aloud, then every player confirms on their own
        phone that it shows their name. The host keeps listening for commands meanwhile,
        and for the answer when it asks the table about a new phone (``Session.question``,
        answered as in the loop)."""
        s = self.session
        channel = self.companion
        names = s.narrator.names
        asked = False
        lines = [s.narrator.line("companion.waiting_phones")]
        prompt = Prompt(lines=tuple(lines), phase="answer", expected=(), key="companion.seats")
        waited = 0.0
        reminders = 0
        free = [seat.name for seat in channel.seats.seats() if not seat.claimed]
        if free:
            s.say_key("companion.waiting_for", names=names(free))
        while True:
            if self.seat_news():
                waited = 0.0
            while s.question is not None:  # a new phone asks for a seat: the table answers
                stop = answer_question(s)
                if stop is not None:
                    return stop
            seats = channel.seats.seats()
            if channel.try_lock_seats():  # in one step: no move slips in between
                s.say_key("companion.all_confirmed")
                return None
            missing = [seat.name for seat in seats if not seat.claimed]
            if not missing and not asked:
                s.say_key("companion.check_names")
                asked = True
            elif missing:
                asked = False
            if not self.slices():
                channel.wait_for_seat_event(LISTEN_SLICE)
            else:
                stop = self.listen_for_command(prompt)
                if stop is not None:
                    return stop
            waited += LISTEN_SLICE
            if waited >= s.options.silence_timeout and reminders < SEAT_REMINDERS:
                waited = 0.0
                reminders += 1
                if missing:
                    s.say_key("companion.waiting_for", names=names(missing))
                else:
                    s.say_key("companion.waiting_confirm",
                              names=names([seat.name for seat in seats if not seat.confirmed]))

    def seat_news(self) -> bool:
        """Say what changed on the seats (merged, at most every few seconds), who must
        confirm again after a move, and ask the table about a phone that asks for a seat."""
        return self.companion.say_seat_news(self.session)

    def listen_for_command(self, prompt: Prompt) -> Stop | None:
        """One short listen for a universal command (help, status, stop the game ...)."""
        s = self.session
        pg, matcher = s.phase_grammar(prompt.phase)
        heard = s.listen(ListenRequest(
            grammar=pg, grammar_name=f"{s.adapter.game}.{prompt.phase}", expected=(),
            timeout=LISTEN_SLICE, prompt=prompt, purpose="slice"))
        s.last_heard = heard
        if heard.kind is HeardKind.END:
            return s.handle(prompt, heard, matcher)
        if heard.kind is not HeardKind.SPEECH:
            return None
        best = understand(heard, matcher, speaker=None).best
        if best is not None and best.intent == "help":
            s.say_key("companion.waiting_help", player=s.state.players[0])
            return None
        if best is not None and best.intent in ("repeat", "status"):
            s.say([self.seats_line()])  # asked: who the host still waits for
            return None
        if best is not None and best.intent in UNIVERSAL:
            return s.universal(best, prompt)
        s.say(prompt.lines)
        return None

    def seats_line(self) -> Line:
        """Whose phone the host still waits for: a seat to claim, or to confirm."""
        s = self.session
        seats = self.companion.seats.seats()
        missing = [seat.name for seat in seats if not seat.claimed]
        if missing:
            return s.narrator.line("companion.waiting_for", names=s.narrator.names(missing))
        return s.narrator.line("companion.waiting_confirm", names=s.narrator.names(
            [seat.name for seat in seats if not seat.confirmed]))

    def waiting_line(self, prompt: Prompt) -> Line | None:
        """While phones may answer ``prompt``: the one line that says whom the host still
        waits for (None when the phones answer nothing now). Said once per prompt instead
        of "I did not hear anything": a table voting on phones is quiet on purpose."""
        s = self.session
        secret = self.companion.private_turn(s.state)
        if secret:
            return s.narrator.line("companion.waiting_card", names=s.narrator.names(secret))
        if not self.answers_too(prompt):
            return None
        asked = self.asked(prompt)
        if not asked:
            return None
        return s.narrator.line("companion.waiting_answer", names=s.narrator.names(asked))

    def show_move_code(self, name: str) -> None:
        """The host asked for one seat's move code: shown on the host's terminal only when
        typed there (a voice anyone can imitate gets a refusal), never said, then wiped."""
        self.companion.show_move_code(self.session, name)
