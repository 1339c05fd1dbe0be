"""Formulas typeset at build time (hooks/build.py): what the reader's browser gets.

- The HTML already carries KaTeX's output: formulas show with JavaScript off, and no page
  requests KaTeX's JavaScript.
- A page reached by a link carries its typeset formulas, once.
- Notebook pages: the `$...$` and `$$...$$` of Markdown cells are typeset too.
- KaTeX's fonts come from the site itself. Each page preloads the fonts of the formulas
  on its first screen (a missing preload there means a late font swap that shifts the
  text), and no other: the fonts of formulas further down load when those render, and
  would otherwise compete for bandwidth with the first screen.

A formula KaTeX rejects fails the build: see tests/test_katex_render.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from site_build.site import LESSONS, PAGES
from tests.browser.settled import wait_settled

NO_RAW_TEX = """() => {
    const text = document.querySelector('article').innerText;
    return ['\\\\(', '\\\\)', '\\\\[', '\\\\]', '\\\\frac', '\\\\sqrt', '\\\\mathbf']
        .filter(s => text.includes(s));
}"""
KATEX_SCRIPTS = ("katex.min.js", "auto-render", "katex-init")


@pytest.mark.parametrize("lesson", [lesson.url for lesson in LESSONS])
def test_lesson_math_is_in_the_html_even_with_javascript_off(
    browser: Any, site_url: str, lesson: str
) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(site_url + lesson, wait_until="load")
        formulas = page.locator(".arithmatex").count()
        assert page.locator(".arithmatex .katex").count() == formulas >= 10
        assert page.locator(".arithmatex .katex-display").count() >= 1
        assert page.locator(".arithmatex .katex math").count() == formulas, "MathML for readers"
        assert page.evaluate(NO_RAW_TEX) == []
    finally:
        context.close()


def test_no_page_requests_katex_javascript(page: Any, site_url: str) -> None:
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    for path in [p.url for p in PAGES]:
        page.goto(site_url + path, wait_until="load")
        page.wait_for_load_state("networkidle")
    scripts = [u for u in requested if any(name in u for name in KATEX_SCRIPTS)]
    assert scripts == []
    assert page.evaluate("() => typeof window.katex") == "undefined"
    assert any("vendor/katex/katex.min.css" in u for u in requested), "KaTeX's CSS is needed"


def test_math_after_following_a_link_is_typeset_once(page: Any, site_url: str) -> None:
    page.goto(site_url, wait_until="load")
    page.locator("article a[href$='attention/']").first.click()
    page.wait_for_url("**/attention/")
    page.wait_for_function("() => document.querySelectorAll('.arithmatex .katex').length >= 10")
    every = "[...document.querySelectorAll('.arithmatex')].every(e => e.querySelector('.katex'))"
    assert page.evaluate(f"() => {every}")
    assert page.locator(".katex .katex").count() == 0, "a formula typeset twice"
    assert page.locator(".katex-error").count() == 0
    assert page.evaluate(NO_RAW_TEX) == []
    page.wait_for_function("() => document.fonts.check('16px KaTeX_Main')")


def test_notebook_markdown_math_is_typeset(page: Any, site_url: str) -> None:
    page.goto(site_url + "notebooks/sqrt_dk/", wait_until="load")
    assert page.locator(".jp-RenderedMarkdown").count() > 0
    assert page.locator(".jp-RenderedMarkdown .katex").count() >= 10
    assert page.locator(".jp-RenderedMarkdown .katex-display").count() >= 1
    leftover = page.evaluate(
        """() => [...document.querySelectorAll('.jp-RenderedMarkdown')]
            .map(c => {
                const copy = c.cloneNode(true);
                copy.querySelectorAll('.katex, code, pre').forEach(e => e.remove());
                return copy.textContent;
            })
            .filter(t => /\\$[^$\\s][^$]*\\$/.test(t))"""
    )
    assert leftover == [], f"untypeset $...$ left in Markdown cells: {leftover}"


def test_katex_fonts_come_from_the_site_and_the_first_screens_are_preloaded(
    page: Any, site_url: str
) -> None:
    fonts: list[str] = []
    page.on("response", lambda r: fonts.append(r.url) if "/fonts/KaTeX_" in r.url else None)
    page.goto(site_url + "attention/", wait_until="load")
    page.wait_for_function("() => document.fonts.check('16px KaTeX_Main')")
    wait_settled(page)
    page.wait_for_load_state("networkidle")
    assert fonts, "no KaTeX font was fetched"
    assert all(u.startswith(site_url + "vendor/katex/fonts/") for u in fonts), fonts
    assert all(u.endswith(".woff2") for u in fonts), "Chromium should only need woff2"
    preloaded = page.evaluate(
        "() => [...document.querySelectorAll('link[rel=preload][as=font]')].map(l => l.href)"
    )
    # The first screen of the lesson has inline formulas in both of these fonts...
    assert {u.rsplit("/", 1)[1] for u in preloaded} == {
        "KaTeX_Main-Regular.woff2",
        "KaTeX_Math-Italic.woff2",
    }
    # ...no preload goes unused, and the bold and large-delimiter fonts further down
    # load when their formulas render.
    assert set(preloaded) < set(fonts), (preloaded, fonts)
    loaded = page.evaluate(
        "() => [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)"
    )
    assert {"KaTeX_Main", "KaTeX_Math"} <= set(loaded)
