"""``voice-host models list | download LANG | remove LANG`` (the CLI wires these in)."""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from typing import TextIO

from voice_host.host.core.messages import help_text
from voice_host.speech import models, whisper_models


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``models`` sub-commands to ``parser`` (the ``models`` sub-parser)."""
    actions = parser.add_subparsers(dest="models_action", metavar="ACTION")
    actions.add_parser("list", help="show the Whisper and Vosk models and which are installed")
    download = actions.add_parser(
        "download", help="install a model: a Vosk language (en, fr) or whisper-NAME "
        "(whisper-tiny.en and whisper-base come with the speech extra and are only checked; "
        "whisper-small etc. come from the model hub)")
    download.add_argument("lang", metavar="MODEL", help="en, fr, or whisper-NAME")
    download.add_argument(
        "--base-url",
        default=None,
        help=help_text("fetch from this server instead of the official one (or set ${var})",
                       getattr(parser, "lang", "en"), var=models.MODEL_URL_ENV),
    )
    remove = actions.add_parser("remove", help="delete an installed model")
    remove.add_argument("lang", metavar="MODEL", help="en, fr, or whisper-NAME")


def add_recognizer_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--asr auto|vosk|pocketsphinx`` and ``--vosk-model PATH`` to a command."""
    parser.add_argument(
        "--asr",
        choices=("auto", "whisper", "vosk", "pocketsphinx"),
        default="auto",
        help="speech recognizer: Whisper when its model is installed (the speech extra), "
        "else Vosk when a model is installed, else PocketSphinx (default: auto)",
    )
    parser.add_argument(
        "--whisper-model", metavar="NAME|PATH", default=None,
        help="Whisper model: tiny.en (English default), base (English and French; the French "
        "default), a downloaded one, or the path of a CTranslate2 Whisper folder",
    )
    parser.add_argument(
        "--vosk-model", metavar="PATH", default=None, help="use this unpacked Vosk model"
    )


class ProgressBar:
    """A one-line text progress bar on a terminal stream (stderr by default)."""

    def __init__(self, label: str, *, stream: TextIO | None = None, width: int = 30) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self._last = 0.0
        self._done = False

    def __call__(self, received: int, total: int | None) -> None:
        now = time.monotonic()
        finished = total is not None and received >= total
        if not finished and now - self._last < 0.1:
            return
        self._last = now
        mb = received / 1_000_000
        if total:
            share = min(1.0, received / total)
            filled = int(share * self.width)
            bar = "#" * filled + "-" * (self.width - filled)
            line = f"\r{self.label} [{bar}] {share:4.0%} {mb:.1f}/{total / 1_000_000:.1f} MB"
        else:
            line = f"\r{self.label} {mb:.1f} MB"
        self.stream.write(line)
        if finished and not self._done:
            self.stream.write("\n")
            self._done = True
        self.stream.flush()


def _list_whisper(out: TextIO) -> None:
    out.write("Whisper models (the speech recognizer voice-host prefers):\n")
    for name, entry in whisper_models.CATALOGUE.items():
        state = whisper_models.state(name)
        folder = whisper_models.locate(name)
        where = f"installed at {folder}" if folder is not None else state
        languages = "English" if entry.languages == ("en",) else "English and French"
        out.write(f"  whisper-{name:<9} ~{entry.approx_mb} MB  {languages}; "
                  f"{entry.description}; {where}\n")


def _whisper_action(action: str, name: str, out: TextIO) -> int:
    entry = whisper_models.info(name)
    if action == "download":
        folder = whisper_models.download(entry.name)
        check = " (checksum verified)" if entry.sha256 else ""
        out.write(f"Whisper {entry.name} is installed at {folder}{check}.\n")
    else:
        folder = whisper_models.remove(entry.name)
        out.write(f"Removed {folder}.\n")
    return 0


def run(args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Carry out a ``models`` command; returns the process exit status. Warnings the model
    libraries print (the hub client's deprecations ...) are said as one sentence each."""
    err = err if err is not None else sys.stderr
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code = _run(args, out=out if out is not None else sys.stdout, err=err)
    said: set[str] = set()
    for warning in caught:
        text = " ".join(str(warning.message).split())
        if text not in said:
            said.add(text)
            library = (getattr(warning, "filename", "") or "").split("site-packages/")[-1]
            library = library.split("/")[0] if "/" in library else "a library"
            err.write(f"(A note from {library}, which voice-host uses: {text.rstrip('.')}.)\n")
    return code


def _run(args: argparse.Namespace, *, out: TextIO, err: TextIO) -> int:
    action = getattr(args, "models_action", None) or "list"
    try:
        if action == "list":
            _list_whisper(out)
            out.write(f"Vosk models ({models.models_dir()}):\n")
            for status in models.list_models():
                info = status.info
                where = f"installed at {status.path}" if status.path else "not installed"
                out.write(
                    f"  {info.lang}  {info.name}  ~{info.approx_mb} MB  {info.description}; "
                    f"{where}\n"
                )
            return 0
        if action in ("download", "remove") and args.lang.lower().startswith("whisper"):
            return _whisper_action(action, args.lang, out)
        if action == "download":
            info = models.catalogue_entry(args.lang)
            bar = ProgressBar(f"Downloading {info.name}", stream=err)
            path = models.download_model(
                args.lang, base_url=getattr(args, "base_url", None), progress=bar
            )
            check = "size and checksum" if info.sha256 else "size and zip integrity"
            out.write(f"Installed {info.name} at {path} ({check} verified).\n")
            return 0
        if action == "remove":
            path = models.remove_model(args.lang)
            out.write(f"Removed {path}.\n")
            return 0
    except models.ModelError as error:
        err.write(f"{error}\n")
        return 1
    err.write(f"Unknown models action '{action}'. Use list, download LANG or remove LANG.\n")
    return 2
