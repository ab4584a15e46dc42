"""``voice-host demo``: a complete game with no audio device. Scripted players choose legal
moves and say them in synthesized voices (Piper's natural voice at each seat's own pitch and
pace, else espeak-ng's voices: :mod:`voice_host.host.cli.demo_voices`); every utterance goes
through the real recognizer with the phase's grammar, exactly as a microphone's would.
Between moves the players chat (:mod:`voice_host.host.cli.chatter`, on unless
``--no-chatter``): the host should answer none of it. The host's narration is rendered to
numbered WAV files, and a transcript of both sides is written next to them."""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from voice_host.host.cli import demo_audio
from voice_host.host.cli import models as models_cmd
from voice_host.host.cli.chatter import ChatterTally, CountingOutput, chatter_line
from voice_host.host.cli.demo_voices import (
    VOICE_CHOICES,
    PlayerSpeech,
    PlayerVoice,
    player_speech,
)
from voice_host.host.core.adapter import move_key, reading_prior, winner_json
from voice_host.host.core.choice import CHOOSE_INTENT, would_ask
from voice_host.host.core.config import SessionConfig
from voice_host.host.core.registry import game_names, new_game, registration
from voice_host.host.core.session import Session
from voice_host.host.core.understanding import understand
from voice_host.host.core.values import Heard, HeardKind, ListenRequest, Stop
from voice_host.host.io import wiring
from voice_host.host.io.listening import PhaseEars
from voice_host.host.io.secret_files import SecretFiles
from voice_host.host.io.terminal import TextOutput
from voice_host.intent import IntentMatch
from voice_host.speech.synthesizer import SynthesisError
from voice_host.speech.types import Samples
from voice_host.speech.wav import write_wav

MAX_UTTERANCES = 1500
CHATTER_RATE = 0.5
"""How often a player chats instead of the host's answer coming at once."""
CHATTER_IN_A_ROW = 2
"""At most this many chatter lines before somebody answers the host."""
DEMO_OUTPUT = frozenset({"narration", "players", "secrets", "log.jsonl", "transcript.txt",
                         "game.json", "game.ogg", "game.wav", "game-transcript.txt"})
"""What a demo writes in its folder: all of it an earlier demo's, when a folder holds only
these (see :func:`fresh_folder`)."""


class ScriptedPlayers:
    """A Listener whose 'microphone' is synthesized players answering the host's prompts."""

    def __init__(self, *, ears: PhaseEars, speech: PlayerSpeech,
                 voices: dict[str, PlayerVoice], folder: Path, transcript: TextIO,
                 rng: random.Random,
                 chatter: tuple[CountingOutput, random.Random] | None = None) -> None:
        self.ears = ears
        self.speech = speech
        """How the players' words become audio (the speech layer's engines)."""
        self.voices = voices
        self.folder = folder
        self.transcript = transcript
        self.rng = rng
        self.session: Session | None = None
        self.count = 0
        self.misheard = 0
        self.decode_seconds: list[float] = []
        self.last_speaker: str | None = None
        self.understood_as_meant = False
        self.last_meant: tuple[str, str] | None = None
        """The move the last player meant, (intent, slots): what they name when the host
        asks "Did you mean X, or Y?"."""
        self.chatter = chatter
        """The host's output (counted) and the table talk's own dice; None: no chatter."""
        self.tally = ChatterTally()
        self.in_a_row = 0

    def chats_now(self, request: ListenRequest) -> bool:
        """A player chats before the answer: only while the host waits for a command (not
        for a yes/no, a free recording or against the clock), and not forever."""
        if self.chatter is None or request.purpose != "command" or request.grammar is None \
                or request.countdown or self.in_a_row >= CHATTER_IN_A_ROW:
            return False
        return self.chatter[1].random() < CHATTER_RATE

    def listen(self, request: ListenRequest) -> Heard:
        assert self.session is not None
        if self.chatter is not None:
            self.tally.next_listen(self.chatter[0], self.session.state)
        self.count += 1
        if self.count > MAX_UTTERANCES:
            return Heard(HeardKind.END)
        prompt = request.prompt
        chat = False
        if self.session.paused:
            speaker, text = self.last_speaker or self.session.state.players[0], "resume"
        elif request.purpose == "confirm":
            # a real player says yes only when the host understood what they meant
            speaker = self.last_speaker or request.expected[0]
            text = "yes" if self.understood_as_meant else self.rng.choice(
                ["no", "no that's wrong"])
        elif self.session.choosing is not None and request.purpose == "command":
            # "Did you mean X, or Y?": the player names the one they meant, or neither
            speaker = self.last_speaker or request.expected[0]
            which = [i for i, option in enumerate(self.session.choosing.options)
                     if _move(option) == self.last_meant]
            text = ("the first one", "the second one")[which[0]] if which else "neither"
        elif self.chats_now(request):
            assert self.chatter is not None
            dice, players = self.chatter[1], self.session.state.players
            speaker = dice.choice(players)
            text = chatter_line(self.session.adapter.game, speaker, players, dice)
            chat = True
        else:
            assert prompt is not None  # the session names the prompt of every listen
            adapter = self.session.adapter
            speaker, text = registration(adapter.game).bots(
                adapter, self.session.state, prompt, self.rng)
        wav = self.folder / f"{self.count:04d}-{speaker}.wav"
        samples = self.synthesize(text, self.voices[speaker], wav)
        started = time.perf_counter()
        heard = self.ears.hear(samples, request, source=str(wav))
        self.decode_seconds.append(time.perf_counter() - started)
        if request.grammar is None:  # a free recording: keep what was said as its caption
            heard = Heard(HeardKind.SPEECH, text=text, recording=samples, source=str(wav))
        heard = dataclasses.replace(heard, speaker=speaker)
        got = self.understood(request, heard, speaker)
        shown = heard.text if heard.kind is HeardKind.SPEECH else f"({heard.kind.value})"
        if request.grammar is not None and heard.kind is HeardKind.SPEECH:
            shown = got[2] if got is not None else "(not a command)"
        self.in_a_row = self.in_a_row + 1 if chat else 0
        if chat:
            assert self.chatter is not None
            self.tally.said(self.chatter[0], self.session.state)
            self.last_speaker, self.understood_as_meant = speaker, False  # meant nothing
        elif request.grammar is not None:
            meant = self.reading(request, text, speaker)
            right = meant is not None and got is not None and meant == got[:2]
            if request.purpose != "confirm":
                self.last_speaker = speaker
                self.understood_as_meant = right
                if meant is not None and meant[0] != CHOOSE_INTENT:
                    self.last_meant = meant
            if not right and not (meant is None and got is None):
                self.misheard += 1
        says = "chats (table talk)" if chat else "says"
        print(f"{speaker.upper()} {says}: {text}    [{wav.name}; recognizer heard: {shown}]",
              file=self.transcript, flush=True)
        return heard

    def reading(self, request: ListenRequest, text: str,
                speaker: str) -> tuple[str, str] | None:
        """(intent, slots) the phase's matcher gives ``text``; None when it gives nothing."""
        if request.grammar is None:
            return None
        best = request.grammar.matcher.match(text, speaker=speaker).best
        return _move(best) if best else None

    def understood(self, request: ListenRequest, heard: Heard,
                   speaker: str) -> tuple[str, str, str] | None:
        """(intent, slots, text) of what the host understood of ``heard``, read exactly as
        the session reads it (both of Whisper's readings); None when it understood no one
        command (nothing, or two readings that make different moves: it would ask which,
        :func:`would_ask`). The answer to a yes/no question is read as
        :func:`~voice_host.host.core.questions.answer_question` reads it: by its words, and never
        asked about."""
        if request.grammar is None or heard.kind is not HeardKind.SPEECH:
            return None
        assert self.session is not None
        session = self.session
        if request.purpose == "confirm":
            understood = understand(heard, request.grammar.matcher, speaker=speaker)
        else:
            understood = understand(heard, request.grammar.matcher, speaker=speaker,
                                    key=move_key(session.adapter, session.state, speaker),
                                    prior=reading_prior(session.adapter, session.state,
                                                        request.grammar))
        best, result = understood.best, understood.result
        if best is None or result is None or (
                request.purpose != "confirm"
                and would_ask(session.adapter, session.state, result, speaker)):
            return None
        return (*_move(best), best.text or heard.text)

    def synthesize(self, text: str, voice: PlayerVoice, path: Path) -> Samples:
        samples = self.speech.render(text, voice)
        write_wav(path, samples)
        return samples

    def close(self) -> None:
        pass


def _move(match: IntentMatch) -> tuple[str, str]:
    """What a reading means, comparable across readings: (intent, its slots in order)."""
    return match.intent, repr(sorted(match.slots.items()))


class Tee:
    """Writes to several text streams at once (the transcript file and the terminal)."""

    def __init__(self, *streams: TextIO) -> None:
        self.streams = streams

    def write(self, text: str) -> int:
        for s in self.streams:
            s.write(text)
        return len(text)

    def flush(self) -> None:
        for s in self.streams:
            s.flush()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=sorted(game_names()), default="ici-londres",
                        help="which game to play (default %(default)s)")
    parser.add_argument("--out", type=Path, default=None,
                        help="output folder (default: a new folder under ./demo-output)")
    parser.add_argument("--seed", type=int, default=1944, help="random seed (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=None,
                        help="Ici Londres: number of rounds (default: the full game)")
    models_cmd.add_recognizer_arguments(parser)
    parser.add_argument("--voices", choices=VOICE_CHOICES, default="auto",
                        help="the players' voices: Piper's natural voice at a pitch and pace "
                             "of each seat's own when installed (auto, the default), Piper "
                             "only, or espeak-ng's voices")
    parser.add_argument("--quiet", action="store_true", help="do not echo the transcript")
    parser.add_argument("--no-chatter", dest="chatter", action="store_false",
                        help="players do not chat between moves (by default they do, and "
                             "the host should answer none of it)")


def fresh_folder(out: Path) -> str | None:
    """Make ``out`` ready for a new demo: an earlier demo's output there is removed (the log
    is appended to and the numbered WAVs are written over, so a second game in the same
    folder mixed the first one's narration, players and confirmations into its own); a
    folder that holds anything else is left as it is, and the sentence saying so is
    returned."""
    if not out.exists():
        return None
    if not out.is_dir():
        return f"{out} is a file, not a folder: give --out a new or empty folder."
    others = sorted(p.name for p in out.iterdir() if p.name not in DEMO_OUTPUT)
    if others:
        shown = ", ".join(others[:3]) + (" ..." if len(others) > 3 else "")
        return (f"{out} holds files no demo wrote ({shown}): give --out a new or empty "
                "folder, or one an earlier demo wrote (its output is replaced).")
    for path in out.iterdir():
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    return None


def run(args: argparse.Namespace) -> int:
    reg = registration(args.game)
    options: dict[str, Any] = {**reg.defaults(), **reg.demo_seats, "deal": "host",
                               "lang": "en", "seed": args.seed}
    if args.rounds is not None:
        if "rounds" not in options:
            print(f"{reg.description.title} has no rounds to choose.", file=sys.stderr)
            return 2
        options["rounds"] = args.rounds
    out = args.out or Path("demo-output") / f"{args.game}-{time.strftime('%Y%m%d-%H%M%S')}"
    refused = fresh_folder(out)
    if refused is not None:
        print(refused, file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    (out / "players").mkdir(exist_ok=True)
    state = new_game(args.game, options)
    config = SessionConfig(game=args.game, options=options, output=f"wav:{out / 'narration'}",
                           confirm="auto", log=out / "log.jsonl", save_path=out / "game.json")
    try:
        recognizer, described = wiring.make_recognizer(args.asr, args.vosk_model, "en",
                                                         getattr(args, "whisper_model", None))
        output = wiring.speech_output(config.output, captions=None,
                                      secrets=SecretFiles(out / "secrets"))
        # the players speak with the narrator's own Piper engine when it has one (one model
        # in memory, not two)
        speech = player_speech(getattr(args, "voices", "auto"),
                               shared=getattr(output.synth, "engine", None))
    except wiring.WiringError as exc:
        print(exc, file=sys.stderr)
        return 2
    except SynthesisError as exc:
        print(f"The demo's players cannot speak: {exc}", file=sys.stderr)
        return 2
    print(described, file=sys.stderr)
    print(speech.description, file=sys.stderr)
    transcript_file = (out / "transcript.txt").open("w", encoding="utf-8")
    stream: TextIO = transcript_file if args.quiet else Tee(transcript_file, sys.stdout)  # type: ignore[assignment]
    output.captions = TextOutput(stream=stream, private_sink=output.secret_sink)
    voices = speech.voices(state.players)
    counted = CountingOutput(output)
    players = ScriptedPlayers(ears=PhaseEars(recognizer), speech=speech, voices=voices,
                              folder=out / "players", transcript=stream,
                              rng=random.Random(args.seed + 1),
                              chatter=(counted, random.Random(args.seed + 2))
                              if getattr(args, "chatter", True) else None)
    io = wiring.HostIO(output=counted, listener=players, secret_sink=output.secret_sink)
    session = wiring.wire_session(config, state, io, rng=random.Random(args.seed))
    players.session = session
    started = time.perf_counter()
    try:
        stop = session.run(fresh=True)
    finally:
        session.log.close()
        transcript_file.close()
    elapsed = time.perf_counter() - started
    narration = sorted((out / "narration").glob("*.wav"))
    decode = sorted(players.decode_seconds)
    median = decode[len(decode) // 2] * 1000 if decode else 0.0
    events = [json.loads(line)["event"] for line in
              (out / "log.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    moves = events.count("move_taken") + events.count("recorded")
    asked = events.count("confirmation")
    outcome = session.state.outcome()
    winners = winner_json(outcome) if outcome else []
    won = f"Winner: {winners[0]}" if len(winners) == 1 else \
        f"Winners: {', '.join(winners) or 'none'}"
    print(f"\nDemo {'finished' if stop is Stop.FINISHED else 'stopped: ' + stop.value} in "
          f"{elapsed:.0f} s. {won}.\n"
          f"Players spoke {players.count} times; {players.misheard} were understood as something "
          f"other than what was meant (median decode {median:.0f} ms).\n"
          + (players.tally.summary() + "\n" if players.chatter is not None else "")
          + f"Output folder: {out.resolve()}\n"
          f"  narration/  {len(narration)} WAV files of the host's voice, in order\n"
          f"  players/    the players' synthesized utterances\n"
          f"  transcript.txt, log.jsonl, game.json, secrets/", file=sys.stderr)
    whole = demo_audio.assemble(out)
    if whole is not None:
        print(f"  {whole.audio.name}  the whole game in one file, host and players in order: "
              f"{int(whole.seconds // 60)} min {int(whole.seconds % 60):02d} s, "
              f"{whole.size_bytes / 1_000_000:.1f} MB ({whole.chapters} chapters; "
              f"{whole.transcript.name} has the timestamps)", file=sys.stderr)
    print(f"The host asked {asked} yes/no confirmation{'' if asked == 1 else 's'} in {moves} "
          "moves.", file=sys.stderr)
    return 0 if stop is Stop.FINISHED else 1
