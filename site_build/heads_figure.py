"""The role of every head of the site's record, by :func:`attention_ref.head_roles.head_role`
(which defines the roles), shipped as :data:`HEAD_ROLES_JSON_PATH` for the heads widget; and
the figure of every head: one sentence's attention in all 6 x 12 heads of the real model,
each framed and lettered by its role, in the widgets' heat scale. Layers and heads are
labelled from 1, as the widgets show them; the data files count them from 0.

Examples
--------
>>> grid = head_grid("tired")
>>> grid.weights.shape, grid.tokens[:3], len(grid.roles), len(grid.roles[0])
((6, 12, 16, 16), ('[CLS]', 'the', 'animal'), 6, 12)
>>> [CODES[role] for role in ROLES]
['C', 'P', 'S', 'N', '']
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from attention_ref.head_roles import ABOUT, PATTERNS, ROLES, THRESHOLD, head_role
from site_build.drawing import Palette
from site_build.heatmap_data import heatmap_json

#: Where the site serves the roles.
HEAD_ROLES_JSON_PATH = "assets/data/head_roles.json"

#: The letter written above a head of each role (none for ``mixed``).
CODES: dict[str, str] = {"special": "C", "previous": "P", "self": "S", "next": "N", "mixed": ""}

# Gaps in pixels of the image (one pixel a weight), margins in inches (legend at the bottom).
_GAP_X, _GAP_Y = 5, 10  # between heads; above each head its role's letter
_LEFT, _RIGHT, _TOP, _BOTTOM = 0.42, 0.08, 0.42, 0.56


def record_roles(record: Mapping[str, Any]) -> dict[str, Any]:
    """The roles of every head of every sentence of a record like ``data/it_attention.json``.

    Returns ``about``, ``threshold``, ``roles`` and ``sentences``: for each sentence id, a
    list over layers of a list over heads of ``{"role", "share"}``.

    Examples
    --------
    >>> record = {"scale": 10, "sentences": [{"id": "s", "tokens": ["[CLS]", "a"],
    ...     "attention": [[[[10, 0], [10, 0]], [[5, 5], [0, 10]]]]}]}
    >>> record_roles(record)["sentences"]
    {'s': [[{'role': 'special', 'share': 1.0}, {'role': 'self', 'share': 0.75}]]}
    """
    scale = record.get("scale")
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not scale > 0:
        raise ValueError(f"record: 'scale' must be a positive number, got {scale!r}")
    sentences: dict[str, list[list[dict[str, Any]]]] = {}
    for s in record["sentences"]:
        sentences[s["id"]] = [
            [head_role(np.asarray(m, dtype=np.float64) / scale, s["tokens"]) for m in layer]
            for layer in s["attention"]
        ]
    return {"about": ABOUT, "threshold": THRESHOLD, "roles": dict(ROLES), "sentences": sentences}


def head_roles_json() -> str:
    """The site's ``assets/data/head_roles.json``: roles of the build's record, compact."""
    return json.dumps(record_roles(json.loads(heatmap_json())), separators=(",", ":")) + "\n"


@dataclass(frozen=True)
class HeadGrid:
    """``weights`` (layers, heads, n, n; rows are queries) and ``roles[layer][head]``, a
    ``{"role", "share"}``, of one sentence's ``tokens`` (n,)."""

    tokens: tuple[str, ...]
    weights: np.ndarray
    roles: tuple[tuple[dict[str, Any], ...], ...]


def head_grid(sentence: str, weights_sha256: str | None = None) -> HeadGrid:
    """Read ``sentence`` of the model record, and the role of each head.

    ``ValueError`` if no sentence has that id, or the record's weights are not
    ``weights_sha256`` (in the cache key).

    Examples
    --------
    >>> head_grid("loud")
    Traceback (most recent call last):
    ...
    ValueError: sentence: no sentence 'loud' in the record (there are 'tired', 'wide')
    """
    record = json.loads(heatmap_json())
    if weights_sha256 is not None and record["weights_sha256"] != weights_sha256:
        raise ValueError(
            f"weights_sha256: the record was computed from {record['weights_sha256'][:12]}..., "
            f"not {weights_sha256[:12]}..."
        )
    ids = [s["id"] for s in record["sentences"]]
    if sentence not in ids:
        known = ", ".join(repr(i) for i in ids)
        raise ValueError(f"sentence: no sentence {sentence!r} in the record (there are {known})")
    s = record["sentences"][ids.index(sentence)]
    weights = np.asarray(s["attention"], dtype=np.float64) / record["scale"]  # (L, H, n, n)
    roles = [[head_role(w, s["tokens"]) for w in layer] for layer in weights]
    return HeadGrid(tuple(s["tokens"]), weights, tuple(tuple(layer) for layer in roles))


def cell_pixel(layer: int, head: int, query: int, key: int, n: int) -> tuple[int, int]:
    """(row, column) of the image pixel that holds one weight of one head (0-based).

    Examples
    --------
    >>> cell_pixel(0, 0, 0, 0, 16), cell_pixel(1, 2, 3, 4, 16)
    ((10, 0), (39, 46))
    """
    return layer * (n + _GAP_Y) + _GAP_Y + query, head * (n + _GAP_X) + key


def draw_head_grid(fig: Any, pal: Palette, data: HeadGrid) -> None:
    """Draw every head as a small heatmap, framed and lettered by its role.

    One small raster holds all the heads: 72 images or 18,000 rectangles weigh far more.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    fig.set_layout_engine("none")
    layers, heads, n, _ = data.weights.shape
    colours = pal.heat.rgb(data.weights)  # (L, H, n, n, 3) uint8
    rows, cols = layers * (n + _GAP_Y), heads * n + (heads - 1) * _GAP_X
    image = np.empty((rows, cols, 3), dtype=np.uint8)  # (rows, cols, RGB), heads apart
    image[:] = [int(pal.background[i : i + 2], 16) for i in (1, 3, 5)]
    width_in, height_in = (float(x) for x in fig.get_size_inches())
    unit = min(  # inches a weight, as large as the margins allow
        (width_in - _LEFT - _RIGHT) / image.shape[1],
        (height_in - _TOP - _BOTTOM) / image.shape[0],
    )
    box_w, box_h = image.shape[1] * unit, image.shape[0] * unit
    ax = fig.add_axes(
        (_LEFT / width_in, 1 - (_TOP + box_h) / height_in, box_w / width_in, box_h / height_in)
    )
    ax.set_axis_off()
    frame = dict(zip(PATTERNS, pal.roles, strict=True))
    for li in range(layers):
        for hi in range(heads):
            top, left = cell_pixel(li, hi, 0, 0, n)
            image[top : top + n, left : left + n] = colours[li, hi]
            if hi == 0:
                ax.text(-2.5, top + n / 2 - 0.5, str(li + 1), ha="right", va="center")
            middle = left + n / 2 - 0.5
            role = data.roles[li][hi]["role"]
            # A pixel's width away from the weights, so a dark first or last column
            # stays apart from the frame.
            edge, width = frame.get(role, pal.grid), 1.6 if role in frame else 0.7
            ax.add_patch(
                Rectangle((left - 1.5, top - 1.5), n + 2, n + 2, fill=False, ec=edge, lw=width)
            )
            if CODES[role]:
                letter = {"fontsize": 8, "fontweight": "bold"}
                ax.text(middle, top - 3.2, CODES[role], ha="center", va="bottom", **letter)
            if li == 0:
                ax.text(middle, -1, str(hi + 1), ha="center", va="bottom")
    extent = (-0.5, image.shape[1] - 0.5, image.shape[0] - 0.5, -0.5)
    ax.imshow(image, interpolation="none", aspect="equal", extent=extent)
    ax.set_xlim(-2.5, image.shape[1] + 1.5)
    ax.set_ylim(image.shape[0] + 0.5, -0.5)
    centre = (_LEFT + box_w / 2) / width_in
    fig.text(centre, 1 - 0.04 / height_in, "head", ha="center", va="top")
    middle_y = 1 - (_TOP + box_h / 2) / height_in
    fig.text(0.04 / width_in, middle_y, "layer", rotation=90, ha="left", va="center")
    keys = [(frame[r], 1.6, f"{CODES[r]}  {ROLES[r]}") for r in PATTERNS]
    keys.append((pal.grid, 0.7, f"no letter: {ROLES['mixed']}"))
    square: dict[str, Any] = {"marker": "s", "linestyle": "none", "markersize": 9}
    handles = [
        Line2D([], [], **square, mfc="none", mew=width, mec=colour, label=label)
        for colour, width, label in keys
    ]
    fig.legend(
        handles=handles,
        loc="lower center",
        ncols=3,
        fontsize=8.5,
        bbox_to_anchor=(centre, 0.01),
        handletextpad=0.3,
        columnspacing=1.2,
    )
