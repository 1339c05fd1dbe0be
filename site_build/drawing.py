"""The figures' one drawing path: matplotlib to deterministic SVG, light and dark.

Each figure's ``draw(figure, palette, data)`` draws on a matplotlib ``Figure`` in one
:class:`Palette`, styling its axes with :func:`style`; :func:`svgs_for_themes` draws it
once per Material palette (for ``#only-light`` / ``#only-dark``), byte-identical from run
to run (fixed hash salt, glyphs as paths, no date). The three ``draw_*`` functions here
draw the √d_k experiments of :mod:`site_build.experiments`.

Examples
--------
>>> sorted(THEMES), sorted(PALETTES) == sorted(THEMES)
(['dark', 'light'], True)
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal
from xml.sax.saxutils import escape

import numpy as np

from site_build.experiments import GradientReach, Saturation, Spread
from site_build.heat_scale import HEAT, HeatScale

Theme = Literal["light", "dark"]
THEMES: tuple[Theme, ...] = ("light", "dark")


@dataclass(frozen=True)
class Palette:
    """Colours of one theme. Unscaled and scaled also differ by marker and dash.

    ``heat`` is the heatmaps' colour scale, the one the widgets read from the stylesheet
    (:data:`site_build.heat_scale.HEAT`); ``roles`` frames the heads of each role in
    ``site_build/heads_figure.py`` (special, previous, self, next; a letter names it too).
    """

    background: str
    foreground: str
    grid: str
    unscaled: str
    scaled: str
    heat: HeatScale
    roles: tuple[str, str, str, str]


# Okabe-Ito colours (safe for colour-blind readers); the dark background is
# Material's slate background, so the figure sits flush in the page.
PALETTES: Mapping[Theme, Palette] = {
    "light": Palette(
        "#ffffff", "#1f2328", "#d8dbe0", "#c75300", "#0066a8",
        heat=HEAT["light"],
        roles=("#c75300", "#007a5a", "#b4367f", "#7a6400"),
    ),
    "dark": Palette(
        "#1e2029", "#e2e4e9", "#3a3f4b", "#f0a04b", "#56b4e9",
        heat=HEAT["dark"],
        roles=("#f0a04b", "#3fcf9f", "#f08ac4", "#e6c84a"),
    ),
}  # fmt: skip

# Pixel size: 6.75 x 3.375 in at 72 pt/in is 486 x 243 pt, shown as 648 x 324 CSS px.
FIGSIZE = (6.75, 3.375)

_RC: dict[Any, Any] = {
    "svg.hashsalt": "attention-lesson",  # stable ids for clip paths
    "svg.fonttype": "path",  # glyphs as paths: no font needed, same bytes everywhere
    "font.family": "DejaVu Sans",  # ships with matplotlib
    "font.size": 10.5,
    "axes.linewidth": 0.8,
    "lines.linewidth": 1.8,
    "lines.markersize": 5.5,
    "legend.frameon": False,
    "path.simplify": False,
}


def style(ax: Any, pal: Palette, grid: bool = True) -> None:
    """Colour ``ax`` for ``pal``: background, ticks, spines, labels, and a grid behind."""
    ax.set_facecolor(pal.background)
    if grid:
        ax.grid(True, color=pal.grid, linewidth=0.6)
        ax.set_axisbelow(True)
    ax.tick_params(colors=pal.foreground, which="both")
    for spine in ax.spines.values():
        spine.set_color(pal.foreground)
    for text in (ax.xaxis.label, ax.yaxis.label, ax.title):
        text.set_color(pal.foreground)


def _log_d_k(ax: Any, pal: Palette) -> None:
    style(ax, pal)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("key width $d_k$")


def _series(pal: Palette) -> dict[str, dict[str, Any]]:
    return {
        "unscaled": {"color": pal.unscaled, "marker": "o", "linestyle": "-"},
        "scaled": {"color": pal.scaled, "marker": "s", "linestyle": "--"},
    }


def draw_spread(fig: Any, pal: Palette, data: Spread) -> None:
    """Draw :class:`Spread` on ``fig``: log-log variance against ``d_k``."""
    ax = fig.add_subplot()
    _log_d_k(ax, pal)
    s = _series(pal)
    # The expected lines are wide pale bands, so a measured line on top stays visible.
    band = {"color": pal.foreground, "alpha": 0.25, "linewidth": 7, "solid_capstyle": "butt"}
    ax.plot(data.d_k, data.d_k, **band, label="expected: $d_k$ and 1")
    ax.plot(data.d_k, np.ones_like(data.d_k), **band)
    ax.plot(data.d_k, data.unscaled, **s["unscaled"], label=r"measured, $q\cdot k$")
    ax.plot(data.d_k, data.scaled, **s["scaled"], label=r"measured, $q\cdot k/\sqrt{d_k}$")
    ax.set_yscale("log", base=2)
    ax.set_ylabel("variance of the score")
    ax.legend(loc="upper left", labelcolor=pal.foreground)


def draw_saturation(fig: Any, pal: Palette, data: Saturation) -> None:
    """Draw :class:`Saturation`: largest weight (left) and entropy (right) against ``d_k``."""
    left, right = fig.subplots(1, 2)
    s = _series(pal)
    note = {"textcoords": "offset points", "color": pal.foreground, "fontsize": 9}
    for ax in (left, right):
        _log_d_k(ax, pal)
    left.plot(data.d_k, data.max_unscaled, **s["unscaled"], label="unscaled")
    left.plot(data.d_k, data.max_scaled, **s["scaled"], label=r"scaled by $1/\sqrt{d_k}$")
    left.axhline(1 / data.n_keys, color=pal.foreground, linestyle=":", linewidth=1.2)
    left.set_ylim(0, 1.05)
    left.set_ylabel("largest weight (mean)")
    left.annotate(f"uniform 1/{data.n_keys}", (1, 1 / data.n_keys), xytext=(2, 4), **note)
    left.legend(loc="center left", labelcolor=pal.foreground)
    right.plot(data.d_k, data.entropy_unscaled, **s["unscaled"])
    right.plot(data.d_k, data.entropy_scaled, **s["scaled"])
    uniform = float(np.log(data.n_keys))
    right.axhline(uniform, color=pal.foreground, linestyle=":", linewidth=1.2)
    right.annotate(f"uniform: ln {data.n_keys}", (1, uniform), xytext=(2, -12), **note)
    right.set_ylim(0, uniform * 1.1)
    right.set_ylabel("entropy of the weights (nats)")


def draw_gradient(fig: Any, pal: Palette, data: GradientReach) -> None:
    """Draw :class:`GradientReach` on a log y axis against ``d_k``."""
    ax = fig.add_subplot()
    _log_d_k(ax, pal)
    s = _series(pal)
    ax.plot(data.d_k, data.unscaled, **s["unscaled"], label="unscaled")
    ax.plot(data.d_k, data.scaled, **s["scaled"], label=r"scaled by $1/\sqrt{d_k}$")
    ax.set_yscale("log")
    ax.set_ylabel("gradient to a non-max logit")
    ax.legend(loc="lower left", labelcolor=pal.foreground)


def svgs_for_themes(
    data: Any,
    draw: Callable[[Any, Palette, Any], None],
    title: str,
    figsize: tuple[float, float] = FIGSIZE,
) -> dict[Theme, bytes]:
    """Draw ``data`` with ``draw`` once per theme: ``{"light": svg, "dark": svg}``.

    ``title`` is the SVG's ``<title>``, ``figsize`` its size in inches (72 pt each, shown
    at 96 CSS px an inch). matplotlib's object-oriented ``Figure`` (no pyplot) inside an
    ``rc_context``: nothing leaks into other users of matplotlib.
    """
    import matplotlib
    from matplotlib.figure import Figure

    out: dict[Theme, bytes] = {}
    for theme in THEMES:
        pal = PALETTES[theme]
        with matplotlib.rc_context(_RC):
            fig = Figure(figsize=figsize, layout="constrained", facecolor=pal.background)
            draw(fig, pal, data)
            buf = io.BytesIO()
            fig.savefig(buf, format="svg", facecolor=pal.background, metadata={"Date": None})
        # An accessible name for the SVG opened on its own (the page's <img> has alt text).
        head, sep, rest = buf.getvalue().decode("utf-8").partition(">\n <metadata>")
        if not sep:
            raise RuntimeError("unexpected SVG layout from matplotlib: no <metadata> after <svg>")
        svg = f'{head} role="img">\n <title>{escape(title)}</title>\n <metadata>{rest}'
        out[theme] = svg.encode("utf-8")
    return out
