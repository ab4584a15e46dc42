"""``voice-host bench``: the recognition benchmark (``benchmarks/bench_recognition.py``).

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
_MISSING = ("The recognition benchmark (benchmarks/bench_recognition.py) is not installed with "
            "the package: it needs a source checkout of voice-host. Run this command from a "
            "checkout, or python benchmarks/bench_recognition.py there.")


def _script() -> Path | None:
    """The benchmark script, when the package runs from a source checkout."""
    script = CHECKOUT / "benchmarks" / "bench_recognition.py"
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
    spec = importlib.util.spec_from_file_location("bench_recognition", script)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_recognition"] = module  # worker processes import it by this name
    spec.loader.exec_module(module)
    return module


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``voice-host bench`` (those of the benchmark script)."""
    module = _load()
    if module is None:
        parser.description = _MISSING  # what --help says
        # the benchmark's options are unknown here: the CLI lets them pass, to answer
        # with the sentence rather than with "unrecognized arguments"
        parser.set_defaults(_bench_missing=True, _takes_any_options=True)
        return
    module.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark; 0 on success."""
    module = None if getattr(args, "_bench_missing", False) else (
        sys.modules.get("bench_recognition") or _load())  # loaded once, for its options
    if module is None:
        print(_MISSING, file=sys.stderr)
        return 2
    result: int = module.run(args)
    return result
