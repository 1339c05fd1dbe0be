"""Run axe-core (from node_modules, served by nothing but Playwright) on a page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Any, include: str | None = None) -> list[dict[str, Any]]:
    """Inject axe-core into ``page`` and return its violations (WCAG 2.x A/AA and best practice).

    ``include`` limits the run to the elements matching a CSS selector.
    """
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE_JS.read_text(encoding="utf-8"))
    context = {"include": [[include]]} if include else None
    result: dict[str, Any] = page.evaluate(
        """async (ctx) => await window.axe.run(ctx || document, {
            runOnly: {
                type: 'tag',
                values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
            },
            resultTypes: ['violations'],
        })""",
        context,
    )
    return list(result["violations"])


def describe(violations: list[dict[str, Any]]) -> str:
    """A readable summary: rule id, impact, and the first offending targets."""
    lines = []
    for v in violations:
        targets = [", ".join(map(str, n["target"])) for n in v["nodes"][:3]]
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} -> {targets}")
    return "\n".join(lines)
