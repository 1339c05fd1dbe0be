"""The "every head of a layer" widget in Chromium: what it shows equals the committed data.

Oracles, all computed here in Python, never by the widget's JavaScript:

- the weights: ``data/it_attention.json`` read here, weight = stored integer / scale;
- the labels and shares: ``site_build.heads_figure.record_roles`` on the same record;
- the colours: the lesson-1 colour scale written out by hand below (hue 231, saturation
  48 % light / 42 % dark, lightness from 97 % to 24 % light and 17 % to 82 % dark along
  the square root of the weight), converted to sRGB with ``colorsys``. A canvas pixel
  passes when every channel is within 1 of it.

A shown number passes when it has three decimals and is within half a unit of its last
place.
"""

from __future__ import annotations

import colorsys
import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attention_ref.head_roles import ROLES
from site_build.heads_figure import record_roles
from site_build.heatmap_data import DATA_FILE
from tests.browser.axe import axe_violations, describe
from tests.browser.settled import open_widget

RECORD: dict[str, Any] = json.loads(DATA_FILE.read_text(encoding="utf-8"))
ROLE_RECORD = record_roles(RECORD)
PAGE = "self-attention/"
WIDGET = "[data-widget=heads]"
DP = 3
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
SENTENCES = [s["id"] for s in RECORD["sentences"]]

# The colour scale, by hand (see the module docstring).
HUE = 231
SATURATION = {"light": 48, "dark": 42}
LIGHTNESS_ENDS = {"light": (97, 24), "dark": (17, 82)}


def expected_rgb(w: float, palette: str) -> tuple[int, int, int]:
    zero, one = LIGHTNESS_ENDS[palette]
    light = round((zero + (one - zero) * math.sqrt(min(1.0, max(0.0, w)))) * 10) / 10
    r, g, b = colorsys.hls_to_rgb(HUE / 360, light / 100, SATURATION[palette] / 100)
    return round(r * 255), round(g * 255), round(b * 255)


def weights(sentence: int, layer: int, head: int) -> np.ndarray:
    """(n, n) weights of one head, from the JSON."""
    s = RECORD["sentences"][sentence]
    w: np.ndarray = np.asarray(s["attention"][layer][head], dtype=np.float64) / RECORD["scale"]
    return w


def tokens(sentence: int) -> list[str]:
    return list(RECORD["sentences"][sentence]["tokens"])


def role(sentence: int, layer: int, head: int) -> dict[str, Any]:
    entry: dict[str, Any] = ROLE_RECORD["sentences"][SENTENCES[sentence]][layer][head]
    return entry


def default_layer() -> int:
    """The first layer whose heads have the most different roles ("…too tired")."""
    layers = ROLE_RECORD["sentences"][SENTENCES[0]]
    kinds = [len({h["role"] for h in layer}) for layer in layers]
    return kinds.index(max(kinds))


def title(layer: int, head: int, entry: dict[str, Any]) -> str:
    what = "largest share" if entry["role"] == "mixed" else "share"
    return (
        f"Layer {layer + 1}, head {head + 1}: {ROLES[entry['role']]} ({what} {entry['share']:.3f})"
    )


def check_number(what: str, shown: str, expected: float) -> None:
    text = shown.strip()
    assert re.fullmatch(rf"\d\.\d{{{DP}}}", text), f"{what}: shown {shown!r}, not {DP} decimals"
    assert abs(float(text) - expected) <= 0.5 * 10**-DP + 1e-9, (
        f"{what}: shown {shown!r}, the data gives {expected!r}"
    )


PIXELS = """(canvas) => {
  const {width, height} = canvas;
  const data = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  return {width, height, data: Array.from(data)};
}"""


# Scroll the cell (q, k) of an n x n canvas into view (the page, and the widget's own
# sideways scroll box on narrow screens) and return its centre in viewport coordinates.
CELL_CENTRE = """(canvas, [q, k, n]) => {
  const box = canvas.closest('.widget__scroll');
  let r = canvas.getBoundingClientRect();
  box.scrollLeft += r.left + ((k + 0.5) * r.width) / n - box.getBoundingClientRect().left
      - box.clientWidth / 2;
  r = canvas.getBoundingClientRect();
  window.scrollBy(0, r.top + ((q + 0.5) * r.height) / n - window.innerHeight / 2);
  r = canvas.getBoundingClientRect();
  return [r.left + ((k + 0.5) * r.width) / n, r.top + ((q + 0.5) * r.height) / n];
}"""


def check_pixels(what: str, canvas: Any, w: np.ndarray, palette: str) -> None:
    """Each pixel (row = query, column = key) of the canvas is the colour of its weight."""
    got = canvas.evaluate(PIXELS)
    n_q, n_k = w.shape
    assert (got["height"], got["width"]) == (n_q, n_k), f"{what}: canvas is not {n_q} x {n_k}"
    px = np.asarray(got["data"]).reshape(n_q, n_k, 4)
    for q in range(n_q):
        for k in range(n_k):
            want = expected_rgb(float(w[q, k]), palette)
            have = tuple(int(c) for c in px[q, k, :3])
            assert all(abs(a - b) <= 1 for a, b in zip(have, want, strict=True)), (
                f"{what}: cell ({q}, {k}) of weight {w[q, k]:.4f} is rgb{have}, expected rgb{want}"
            )


def small_head(box: Any, head: int) -> Any:
    return box.locator(f".heads__head[data-head='{head}']")


def check_small_heads(box: Any, sentence: int, layer: int, palette: str = "light") -> None:
    """Labels, shares and pictures of the twelve small heads of one layer."""
    assert box.locator("select[data-hd='layer']").input_value() == str(layer + 1)
    for head in range(RECORD["heads"]):
        button = small_head(box, head)
        entry = role(sentence, layer, head)
        assert button.locator(".heads__name").text_content() == f"Head {head + 1}"
        assert button.locator(".heads__role").text_content() == ROLES[entry["role"]]
        prefix = "largest" if entry["role"] == "mixed" else "share"
        share = str(button.locator(".heads__share").text_content())
        assert share.startswith(prefix + " "), share
        check_number(f"share of head {head + 1}", share.split(" ")[1], entry["share"])
        check_pixels(
            f"small head {layer + 1}.{head + 1}",
            button.locator("canvas"),
            weights(sentence, layer, head),
            palette,
        )
    counts = {k: 0 for k in ROLES}
    for head in range(RECORD["heads"]):
        counts[role(sentence, layer, head)["role"]] += 1
    summary = ", ".join(f"{c} {ROLES[k]}" for k, c in counts.items() if c)
    status = str(box.locator("[data-hd='status']").text_content())
    assert status == (
        f"Heads of layer {layer + 1} of {RECORD['layers']}, with “…too {SENTENCES[sentence]}.”: "
        f"{summary}."
    )


def check_full_view(
    page: Any, sentence: int, layer: int, head: int, palette: str = "light"
) -> None:
    """The open head: title, token labels, picture, pointer readout and the whole table."""
    box = page.locator(WIDGET)
    full = box.locator("[data-hd='full']")
    assert full.is_visible()
    entry = role(sentence, layer, head)
    assert full.locator("[data-hd='title']").text_content() == title(layer, head, entry)
    toks = tokens(sentence)
    assert full.locator("[data-hd='rows'] span").all_text_contents() == toks
    assert full.locator("[data-hd='cols'] span").all_text_contents() == toks
    w = weights(sentence, layer, head)
    canvas = full.locator("canvas[data-hd='canvas']")
    check_pixels(f"open head {layer + 1}.{head + 1}", canvas, w, palette)
    assert small_head(box, head).get_attribute("aria-expanded") == "true"
    assert box.locator(".heads__head[aria-expanded='true']").count() == 1

    # Point at cells: the readout names the query, the key and the weight.
    n = len(toks)
    for q, k in [(0, 0), (toks.index("it"), toks.index("animal")), (n - 1, n - 2), (3, 4)]:
        x, y = canvas.evaluate(CELL_CENTRE, [q, k, n])
        page.mouse.move(x, y)
        shown = str(full.locator("[data-hd='readout']").text_content())
        prefix = f"{toks[q]} → {toks[k]} "
        assert shown.startswith(prefix), f"pointing at ({q}, {k}) shows {shown!r}"
        check_number(f"readout ({q}, {k})", shown[len(prefix) :], float(w[q, k]))
        assert full.locator("[data-hd='rows'] .heads__token--on").all_text_contents() == [toks[q]]
        assert full.locator("[data-hd='cols'] .heads__token--on").all_text_contents() == [toks[k]]

    # The table alternative, filled while its <details> is open; left as it was.
    details = full.locator("details")
    was_open = details.evaluate("d => { const was = d.open; d.open = true; return was; }")
    table = full.locator("table[data-hd='table']")
    table.locator("tbody tr").nth(n - 1).wait_for()
    assert table.locator("thead th").all_text_contents() == ["query → key", *toks]
    assert table.locator("tbody th").all_text_contents() == toks
    cells = table.locator("tbody td").all_text_contents()
    assert len(cells) == w.size
    for i, (shown, want) in enumerate(zip(cells, w.ravel(), strict=True)):
        check_number(f"table cell {divmod(i, n)}", shown, float(want))
    caption = str(table.locator("caption").text_content())
    assert caption == (
        f"Attention weights of layer {layer + 1}, head {head + 1}, “…too {SENTENCES[sentence]}.”: "
        "rows are queries, columns are keys; each row sums to 1."
    )
    if not was_open:
        details.evaluate("d => { d.open = false; }")


def live(page: Any) -> str:
    return str(page.locator(f"{WIDGET} [data-hd='live']").text_content())


def focused(page: Any) -> str:
    """The focused element, as a short description."""
    return str(
        page.evaluate(
            """() => { const e = document.activeElement;
                return e.dataset.head !== undefined ? `head ${e.dataset.head}`
                    : (e.dataset.hd || e.tagName.toLowerCase()); }"""
        )
    )


def test_small_heads_show_the_roles_and_the_weights(page: Any, site_url: str) -> None:
    box = open_widget(page, site_url + PAGE, WIDGET)
    layer = default_layer()
    assert box.get_attribute("data-hd-default") == str(layer)
    check_small_heads(box, 0, layer)
    # Every other layer, and the other sentence, through the pickers.
    for other in range(RECORD["layers"]):
        box.locator("select[data-hd='layer']").select_option(str(other + 1))
        check_small_heads(box, 0, other)
    box.get_by_role("radio", name="…too wide").check()
    check_small_heads(box, 1, RECORD["layers"] - 1)
    # The colour scale's legend runs from weight 0 to weight 1 in the same colours.
    ramp = box.locator("canvas[data-hd='ramp']")
    check_pixels("legend", ramp, np.linspace(0, 1, 101)[None, :], "light")


def test_a_head_opens_in_full_and_closes(page: Any, site_url: str) -> None:
    box = open_widget(page, site_url + PAGE, WIDGET)
    layer = default_layer()
    head = 4
    full = box.locator("[data-hd='full']")
    assert full.is_hidden()
    small_head(box, head).click()
    check_full_view(page, 0, layer, head)
    assert live(page) == f"Opened {title(layer, head, role(0, layer, head))}."
    assert focused(page) == "close"
    # Another sentence and layer while it is open: the open head follows.
    box.get_by_role("radio", name="…too wide").check()
    check_full_view(page, 1, layer, head)
    box.locator("select[data-hd='layer']").select_option("1")
    check_full_view(page, 1, 0, head)
    assert live(page) == f"Now showing {title(0, head, role(1, 0, head))}."
    # The close button hands focus back to the small head.
    box.locator("[data-hd='close']").click()
    assert full.is_hidden()
    assert focused(page) == f"head {head}"
    assert live(page) == f"Closed head {head + 1} of layer 1."
    assert box.locator(".heads__head[aria-expanded='true']").count() == 0
    # A click on the open head closes it too; a click on another switches.
    small_head(box, 0).click()
    small_head(box, 7).click()
    check_full_view(page, 1, 0, 7)
    small_head(box, 7).click()
    assert full.is_hidden()


def test_keyboard_only(page: Any, site_url: str) -> None:
    box = open_widget(page, site_url + PAGE, WIDGET)
    layer = default_layer()
    box.locator("select[data-hd='layer']").focus()  # the control just before the heads
    page.keyboard.press("Tab")
    assert focused(page) == "head 0"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "the focused head shows no focus ring"
    columns = int(
        box.locator("[data-hd='heads']").evaluate(
            "g => getComputedStyle(g).gridTemplateColumns.split(' ').length"
        )
    )
    page.keyboard.press("ArrowRight")
    assert focused(page) == "head 1"
    page.keyboard.press("ArrowDown")
    assert focused(page) == f"head {1 + columns}"
    page.keyboard.press("End")
    assert focused(page) == f"head {RECORD['heads'] - 1}"
    page.keyboard.press("ArrowUp")
    assert focused(page) == f"head {RECORD['heads'] - 1 - columns}"
    page.keyboard.press("Home")
    assert focused(page) == "head 0"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    # Only one head is in the tab order (roving tabindex): the last one focused.
    assert box.locator(".heads__head[tabindex='0']").count() == 1
    assert small_head(box, 2).get_attribute("tabindex") == "0"

    page.keyboard.press("Enter")
    check_full_view(page, 0, layer, 2)
    assert focused(page) == "close"
    assert live(page) == f"Opened {title(layer, 2, role(0, layer, 2))}."
    page.keyboard.press("Escape")
    assert box.locator("[data-hd='full']").is_hidden()
    assert focused(page) == "head 2"

    page.keyboard.press("Space")
    assert focused(page) == "close"
    # Tab to the table's summary and open it by keyboard; the numbers are there.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
    page.keyboard.press("Enter")
    n = len(tokens(0))
    table = box.locator("table[data-hd='table']")
    table.locator("tbody tr").nth(n - 1).wait_for()
    assert table.locator("tbody td").count() == n * n
    page.keyboard.press("Tab")  # the table's scroll box, a named tab stop
    assert page.evaluate("document.activeElement.getAttribute('role')") == "region"
    page.keyboard.press("Escape")  # from anywhere in the open head
    assert focused(page) == "head 2"
    # Back out of the heads to the layer picker, change the layer by keyboard.
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "layer"
    page.keyboard.press("ArrowDown" if layer + 1 < RECORD["layers"] else "ArrowUp")
    new_layer = layer + 1 if layer + 1 < RECORD["layers"] else layer - 1
    check_small_heads(box, 0, new_layer)
    box.get_by_role("radio", name="…too tired").focus()
    page.keyboard.press("ArrowRight")
    check_small_heads(box, 1, new_layer)


def test_navigation_away_and_back(page: Any, site_url: str) -> None:
    open_widget(page, site_url + PAGE, WIDGET)
    nav_link = f"nav.md-nav--primary a.md-nav__link[href$='{PAGE}']"
    for _ in range(2):
        page.locator("nav.md-nav--primary a.md-nav__link", has_text="Home").first.click()
        page.wait_for_url(site_url)
        page.wait_for_selector(WIDGET, state="detached")
        page.locator(nav_link).first.click()
        page.wait_for_url(site_url + PAGE)
        page.locator(WIDGET).scroll_into_view_if_needed()
        page.wait_for_selector(f"{WIDGET}[data-widget-state=ready]")
    box = page.locator(WIDGET)
    assert box.count() == 1
    assert box.locator("[data-hd='heads']").count() == 1
    assert box.locator(".heads__head").count() == RECORD["heads"]

    def opens() -> int:
        return int(box.get_attribute("data-hd-opens") or "0")

    before = opens()
    small_head(box, 3).click()
    assert opens() == before + 1, "one click opened the head more than once"
    check_full_view(page, 0, default_layer(), 3)


@pytest.mark.parametrize("color_scheme", ["light", "dark"], indirect=True)
def test_no_axe_violation_and_screenshots(
    page: Any, site_url: str, color_scheme: str, screenshots: Path
) -> None:
    box = open_widget(page, site_url + PAGE, WIDGET)
    violations = axe_violations(page, include=WIDGET)
    assert violations == [], describe(violations)
    layer = default_layer()
    check_small_heads(box, 0, layer, color_scheme)
    small_head(box, 2).click()
    box.locator("details summary").click()
    check_full_view(page, 0, layer, 2, color_scheme)
    violations = axe_violations(page, include=WIDGET)
    assert violations == [], describe(violations)
    page.evaluate("document.querySelector('.md-header').style.visibility = 'hidden'")
    box.screenshot(path=str(screenshots / f"heads-{color_scheme}.png"))


def test_palette_switch_repaints_the_canvases(page: Any, site_url: str) -> None:
    box = open_widget(page, site_url + PAGE, WIDGET)
    layer = default_layer()
    small_head(box, 0).click()
    page.locator("label[title='Switch to dark mode']").click()
    page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
    check_small_heads(box, 0, layer, "dark")
    check_pixels("open head", box.locator("canvas[data-hd='canvas']"), weights(0, layer, 0), "dark")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], indirect=True)
def test_reserved_height_and_phone_width(
    page: Any, site_url: str, viewport: dict[str, int], screenshots: Path
) -> None:
    page.goto(site_url + PAGE, wait_until="load")
    box = page.locator(WIDGET)
    assert box.get_attribute("data-widget-state") == "waiting", "should wait below the screen"
    # Render-later must never skip the widget's box (it measures itself): see extra.css.
    assert box.evaluate("b => getComputedStyle(b).contentVisibility") != "auto"
    before = box.evaluate("b => b.getBoundingClientRect().height")
    box.scroll_into_view_if_needed()
    page.wait_for_selector(f"{WIDGET}[data-widget-state=ready]")
    after = box.evaluate("b => b.getBoundingClientRect().height")
    # The reserved height is the built widget's, to half a line of the box's text.
    assert abs(after - before) <= 7, f"reserved {before} px, built {after} px"
    small_head(box, 1).click()
    sizes = box.evaluate(
        """(b) => ({
            page: document.documentElement.scrollWidth,
            view: window.innerWidth,
            boxRight: b.getBoundingClientRect().right,
        })"""
    )
    assert sizes["page"] <= sizes["view"], f"the page overflows: {sizes}"
    assert sizes["boxRight"] <= viewport["width"], sizes
    check_full_view(page, 0, default_layer(), 1)
    page.evaluate("document.querySelector('.md-header').style.visibility = 'hidden'")
    box.screenshot(path=str(screenshots / f"heads-open-{viewport['width']}.png"))


def test_missing_roles_say_so_in_the_page(page: Any, site_url: str, guard: Any) -> None:
    page.route("**/assets/data/head_roles.json", lambda route: route.fulfill(status=404))
    page.goto(site_url + PAGE, wait_until="load")
    box = page.locator(WIDGET)
    box.scroll_into_view_if_needed()
    page.wait_for_selector(f"{WIDGET}[data-widget-state=error]")
    assert box.text_content().strip() == "The heads of the model could not be loaded."
    # The loader logs the error: expected here, so it must not fail the test.
    assert any("head roles: HTTP 404" in e for e in guard.console_errors), guard.console_errors
    guard.console_errors[:] = [e for e in guard.console_errors if "404" not in e]
