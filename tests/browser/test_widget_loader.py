"""Every widget comes to life the same way (docs/javascripts/widgets.js and
docs/javascripts/lib/lazy-mount.js), and fails the same way. The widgets are those of
the site model (``WIDGETS`` of ``site_build/site.py``): a widget added there is tested
here with no line of its own.

A keyboard reader who tabs onto a widget while it is still loading lands on its
container, which has a name saying it is loading, and focus moves to the widget's first
control once it is built. The widget's module is held back here until the test lets it
through, so the widget is surely still loading when the Tab key is pressed.

A widget whose data cannot be had (or, for one that reads none, whose module cannot)
shows its failure sentence in its box, and the rest of the page keeps working.

Oracles: each widget's first control and failure sentence, written by hand in the
model from the markup its partial or module builds; the loading name is the model's
label and " (loading)", as CONTRIBUTING promises.
"""

from __future__ import annotations

from typing import Any

import pytest

from site_build.site import PAGES, WIDGETS, Page, Widget
from tests.browser.conftest import PageGuard


def first_page(widget: Widget) -> Page:
    return next(page for page in PAGES if page.source in widget.pages)


def refused(widget: Widget) -> list[str]:
    """The addresses (route patterns) refused to make ``widget`` fail: its data files, or
    its module if it reads none. ``{lesson}`` in an address stands for any page's slug."""
    urls = [url.replace("{lesson}", "*") for url, _ in widget.data.values()] or [widget.module]
    return [f"**/{url}" for url in urls]


def failure_visits(widgets: dict[str, Widget]) -> dict[str, list[Widget]]:
    """Page address -> the widgets to break on it: every widget once, on as few pages as
    a greedy pick finds (the page that shows most of the widgets left, first in the nav
    on a tie), so that the test costs one page load per page, not per widget."""
    left, visits = list(widgets.values()), {}
    while left:
        page = max(PAGES, key=lambda p: sum(p.source in w.pages for w in left))
        visits[page.url] = [w for w in left if page.source in w.pages]
        left = [w for w in left if page.source not in w.pages]
    return visits


VISITS = failure_visits(WIDGETS)

PREVIOUS_FOCUSABLE = """(sel) => {
  const root = document.querySelector(sel);
  const all = [...document.querySelectorAll(
    'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])')];
  const before = all.filter((e) => e !== root && !root.contains(e)
      && (e.compareDocumentPosition(root) & Node.DOCUMENT_POSITION_FOLLOWING)
      && e.checkVisibility());  // not in a closed <details> or otherwise hidden
  const last = before[before.length - 1];
  last.setAttribute('data-test-before', '');
  return last.outerHTML.slice(0, 80);
}"""


@pytest.mark.parametrize("name", WIDGETS)
def test_tabbing_onto_a_loading_widget_reaches_its_first_control(
    page: Any, site_url: str, name: str
) -> None:
    widget = WIDGETS[name]
    selector, first_control = widget.container, widget.first_control
    held_url, loading_name = f"**/{widget.module}", f"{widget.label} (loading)"
    path = first_page(widget).url
    held: list[Any] = []
    page.route(held_url, lambda route: held.append(route))
    page.goto(site_url + path, wait_until="load")
    root = page.locator(selector)
    assert root.get_attribute("data-widget-state") == "waiting"  # far below the first screen

    page.evaluate(PREVIOUS_FOCUSABLE, selector)
    page.locator("[data-test-before]").focus()
    page.keyboard.press("Tab")
    assert page.evaluate(f"document.activeElement === document.querySelector({selector!r})")
    assert root.get_attribute("aria-label") == loading_name
    for _ in range(100):  # focus wakes the widget, which asks for what is held back
        if held:
            break
        page.wait_for_timeout(100)
    assert held, f"{held_url} was not requested once the {name} got focus"
    assert root.get_attribute("data-widget-state") == "loading"

    for route in held:
        route.continue_()
    page.unroute(held_url)
    page.wait_for_selector(f"{selector}[data-widget-state=ready]", timeout=60_000)
    focused = page.evaluate(
        f"document.activeElement === document.querySelector({selector!r})"
        f".querySelector({first_control!r})"
    )
    assert focused, f"focus did not move to the {name}'s first control ({first_control})"
    # The container is no longer a tab stop of its own, nor named "loading".
    assert root.get_attribute("tabindex") is None
    assert root.get_attribute("aria-label") != loading_name


@pytest.mark.parametrize("path", VISITS)
def test_missing_data_gives_the_failure_sentence_and_the_page_keeps_working(
    page: Any, site_url: str, guard: PageGuard, path: str
) -> None:
    widgets = VISITS[path]
    for widget in widgets:
        for url in refused(widget):
            page.route(url, lambda r: r.fulfill(status=404, body="gone"))
    page.goto(site_url + path, wait_until="load")
    for widget in widgets:
        box = page.locator(widget.container).first
        box.scroll_into_view_if_needed()
        page.wait_for_selector(f"{widget.container}[data-widget-state=error]", state="attached")
        # The sentence takes the place of the stand-in text (the whole box if it has none).
        said = box.evaluate("(b) => (b.querySelector('.widget__loading') || b).textContent")
        assert said.strip() == widget.failure, f"{widget.name} on {path}"
    # The page still works: the search opens.
    page.keyboard.press("s")
    page.wait_for_selector(".md-search__input:focus")
    # The browser's own line for each refused file, and the loader's error: expected here.
    expected = [
        "Failed to load resource",
        "Failed to fetch dynamically imported module",
        *(f"{what}: HTTP 404" for w in widgets for _, what in w.data.values()),
    ]
    guard.console_errors[:] = [m for m in guard.console_errors if not any(e in m for e in expected)]
