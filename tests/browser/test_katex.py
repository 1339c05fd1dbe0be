"""Self-hosted KaTeX (docs/javascripts/katex-init.js) in Chromium.

- Formulas are typeset after Material's instant navigation too, and only once.
- A formula KaTeX cannot parse is reported on the console (which the `page` fixture
  turns into a test failure everywhere else), not silently drawn in red.
- Notebook pages: the `$...$` and `$$...$$` of Markdown cells are typeset.
- KaTeX's fonts come from the site itself.
"""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import PageGuard

ALL_TYPESET = (
    "() => [...document.querySelectorAll('.arithmatex')].every(e => e.querySelector('.katex'))"
)


def test_math_is_typeset_after_instant_navigation_and_only_once(page: Any, site_url: str) -> None:
    page.goto(site_url, wait_until="load")
    page.locator("article a[href$='attention/']").first.click()
    page.wait_for_url("**/attention/")
    page.wait_for_function(ALL_TYPESET)
    assert page.locator(".arithmatex .katex").count() >= 10
    # Emit document$ again, as instant navigation does: nothing is typeset twice.
    page.evaluate("() => window.document$.next(document)")
    assert page.locator(".katex .katex").count() == 0
    assert page.locator(".katex-error").count() == 0


def test_a_formula_katex_cannot_parse_is_a_console_error(
    page: Any, site_url: str, guard: PageGuard
) -> None:
    page.goto(site_url + "attention/", wait_until="load")
    page.wait_for_function(ALL_TYPESET)
    page.evaluate(
        """() => {
            const span = document.createElement('span');
            span.className = 'arithmatex';
            span.id = 'broken-formula';
            span.textContent = '\\\\(\\\\notacommand x\\\\)';
            document.querySelector('article').append(span);
            window.document$.next(document);
        }"""
    )
    errors: list[str] = []
    for _ in range(40):  # console events arrive asynchronously
        errors = [e for e in guard.console_errors if "KaTeX" in e]
        if errors:
            break
        page.wait_for_timeout(50)
    assert page.locator("#broken-formula .katex-error").count() == 0, "drawn in red instead"
    assert errors, f"no console error for a broken formula; console: {guard.console_errors}"
    guard.console_errors.clear()  # expected here; any other error still fails the test


def test_notebook_markdown_math_is_typeset(page: Any, site_url: str) -> None:
    page.goto(site_url + "notebooks/sqrt_dk/", wait_until="load")
    cells = page.locator(".jp-RenderedMarkdown")
    assert cells.count() > 0
    page.wait_for_function(
        "() => document.querySelectorAll('.jp-RenderedMarkdown .katex').length >= 3"
    )
    leftover = page.evaluate(
        """() => [...document.querySelectorAll('.jp-RenderedMarkdown')]
            .map(c => c.innerText).filter(t => /\\$[^$\\s][^$]*\\$/.test(t))"""
    )
    assert leftover == [], f"untypeset $...$ left in Markdown cells: {leftover}"


def test_katex_fonts_are_served_by_the_site(page: Any, site_url: str) -> None:
    fonts: list[str] = []
    page.on("response", lambda r: fonts.append(r.url) if "/fonts/KaTeX_" in r.url else None)
    page.goto(site_url + "attention/", wait_until="load")
    page.wait_for_function(ALL_TYPESET)
    page.wait_for_function("() => document.fonts.check('16px KaTeX_Main')")
    page.wait_for_load_state("networkidle")
    assert fonts, "no KaTeX font was fetched"
    assert all(u.startswith(site_url + "vendor/katex/fonts/") for u in fonts), fonts
    assert all(u.endswith(".woff2") for u in fonts), "Chromium should only need woff2"


def test_dollar_signs_in_ordinary_text_are_left_alone(page: Any, site_url: str) -> None:
    page.goto(site_url + "attention/", wait_until="load")
    page.wait_for_function(ALL_TYPESET)
    text = page.evaluate(
        """() => {
            const p = document.createElement('p');
            p.id = 'prices';
            p.textContent = 'A book costs $5 and a card $2.';
            document.querySelector('article').append(p);
            window.document$.next(document);
            return p.innerHTML;
        }"""
    )
    assert text == "A book costs $5 and a card $2."
