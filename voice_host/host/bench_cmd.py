"""``voice-host bench``: the recognition benchmark (``benchmarks/bench_recognition.py``).

The benchmark lives with the repository's other benchmarks; this command finds it next to the
package (a source checkout or an editable install) and runs it with the same options."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_recognition.py"
_MISSING = ("The recognition benchmark is part of the source repository "
            "(benchmarks/bench_recognition.py); run this command from a checkout of voice-host.")


def _load() -> ModuleType | None:
    if not _SCRIPT.is_file():
        return None
    folder = str(_SCRIPT.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location("bench_recognition", _SCRIPT)
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
        parser.set_defaults(_bench_missing=True)
        return
    module.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark; 0 on success."""
    module = _load() if not getattr(args, "_bench_missing", False) else None
    if module is None:
        print(_MISSING, file=sys.stderr)
        return 2
    result: int = module.run(args)
    return result
