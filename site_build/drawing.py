"""The figures' palettes (light and dark), axes styling, and the √d_k experiments' drawings.

Examples
--------
>>> sorted(THEMES), sorted(PALETTES) == sorted(THEMES)
(['dark', 'light'], True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from site_build.experiments import Sweep
from site_build.heat_scale import HEAT, HeatScale

Theme = Literal["light", "dark"]
THEMES: tuple[Theme, ...] = ("light", "dark")


@dataclass(frozen=True)
class Palette:
    """Colours of one theme: ``heat`` is the widgets' heat scale, ``roles`` frame the heads
    of each role (special, previous, self, next) in the figure of every head."""

    background: str
    foreground: str
    grid: str
    unscaled: str
    scaled: str
    heat: HeatScale
    roles: tuple[str, str, str, str]


# Okabe-Ito colours (safe for colour-blind readers); dark is Material's slate background.
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


_SCALED = r"scaled by $1/\sqrt{d_k}$"  # the label of a line of scaled scores


def style(ax: Any, pal: Palette, grid: bool = True) -> None:
    """Fill ``ax`` with ``pal``'s background, with a grid behind unless ``grid`` is false."""
    ax.set_facecolor(pal.background)
    if grid:
        ax.grid(True, color=pal.grid, linewidth=0.6)
        ax.set_axisbelow(True)


def _d_k_plot(
    ax: Any, pal: Palette, sweep: Sweep, labels: tuple[str, str] = ("unscaled", _SCALED)
) -> None:
    """Style ``ax`` with a log2 ``d_k`` axis and plot ``sweep``, unscaled then scaled."""
    style(ax, pal)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("key width $d_k$")
    ax.plot(sweep.d_k, sweep.unscaled, color=pal.unscaled, marker="o", label=labels[0])
    ax.plot(sweep.d_k, sweep.scaled, color=pal.scaled, marker="s", ls="--", label=labels[1])


def draw_spread(fig: Any, pal: Palette, data: Sweep) -> None:
    """Log-log variance against ``d_k``."""
    ax = fig.add_subplot()
    # The expected lines are wide pale bands, so a measured line on top stays visible.
    band = {"color": pal.foreground, "alpha": 0.25, "linewidth": 7, "solid_capstyle": "butt"}
    ax.plot(data.d_k, data.d_k, **band, label="expected: $d_k$ and 1")
    ax.plot(data.d_k, np.ones_like(data.d_k), **band)
    _d_k_plot(ax, pal, data, (r"measured, $q\cdot k$", r"measured, $q\cdot k/\sqrt{d_k}$"))
    ax.set_yscale("log", base=2)
    ax.set_ylabel("variance of the score")
    ax.legend(loc="upper left")


def draw_saturation(fig: Any, pal: Palette, data: tuple[Sweep, Sweep]) -> None:
    """Largest weight (left) and entropy (right) against ``d_k``."""
    largest, entropy = data
    left, right = fig.subplots(1, 2)
    note = {"textcoords": "offset points", "fontsize": 9}
    _d_k_plot(left, pal, largest)
    left.axhline(1 / largest.n_keys, color=pal.foreground, linestyle=":", linewidth=1.2)
    left.set_ylim(0, 1.05)
    left.set_ylabel("largest weight (mean)")
    left.annotate(f"uniform 1/{largest.n_keys}", (1, 1 / largest.n_keys), xytext=(2, 4), **note)
    left.legend(loc="center left")
    _d_k_plot(right, pal, entropy, ("", ""))
    uniform = float(np.log(entropy.n_keys))
    right.axhline(uniform, color=pal.foreground, linestyle=":", linewidth=1.2)
    right.annotate(f"uniform: ln {entropy.n_keys}", (1, uniform), xytext=(2, -12), **note)
    right.set_ylim(0, uniform * 1.1)
    right.set_ylabel("entropy of the weights (nats)")


def draw_gradient(fig: Any, pal: Palette, data: Sweep) -> None:
    """Gradient on a log y axis against ``d_k``."""
    ax = fig.add_subplot()
    _d_k_plot(ax, pal, data)
    ax.set_yscale("log")
    ax.set_ylabel("gradient to a non-max logit")
    ax.legend(loc="lower left")
