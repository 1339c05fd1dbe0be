"""What a screen reader gets: every formula and every code block of the lesson page,
even those far below the first screen, is in the browser's accessibility tree.

(CSS such as `content-visibility: auto` saves layout work at load but, in Chromium,
drops the skipped blocks from the accessibility tree until they are scrolled to.)
"""

from __future__ import annotations

from typing import Any


def test_lesson_math_and_code_are_in_the_accessibility_tree(page: Any, site_url: str) -> None:
    page.goto(site_url + "attention/")
    page.wait_for_load_state("networkidle")
    formulas = page.locator(".katex-mathml math").count()
    last_code = (
        (page.locator("div.highlight code").last.text_content() or "").strip().splitlines()[-1]
    )
    assert formulas >= 10 and last_code

    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    roles = [n.get("role", {}).get("value") for n in nodes]
    texts = " ".join(
        n.get("name", {}).get("value", "")
        for n, role in zip(nodes, roles, strict=True)
        if role in ("StaticText", "InlineTextBox")
    )
    math_nodes = sum(role in ("math", "MathMLMath") for role in roles)
    assert math_nodes == formulas, f"{formulas} formulas on the page, {math_nodes} in the tree"
    assert " ".join(last_code.split()) in " ".join(texts.split()), (
        f"the last code line {last_code!r} is not in the accessibility tree"
    )
