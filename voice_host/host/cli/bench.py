"""``voice-host bench``: the recognition benchmark (``benchmarks/bench_recognition.py``), or
with ``--games`` the whole-game benchmark (``benchmarks/bench_games.py``: tables of synthetic
players playing whole games through the host).

The benchmark is not part of the package: it lives with the repository's other benchmarks and
their recorded cases. This command finds it in the source checkout the package is imported
from (a checkout on ``PYTHONPATH`` or an editable install) and runs it with the same options;
installed from a wheel, it says that the benchmark needs a source checkout."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

CHECKOUT = Path(__file__).resolve().parents[3]
"""The folder holding the ``voice_host`` package: a source checkout's root, or site-packages."""


def _missing() -> str:
    """What is said when the benchmark is not there (a package installed from a wheel)."""
    script = f"benchmarks/{_name()}.py"
    return (f"The benchmark ({script}) is not installed with the package: it needs a source "
            f"checkout of voice-host. Run this command from a checkout, or python {script} "
            "there.")


GAMES_FLAG = "--games"


def _games() -> bool:
    """True when the command line asks for the whole-game benchmark (the two benchmarks
    have different options, so the choice is made before the options are declared)."""
    return GAMES_FLAG in sys.argv[1:]


def _name() -> str:
    return "bench_games" if _games() else "bench_recognition"


def _script() -> Path | None:
    """The benchmark script, when the package runs from a source checkout."""
    script = CHECKOUT / "benchmarks" / f"{_name()}.py"
    if (CHECKOUT / "pyproject.toml").is_file() and script.is_file():
        return script
    return None


def _load() -> ModuleType | None:
    script = _script()
    if script is None:
        return None
    folder = str(script.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    name = _name()
    spec = importlib.util.spec_from_file_location(name, script)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # worker processes import it by this name
    spec.loader.exec_module(module)
    return module


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``voice-host bench`` (those of the benchmark script)."""
    module = _load()
    if module is None:
        parser.description = _missing()  # what --help says
        # the benchmark's options are unknown here: the CLI lets them pass, to answer
        # with the sentence rather than with "unrecognized arguments"
        parser.set_defaults(_bench_missing=True, _takes_any_options=True)
        return
    parser.add_argument(GAMES_FLAG, action="store_true",
                        help="the whole-game benchmark (benchmarks/bench_games.py): synthetic "
                             "tables play whole games through the host; "
                             "voice-host bench --games --help lists its options")
    module.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark; 0 on success."""
    module = None if getattr(args, "_bench_missing", False) else (
        sys.modules.get(_name()) or _load())  # loaded once, for its options
    if module is None:
        print(_missing(), file=sys.stderr)
        return 2
    result: int = module.run(args)
    return result
