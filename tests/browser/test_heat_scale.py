"""One colour scale: a figure's pixel and a widget's cell of the same weight have the same
colour, in each palette.

The figure of every head (``figures/heads-<palette>.svg``, drawn at build time in Python)
carries its weights as one embedded PNG, one pixel a weight; the heatmap of lesson 1
colours table cells in CSS, and the heads widget of lesson 2 paints canvas pixels in
JavaScript, both from the custom properties the build writes into the stylesheet. For
every weight of one head, the three must agree to within 1 in each sRGB channel (the
rounding of a colour to 8 bits). A palette that drew from another scale, or a widget that
lost the stylesheet's properties, would miss by far more: the two palettes' colours for
the same weight differ by tens of units.
"""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from matplotlib.image import imread

from site_build.heads_figure import cell_pixel
from site_build.heatmap_data import DATA_FILE
from tests.test_heatmap_data import default_head_py

RECORD: dict[str, Any] = json.loads(DATA_FILE.read_text(encoding="utf-8"))
SENTENCE = 0  # "…too tired.": the sentence of the figure and the widgets' first view
N = len(RECORD["sentences"][SENTENCE]["tokens"])
PALETTES = {"light": "light", "dark": "dark"}  # the browser's colour scheme: the figure's palette


def figure_pixels(site_dir: Path, palette: str) -> np.ndarray:
    """(rows, cols, 3) uint8: the PNG embedded in the built figure of every head."""
    svg = (site_dir / "figures" / f"heads-{palette}.svg").read_text(encoding="utf-8")
    found = re.findall(r'xlink:href="data:image/png;base64,([^"]+)"', svg)
    assert len(found) == 1, f"heads-{palette}.svg: expected one embedded PNG, found {len(found)}"
    image = imread(io.BytesIO(base64.b64decode("".join(found[0].split()))), format="png")
    rgb: np.ndarray = np.rint(image[..., :3] * 255).astype(int)
    return rgb


def figure_colours(site_dir: Path, palette: str, layer: int, head: int) -> np.ndarray:
    """(n, n, 3): the figure's colour of every weight of one head."""
    image = figure_pixels(site_dir, palette)
    out = np.empty((N, N, 3), dtype=int)
    for q in range(N):
        for k in range(N):
            out[q, k] = image[cell_pixel(layer, head, q, k, N)]
    return out


def assert_same(what: str, shown: np.ndarray, figure: np.ndarray) -> None:
    worst = int(np.abs(shown - figure).max())
    q, k = np.unravel_index(int(np.abs(shown - figure).max(axis=-1).argmax()), shown.shape[:2])
    assert worst <= 1, (
        f"{what}: weight ({q}, {k}) is {shown[q, k].tolist()} in the widget, "
        f"{figure[q, k].tolist()} in the figure"
    )


@pytest.mark.parametrize("color_scheme", list(PALETTES), indirect=True)
def test_heatmap_cells_have_the_figure_colours(
    page: Any, site_url: str, site_dir: Path, color_scheme: str
) -> None:
    layer, head = default_head_py(RECORD)  # the head the heatmap opens on
    page.goto(site_url + "attention/", wait_until="load")
    box = page.locator("[data-widget=heatmap]")
    box.scroll_into_view_if_needed()
    page.wait_for_selector("[data-widget=heatmap][data-widget-state=ready]")
    css = page.evaluate(
        """(box) => [...box.querySelectorAll('table[role=grid] tbody tr')].map((tr) =>
            [...tr.querySelectorAll('td')].map((td) => getComputedStyle(td).backgroundColor))""",
        box.element_handle(),
    )
    shown = np.array(
        [[[round(float(x)) for x in re.findall(r"[\d.]+", c)[:3]] for c in row] for row in css]
    )
    assert shown.shape == (N, N, 3), shown.shape
    figure = figure_colours(site_dir, PALETTES[color_scheme], layer, head)
    assert_same(f"heatmap, {color_scheme}", shown, figure)
    # Not a blank scale: the weights of that head span light and dark cells.
    assert int(np.ptp(shown.sum(axis=-1))) > 200


@pytest.mark.parametrize("color_scheme", list(PALETTES), indirect=True)
def test_heads_widget_pixels_have_the_figure_colours(
    page: Any, site_url: str, site_dir: Path, color_scheme: str
) -> None:
    page.goto(site_url + "self-attention/", wait_until="load")
    box = page.locator("[data-widget=heads]")
    box.scroll_into_view_if_needed()
    page.wait_for_selector("[data-widget=heads][data-widget-state=ready]")
    layer = int(str(box.get_attribute("data-hd-default")))
    head = 0
    px = page.evaluate(
        """([box, head]) => {
            const c = box.querySelector(`button[data-head="${head}"] canvas`);
            return Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data);
        }""",
        [box.element_handle(), head],
    )
    shown = np.asarray(px, dtype=int).reshape(N, N, 4)[..., :3]
    figure = figure_colours(site_dir, PALETTES[color_scheme], layer, head)
    assert_same(f"heads widget, {color_scheme}", shown, figure)
