"""Whole games played by tables of synthetic players through the real host loop and the
recognizer: ``voice-host bench --games`` (or ``python benchmarks/bench_games.py``).

    voice-host bench --games --lang en --condition clean --games-per 2 --split report

* **The table**: each seat has its own voice (Kokoro's test voices, Festival's English
  voices, and at most one espeak-ng voice per table), its own speed and loudness; the
  ``calib`` and ``report`` splits use different voices, speeds, fillers and table talk
  (``recognition_data``'s halves), so figures are read on what was not tuned on.
* **The players** decide their moves from their own hidden cards (the game's bots:
  ``registration(game).bots``) and say them with a filler now and then ("okay, ...");
  between moves they sometimes chat (table talk the host must not act on). They react to
  the host as a table would: a yes/no question is answered by whether the host read what
  they meant; "Did you mean X, or Y?" by naming the one meant; a prompt asked again is
  said again (another filler); a move the host took that differs from the one meant is
  answered at once with a correction ("undo", "no, that's wrong") and said again.
* **The host** is the real session (``wiring.wire_session``) with its text output; each
  utterance is rendered, put in the condition (clean, babble at 12 dB, a reverberant room)
  and heard by the recognizer (``PhaseEars``) as a script's ``Name: file.wav`` line is.
  The bench writes its own ``bench_said`` and ``bench_wait`` events into the host's event
  log, between the host's, so that the counting (:func:`score`) reads one stream.
* **Voices**: before the game each player enrols their voice with three sentences (said in
  their voice, in the condition), as ``bench_speakers.py`` does; the host then attributes
  each utterance to a seat by voice and logs it on its ``heard`` events.
* **Figures** per game: completed, moves understood at the first try, questions, wrong
  moves, silent drops, table talk acted on, corrections taken, speaker identification
  (the share of judged utterances attributed to the seat that said them, and to another
  seat; n/a without the speaker model or with ``--no-voices``), and the wait from
  the end of an utterance to the host's first spoken reply (processing time: the audio is
  not played at its real pace; narration synthesis is not included, the output is text),
  and of the moves missed at the first try, those the recognizer had written right.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import random
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import bench_recognition as rec  # noqa: E402
import recognition_data as data  # noqa: E402
from bench_speakers import ENROLMENT  # noqa: E402

from voice_host.text import tokenize  # noqa: E402

GAMES = ("ici-londres", "resistance", "codenames")
CONDITIONS = ("clean", "babble12", "room")
MAX_UTTERANCES = 400
"""A game that has not ended after this many utterances is stopped (counted as not
completed)."""
REPHRASE_FROM = 3
"""From this attempt on, a move the host did not take is said in other words."""
REPHRASE_TRIES = 30
TYPE_FROM = 7
"""From this attempt on, a player the host keeps not understanding types the move instead (the
keyboard, as the host offers): the game goes on, and the move counts as typed."""
CHOOSE_TRIES = 2
"""Answers to one "Did you mean X, or Y?" before the player says the move again instead."""
CHATTER_RATE = 0.15
"""How often a player chats before the awaited answer."""
CORRECTIONS = {"en": ("undo", "no, that's wrong", "wait, undo that"),
               "fr": ("annule", "non, annule", "non, c'est faux")}
"""What a player says when the host took a move they did not mean."""
YES_NO = {"en": ("yes", "no"), "fr": ("oui", "non")}


@dataclass(frozen=True)
class SplitVoices:
    """The voices and speeds of one split."""

    kokoro: tuple[str, ...]
    festival: tuple[str, ...]
    espeak: Mapping[str, tuple[str, ...]]
    kokoro_speed: tuple[float, ...]
    festival_stretch: tuple[float, ...]


SPLIT_VOICES = {
    "calib": SplitVoices(("jf_alpha",), ("kal_diphone",),
                         {"en": ("en-us", "en-gb"), "fr": ("fr", "fr-be")}, (0.9, 1.0), (1.0,)),
    "report": SplitVoices(("jf_gongitsune", "jm_kumo"), ("ked_diphone", "cmu_us_slt_arctic_hts"),
                          {"en": ("en-gb-scotland", "en-us+f3"), "fr": ("fr+f3", "fr-ch+f2")},
                          (0.9, 1.0, 1.15), (0.85, 1.0, 1.2)),
}
"""The voices of each split: no voice is in both."""


# --------------------------------------------------------------------------- counting


@dataclass
class GameScore:
    """The figures of one game, counted from its event log (:func:`score`)."""

    completed: bool = False
    moves: int = 0
    """Moves the players set out to make (a move said again counts once)."""
    first_try: int = 0
    """Moves taken as meant from their first utterance, with no question."""
    questions: int = 0
    """Yes/no and "did you mean" questions about a move."""
    wrong_moves: int = 0
    """Moves applied that differ from what the player meant."""
    silent_drops: int = 0
    """Utterances of an awaited player that got no spoken reply before the next listen."""
    talk: int = 0
    """Table talk lines said."""
    talk_acted: int = 0
    """Table talk lines the host acted on (a move, or a question about one)."""
    talk_answered: int = 0
    """Table talk lines the host answered with a spoken line (a re-ask, help, a question)
    before it listened again."""
    corrections: int = 0
    corrections_taken: int = 0
    typed: int = 0
    """Moves typed after the host missed them by voice this many times (``TYPE_FROM``)."""
    missed_heard_right: int = 0
    """Moves not taken at the first try although the recognizer's free transcript of the
    first attempt held the words said (fillers, case and punctuation aside): the misses the
    host's own reading caused; the rest of the misses were misheard."""
    voice_checked: int = 0
    """Utterances whose voice the host judged (voices enrolled, audio heard)."""
    voice_right: int = 0
    """... attributed to the seat that said them."""
    voice_wrong: int = 0
    """... attributed to another seat (the rest: unknown, too close to call)."""
    waits: list[float] = field(default_factory=list)
    utterances: int = 0

    def add(self, other: GameScore) -> None:
        for f in dataclasses.fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if f.name == "completed":
                continue
            setattr(self, f.name, mine + theirs)


MOVE_KINDS = ("move",)
ANSWER_KINDS = ("move", "confirm", "choose", "correction", "typed")
TAKEN_KINDS = ("move", "confirm", "choose", "typed")
"""What is said just before a move the host takes."""
"""What an awaited player says that the host must answer."""


def _filler_words() -> frozenset[str]:
    import tomllib

    words: set[str] = set()
    for lang in ("en", "fr"):
        settings = tomllib.loads((ROOT / "grammars" / lang / "common.toml").read_text(
            encoding="utf-8")).get("settings", {})
        for key in ("lead_fillers", "interjections"):
            words.update(w for item in settings.get(key, ()) for w in tokenize(item))
    return frozenset(words)


_NUMBER_WORDS = {w: str(i) for names in (
    "zero one two three four five six seven eight nine ten".split(),
    "zéro un deux trois quatre cinq six sept huit neuf dix".split()) for i, w in enumerate(names)}


def said_words(text: str | None, fillers: frozenset[str]) -> list[str]:
    """The words of a line to compare what was said with what the recognizer wrote: case,
    punctuation and fillers aside, numbers as digits."""
    return [_NUMBER_WORDS.get(w, w) for w in tokenize(text or "") if w not in fillers]


def _spoken(event: Mapping[str, Any]) -> bool:
    return event.get("event") == "narration" and bool(str(event.get("text", "")).strip())


def _voice(event: Mapping[str, Any]) -> tuple[bool, str | None]:
    """Whether the host's speaker identification judged a ``heard`` event (it logs
    ``voice_confidence`` when voices are enrolled and the utterance has audio), and the seat
    it attributed the voice to (None: unknown, too close to call)."""
    if "voice_confidence" not in event:
        return False, None
    seat = event.get("voice_seat")
    return True, seat if isinstance(seat, str) and seat else None


def score(events: Iterable[Mapping[str, Any]]) -> GameScore:
    """Count one game's figures from its event log: the host's events and the bench's
    ``bench_said`` (who said what, its kind, the move meant as ``meant_action``, whether
    the host awaited the speaker, the attempt) and ``bench_wait`` (seconds to the reply)."""
    s = GameScore()
    fillers = _filler_words()
    said: Mapping[str, Any] | None = None  # the last bench utterance
    episode: dict[str, Any] | None = None  # the move being made: its meant action, state
    replied = True
    after_move_taken = False
    applied: list[Any] = []
    last_purpose = None
    for e in events:
        kind = e.get("event")
        if kind == "bench_said":
            if said is not None and not replied and said.get("expected") \
                    and said.get("kind") in ANSWER_KINDS:
                s.silent_drops += 1
            said, replied = e, False
            s.utterances += 1
            what = e.get("kind")
            if what == "chat":
                s.talk += 1
            elif what == "correction":
                s.corrections += 1
            elif what in MOVE_KINDS:
                if e.get("attempt", 1) == 1 or episode is None:
                    _close(s, episode)
                    s.moves += 1
                    episode = {"meant": e.get("meant_action"), "clean": True,
                               "counted": False, "said": e.get("text"), "heard_right": None}
                else:
                    episode["clean"] = False  # said again: not the first try
            elif what == "typed":
                s.typed += 1
                if episode is not None:
                    episode["clean"] = False
            elif what == "choose" and episode is not None:
                episode["clean"] = False
        elif kind == "bench_wait":
            if e.get("seconds") is not None and e.get("replied") and said is not None \
                    and said.get("kind") in ANSWER_KINDS and said.get("kind") != "typed":
                s.waits.append(float(e["seconds"]))
        elif kind == "listening":
            if said is not None and not replied and said.get("expected") \
                    and said.get("kind") in ANSWER_KINDS:
                s.silent_drops += 1
            replied = True  # counted once
            purpose = e.get("purpose")
            if purpose == "confirm" and last_purpose != "confirm" and said is not None \
                    and said.get("kind") != "correction":
                if said.get("kind") == "chat":
                    s.talk_acted += 1
                else:
                    s.questions += 1
                    if episode is not None:
                        episode["clean"] = False
            last_purpose = purpose
        elif kind == "narration" and _spoken(e):
            if not replied and said is not None and said.get("kind") == "chat":
                s.talk_answered += 1
            replied = True
        elif kind in ("reask", "reprompt", "refused", "undo", "confirmation", "game_over"):
            if not replied and said is not None and said.get("kind") == "chat" \
                    and kind in ("reask", "refused"):
                s.talk_answered += 1
            replied = True
            if kind == "undo" and said is not None and said.get("kind") in (
                    "correction", "confirm") and episode is not None \
                    and episode.get("wrong_pending"):
                s.corrections_taken += 1
                episode["wrong_pending"] = False
            if kind == "game_over":
                s.completed = True
        elif kind == "heard" and said is not None:
            if episode is not None and episode.get("heard_right") is None \
                    and said.get("text") == episode.get("said"):
                episode["heard_right"] = said_words(episode["said"], fillers) == said_words(
                    e.get("free") or e.get("transcript"), fillers)
            judged, seat = _voice(e)
            if judged:
                s.voice_checked += 1
                s.voice_right += seat == said.get("speaker")
                s.voice_wrong += seat is not None and seat != said.get("speaker")
        elif kind == "move_taken":
            replied = True
            after_move_taken, applied = True, []
            if said is not None and said.get("kind") == "chat":
                s.talk_acted += 1
            if said is not None and said.get("kind") == "choose":
                s.questions += 1
        elif kind == "bench_applied" and after_move_taken:
            applied.append(e.get("action"))
            meant = episode.get("meant") if episode is not None else None
            if episode is None or not meant:
                after_move_taken = False
                continue
            if len(applied) < len(meant):
                continue
            after_move_taken = False
            if applied != list(meant):
                s.wrong_moves += 1
                episode["wrong_pending"] = True
            elif not episode["counted"]:
                episode["counted"] = True
                s.first_try += bool(episode["clean"])
    if said is not None and not replied and said.get("expected") \
            and said.get("kind") in ANSWER_KINDS and not s.completed:
        s.silent_drops += 1
    _close(s, episode)
    return s


def _close(s: GameScore, episode: Mapping[str, Any] | None) -> None:
    """A move's episode is over: a miss whose first attempt was written right is counted."""
    if episode is not None and not (episode["counted"] and episode["clean"]) \
            and episode.get("heard_right"):
        s.missed_heard_right += 1


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "n/a"


def quantile(values: Sequence[float], q: float) -> float | None:
    """The ``q`` quantile (nearest rank) of ``values``; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def row(label: str, s: GameScore, games: int, completed: int) -> list[str]:
    """One table row of figures."""
    median, p95 = quantile(s.waits, 0.5), quantile(s.waits, 0.95)
    return [label, f"{completed}/{games}",
            f"{s.first_try}/{s.moves} ({_pct(s.first_try, s.moves)})",
            f"{s.questions} ({s.questions * 8 / s.moves:.1f}/8)" if s.moves else "0",
            str(s.wrong_moves), str(s.silent_drops), f"{s.talk_acted}/{s.talk}",
            f"{s.talk_answered}/{s.talk}",
            f"{s.corrections_taken}/{s.corrections}",
            f"{_pct(s.voice_right, s.voice_checked)} ({_pct(s.voice_wrong, s.voice_checked)})"
            if s.voice_checked else "n/a",
            "n/a" if median is None else f"{median:.2f}",
            "n/a" if p95 is None else f"{p95:.2f}", str(s.typed),
            f"{s.missed_heard_right}/{s.moves - s.first_try}"]


HEADER = ["game", "completed", "first try", "questions (per 8 moves)", "wrong moves",
          "silent drops", "talk acted on", "talk answered", "corrections taken",
          "speaker ID right (wrong)",
          "wait median s", "wait p95 s", "moves typed", "misses heard right"]


def markdown(rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


# --------------------------------------------------------------------------- the table


def table_voices(players: Sequence[str], *, lang: str, split: str,
                 rng: random.Random) -> dict[str, rec.Voice]:
    """One voice per seat: natural voices (Kokoro, and Festival in English) at varied
    speeds and loudness, and at most one espeak-ng voice."""
    pool = SPLIT_VOICES[split]
    natural: list[rec.Voice] = []
    gains = data.GAINS_DB
    if rec.kokoro_available():
        natural += [rec.Voice(v, int(round(100 * sp)), 0, "kokoro", 0.0, lang)
                    for v in pool.kokoro for sp in pool.kokoro_speed]
    if lang == "en" and rec.festival_available():
        natural += [rec.Voice(v, int(round(100 * st)), 0, "festival", 0.0)
                    for v in pool.festival for st in pool.festival_stretch]
    rng.shuffle(natural)
    espeak = rec.Voice(rng.choice(pool.espeak[lang]), rng.choice(data.SPEEDS),
                       rng.choice(data.PITCHES), lang=lang)
    chosen: list[rec.Voice] = []
    for i, _ in enumerate(players):
        if natural and (i < len(players) - 1 or not natural):
            base = natural[i % len(natural)]
        else:
            base = espeak
        chosen.append(dataclasses.replace(base, gain_db=rng.choice(gains)))
    if not natural:  # nothing natural installed: espeak-ng voices, each seat its own
        names = pool.espeak[lang] + tuple(data.FRENCH_VOICES if lang == "fr" else data.VOICES)
        chosen = [rec.Voice(names[i % len(names)], rng.choice(data.SPEEDS),
                            rng.choice(data.PITCHES), lang=lang) for i in range(len(players))]
    return dict(zip(players, chosen, strict=True))


def seats(game: str, count: int | None, rng: random.Random) -> dict[str, Any]:
    """The table's options: ``count`` players (the game's demo table when None) with names
    from ``recognition_data.PLAYER_POOL``."""
    from voice_host.host.core.registry import registration

    demo = dict(registration(game).demo_seats)
    size = count or sum(len(v) for v in demo.values() if isinstance(v, list))
    names = rng.sample(list(data.PLAYER_POOL), size)
    if game == "codenames":
        half = size // 2
        return {"red": names[:half], "blue": names[half:]}
    return {"players": names}


class TablePlayers:
    """A Listener whose microphone is the synthetic table (see the module docstring)."""

    def __init__(self, *, ears: Any, voices: Mapping[str, rec.Voice], lang: str,
                 split: str, condition: str, rng: random.Random, folder: Path,
                 babble: Any, max_utterances: int = MAX_UTTERANCES) -> None:
        self.ears = ears
        self.max_utterances = max_utterances
        self.voices = voices
        self.lang = lang
        self.split = split
        self.condition = condition
        self.rng = rng
        self.folder = folder
        self.babble = babble
        self.session: Any = None
        self.events: list[dict[str, Any]] = []
        """The log's events as written (the log's ``write`` is tapped)."""
        self.seen = 0
        self.count = 0
        self.last: dict[str, Any] | None = None
        """The last bench_said."""
        self.move: dict[str, Any] | None = None
        """The last move said: speaker, prompt key, meant reading and action, attempt."""
        self.started: float | None = None
        self.first_reply: float | None = None
        self.chats_in_a_row = 0
        self.talk = [line for line in data.chatter_split(split, lang)]

    # the session's output is tapped to time the first spoken reply
    def replied(self) -> None:
        if self.started is not None and self.first_reply is None:
            self.first_reply = time.perf_counter()

    def tap(self, session: Any) -> None:
        self.session = session
        write = session.log.write

        def tapped(event: str, **fields: Any) -> None:
            self.events.append({"event": event, **fields})
            write(event, **fields)

        session.log.write = tapped
        apply = session.apply

        def applied(action: Any, **kwargs: Any) -> bool:
            from voice_host.games.base import action_to_json

            # unmasked (the host's own "action" events mask secret fields): the bench's log
            # in its work folder can be scored again (:func:`score`)
            tapped("bench_applied", action=_plain(action_to_json(action)))
            result: bool = apply(action, **kwargs)
            return result

        session.apply = applied

    def new_events(self) -> list[dict[str, Any]]:
        fresh = self.events[self.seen:]
        self.seen = len(self.events)
        return fresh

    def close_wait(self) -> None:
        if self.started is None:
            return
        replied = self.first_reply is not None
        end = self.first_reply if replied else time.perf_counter()
        assert end is not None
        self.session.log.write("bench_wait", seconds=round(end - self.started, 3),
                               replied=replied)
        self.started = self.first_reply = None

    def listen(self, request: Any) -> Any:
        from voice_host.host.core.registry import registration
        from voice_host.host.core.values import Heard, HeardKind

        self.close_wait()
        fresh = self.new_events()
        self.count += 1
        if self.count > self.max_utterances:
            return Heard(HeardKind.END)
        s = self.session
        kind, meant_action, reading = "move", None, None
        attempt = 1
        prompt = request.prompt
        wrong = self.took_wrong(fresh)
        if wrong is None and any(e["event"] == "move_taken" for e in fresh):
            self.move = None  # the move is made: the next prompt is a new move
        if s.paused:
            speaker = (self.last or {}).get("speaker") or s.state.players[0]
            text, kind = ("reprends" if self.lang == "fr" else "resume"), "other"
        elif request.purpose == "confirm":
            speaker = (self.last or {}).get("speaker") or request.expected[0]
            meant_yes = (self.last or {}).get("kind") == "correction" or self.read_as_meant()
            text, kind = YES_NO[self.lang][0 if meant_yes else 1], "confirm"
        elif wrong is not None:
            speaker, kind = wrong, "correction"
            text = self.rng.choice(CORRECTIONS[self.lang])
        elif s.choosing is not None and request.purpose == "command" and self.move \
                and self.chose() < CHOOSE_TRIES:
            speaker, kind = self.move["speaker"], "choose"
            attempt = self.chose() + 1
            which = [i for i, option in enumerate(s.choosing.options)
                     if _reading(option) == self.move["reading"]]
            words = {"en": ("the first one", "the second one", "neither"),
                     "fr": ("le premier", "le deuxième", "aucun des deux")}[self.lang]
            text = words[which[0]] if which and which[0] < 2 else words[2]
        elif self.chats_now(request):
            speaker = self.rng.choice(list(s.state.players))
            others = [p for p in s.state.players if p != speaker]
            p, q = self.rng.sample(others, 2) if len(others) > 1 else (others * 2)[:2]
            text = self.rng.choice(self.talk).format(p=p.lower(), q=q.lower())
            kind = "chat"
        else:
            assert prompt is not None
            key = str(prompt.key)
            if self.move is not None and self.move["key"] == key:
                # the prompt is asked again: the same player means the same move, said
                # again, then (from the third time) in other words when there are any
                speaker, text = self.move["speaker"], self.move["words"]
                attempt = self.move["attempt"] + 1
                if attempt >= REPHRASE_FROM:
                    text = self.rephrase(request, speaker, text) or text
            else:
                speaker, text = registration(s.adapter.game).bots(s.adapter, s.state,
                                                                  prompt, self.rng)
            if request.grammar is None:
                kind = "record"
            elif attempt >= TYPE_FROM:
                kind = "typed"
            if kind != "record":
                reading, meant_action = self.meant(request, text, speaker)
            self.move = {"speaker": speaker, "key": key, "attempt": attempt, "words": text,
                         "reading": reading, "meant": meant_action}
            filler = data.FILLERS[self.split][self.lang]  # another one when said again
            text = (filler[(attempt + self.rng.randrange(len(filler))) % len(filler)]
                    if kind == "move" else "") + text
        if kind == "typed":
            self.started = time.perf_counter()
            self.chats_in_a_row = 0
            said_typed = {"speaker": speaker, "text": text, "kind": kind, "attempt": attempt,
                          "expected": not request.expected or speaker in request.expected,
                          "meant_action": meant_action, "voice": "keyboard"}
            s.log.write("bench_said", **said_typed)
            self.last = said_typed
            return Heard(HeardKind.SPEECH, text=text, speaker=speaker, source="keyboard")
        self.chats_in_a_row = self.chats_in_a_row + 1 if kind == "chat" else 0
        expected = not request.expected or speaker in request.expected
        said = {"speaker": speaker, "text": text, "kind": kind, "attempt": attempt,
                "expected": expected, "meant_action": meant_action,
                "voice": self.voices[speaker].label}
        if kind == "move":
            said["meant"] = list(reading) if reading else None
        s.log.write("bench_said", **said)
        self.last = said
        return self.hear(request, speaker, text)

    def hear(self, request: Any, speaker: str, text: str) -> Any:
        from voice_host.host.core.values import Heard, HeardKind

        samples = self.render(text, self.voices[speaker])
        source = str(self.folder / f"{self.count:04d}-{speaker}.wav")
        self.started = time.perf_counter()
        heard = self.ears.hear(samples, request, source=source)
        if request.grammar is None:  # a free recording keeps what was said as its caption
            heard = Heard(HeardKind.SPEECH, text=text, recording=samples, source=source)
        return dataclasses.replace(heard, speaker=speaker)

    def render(self, text: str, voice: rec.Voice, ident: int | None = None) -> Any:
        """``text`` in ``voice``, in the room's condition (``ident`` draws the babble's
        stretch; the utterance's number by default)."""
        speech = rec.synthesize(text, voice)
        if self.condition == "clean":
            return speech
        noise, snr = ("reverb", None) if self.condition == "room" else ("babble", 12)
        case = rec.Case(self.count if ident is None else ident, rec.Setup("", (), ""), "",
                        text, None, "{}", voice, noise, snr)
        return rec.stream_for(case, self.babble, speech=speech)

    def enrol(self, players: Sequence[str]) -> Any:
        """The table's voices as the host keeps them (a ``VoiceDesk``): each player's three
        enrolment sentences (``bench_speakers.ENROLMENT``), said in their voice and in the
        room's condition, learnt through the speaker model's API. None when the model is
        not installed (speaker identification is then not measured)."""
        from voice_host.host.core.voices import VoiceDesk
        from voice_host.speech.speakers import (
            SpeakerId,
            SpeakerModelUnavailable,
            default_embedder,
        )

        try:
            ids = SpeakerId(default_embedder())
        except SpeakerModelUnavailable as exc:
            print(f"speaker identification not measured: {exc}", file=sys.stderr)
            return None
        for n, player in enumerate(players):
            for k, sentence in enumerate(ENROLMENT[self.lang]):
                ids.enrol(player, self.render(sentence.format(me=player), self.voices[player],
                                              ident=100_000 + 10 * n + k))
        self.session.log.write("bench_enrolled", players={
            p: ids.enrolment_count(p) for p in players})
        return VoiceDesk(ids) if ids.enrolled() else None

    def rephrase(self, request: Any, speaker: str, words: str) -> str | None:
        """Other words of ``speaker`` for the move ``words`` makes (the bot asked again
        until it says the same move differently), or None."""
        from voice_host.host.core.registry import registration

        if request.grammar is None or self.move is None:
            return None
        s = self.session
        for _ in range(REPHRASE_TRIES):
            who, other = registration(s.adapter.game).bots(s.adapter, s.state,
                                                           request.prompt, self.rng)
            if who != speaker or other == words:
                continue
            meant = self.meant(request, other, speaker)[1]
            # the same move in other words; or, when the words said make no move at all,
            # another move (a player the host cannot read tries something else)
            if meant == self.move["meant"] if self.move["meant"] else meant:
                return str(other)
        return None

    def chose(self) -> int:
        """How many times in a row the last utterances answered a "did you mean" question
        (past ``CHOOSE_TRIES`` the player says the move again, as the question offers)."""
        last = self.last or {}
        return int(last.get("attempt", 1)) if last.get("kind") == "choose" else 0

    def chats_now(self, request: Any) -> bool:
        if request.purpose != "command" or request.grammar is None or request.countdown \
                or self.chats_in_a_row >= 1 or not self.talk:
            return False
        return self.rng.random() < CHATTER_RATE

    def meant(self, request: Any, text: str, speaker: str) -> tuple[Any, Any]:
        """The reading the phase's grammar gives the clean words, and the actions it makes
        (the move and its follow-ups, as JSON with nothing masked); both None when the
        words make no move."""
        from voice_host.games.base import action_to_json

        best = request.grammar.matcher.match(text, speaker=speaker).best
        if best is None:
            return None, None
        s = self.session
        try:
            decision = s.adapter.interpret(s.state, best, speaker)
        except Exception:  # noqa: BLE001 - a bot's words the adapter cannot read: no action
            return _reading(best), None
        if decision.action is None:
            return _reading(best), None
        return _reading(best), [_plain(action_to_json(a))
                                for a in (decision.action, *decision.then)]

    def read_as_meant(self) -> bool:
        """The host's reading of the last move utterance makes the move meant (the same
        actions; the same reading when the words make none)."""
        from voice_host.games.base import action_to_json
        from voice_host.intent import IntentMatch

        if self.move is None or self.move["reading"] is None:
            return False
        heard = [e for e in self.events if e["event"] == "heard" and e.get("intent")
                 and e.get("intent") != "answer"]
        if not heard:
            return False
        last = heard[-1]
        if (last.get("intent"), _slots(last.get("slots") or {})) == self.move["reading"]:
            return True
        if not self.move.get("meant"):
            return False
        slots = {k: tuple(v) if isinstance(v, list) else v
                 for k, v in (last.get("slots") or {}).items()}
        s = self.session
        try:
            decision = s.adapter.interpret(s.state, IntentMatch(last["intent"], slots, 1.0, ""),
                                           self.move["speaker"])
        except Exception:  # noqa: BLE001 - a reading the adapter cannot take: not the move
            return False
        if decision.action is None:
            return False
        return [_plain(action_to_json(a)) for a in (decision.action, *decision.then)] \
            == self.move["meant"]

    def took_wrong(self, fresh: Sequence[Mapping[str, Any]]) -> str | None:
        """The player whose move the host has just applied other than they meant, or
        None (the same reading of the events as :func:`score`)."""
        if self.last is None or self.last.get("kind") not in TAKEN_KINDS \
                or self.move is None or not self.move.get("meant"):
            return None
        meant = list(self.move["meant"])
        applied: list[Any] | None = None
        for e in fresh:
            if e["event"] == "move_taken":
                applied = []
            elif e["event"] == "bench_applied" and applied is not None:
                applied.append(e.get("action"))
                if len(applied) == len(meant):
                    return str(self.move["speaker"]) if applied != meant else None
        return None

    def close(self) -> None:
        self.close_wait()


def _plain(record: Any) -> Any:
    """A JSON record as the log would read it back (tuples as lists)."""
    return json.loads(json.dumps(record, default=str))


def _reading(match: Any) -> tuple[str, str]:
    return match.intent, _slots(match.slots)


def _slots(slots: Mapping[str, Any]) -> str:
    return rec.canonical_slots(slots)


class TimedOutput:
    """The session's output (text, thrown away) that tells the table when the host speaks."""

    def __init__(self, inner: Any, table: TablePlayers) -> None:
        self.inner = inner
        self.table = table

    def emit(self, lines: Sequence[Any]) -> None:
        if any(getattr(line, "text", "").strip() for line in lines):
            self.table.replied()
        self.inner.emit(lines)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


# --------------------------------------------------------------------------- a game


@dataclass
class Played:
    game: str
    seed: int
    players: int
    score: GameScore
    seconds: float
    stop: str


def play_game(game: str, *, lang: str, condition: str, split: str, seed: int,
              players: int | None, recognizer: Any, babble: Any, folder: Path,
              max_utterances: int = MAX_UTTERANCES, enrol: bool = True) -> Played:
    """One whole game through the real session (stopped after ``max_utterances``); its log
    is ``folder/log.jsonl``. ``enrol``: the players enrol their voices first, and the host
    identifies the speaker of each utterance (logged on its ``heard`` events)."""
    from voice_host.host.core.config import SessionConfig
    from voice_host.host.core.registry import new_game, registration
    from voice_host.host.io import wiring
    from voice_host.host.io.listening import PhaseEars
    from voice_host.host.io.terminal import TextOutput

    rng = random.Random(f"{seed}/{split}/{lang}/{game}")
    reg = registration(game)
    options: dict[str, Any] = {**reg.defaults(), **seats(game, players, rng), "deal": "host",
                               "lang": lang, "seed": seed}
    state = new_game(game, options)
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "log.jsonl"
    log.unlink(missing_ok=True)
    config = SessionConfig(game=game, options=options, output="text", confirm="auto",
                           log=log, save_path=folder / "game.json")
    voices = table_voices(state.players, lang=lang, split=split, rng=rng)
    table = TablePlayers(ears=PhaseEars(recognizer), voices=voices, lang=lang, split=split,
                         condition=condition, rng=random.Random(seed + 1), folder=folder,
                         babble=babble, max_utterances=max_utterances)
    text = TextOutput(stream=io.StringIO(), private_sink=lambda line: None, lang=lang)
    output = TimedOutput(text, table)
    host_io = wiring.HostIO(output=output, listener=table, secret_sink=None, lang=lang)
    session = wiring.wire_session(config, state, host_io, rng=random.Random(seed))
    table.tap(session)
    started = time.perf_counter()
    if enrol:
        session.voices = table.enrol(state.players)
    try:
        stop = session.run(fresh=True)
    finally:
        table.close()
        session.log.close()
    return Played(game, seed, len(state.players), score(table.events),
                  time.perf_counter() - started, str(getattr(stop, "value", stop)))


# --------------------------------------------------------------------------- CLI


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=("en", "fr"), default="en")
    parser.add_argument("--condition", choices=CONDITIONS, default="clean",
                        help="clean, babble12 (babble at 12 dB SNR) or room (reverberation)")
    parser.add_argument("--game", dest="bench_games", action="append", choices=GAMES,
                        help="a game to play (repeat; default all three)")
    parser.add_argument("--games-per", type=int, default=1,
                        help="whole games per game (seeds --seed, --seed+1, ...)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=None,
                        help="players per table (default: the game's demo table; "
                             "Resistance is played with 5 and 7)")
    parser.add_argument("--split", choices=("calib", "report"), default="report")
    parser.add_argument("--from-logs", action="append", type=Path, metavar="WORK",
                        help="play nothing: print the table of the games whose logs a run "
                             "left in WORK (its --work; repeat), finished or stopped")
    parser.add_argument("--no-voices", dest="voices", action="store_false",
                        help="no voice enrolment: speaker identification is not measured")
    parser.add_argument("--whisper-model", default=None,
                        help="the Whisper model (default: the language's default)")
    parser.add_argument("--work", type=Path, default=None,
                        help="where the game logs are kept (default: a temporary folder)")
    parser.add_argument("--out", type=Path, default=None,
                        help="write the table to this .md file (default "
                             "benchmarks/results/games-LANG-CONDITION-SPLIT.md)")


def tabulate(played: Sequence[Played], games: Sequence[str]) -> str:
    """The table: one row per game (its games added up), and all."""
    rows = []
    total = GameScore()
    for game in games:
        mine = [p for p in played if p.game == game]
        if not mine:
            continue
        s = GameScore()
        for p in mine:
            s.add(p.score)
        total.add(s)
        sizes = sorted({p.players for p in mine})
        rows.append(row(f"{game} ({'/'.join(map(str, sizes))} p.)", s, len(mine),
                        sum(p.score.completed for p in mine)))
    rows.append(row("all", total, len(played), sum(p.score.completed for p in played)))
    return markdown(rows)


def played_in(work: Path) -> list[Played]:
    """The games whose logs a run left in ``work`` (``GAME-SIZE-SEED/log.jsonl``), counted
    again from their logs, finished or not: a run stopped part-way is tabulated from what it
    played (a game cut short counts as not completed; its time is not known, 0)."""
    out: list[Played] = []
    for log in sorted(work.glob("*/log.jsonl")):
        name = log.parent.name
        game = next((g for g in GAMES if name.startswith(g + "-")), None)
        if game is None:
            continue
        events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()
                  if line.strip()]
        enrolled = next((e.get("players") for e in events
                         if e.get("event") == "bench_enrolled"), None)
        size = name[len(game) + 1:].rsplit("-", 1)
        players = len(enrolled) if isinstance(enrolled, dict) else (
            int(size[0]) if size[0].isdigit() else 0)
        s = score(events)
        out.append(Played(game, int(size[-1]) if size[-1].isdigit() else 0, players, s, 0.0,
                          "finished" if s.completed else "stopped"))
    return out


def run(args: argparse.Namespace) -> int:
    from voice_host.host.io import wiring

    games = args.bench_games or list(GAMES)
    if args.from_logs:
        logged = [p for work in args.from_logs for p in played_in(work)]
        for p in logged:
            print(f"{p.game} ({p.players} players, seed {p.seed}): {p.stop}, "
                  f"{p.score.utterances} utterances", file=sys.stderr)
        print(tabulate(logged, games))
        return 0
    try:
        recognizer, described = wiring.make_recognizer("whisper", None, args.lang,
                                                       args.whisper_model)
    except wiring.WiringError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(described, file=sys.stderr)
    babble = rec.babble_track() if args.condition == "babble12" else None
    work = args.work or Path(tempfile.mkdtemp(prefix="voice-host-bench-games-"))
    played: list[Played] = []
    for game in games:
        sizes = [args.players] if args.players else (
            [5, 7] if game == "resistance" else [None])
        for size in sizes:
            for n in range(args.games_per):
                seed = args.seed + n
                folder = work / f"{game}-{size or 'demo'}-{seed}"
                p = play_game(game, lang=args.lang, condition=args.condition,
                              split=args.split, seed=seed, players=size,
                              recognizer=recognizer, babble=babble, folder=folder,
                              enrol=args.voices)
                played.append(p)
                print(f"{game} ({p.players} players, seed {seed}): {p.stop} in "
                      f"{p.seconds:.0f} s, {p.score.utterances} utterances; log "
                      f"{folder / 'log.jsonl'}", file=sys.stderr, flush=True)
    table = tabulate(played, games)
    print(table)
    out = args.out or HERE / "results" / (
        f"games-{args.lang}-{args.condition}-{args.split}.md")
    out.parent.mkdir(parents=True, exist_ok=True)
    minutes = sum(p.seconds for p in played) / 60
    out.write_text(
        f"# Whole-game benchmark: {args.lang}, {args.condition}, {args.split} split\n\n"
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {rec.cpu_model()}, "
        f"{described}\n\n"
        f"Command: voice-host bench --games --lang {args.lang} --condition {args.condition} "
        f"--split {args.split} --games-per {args.games_per} --seed {args.seed}"
        + "".join(f" --game {g}" for g in (args.bench_games or []))
        + (f" --players {args.players}" if args.players else "")
        + ("" if args.voices else " --no-voices")
        + f"\n\n{len(played)} games, {minutes:.0f} min.\n\n{table}\n", encoding="utf-8")
    print(f"Written: {out}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
