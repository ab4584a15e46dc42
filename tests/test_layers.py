"""The layering of docs/design.md, checked on the source: games imports nothing else of
voice_host; intent knows no game rules, speech no games/intent; nothing imports host but
the CLI; inside host, core imports neither io nor cli, and io not cli. ``voice_host.text``
(folding and tokenizing) and ``voice_host.wording`` (sentences by code) are the shared
leaves: every layer may import them, and they import nothing of voice_host."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "voice_host"

SHARED_LEAVES = {"text", "wording"}
"""``voice_host/text.py`` and ``voice_host/wording.py``: the modules every layer may import."""

ALLOWED = {
    "games": {"games", *SHARED_LEAVES},
    "intent": {"intent", *SHARED_LEAVES},
    "speech": {"speech", *SHARED_LEAVES},
    "host": {"host", "games", "intent", "speech", *SHARED_LEAVES},
}


def imported_layers(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    layers: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module == "voice_host" and node.level == 0:
            names = [f"voice_host.{a.name}" for a in node.names]  # from voice_host import text
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "voice_host" and len(parts) > 1:
                layers.add(parts[1])
    return layers


def modules_of(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_what_design_allows(layer: str) -> None:
    files = modules_of(layer)
    assert files, f"layer {layer} has no modules"
    for path in files:
        bad = imported_layers(path) - ALLOWED[layer]
        assert not bad, f"{path.relative_to(PACKAGE)} imports {sorted(bad)}"


@pytest.mark.parametrize("name", sorted(SHARED_LEAVES))
def test_the_shared_leaves_import_nothing_of_voice_host(name: str) -> None:
    leaf = PACKAGE / f"{name}.py"
    assert leaf.is_file()
    assert not imported_layers(leaf), f"{name}.py imports {sorted(imported_layers(leaf))}"


def test_nothing_but_the_cli_imports_host() -> None:
    for path in PACKAGE.rglob("*.py"):
        if (PACKAGE / "host") in path.parents or path.name in ("cli.py", "__main__.py"):
            continue
        assert "host" not in imported_layers(path), f"{path.relative_to(PACKAGE)} imports host"


@pytest.mark.slow
def test_a_reader_that_goes_away_ends_the_output_quietly() -> None:
    """``voice-host simulate --json | head``: no traceback when the pipe closes."""
    import subprocess
    import sys

    run = subprocess.run(
        f"{sys.executable} -m voice_host.cli simulate all --games 200 --json | head -c 10",
        shell=True, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in run.stderr and "BrokenPipe" not in run.stderr


def imported_modules(path: Path, *, type_only: bool = True) -> set[str]:
    """Every voice_host module ``path`` imports (absolute imports, those inside functions
    included); with ``type_only=False``, not those under ``if TYPE_CHECKING:``, which are
    never loaded when the module runs."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if not type_only:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                    and node.test.id == "TYPE_CHECKING":
                node.body = []
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return {n for n in names if n.startswith("voice_host.")}


def test_the_session_core_never_loads_the_companion_page() -> None:
    """The phones reach the loop through the ``Companion`` protocol only: core names the
    page's types for the type checker, and never imports its code."""
    for path in sorted((PACKAGE / "host" / "core").rglob("*.py")):
        bad = {m for m in imported_modules(path, type_only=False)
               if m.startswith("voice_host.host.companion")}
        assert not bad, f"{path.relative_to(PACKAGE)} imports {sorted(bad)}"


@pytest.mark.parametrize(("room", "forbidden"), [
    ("core", ("voice_host.host.io", "voice_host.host.cli")),
    ("io", ("voice_host.host.cli",)),
])
def test_the_host_rooms_import_downwards_only(room: str, forbidden: tuple[str, ...]) -> None:
    files = sorted((PACKAGE / "host" / room).rglob("*.py"))
    assert files, f"host/{room} has no modules"
    for path in files:
        bad = {m for m in imported_modules(path)
               if any(m == f or m.startswith(f + ".") for f in forbidden)}
        assert not bad, f"{path.relative_to(PACKAGE)} imports {sorted(bad)}"


def test_no_host_module_is_over_400_lines() -> None:
    long: dict[str, int] = {}
    for path in (PACKAGE / "host").rglob("*.py"):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > 400:
            long[str(path.relative_to(PACKAGE))] = lines
    assert not long, f"split these modules (docs/design.md): {long}"


def test_the_design_document_exists() -> None:
    design = PACKAGE.parent / "docs" / "design.md"
    assert design.is_file()
    text = design.read_text(encoding="utf-8")
    for heading in ("## Layers", "## One utterance", "## Adding a game"):
        assert heading in text
