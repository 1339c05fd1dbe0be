"""The build's figures, drawn in both palettes to deterministic SVG and cached by content
(a cache hit does not import matplotlib).

Examples
--------
>>> [spec.name for spec in FIGURES]  # doctest: +NORMALIZE_WHITESPACE
['spread', 'saturation', 'gradient', 'heads', 'gelu-relu', 'token-path',
 'sinusoidal', 'learned-positions']
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import numpy as np

import attention_ref as ar
from attention_ref import head_roles as role_rules
from site_build import drawing, heatmap_data, model_figures
from site_build.cache import ContentCache, content_key
from site_build.drawing import PALETTES, THEMES, Palette, Theme
from site_build.experiments import D_KS, dot_product_spread, gradient_reach, softmax_saturation
from site_build.heads_figure import draw_head_grid, head_grid


@dataclass(frozen=True)
class FigureSpec:
    """``compute(**params)`` gives the data that ``draw(figure, palette, data)`` draws in
    ``figures/<name>-<theme>.svg``. The key holds all fields but the functions, and the
    bytes of ``sources`` (files read beyond :func:`source_files`)."""

    name: str
    title: str
    params: Mapping[str, Any]
    compute: Callable[..., Any]
    draw: Callable[[Any, Palette, Any], None]
    figsize: tuple[float, float] = (6.75, 3.375)  # inches, 72 pt each, 96 CSS px
    sources: tuple[Path, ...] = ()


FIGURES: tuple[FigureSpec, ...] = (
    FigureSpec(
        "spread",
        "Variance of the score q·k against the key width d_k, unscaled and scaled",
        {"d_ks": list(D_KS), "n_samples": 4096, "seed": 0},
        dot_product_spread,
        drawing.draw_spread,
    ),
    FigureSpec(
        "saturation",
        "Largest softmax weight and entropy against d_k, unscaled and scaled",
        {"d_ks": list(D_KS), "n_keys": 16, "n_samples": 512, "seed": 1},
        softmax_saturation,
        drawing.draw_saturation,
    ),
    FigureSpec(
        "gradient",
        "Gradient reaching the non-maximal logits against d_k, unscaled and scaled",
        {"d_ks": list(D_KS), "n_keys": 16, "n_samples": 512, "seed": 2},
        gradient_reach,
        drawing.draw_gradient,
    ),
    FigureSpec(
        "heads",
        "Attention of every head of all-MiniLM-L6-v2 for the sentence ending in 'tired': "
        "6 layers by 12 heads, each framed and lettered by what it mostly looks at",
        # the key holds the weights' hash and head_roles.py, which sets the roles' threshold
        {"sentence": "tired", "weights_sha256": heatmap_data.installed_weights_sha256()},
        head_grid,
        draw_head_grid,
        figsize=(6.75, 5.0),
        sources=tuple(Path(str(m.__file__)).resolve() for m in (heatmap_data, role_rules)),
    ),
    FigureSpec(
        "gelu-relu",
        "GELU and ReLU against their input, from -4 to 3: GELU is smooth and dips below 0",
        {"x_min": -4.0, "x_max": 3.0, "n_points": 281},
        model_figures.activations,
        model_figures.draw_activations,
    ),
    FigureSpec(
        "token-path",
        "One token's vector through all-MiniLM-L6-v2: its length and its cosine with its "
        "input after the embeddings and after each of the six blocks",
        {
            "sentence": "The animal didn't cross the street because it was too tired.",
            "token": "it",
            "weights_sha256": heatmap_data.installed_weights_sha256(),
        },
        model_figures.token_path,
        model_figures.draw_token_path,
        figsize=(6.75, 3.0),
    ),
    FigureSpec(
        "sinusoidal",
        "The sinusoidal positional encoding: 128 entries (rows) for positions 0 to 99 "
        "(columns), sine and cosine pairs whose frequency falls from the top row down",
        {"n_positions": 100, "d": 128},
        ar.sinusoidal_positions,
        model_figures.draw_sinusoidal,
        figsize=(6.75, 3.75),
    ),
    FigureSpec(
        "learned-positions",
        "Cosine similarity of every pair of all-MiniLM-L6-v2's 512 learned position rows",
        {"weights_sha256": heatmap_data.installed_weights_sha256(), "block": 4},
        model_figures.learned_similarity,
        model_figures.draw_similarity,
        figsize=(6.75, 5.5),
    ),
)


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
# Set to the theme's foreground: every text, tick, spine and label of every figure.
_FOREGROUND = ("text.color", "axes.labelcolor", "axes.edgecolor", "xtick.color", "ytick.color")


def render_svgs(spec: FigureSpec) -> dict[Theme, bytes]:
    """Compute ``spec``'s data once and draw it for each theme (no pyplot: nothing leaks)."""
    import matplotlib
    from matplotlib.figure import Figure

    data = spec.compute(**spec.params)
    out: dict[Theme, bytes] = {}
    for theme in THEMES:
        pal = PALETTES[theme]
        rc: dict[Any, Any] = {**_RC, **dict.fromkeys(_FOREGROUND, pal.foreground)}
        with matplotlib.rc_context(rc):
            fig = Figure(figsize=spec.figsize, layout="constrained", facecolor=pal.background)
            spec.draw(fig, pal, data)
            buf = io.BytesIO()
            fig.savefig(buf, format="svg", facecolor=pal.background, metadata={"Date": None})
        # An accessible name for the SVG opened on its own (the page's <img> has alt text).
        head, sep, rest = buf.getvalue().decode("utf-8").partition(">\n <metadata>")
        if not sep:
            raise RuntimeError("unexpected SVG layout from matplotlib: no <metadata> after <svg>")
        svg = f'{head} role="img">\n <title>{escape(spec.title)}</title>\n <metadata>{rest}'
        out[theme] = svg.encode("utf-8")
    return out


def source_files() -> list[Path]:
    """The files whose bytes decide every figure: ``attention_ref`` and the figure modules."""
    ref_dir = Path(ar.__file__).resolve().parent
    here = Path(__file__).resolve().parent
    modules = "experiments drawing heads_figure heat_scale model_figures figures"
    return [*sorted(ref_dir.glob("*.py")), *(here / f"{name}.py" for name in modules.split())]


def cache_key(spec: FigureSpec) -> str:
    """SHA-256 of the spec, the bytes of :func:`source_files` and of the spec's ``sources``,
    and the versions of numpy and matplotlib.

    Examples
    --------
    >>> a = cache_key(FIGURES[0])
    >>> a == cache_key(FIGURES[0]), a == cache_key(FIGURES[1]), len(a)
    (True, False, 64)
    """
    meta = {
        "spec": [spec.name, spec.title, spec.params, list(spec.figsize)],
        "numpy": np.__version__,
        # From the installed metadata: a cache hit must not import matplotlib (0.2 s).
        "matplotlib": version("matplotlib"),
    }
    return content_key(meta=meta, files=[*source_files(), *spec.sources])


def build_figures(
    cache_dir: Path,
    specs: Iterable[FigureSpec] = FIGURES,
    render: Callable[[FigureSpec], Mapping[Theme, bytes]] = render_svgs,
) -> dict[str, bytes]:
    """The figures of ``specs`` in both themes, as ``{"figures/<name>-<theme>.svg": svg}``:
    from the cache in ``cache_dir``, drawn by ``render`` on a miss."""
    cache, suffixes = ContentCache(cache_dir), [f"-{theme}.svg" for theme in THEMES]
    svgs: dict[str, bytes] = {}
    for spec in specs:

        def make(spec: FigureSpec = spec) -> dict[str, bytes]:
            return {f"-{theme}.svg": svg for theme, svg in render(spec).items()}

        found = cache.get(spec.name, cache_key(spec), suffixes, make)
        svgs.update({f"figures/{spec.name}{end}": svg for end, svg in found.items()})
    return svgs
