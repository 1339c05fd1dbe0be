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


PALETTE_TOGGLE = "form[data-palette] label:not([hidden])"


def violations_in_both_palettes(page: Any, include: str | None = None) -> dict[str, str]:
    """axe's violations in the palette shown, then in the other one, as `describe` texts.

    The other palette is reached the way a reader reaches it, with the header's toggle,
    and the toggle is pressed again after, so the page is left in the palette it was in.
    Returns ``{scheme: description}`` for each of the two schemes (``""`` when clean).
    """
    found: dict[str, str] = {}
    first = page.evaluate("document.body.dataset.mdColorScheme")
    for _ in range(2):
        scheme = page.evaluate("document.body.dataset.mdColorScheme")
        page.wait_for_function(
            "() => document.getAnimations().every((a) => a.playState !== 'running')"
        )
        found[scheme] = describe(axe_violations(page, include))
        page.locator(PALETTE_TOGGLE).click()
        page.wait_for_function("(s) => document.body.dataset.mdColorScheme !== s", arg=scheme)
    assert page.evaluate("document.body.dataset.mdColorScheme") == first
    assert len(found) == 2, f"the toggle did not change the palette: {found}"
    return found
