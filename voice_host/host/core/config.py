"""The typed configuration of one hosted game. The command line stops here: ``play`` and
``resume`` turn their arguments into a :class:`SessionConfig`, and the host (its input and
output, the recognizer, the companion page, the session loop and the save file) is built
from that alone."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voice_host.host.core.patience import DEFAULT_PAUSE_AFTER


@dataclass(frozen=True)
class RecognizerConfig:
    """Which speech recognizer listens (``--asr``, ``--whisper-model``, ``--vosk-model``)."""

    asr: str = "auto"
    """``auto``, ``whisper``, ``vosk`` or ``pocketsphinx``."""
    whisper_model: str | None = None
    """A Whisper model's name or folder (None: the language's default)."""
    vosk_model: Path | None = None
    """An unpacked Vosk model (None: the installed one, if any)."""

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RecognizerConfig:
        vosk = getattr(args, "vosk_model", None)
        return cls(asr=getattr(args, "asr", "auto") or "auto",
                   whisper_model=getattr(args, "whisper_model", None),
                   vosk_model=Path(vosk) if vosk else None)


DEFAULT_PORT = 8765
"""The companion page's port when none is given (a resumed game keeps the one it used)."""


@dataclass(frozen=True)
class CompanionConfig:
    """The companion page (``--companion``, ``--tv``, ``--port``, ``--companion-host``,
    ``--tls``)."""

    enabled: bool = False
    port: int | None = None
    """None: the default port, or the one a resumed game used."""
    bind: str | None = None
    """The address to listen on (None: this machine's local-network address)."""
    tls: tuple[Path, Path] | None = None
    """Certificate and private key (PEM) to serve HTTPS with."""
    tv: bool = False
    """Open the table view full screen in this machine's browser (``--tv``; not kept in
    the save: each start decides)."""

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> CompanionConfig:
        tls = getattr(args, "tls", None)
        tv = bool(getattr(args, "tv", False))
        return cls(enabled=bool(getattr(args, "companion", False)) or tv, tv=tv,
                   port=getattr(args, "port", None),
                   bind=getattr(args, "companion_host", None),
                   tls=(Path(tls[0]), Path(tls[1])) if tls else None)


@dataclass(frozen=True)
class SessionConfig:
    """Everything one game is hosted with."""

    game: str
    """Registered game name."""
    options: Mapping[str, Any]
    """The game's JSON-able options (seating, variants, ``deal``, ``lang``, ``seed``): what
    the engine is created from, kept in the save file."""
    input: str = "mic"
    """``mic`` or ``text`` (typed lines); ignored when ``script`` is given."""
    script: Path | None = None
    """Utterances read from a file (``Name: words`` lines or WAV paths)."""
    output: str = "speaker"
    """``speaker``, ``text`` or ``wav:DIR``."""
    voice: str = "auto"
    """The narrator per language (``--voice``): ``auto`` (the best installed), or
    ``fr=espeak-ng``, ``en=piper,fr=kokoro`` ... (``speech.synthesizer.parse_narrators``)."""
    recognizer: RecognizerConfig = field(default_factory=RecognizerConfig)
    companion: CompanionConfig = field(default_factory=CompanionConfig)
    confirm: str = "auto"
    """``auto``: confirm doubtful and irreversible moves; ``never``."""
    silence_timeout: float = 12.0
    """Seconds of silence before the host asks again."""
    pause_after: float = DEFAULT_PAUSE_AFTER
    """Seconds with nobody speaking before the host pauses (never in a discussion)."""
    log: Path | None = None
    """A JSONL event log."""
    save_path: Path | None = None
    """The save file, written after every move."""
    voices: str = "auto"
    """Learn the players' voices at the start, to know who is talking (when the speaker
    model is installed): ``on`` whenever the host hears audio (a microphone, or a script
    of recordings whose first lines are the players' sentences), ``auto`` with the
    microphone only (a script says who speaks with ``Name:``), ``off`` never."""

    @property
    def lang(self) -> str:
        return str(self.options.get("lang") or "en")

    @property
    def deal(self) -> str:
        return str(self.options.get("deal") or "table")

    @property
    def listens_to_microphone(self) -> bool:
        return self.script is None and self.input == "mic"

    def settings(self) -> dict[str, Any]:
        """How this game is played, as the save file keeps it (JSON-able, keyed by the
        argparse names of :data:`SETTINGS`). A script's game continues from the keyboard:
        the script was read to its end."""
        rec, comp = self.recognizer, self.companion

        def where(path: Path | None) -> str | None:  # resumed from any folder
            return str(path.absolute()) if path is not None else None

        output = self.output
        if output.startswith("wav:"):
            output = f"wav:{where(Path(output[4:]))}"
        return {"input": "text" if self.script is not None else self.input,
                "output": output, "voice": self.voice, "asr": rec.asr,
                "whisper_model": rec.whisper_model,
                "vosk_model": where(rec.vosk_model),
                # port 0 asked for any free port: the one it got is kept with the seats
                "companion": comp.enabled, "port": comp.port or None, "companion_host": comp.bind,
                "tls": [where(p) for p in comp.tls] if comp.tls else None,
                "confirm": self.confirm, "silence_timeout": self.silence_timeout,
                "log": where(self.log), "voices": self.voices}

    @classmethod
    def from_args(cls, args: argparse.Namespace, game: str,
                  options: Mapping[str, Any]) -> SessionConfig:
        """The configuration ``play``/``resume`` arguments ask for, with these game options."""
        return cls(game=game, options=dict(options), input=args.input, script=args.script,
                   output=args.output, voice=getattr(args, "voice", None) or "auto",
                   recognizer=RecognizerConfig.from_args(args),
                   companion=CompanionConfig.from_args(args), confirm=args.confirm,
                   silence_timeout=args.silence_timeout,
                   pause_after=getattr(args, "pause_after", DEFAULT_PAUSE_AFTER), log=args.log,
                   save_path=args.save, voices=getattr(args, "voices", None) or "auto")


SETTINGS: tuple[str, ...] = tuple(SessionConfig(game="", options={}).settings())
"""The ``play`` options that say how a game is played, as argparse names: the keys of
:meth:`SessionConfig.settings`, kept in the save file, so ``resume`` plays the game the same
way unless the command line says otherwise (the game's own options, its language included,
are kept with the game)."""
