"""The explorer's query dot and d_k slider follow the ARIA slider keys, and never scroll.

The query dot is a ``role=slider`` in two dimensions: Home and End put it at the left
and right ends of the range (the component across, which it reports as its value),
PageUp and PageDown move it up and down by a larger step than the arrows (a sixth of
the range), and none of these keys scrolls the page (before, End jumped about 14,000 px
and left the focus off screen). The d_k slider is a native range input: Home and End
reach its ends and PageUp and PageDown move it, without scrolling. Expected values come
from the widget's data as the build writes it (the range and the plane's components).
"""

from __future__ import annotations

from typing import Any

from site_build.widget_data import explorer_data
from tests.browser.settled import wait_settled

DATA = explorer_data()
C = DATA["query_controls"]
ACROSS, UP = C["plane_pair"]


def open_explorer(page: Any, site_url: str) -> None:
    page.goto(site_url + "attention/", wait_until="load")
    page.locator(".ex").scroll_into_view_if_needed()
    page.wait_for_selector(".ex[data-widget-state='ready']")
    wait_settled(page)  # the blocks above have their real heights: nothing moves by itself


def slider_values(page: Any) -> list[float]:
    values = page.eval_on_selector_all(".ex__sliders input", "es => es.map(e => Number(e.value))")
    return [float(v) for v in values]


def scroll_y(page: Any) -> float:
    return float(page.evaluate("() => scrollY"))


def record_keys(page: Any) -> None:
    """Log every keydown once its handlers ran (the window's bubbling listener is last)."""
    page.evaluate(
        "() => { window.__keys = []; window.addEventListener('keydown',"
        " e => window.__keys.push([e.key, e.defaultPrevented])); }"
    )


def recorded(page: Any) -> list[list[Any]]:
    keys: list[list[Any]] = page.evaluate("() => window.__keys")
    return keys


#: How far the page may move while keys are pressed, once it has settled: less than a
#: line of text, where End used to jump about 14,000 px. (Before settling, blocks above
#: the widget take their real heights and the browser's scroll anchoring moved scrollY
#: by 2,020 px once on a busy machine, with no key involved.)
DRIFT_PX = 10


def test_the_query_dot_takes_the_slider_keys_without_scrolling(page: Any, site_url: str) -> None:
    open_explorer(page, site_url)
    handle = page.locator(".ex__handle")
    handle.focus()
    record_keys(page)
    start = slider_values(page)

    page.keyboard.press("End")
    q = slider_values(page)
    assert q[ACROSS] == C["max"] and q[UP] == start[UP]
    assert float(handle.get_attribute("aria-valuenow")) == C["max"]

    page.keyboard.press("Home")
    q = slider_values(page)
    assert q[ACROSS] == C["min"] and q[UP] == start[UP]

    large = (C["max"] - C["min"]) / 6
    page.keyboard.press("PageDown")
    after = slider_values(page)
    assert round(after[UP], 6) == round(max(C["min"], start[UP] - large), 6)
    assert after[ACROSS] == C["min"]
    page.keyboard.press("PageUp")
    page.keyboard.press("PageUp")
    up = slider_values(page)
    assert round(up[UP], 6) == round(min(C["max"], max(C["min"], start[UP] - large) + 2 * large), 6)
    assert up[UP] - after[UP] > 10 * C["step"], "PageUp must be a larger step than an arrow"
    # Every key's default action (scrolling the page) was prevented.
    assert recorded(page) == [
        ["End", True],
        ["Home", True],
        ["PageDown", True],
        ["PageUp", True],
        ["PageUp", True],
    ]
    # Still on screen and focused.
    assert page.evaluate("() => document.activeElement.classList.contains('ex__handle')")
    box = handle.bounding_box()
    assert box is not None and 0 <= box["y"] <= page.viewport_size["height"]


def test_the_d_k_slider_takes_the_slider_keys_without_scrolling(page: Any, site_url: str) -> None:
    open_explorer(page, site_url)
    dk = page.locator(".ex input[id$='-dk']")
    dk.focus()
    y = scroll_y(page)  # a native range input: the browser's own keys, no page scroll
    last = len(DATA["dk_slider"]["d_k"]) - 1
    page.keyboard.press("End")
    assert int(dk.input_value()) == last
    page.keyboard.press("Home")
    assert int(dk.input_value()) == 0
    page.keyboard.press("PageUp")
    assert int(dk.input_value()) >= 1
    page.keyboard.press("PageDown")
    assert int(dk.input_value()) == 0
    assert abs(scroll_y(page) - y) < DRIFT_PX, "a key on the d_k slider scrolled the page"
    box = dk.bounding_box()
    assert box is not None and 0 <= box["y"] <= page.viewport_size["height"]
    shown = page.locator("[data-ex='dk']").inner_text()
    assert shown.strip().endswith(str(DATA["dk_slider"]["d_k"][0]))
