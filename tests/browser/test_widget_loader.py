"""Every widget comes to life the same way (docs/javascripts/lib/lazy-mount.js).

A keyboard reader who tabs onto a widget while it is still loading lands on its
container, which has a name saying it is loading, and focus moves to the widget's first
control once it is built. What the widget needs is held back here until the test lets
it through, so the widget is surely still loading when the Tab key is pressed.

Oracle: each widget's first control, named by hand from the markup its partial or
widget module builds.
"""

from __future__ import annotations

from typing import Any

import pytest

# selector, what to hold back, the accessible name while loading, the first control,
# the page it is on
WIDGETS = {
    "heatmap": (
        "[data-widget=heatmap]",
        "**/assets/data/it_attention.json",
        "Attention heatmap (loading)",
        "input[type=radio][value='0']",
        "attention/",
    ),
    "explorer": (
        "[data-widget=explorer]",
        "**/assets/data/explorer.json",
        "Query explorer (loading)",
        "select[id$='-pair']",
        "attention/",
    ),
    "practice": (
        "[data-widget=practice]",
        "**/javascripts/practice/ui.js",
        "Practice exercises (loading)",
        "a[href*='pyodide']",
        "attention/",
    ),
    "heads": (
        "[data-widget=heads]",
        "**/assets/data/head_roles.json",
        "Every head of a layer (loading)",
        "input[type=radio][value='0']",
        "self-attention/",
    ),
    "training": (
        "[data-widget='training']",
        "**/assets/data/training.json",
        "Training, checkpoint by checkpoint (loading)",
        "input[type=range]",
        "training/",
    ),
    "generate": (
        "[data-widget='generate']",
        "**/assets/data/generate.json",
        "Generating, letter by letter (loading)",
        "input[type=text]",
        "scale/",
    ),
}


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
    selector, held_url, loading_name, first_control, path = WIDGETS[name]
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
