"""What every phone's browser sends with a request of the page: its own ``Origin`` (a room
code counts only in a request from the page itself); the pages' axe-core audit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = (Path(__file__).resolve().parents[2] / "scripts" / "companion_e2e" / "node_modules"
       / "axe-core" / "axe.min.js")
"""axe-core, installed by scripts/setup_companion.sh."""


def page_origin(url: str) -> dict[str, str]:
    """The headers of a request the page at ``url`` sends itself."""
    scheme, _, rest = url.partition("://")
    return {"Origin": f"{scheme}://{rest.split('/', 1)[0]}", "Sec-Fetch-Site": "same-origin"}


def axe_violations(driver: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page a selenium ``driver`` shows (id, impact, help and
    the first three elements of each)."""
    driver.execute_script(AXE.read_text(encoding="utf-8"))
    result: list[dict[str, Any]] = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document).then((r) => done(r.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}))))
          .catch((e) => done([{id: 'axe-error', impact: 'critical', help: String(e)}]));
    """)
    return result
