"""The site's cut-down KaTeX fonts draw every formula exactly as KaTeX's whole fonts do.

The build keeps, in each KaTeX woff2 font, only the glyphs of the characters the site's
formulas show (site_build/katex_render.py). The oracle is Chromium itself: for every
element of every formula's visible HTML, DevTools' CSS.getPlatformFontsForNode names
the fonts the browser drew its text with, and how many glyphs from each. A lesson page
is opened twice, once with the site's fonts and once with the site's font requests
answered by KaTeX's own files from node_modules; the two must agree on every element.
A glyph missing from a subset would be drawn with a fallback font (or with none), and
the lists would differ. The served fonts are also checked to be smaller.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from site_build.site import LESSONS
from tests.browser.settled import wait_settled

ROOT = Path(__file__).resolve().parents[2]
WHOLE = ROOT / "node_modules" / "katex" / "dist" / "fonts"

DRAWN_WITH = """(root) => [...document.querySelectorAll('.katex-html *')]
    .filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.data.trim()))
    .length"""


# Marks the spans that hold text of their own: the only ones a font draws text for
# (CSS.getPlatformFontsForNode reports the fonts of a node's child text nodes), so the
# others need no round trip to DevTools. Returns how many were marked.
MARK_TEXT_SPANS = """() => {
    const spans = [...document.querySelectorAll('.katex-html span')]
        .filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.data.trim()));
    for (const e of spans) e.setAttribute('data-font-probe', '');
    return spans.length;
}"""


def fonts_per_element(page: Any) -> list[list[tuple[str, int]]]:
    """For each text-bearing element of the formulas, the fonts drawn and their glyphs."""
    marked = page.evaluate(MARK_TEXT_SPANS)
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    ids = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "[data-font-probe]"})[
        "nodeIds"
    ]
    out = []
    for node in ids:
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        out.append(sorted((f["familyName"], f["glyphCount"]) for f in fonts))
    cdp.detach()
    # Every span with text of its own was drawn with some font.
    assert len(out) == marked and all(out), f"{sum(not f for f in out)} of {marked} drew nothing"
    return out


def open_lesson(browser: Any, url: str, whole_fonts: bool) -> list[list[tuple[str, int]]]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        if whole_fonts:
            context.route(
                "**/vendor/katex/fonts/*.woff2",
                lambda r: r.fulfill(
                    status=200,
                    content_type="font/woff2",
                    body=(WHOLE / r.request.url.rsplit("/", 1)[-1]).read_bytes(),
                ),
            )
        page = context.new_page()
        page.goto(url, wait_until="load")
        wait_settled(page)
        page.evaluate("document.fonts.ready.then(() => true)")
        assert page.evaluate(DRAWN_WITH) > 100  # the page has formulas to compare
        return fonts_per_element(page)
    finally:
        context.close()


@pytest.mark.parametrize("lesson", [lesson.url for lesson in LESSONS])
def test_formulas_are_drawn_with_the_same_fonts_as_with_katex_whole_fonts(
    browser: Any, site_url: str, lesson: str
) -> None:
    served = open_lesson(browser, site_url + lesson, whole_fonts=False)
    whole = open_lesson(browser, site_url + lesson, whole_fonts=True)
    assert len(served) > 100
    assert served == whole
    families = {name for element in served for name, _ in element}
    assert {"KaTeX_Main", "KaTeX_Math"} <= families, families


def test_the_served_fonts_are_smaller(site_dir: Path) -> None:
    served = {p.name: p.stat().st_size for p in (site_dir / "vendor/katex/fonts").glob("*.woff2")}
    whole = {p.name: p.stat().st_size for p in WHOLE.glob("*.woff2")}
    assert served.keys() == whole.keys()
    first_screen = [f"KaTeX_{n}.woff2" for n in ("Main-Regular", "Math-Italic", "AMS-Regular")]
    assert sum(served[n] for n in first_screen) < 0.5 * sum(whole[n] for n in first_screen)
    assert all(served[n] < whole[n] for n in whole), {
        n: (served[n], whole[n]) for n in whole if served[n] >= whole[n]
    }
