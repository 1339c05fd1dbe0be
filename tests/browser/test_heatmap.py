"""The "it → animal" heatmap in Chromium: what it shows equals the committed data.

The oracle is ``data/it_attention.json`` read here, in Python, with the default head
chosen by the rule written in ``tests/test_heatmap_data.py`` and the special-token
renormalisation done here with numpy. A shown number passes when it has the widget's
three decimals and is within half a unit of its last place.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from site_build.heatmap_data import DATA_FILE
from tests.browser.axe import axe_violations, describe
from tests.test_heatmap_data import default_head_py

RECORD: dict[str, Any] = json.loads(DATA_FILE.read_text(encoding="utf-8"))
DP = 3
SPECIAL = {"[CLS]", "[SEP]"}
PHONE = {"width": 360, "height": 740}
WIDGET = "[data-widget=heatmap]"


def expected_view(
    sentence: int, layer: int, head: int, hide: bool = False
) -> tuple[list[str], np.ndarray]:
    """Tokens and (m, m) weights the widget should show, computed from the JSON."""
    s = RECORD["sentences"][sentence]
    w = np.asarray(s["attention"][layer][head], dtype=np.float64) / RECORD["scale"]  # (n, n)
    keep = [i for i, t in enumerate(s["tokens"]) if not (hide and t in SPECIAL)]
    m = w[np.ix_(keep, keep)]
    m = m / m.sum(axis=1, keepdims=True)
    return [s["tokens"][i] for i in keep], m


def check_number(what: str, shown: str, expected: float) -> None:
    text = shown.strip()
    assert re.fullmatch(rf"\d\.\d{{{DP}}}", text), f"{what}: shown {shown!r}, not {DP} decimals"
    assert abs(float(text) - expected) <= 0.5 * 10**-DP + 1e-9, (
        f"{what}: shown {shown!r}, the data gives {expected!r}"
    )


def open_heatmap(page: Any, url: str) -> None:
    page.goto(url, wait_until="load")
    page.locator(WIDGET).scroll_into_view_if_needed()
    page.wait_for_selector(f"{WIDGET}[data-widget-state=ready]")


def row_header(page: Any, token: str) -> Any:
    return page.locator(f"{WIDGET} .heatmap__grid tbody th").filter(
        has_text=re.compile(rf"^{re.escape(token)}$")
    )


def live(page: Any) -> str:
    return str(page.locator(f"{WIDGET} [data-hm='live']").text_content()).strip()


def check_focused_row(
    page: Any, query: str, sentence: int, layer: int, head: int, hide: bool = False
) -> None:
    """The row panel, the grid row and the table row of `query` all equal the data."""
    tokens, m = expected_view(sentence, layer, head, hide)
    row = m[tokens.index(query)]
    box = page.locator(WIDGET)
    title = box.locator(".heatmap__row-title").text_content()
    assert title == f"Query “{query}”: its weight on each key"
    keys = box.locator(".heatmap__bars .heatmap__key").all_text_contents()
    nums = box.locator(".heatmap__bars .heatmap__num").all_text_contents()
    assert keys == tokens
    for key, shown, want in zip(keys, nums, row, strict=True):
        check_number(f"{query} → {key}", shown, float(want))
    grid_row = box.locator(".heatmap__grid tbody tr.heatmap__query--selected")
    assert grid_row.count() == 1
    assert grid_row.locator("th").text_content() == query
    for j, shown in enumerate(grid_row.locator("td").all_text_contents()):
        check_number(f"grid {query} → {tokens[j]}", shown, float(row[j]))
    # The table alternative is filled only while its <details> is open: open it for the
    # check, and leave it as it was.
    details = box.locator("details.widget__table")
    was_open = details.evaluate("d => { const was = d.open; d.open = true; return was; }")
    table_row = box.locator("[data-hm='table'] tbody tr").nth(tokens.index(query))
    assert table_row.locator("th").text_content() == query
    for j, shown in enumerate(table_row.locator("td").all_text_contents()):
        check_number(f"table {query} → {tokens[j]}", shown, float(row[j]))
    if not was_open:
        details.evaluate("d => { d.open = false; }")
    best = int(np.argmax(row))
    assert live(page) == f"{query} → {tokens[best]} {row[best]:.{DP}f}"


def pickers(page: Any) -> tuple[int, int]:
    layer = page.locator(f"{WIDGET} select[data-hm='layer']").input_value()
    head = page.locator(f"{WIDGET} select[data-hm='head']").input_value()
    return int(layer), int(head)


def test_it_row_shows_the_committed_weights(page: Any, site_url: str) -> None:
    open_heatmap(page, site_url + "attention/")
    layer, head = default_head_py(RECORD)
    assert pickers(page) == (layer, head), "the default head is not the it → animal maximum"
    # The widget opens on "it"; clicking another row and back goes through the click path.
    row_header(page, "animal").click()
    check_focused_row(page, "animal", 0, layer, head)
    row_header(page, "it").click()
    check_focused_row(page, "it", 0, layer, head)
    tokens, m = expected_view(0, layer, head)
    assert live(page) == f"it → animal {m[tokens.index('it'), tokens.index('animal')]:.3f}"
    # A click on a cell focuses its row too.
    page.locator(f"{WIDGET} .heatmap__grid tbody tr").nth(tokens.index("street")).locator("td").nth(
        3
    ).click()
    check_focused_row(page, "street", 0, layer, head)
    # The whole table alternative equals the data.
    page.locator(f"{WIDGET} details summary").click()
    page.locator(f"{WIDGET} [data-hm='table'] tbody tr").nth(m.shape[0] - 1).wait_for()
    cells = page.locator(f"{WIDGET} [data-hm='table'] tbody td").all_text_contents()
    assert len(cells) == m.size
    for k, (shown, want) in enumerate(zip(cells, m.ravel(), strict=True)):
        check_number(f"table cell {divmod(k, m.shape[1])}", shown, float(want))


def test_sentence_switch_and_special_tokens(page: Any, site_url: str) -> None:
    open_heatmap(page, site_url + "attention/")
    layer, head = default_head_py(RECORD)
    box = page.locator(WIDGET)
    box.get_by_role("radio", name="…too wide").check()
    check_focused_row(page, "it", 1, layer, head)
    # The note under the grid states what the data says changed.
    t0, m0 = expected_view(0, layer, head)
    t1, m1 = expected_view(1, layer, head)
    a0, a1 = m0[t0.index("it"), t0.index("animal")], m1[t1.index("it"), t1.index("animal")]
    s0, s1 = m0[t0.index("it"), t0.index("street")], m1[t1.index("it"), t1.index("street")]
    note = str(box.locator("[data-hm='contrast']").text_content())
    assert f"“it” → “animal” {'falls' if a1 < a0 else 'rises'} from {a0:.3f} to {a1:.3f}" in note
    assert f"“it” → “street” {'falls' if s1 < s0 else 'rises'} from {s0:.3f} to {s1:.3f}" in note
    verdict = "still gets more than" if a1 > s1 else "now gets more than"
    assert verdict in note

    box.get_by_label("Hide [CLS] and [SEP]").check()
    check_focused_row(page, "it", 1, layer, head, hide=True)
    assert box.locator(".heatmap__grid thead th").count() == 1 + len(t1) - 2
    status = str(box.locator("[data-hm='status']").text_content())
    raw = np.asarray(RECORD["sentences"][1]["attention"][layer][head][t1.index("it")], float)
    removed = (raw[0] + raw[-1]) / raw.sum()  # the share [CLS] and [SEP] held
    assert "[CLS] and [SEP] are hidden" in status and "sums to 1 again" in status
    assert f"had {removed:.3f} of its weight on them" in status
    box.get_by_role("radio", name="…too tired").check()
    check_focused_row(page, "it", 0, layer, head, hide=True)
    box.get_by_label("Hide [CLS] and [SEP]").uncheck()
    check_focused_row(page, "it", 0, layer, head)


def test_keyboard_only(page: Any, site_url: str) -> None:
    open_heatmap(page, site_url + "attention/")
    layer, head = default_head_py(RECORD)
    tokens, _ = expected_view(0, layer, head)
    box = page.locator(WIDGET)
    box.locator("[data-hm='hide']").focus()  # the control just before the grid
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent")
    assert focused == "it", "Tab should land on the focused row of the grid"
    page.keyboard.press("ArrowUp")
    check_focused_row(page, "because", 0, layer, head)
    assert page.evaluate("document.activeElement.textContent") == "because"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    check_focused_row(page, "was", 0, layer, head)
    page.keyboard.press("Home")
    check_focused_row(page, "[CLS]", 0, layer, head)
    page.keyboard.press("End")
    check_focused_row(page, "[SEP]", 0, layer, head)
    for _ in range(len(tokens) - 1 - tokens.index("it")):
        page.keyboard.press("ArrowUp")
    check_focused_row(page, "it", 0, layer, head)
    # Right arrow reads single weights of the row; the selection stays on "it".
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    active = page.evaluate("[document.activeElement.tagName, document.activeElement.cellIndex]")
    assert active == ["TD", 3]
    page.keyboard.press("Enter")
    check_focused_row(page, "it", 0, layer, head)
    # Only one element of the grid is in the tab order (roving tabindex).
    assert box.locator(".heatmap__grid [tabindex='0']").count() == 1

    # The pickers, by keyboard: back out of the grid, change head and layer.
    page.keyboard.press("Shift+Tab")  # out of the grid: the checkbox
    assert page.evaluate("document.activeElement.dataset.hm") == "hide"
    page.keyboard.press("Shift+Tab")  # the head picker
    assert page.evaluate("document.activeElement.dataset.hm") == "head"
    page.keyboard.press("ArrowDown")
    new_head = min(head + 1, RECORD["heads"] - 1)
    assert pickers(page) == (layer, new_head)
    page.keyboard.press("Shift+Tab")  # the layer picker
    assert page.evaluate("document.activeElement.dataset.hm") == "layer"
    page.keyboard.press("ArrowUp")
    new_layer = max(0, layer - 1)
    assert pickers(page) == (new_layer, new_head)
    caption = str(box.locator(".heatmap__grid caption").text_content())
    assert f"layer {new_layer + 1}, head {new_head + 1}," in caption
    check_focused_row(page, "it", 0, new_layer, new_head)
    # The sentence radios and the checkbox, by keyboard.
    box.get_by_role("radio", name="…too tired").focus()
    page.keyboard.press("ArrowRight")
    check_focused_row(page, "it", 1, new_layer, new_head)
    box.locator("[data-hm='hide']").focus()
    page.keyboard.press("Space")
    check_focused_row(page, "it", 1, new_layer, new_head, hide=True)


def test_navigation_away_and_back(page: Any, site_url: str) -> None:
    # Away by the navigation and back: the widget is built once and works.
    open_heatmap(page, site_url + "attention/")
    for _ in range(2):
        page.locator("nav.md-nav--primary a.md-nav__link", has_text="Home").first.click()
        page.wait_for_url(site_url)
        page.wait_for_selector(f"{WIDGET}", state="detached")
        page.locator("nav.md-nav--primary a.md-nav__link", has_text="Attention").first.click()
        page.wait_for_url(site_url + "attention/")
        page.locator(WIDGET).scroll_into_view_if_needed()
        page.wait_for_selector(f"{WIDGET}[data-widget-state=ready]")
    assert page.locator(WIDGET).count() == 1
    assert page.locator(f"{WIDGET} .heatmap__grid").count() == 1
    assert page.locator(f"{WIDGET} .heatmap__controls").count() == 1

    def selections() -> int:
        return int(page.locator(WIDGET).get_attribute("data-hm-selections") or "0")

    layer, head = default_head_py(RECORD)
    before = selections()
    row_header(page, "animal").click()
    assert selections() == before + 1, "one click focused the row more than once"
    check_focused_row(page, "animal", 0, layer, head)
    page.keyboard.press("ArrowDown")
    assert selections() == before + 2, "one key press focused a row more than once"
    check_focused_row(page, "didn", 0, layer, head)


@pytest.mark.parametrize("color_scheme", ["light", "dark"], indirect=True)
def test_no_axe_violation_and_screenshots(
    page: Any, site_url: str, color_scheme: str, screenshots: Path
) -> None:
    open_heatmap(page, site_url + "attention/")
    row_header(page, "it").click()
    violations = axe_violations(page, include=WIDGET)
    assert violations == [], describe(violations)
    page.locator(f"{WIDGET} details summary").click()
    page.locator(WIDGET).get_by_label("Hide [CLS] and [SEP]").check()
    violations = axe_violations(page, include=WIDGET)
    assert violations == [], describe(violations)
    page.locator(WIDGET).get_by_label("Hide [CLS] and [SEP]").uncheck()
    page.locator(f"{WIDGET} details summary").click()
    page.evaluate("document.querySelector('.md-header').style.visibility = 'hidden'")
    page.locator(WIDGET).screenshot(path=str(screenshots / f"heatmap-{color_scheme}.png"))


@pytest.mark.parametrize("viewport", [PHONE])
@pytest.mark.parametrize("color_scheme", ["light", "dark"], indirect=True)
def test_phone_width_scrolls_inside_the_box(
    page: Any, site_url: str, color_scheme: str, screenshots: Path
) -> None:
    open_heatmap(page, site_url + "attention/")
    sizes = page.evaluate(
        """(sel) => {
            const box = document.querySelector(sel);
            const scroller = box.querySelector('.heatmap__map .widget__scroll');
            return {
                page: document.documentElement.scrollWidth,
                view: window.innerWidth,
                boxRight: box.getBoundingClientRect().right,
                inner: scroller.scrollWidth,
                outer: scroller.clientWidth,
            };
        }""",
        WIDGET,
    )
    assert sizes["page"] <= sizes["view"] == PHONE["width"], f"the page overflows: {sizes}"
    assert sizes["boxRight"] <= PHONE["width"], sizes
    assert sizes["inner"] > sizes["outer"], f"the grid should scroll inside its box: {sizes}"
    row_header(page, "it").click()
    layer, head = default_head_py(RECORD)
    check_focused_row(page, "it", 0, layer, head)
    page.evaluate("document.querySelector('.md-header').style.visibility = 'hidden'")
    page.locator(WIDGET).screenshot(path=str(screenshots / f"heatmap-phone-{color_scheme}.png"))
