"""What a screen reader gets: every formula and every code block of a lesson page,
even those far below the first screen, is in the browser's accessibility tree once the
page has settled.

While the page loads, the blocks far below the first screen are skipped
(`content-visibility: auto`), and in Chromium a skipped block is missing from the
accessibility tree. `javascripts/settle.js` lets them all render after the load event and
then marks the root element `data-settled`; this test holds it to that.
"""

from __future__ import annotations

from typing import Any

import pytest

from site_build.site import LESSONS
from tests.browser.settled import wait_settled


@pytest.mark.parametrize("lesson", [lesson.url for lesson in LESSONS])
def test_lesson_math_and_code_are_in_the_accessibility_tree(
    page: Any, site_url: str, lesson: str
) -> None:
    page.goto(site_url + lesson)
    page.wait_for_load_state("load")
    wait_settled(page)
    still_skipped = page.evaluate(
        """() => [...document.querySelectorAll('.md-content__inner > *')]
            .filter((e) => getComputedStyle(e).contentVisibility === 'auto').length"""
    )
    assert still_skipped == 0, f"{still_skipped} blocks still skipped after the page settled"
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
