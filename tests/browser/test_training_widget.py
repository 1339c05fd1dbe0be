"""Lesson 4's training widget in Chromium: what it shows at every checkpoint is the record.

Oracles, computed here in Python and never by the widget's JavaScript:

- the scores: ``attention_ref.induction.previous_token_score`` and ``induction_score``
  (numpy) on the maps of ``data/induction_run.json``, weight = stored integer / scale;
- the losses: the record's numbers;
- the colours: the lesson-1 colour scale written out by hand in test_heads_widget.py
  (``expected_rgb``); a canvas pixel passes when every channel is within 1 of it.

A shown number passes when it is within half a unit of its last place (two decimals).
What the box says when the run cannot be had is tested for every widget of the site
model in test_widget_loader.py.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pytest

from attention_ref.induction import induction_score, previous_token_score
from site_build.widget_data import RUN_JSON
from tests.browser.axe import violations_in_both_palettes
from tests.browser.settled import open_widget
from tests.browser.test_heads_widget import expected_rgb

RECORD: dict[str, Any] = json.loads(RUN_JSON.read_text(encoding="utf-8"))
POINTS = RECORD["checkpoints"]
HALF = RECORD["probe"]["half"]
MAPS = np.array([c["attention"] for c in POINTS]) / RECORD["attention_scale"]  # (40, 2, 4, n, n)
PAGE = "training/"
WIDGET = "[data-widget='training']"
PHONE = {"width": 360, "height": 740}
HALF_UNIT = 0.005 + 1e-9  # two decimals shown


def shown(box: Any) -> dict[str, Any]:
    """Everything the widget says about the checkpoint on screen, in one round trip."""
    result: dict[str, Any] = box.evaluate(
        """(box) => ({
            step: box.querySelector('[data-tr=shown]').textContent,
            valuetext: box.querySelector('[data-tr=step]').getAttribute('aria-valuetext'),
            status: box.querySelector('[data-tr=status]').textContent,
            scores: [...box.querySelectorAll('.training__head')].map((f) => ({
                layer: Number(f.dataset.layer), head: Number(f.dataset.head),
                text: f.querySelector('[data-tr=score]').textContent,
            })),
            dots: [...box.querySelectorAll('.training__dot')]
                .map((d) => Number(d.getAttribute('cy'))),
        })"""
    )
    return result


def check_checkpoint(box: Any, at: int) -> None:
    point = POINTS[at]
    seen = shown(box)
    assert seen["step"] == f"step {point['step']}" == seen["valuetext"], seen
    previous = previous_token_score(MAPS[at])  # (2, 4)
    induction = induction_score(MAPS[at], HALF)  # (2, 4)
    assert len(seen["scores"]) == 8
    for entry in seen["scores"]:
        m = re.fullmatch(r"previous (\d\.\d\d) · induction (\d\.\d\d)", entry["text"])
        assert m, entry
        layer, head = entry["layer"], entry["head"]
        assert abs(float(m[1]) - previous[layer, head]) <= HALF_UNIT, (at, entry)
        assert abs(float(m[2]) - induction[layer, head]) <= HALF_UNIT, (at, entry)
    m = re.fullmatch(
        r"Step (\d+): the first half costs (\d\.\d\d) nats, the repeat (\d\.\d\d); "
        r"best previous-token score in layer 1 (\d\.\d\d), "
        r"best induction score in layer 2 (\d\.\d\d)\.",
        seen["status"],
    )
    assert m, seen["status"]
    assert int(m[1]) == point["step"]
    assert abs(float(m[2]) - point["first"]) <= HALF_UNIT
    assert abs(float(m[3]) - point["repeat"]) <= HALF_UNIT
    assert abs(float(m[4]) - previous[0].max()) <= HALF_UNIT
    assert abs(float(m[5]) - induction[1].max()) <= HALF_UNIT
    # The dots sit on the curves: the lower loss is drawn lower (a larger y).
    first_y, repeat_y = seen["dots"]
    if point["first"] - point["repeat"] > 0.1:
        assert repeat_y > first_y, (at, seen["dots"])


def canvas_rgb(box: Any, layer: int, head: int) -> np.ndarray:
    px = box.evaluate(
        """(box, [layer, head]) => {
            const f = `.training__head[data-layer="${layer}"][data-head="${head}"]`;
            const c = box.querySelector(`${f} canvas`);
            return Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data);
        }""",
        [layer, head],
    )
    n = MAPS.shape[-1]
    return np.asarray(px, dtype=int).reshape(n, n, 4)[..., :3]


def check_colours(box: Any, at: int, palette: str) -> None:
    for layer, head in [(0, 0), (1, 3)]:
        rgb = canvas_rgb(box, layer, head)
        w = MAPS[at, layer, head]
        want = np.array([[expected_rgb(x, palette) for x in row] for row in w])
        worst = int(np.abs(rgb - want).max())
        assert worst <= 1, f"{palette}, layer {layer + 1} head {head + 1}: off by {worst}"


def test_every_checkpoint_by_keyboard_shows_the_records_numbers(page: Any, site_url: str) -> None:
    box = open_widget(page, site_url + PAGE, WIDGET)
    check_checkpoint(box, 0)
    slider = box.locator("[data-tr=step]")
    slider.focus()
    for at in range(1, len(POINTS)):
        slider.press("ArrowRight")
        check_checkpoint(box, at)
    # The heads formed: at the end, layer 1's best head looks back, layer 2's copy.
    assert previous_token_score(MAPS[-1, 0]).max() > 0.5
    assert induction_score(MAPS[-1, 1], HALF).min() > 0.5
    check_colours(box, len(POINTS) - 1, "light")
    slider.press("Home")
    check_checkpoint(box, 0)
    slider.press("End")
    check_checkpoint(box, len(POINTS) - 1)
    assert violations_in_both_palettes(page, include=WIDGET) == {"default": "", "slate": ""}
    # The toggle was pressed twice: back in the light palette. Now the dark one.
    page.locator("form[data-palette] label:not([hidden])").click()
    page.wait_for_function("() => document.body.dataset.mdColorScheme === 'slate'")
    check_colours(box, len(POINTS) - 1, "dark")


@pytest.mark.parametrize(("viewport", "has_touch"), [(PHONE, True)], indirect=True)
def test_taps_step_one_checkpoint_at_a_phone_width(page: Any, site_url: str) -> None:
    box = open_widget(page, site_url + PAGE, WIDGET)
    earlier, later = box.locator("[data-tr=earlier]"), box.locator("[data-tr=later]")
    assert earlier.is_disabled() and later.is_enabled()
    later.tap()
    later.tap()
    check_checkpoint(box, 2)
    earlier.tap()
    check_checkpoint(box, 1)
    fits = box.evaluate("(b) => b.scrollWidth <= b.clientWidth + 1")
    assert fits, "the widget is wider than its box at 360 px"
    # A tap at the slider's right end goes to the last checkpoint.
    slider = box.locator("[data-tr=step]")
    rect = slider.bounding_box()
    assert rect is not None
    page.touchscreen.tap(rect["x"] + rect["width"] - 2, rect["y"] + rect["height"] / 2)
    check_checkpoint(box, len(POINTS) - 1)
    assert later.is_disabled()
