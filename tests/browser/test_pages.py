"""Every page of the built site, opened in Chromium in both palettes.

Checks what a reader would notice: the page loads with no console error and no request
to a host other than 127.0.0.1 (the `page` fixture fails the test otherwise), every
formula is typeset by KaTeX, every image (the build's figures) has loaded, the page has
an "edit this page" link to its source, and axe-core finds no violation. The first load
stays within the page's budget of bytes and requests in `tests/budgets.json` (counted as
`testbed/pageweight.py` counts them; `python -m bench --update-budgets` rewrites the file).
"""

from __future__ import annotations

from typing import Any

import pytest

from site_build import site
from testbed import budgets
from testbed.pageweight import RequestLog
from tests.browser.axe import axe_violations, describe
from tests.browser.settled import wait_settled

# Every page of the site as a URL path ('' for the home page), from the site model
# (tests/test_site.py checks that the built site has these pages and no other).
PAGES = [page.url for page in site.PAGES]


def open_page(page: Any, url: str) -> None:
    """Open ``url`` and wait until it has settled: every block rendered, every font fetched."""
    page.goto(url, wait_until="load")
    wait_settled(page)
    page.wait_for_load_state("networkidle")


def load_visible_images(page: Any) -> None:
    """Scroll every image the palette shows into view and wait until it has decoded.

    Figures load lazily (`loading="lazy"`) and only in the reader's palette, so an image
    counts as broken only if it is shown and still fails once it has been asked for.
    """
    page.evaluate(
        """async () => {
            for (const img of [...document.images].filter(i => i.offsetParent !== null)) {
                img.scrollIntoView();
                await img.decode().catch(() => {});
            }
            window.scrollTo(0, 0);
        }"""
    )


@pytest.mark.parametrize("color_scheme", ["light", "dark"], indirect=True)
@pytest.mark.parametrize("path", PAGES)
def test_page_renders_cleanly(
    page: Any, site_url: str, path: str, color_scheme: str, guard: Any
) -> None:
    requests = RequestLog().attach(page)
    open_page(page, site_url + path)
    first_load = {**requests.totals(), "third_party": list(guard.external_requests)}
    # The palette the reader asked for is the one Material shows.
    scheme = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    assert scheme == {"light": "default", "dark": "slate"}[color_scheme]

    math = page.locator(".arithmatex")
    n_math = math.count()
    if n_math:
        page.wait_for_function(
            "() => [...document.querySelectorAll('.arithmatex')]"
            ".every(e => e.querySelector('.katex'))"
        )
        assert page.locator(".katex-error").count() == 0, "KaTeX reported a formula error"

    load_visible_images(page)
    broken = page.evaluate(
        """() => [...document.images]
            .filter(img => img.offsetParent !== null)
            .filter(img => !(img.complete && img.naturalWidth > 0))
            .map(img => img.getAttribute('src'))"""
    )
    assert broken == [], f"images that did not load: {broken}"

    edit = page.locator("a.md-content__button[href*='/edit/main/docs/']")
    assert edit.count() == 1, "no 'edit this page' link to the page's source"

    violations = axe_violations(page)
    assert violations == [], describe(violations)

    over = budgets.check(path, first_load, budgets.load())
    assert not over, f"{color_scheme} palette: " + "; ".join(over)


def test_lesson_page_has_math_and_figures(page: Any, site_url: str) -> None:
    """The lesson page really carries formulas and build-time figures (guards the loop above)."""
    open_page(page, site_url + "attention/")
    assert page.locator(".arithmatex .katex").count() >= 3
    figures = page.locator("img[src*='figures/']")
    assert figures.count() >= 6, "expected light and dark versions of at least three figures"
    load_visible_images(page)
    visible = page.evaluate(
        "() => [...document.querySelectorAll(\"img[src*='figures/']\")]"
        ".filter(i => i.offsetParent !== null && i.naturalWidth > 0).length"
    )
    assert visible >= 3, "in the light palette the light figures must show"
