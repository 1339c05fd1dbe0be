"""The figures of "why divide by √d_k": data from ``attention_ref``, drawn as SVG.

Three experiments, each a small pure function of its parameters and a seed:

* :func:`dot_product_spread` -- the variance of ``q·k`` for random unit-variance
  ``q`` and ``k``, with and without the ``1/sqrt(d_k)`` scale;
* :func:`softmax_saturation` -- the largest attention weight and the entropy of
  the weights over ``n_keys`` keys;
* :func:`gradient_reach` -- how much gradient the softmax lets through to the
  logits that are *not* the largest.

Every number comes from ``attention_ref`` (no maths is redone here). Each
figure is drawn twice, for Material's light and dark palettes, by
:func:`render_svgs`, and :func:`cached_svgs` keeps the result in a cache keyed
by :func:`cache_key`, so an unchanged figure is not drawn again. The MkDocs
hook ``hooks/figures.py`` only wires these functions into the build.

Examples
--------
>>> [spec.name for spec in FIGURES]
['spread', 'saturation', 'gradient']
>>> sorted(THEMES)
['dark', 'light']
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any, Literal
from xml.sax.saxutils import escape

import numpy as np
import numpy.typing as npt

import attention_ref as ar

Theme = Literal["light", "dark"]
THEMES: tuple[Theme, ...] = ("light", "dark")
FloatArray = npt.NDArray[np.float64]

#: The key widths every figure sweeps: 1, 2, 4, ..., 1024.
D_KS: tuple[int, ...] = tuple(2**i for i in range(11))


# --------------------------------------------------------------------------- data


def _check_sweep(d_ks: Sequence[int], n_samples: int) -> tuple[int, ...]:
    """Return ``d_ks`` as a tuple after checking it and ``n_samples``."""
    widths = tuple(d_ks)
    if not widths or any(not isinstance(d, int | np.integer) or d < 1 for d in widths):
        raise ValueError(f"d_ks must be a non-empty sequence of positive integers, got {d_ks!r}")
    if not isinstance(n_samples, int | np.integer) or n_samples < 2:
        raise ValueError(f"n_samples must be an integer >= 2, got {n_samples!r}")
    return tuple(int(d) for d in widths)


@dataclass(frozen=True)
class Spread:
    """Measured variance of the score ``q·k`` at each key width.

    Attributes
    ----------
    d_k : ndarray, shape (n_widths,)
        The key widths.
    unscaled, scaled : ndarray, shape (n_widths,)
        Sample variance of ``q·k`` and of ``q·k / sqrt(d_k)``.
    n_samples : int
        Independent (q, k) pairs drawn at each width.
    """

    d_k: FloatArray
    unscaled: FloatArray
    scaled: FloatArray
    n_samples: int


def dot_product_spread(
    d_ks: Sequence[int] = D_KS, *, n_samples: int = 4096, seed: int = 0
) -> Spread:
    """Measure the variance of ``q·k`` for standard normal ``q`` and ``k``.

    Each of the ``d_k`` products ``q_i k_i`` has mean 0 and variance 1, so their
    sum has variance ``d_k``; dividing by ``sqrt(d_k)`` brings it back to 1.

    Parameters
    ----------
    d_ks : sequence of int
        Key widths to measure.
    n_samples : int
        Independent (query, key) pairs per width.
    seed : int
        Seed of the ``numpy.random.Generator``.

    Returns
    -------
    Spread
        The measured variances.

    Examples
    --------
    >>> s = dot_product_spread((4, 64), n_samples=4000, seed=0)
    >>> [round(float(v / d), 1) for v, d in zip(s.unscaled, s.d_k)]
    [1.0, 1.0]
    >>> [round(float(v), 1) for v in s.scaled]
    [1.0, 1.0]
    """
    widths = _check_sweep(d_ks, n_samples)
    rng = np.random.default_rng(seed)
    unscaled, scaled = [], []
    for d in widths:
        q = rng.standard_normal((n_samples, 1, d))  # (n_samples, n_q=1, d_k)
        k = rng.standard_normal((n_samples, 1, d))  # (n_samples, n_k=1, d_k)
        s = ar.scores(q, k)[:, 0, 0]  # (n_samples,): one q·k per pair
        unscaled.append(np.var(s))
        scaled.append(np.var(ar.scale_scores(s, d)))
    return Spread(
        d_k=np.array(widths, dtype=np.float64),
        unscaled=np.array(unscaled),
        scaled=np.array(scaled),
        n_samples=n_samples,
    )


def _weights(
    d: int, rng: np.random.Generator, n_keys: int, n_samples: int
) -> tuple[FloatArray, FloatArray]:
    """Attention weights of random queries over ``n_keys`` random keys, unscaled and scaled."""
    q = rng.standard_normal((n_samples, 1, d))  # (n_samples, n_q=1, d_k)
    k = rng.standard_normal((n_samples, n_keys, d))  # (n_samples, n_k, d_k)
    plain = ar.attention_weights(q, k, scale=1.0)[:, 0, :]  # (n_samples, n_k)
    scaled = ar.attention_weights(q, k)[:, 0, :]  # (n_samples, n_k), scale 1/sqrt(d_k)
    return np.asarray(plain, dtype=np.float64), np.asarray(scaled, dtype=np.float64)


@dataclass(frozen=True)
class Saturation:
    """How peaked the softmax is at each key width (means over the samples).

    Attributes
    ----------
    d_k : ndarray, shape (n_widths,)
    max_unscaled, max_scaled : ndarray, shape (n_widths,)
        Mean of the largest weight of each query.
    entropy_unscaled, entropy_scaled : ndarray, shape (n_widths,)
        Mean entropy of the weights, in nats (``log(n_keys)`` when uniform).
    n_keys, n_samples : int
    """

    d_k: FloatArray
    max_unscaled: FloatArray
    max_scaled: FloatArray
    entropy_unscaled: FloatArray
    entropy_scaled: FloatArray
    n_keys: int
    n_samples: int


def softmax_saturation(
    d_ks: Sequence[int] = D_KS, *, n_keys: int = 16, n_samples: int = 512, seed: int = 1
) -> Saturation:
    """Measure the largest weight and the entropy of softmax over random scores.

    Parameters
    ----------
    d_ks : sequence of int
        Key widths to measure.
    n_keys : int
        Keys each query attends over (at least 2).
    n_samples : int
        Queries (each with its own keys) per width.
    seed : int
        Seed of the ``numpy.random.Generator``.

    Returns
    -------
    Saturation
        Means over the queries.

    Examples
    --------
    >>> s = softmax_saturation((1, 1024), n_keys=16, n_samples=200, seed=0)
    >>> bool(s.max_unscaled[-1] > 0.9 > s.max_scaled[-1])
    True
    """
    widths = _check_sweep(d_ks, n_samples)
    if not isinstance(n_keys, int | np.integer) or n_keys < 2:
        raise ValueError(f"n_keys must be an integer >= 2, got {n_keys!r}")
    rng = np.random.default_rng(seed)
    rows: list[tuple[float, float, float, float]] = []
    for d in widths:
        plain, scaled = _weights(d, rng, n_keys, n_samples)
        rows.append(
            (
                float(plain.max(axis=-1).mean()),
                float(scaled.max(axis=-1).mean()),
                float(ar.entropy(plain).mean()),
                float(ar.entropy(scaled).mean()),
            )
        )
    table = np.array(rows)  # (n_widths, 4)
    return Saturation(
        d_k=np.array(widths, dtype=np.float64),
        max_unscaled=table[:, 0],
        max_scaled=table[:, 1],
        entropy_unscaled=table[:, 2],
        entropy_scaled=table[:, 3],
        n_keys=n_keys,
        n_samples=n_samples,
    )


def non_max_reach(p: npt.ArrayLike) -> FloatArray:
    """Mean total sensitivity of the weights to each logit that is not the largest.

    For logit ``z_j`` the sensitivity is ``sum_i |dp_i/dz_j|``, read off the
    softmax Jacobian (``attention_ref.softmax_jacobian``); it is averaged over
    every ``j`` except the argmax of ``p``. A saturated softmax (one weight near
    1) passes almost no gradient to the other logits, and this number goes to 0.

    Parameters
    ----------
    p : array_like, shape (..., n_k)
        Softmax weights, ``n_k >= 2``.

    Returns
    -------
    ndarray, shape (...)
        The mean over the non-maximal logits of each row.

    Examples
    --------
    Uniform weights over 4 keys: each column of the Jacobian is
    ``1/4 - 1/16`` on the diagonal and ``-1/16`` three times, total 3/8.

    >>> float(non_max_reach([0.25, 0.25, 0.25, 0.25]))
    0.375
    >>> float(non_max_reach([1.0, 0.0, 0.0]))
    0.0
    """
    weights = np.asarray(p, dtype=np.float64)
    if weights.ndim < 1 or weights.shape[-1] < 2:
        raise ValueError(
            f"p must have at least 2 weights on its last axis, got shape {weights.shape}"
        )
    jac = ar.softmax_jacobian(weights)  # (..., n_k, n_k), [i, j] = dp_i/dz_j
    reach = np.abs(jac).sum(axis=-2)  # (..., n_k): sum_i |dp_i/dz_j| for each logit j
    top = weights.argmax(axis=-1)[..., None]  # (..., 1)
    others = np.arange(weights.shape[-1]) != top  # (..., n_k): True except at the argmax
    return np.asarray((reach * others).sum(axis=-1) / (weights.shape[-1] - 1), dtype=np.float64)


@dataclass(frozen=True)
class GradientReach:
    """Mean :func:`non_max_reach` over the samples, at each key width."""

    d_k: FloatArray
    unscaled: FloatArray
    scaled: FloatArray
    n_keys: int
    n_samples: int


def gradient_reach(
    d_ks: Sequence[int] = D_KS, *, n_keys: int = 16, n_samples: int = 512, seed: int = 2
) -> GradientReach:
    """Measure how much gradient reaches the non-maximal logits, unscaled and scaled.

    Parameters
    ----------
    d_ks : sequence of int
        Key widths to measure.
    n_keys : int
        Keys each query attends over (at least 2).
    n_samples : int
        Queries per width.
    seed : int
        Seed of the ``numpy.random.Generator``.

    Returns
    -------
    GradientReach
        Means of :func:`non_max_reach` over the queries.

    Examples
    --------
    >>> g = gradient_reach((1, 1024), n_samples=200, seed=0)
    >>> bool(g.unscaled[-1] < 0.01 < g.scaled[-1])
    True
    """
    widths = _check_sweep(d_ks, n_samples)
    if not isinstance(n_keys, int | np.integer) or n_keys < 2:
        raise ValueError(f"n_keys must be an integer >= 2, got {n_keys!r}")
    rng = np.random.default_rng(seed)
    unscaled, scaled = [], []
    for d in widths:
        plain, sc = _weights(d, rng, n_keys, n_samples)
        unscaled.append(non_max_reach(plain).mean())
        scaled.append(non_max_reach(sc).mean())
    return GradientReach(
        np.array(widths, dtype=np.float64),
        np.array(unscaled),
        np.array(scaled),
        n_keys=n_keys,
        n_samples=n_samples,
    )


# --------------------------------------------------------------------------- drawing


@dataclass(frozen=True)
class Palette:
    """Colours of one theme. Unscaled and scaled also differ by marker and dash."""

    background: str
    foreground: str
    grid: str
    unscaled: str
    scaled: str


# Okabe-Ito colours (safe for colour-blind readers); the dark background is
# Material's slate background, so the figure sits flush in the page.
PALETTES: Mapping[Theme, Palette] = {
    "light": Palette("#ffffff", "#1f2328", "#d8dbe0", "#c75300", "#0066a8"),
    "dark": Palette("#1e2029", "#e2e4e9", "#3a3f4b", "#f0a04b", "#56b4e9"),
}

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


def _style(ax: Any, pal: Palette) -> None:
    ax.set_facecolor(pal.background)
    ax.grid(True, which="major", color=pal.grid, linewidth=0.6)
    ax.set_axisbelow(True)
    ax.tick_params(colors=pal.foreground, which="both")
    for spine in ax.spines.values():
        spine.set_color(pal.foreground)
    ax.xaxis.label.set_color(pal.foreground)
    ax.yaxis.label.set_color(pal.foreground)
    ax.title.set_color(pal.foreground)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("key width $d_k$")


def _legend(ax: Any, pal: Palette, **kwargs: Any) -> None:
    leg = ax.legend(**kwargs)
    for text in leg.get_texts():
        text.set_color(pal.foreground)


def _series(pal: Palette) -> dict[str, dict[str, Any]]:
    return {
        "unscaled": {"color": pal.unscaled, "marker": "o", "linestyle": "-"},
        "scaled": {"color": pal.scaled, "marker": "s", "linestyle": "--"},
    }


def draw_spread(fig: Any, pal: Palette, data: Spread) -> None:
    """Draw :class:`Spread` on ``fig``: log-log variance against ``d_k``."""
    ax = fig.add_subplot()
    _style(ax, pal)
    s = _series(pal)
    # The expected lines are wide pale bands, so a measured line on top stays visible.
    band = {"color": pal.foreground, "alpha": 0.25, "linewidth": 7, "solid_capstyle": "butt"}
    ax.plot(data.d_k, data.d_k, **band, label="expected: $d_k$ and 1")
    ax.plot(data.d_k, np.ones_like(data.d_k), **band)
    ax.plot(data.d_k, data.unscaled, **s["unscaled"], label=r"measured, $q\cdot k$")
    ax.plot(data.d_k, data.scaled, **s["scaled"], label=r"measured, $q\cdot k/\sqrt{d_k}$")
    ax.set_yscale("log", base=2)
    ax.set_ylabel("variance of the score")
    _legend(ax, pal, loc="upper left")


def draw_saturation(fig: Any, pal: Palette, data: Saturation) -> None:
    """Draw :class:`Saturation`: largest weight (left) and entropy (right) against ``d_k``."""
    left, right = fig.subplots(1, 2)
    s = _series(pal)
    for ax in (left, right):
        _style(ax, pal)
    left.plot(data.d_k, data.max_unscaled, **s["unscaled"], label="unscaled")
    left.plot(data.d_k, data.max_scaled, **s["scaled"], label=r"scaled by $1/\sqrt{d_k}$")
    left.axhline(1 / data.n_keys, color=pal.foreground, linestyle=":", linewidth=1.2)
    left.set_ylim(0, 1.05)
    left.set_ylabel("largest weight (mean)")
    left.annotate(f"uniform 1/{data.n_keys}", (1, 1 / data.n_keys), xytext=(2, 4),
                  textcoords="offset points", color=pal.foreground, fontsize=9)  # fmt: skip
    _legend(left, pal, loc="center left")
    right.plot(data.d_k, data.entropy_unscaled, **s["unscaled"])
    right.plot(data.d_k, data.entropy_scaled, **s["scaled"])
    uniform = float(np.log(data.n_keys))
    right.axhline(uniform, color=pal.foreground, linestyle=":", linewidth=1.2)
    right.annotate(f"uniform: ln {data.n_keys}", (1, uniform), xytext=(2, -12),
                   textcoords="offset points", color=pal.foreground, fontsize=9)  # fmt: skip
    right.set_ylim(0, uniform * 1.1)
    right.set_ylabel("entropy of the weights (nats)")


def draw_gradient(fig: Any, pal: Palette, data: GradientReach) -> None:
    """Draw :class:`GradientReach` on a log y axis against ``d_k``."""
    ax = fig.add_subplot()
    _style(ax, pal)
    s = _series(pal)
    ax.plot(data.d_k, data.unscaled, **s["unscaled"], label="unscaled")
    ax.plot(data.d_k, data.scaled, **s["scaled"], label=r"scaled by $1/\sqrt{d_k}$")
    ax.set_yscale("log")
    ax.set_ylabel("gradient to a non-max logit")
    _legend(ax, pal, loc="lower left")


@dataclass(frozen=True)
class FigureSpec:
    """One figure: how to compute its data and how to draw it.

    Attributes
    ----------
    name : str
        Base of the file names, ``figures/<name>-light.svg`` and ``-dark.svg``.
    title : str
        Short description, written as the SVG's ``<title>``.
    params : Mapping[str, Any]
        Keyword arguments of ``compute`` (JSON-serialisable: they enter the cache key).
    compute : callable
        ``compute(**params)`` returns the data.
    draw : callable
        ``draw(figure, palette, data)`` draws it.
    """

    name: str
    title: str
    params: Mapping[str, Any]
    compute: Callable[..., Any]
    draw: Callable[[Any, Palette, Any], None]


FIGURES: tuple[FigureSpec, ...] = (
    FigureSpec(
        "spread",
        "Variance of the score q·k against the key width d_k, unscaled and scaled",
        {"d_ks": list(D_KS), "n_samples": 4096, "seed": 0},
        dot_product_spread,
        draw_spread,
    ),
    FigureSpec(
        "saturation",
        "Largest softmax weight and entropy against d_k, unscaled and scaled",
        {"d_ks": list(D_KS), "n_keys": 16, "n_samples": 512, "seed": 1},
        softmax_saturation,
        draw_saturation,
    ),
    FigureSpec(
        "gradient",
        "Gradient reaching the non-maximal logits against d_k, unscaled and scaled",
        {"d_ks": list(D_KS), "n_keys": 16, "n_samples": 512, "seed": 2},
        gradient_reach,
        draw_gradient,
    ),
)


def _svg_of(fig: Any, pal: Palette, title: str) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", facecolor=pal.background, metadata={"Date": None})
    svg = buf.getvalue().decode("utf-8")
    # An accessible name for the SVG opened on its own (the page's <img> has alt text).
    head, sep, rest = svg.partition(">\n <metadata>")
    if not sep:
        raise RuntimeError("unexpected SVG layout from matplotlib: no <metadata> after <svg>")
    svg = f'{head} role="img">\n <title>{escape(title)}</title>\n <metadata>{rest}'
    return svg.encode("utf-8")


def render_svgs(spec: FigureSpec) -> dict[Theme, bytes]:
    """Compute ``spec``'s data once and draw it for both themes.

    Uses matplotlib's object-oriented ``Figure`` (no pyplot, no global backend)
    inside an ``rc_context``, so nothing leaks into other users of matplotlib.

    Parameters
    ----------
    spec : FigureSpec
        The figure.

    Returns
    -------
    dict
        ``{"light": svg_bytes, "dark": svg_bytes}``.
    """
    import matplotlib
    from matplotlib.figure import Figure

    data = spec.compute(**spec.params)
    out: dict[Theme, bytes] = {}
    for theme in THEMES:
        pal = PALETTES[theme]
        with matplotlib.rc_context(_RC):
            fig = Figure(figsize=FIGSIZE, layout="constrained", facecolor=pal.background)
            spec.draw(fig, pal, data)
            out[theme] = _svg_of(fig, pal, spec.title)
    return out


# --------------------------------------------------------------------------- cache


def source_files() -> list[Path]:
    """The source files whose bytes decide every figure: ``attention_ref`` and this module."""
    ref_dir = Path(ar.__file__).resolve().parent
    return [*sorted(ref_dir.glob("*.py")), Path(__file__).resolve()]


def cache_key(spec: FigureSpec, sources: Iterable[Path] | None = None) -> str:
    """SHA-256 of everything a figure depends on.

    The figure's name, title and parameters, the bytes of ``sources`` (default
    :func:`source_files`) and the versions of numpy and matplotlib.

    Examples
    --------
    >>> a = cache_key(FIGURES[0])
    >>> a == cache_key(FIGURES[0]), a == cache_key(FIGURES[1]), len(a)
    (True, False, 64)
    """
    h = hashlib.sha256()
    meta = {
        "name": spec.name,
        "title": spec.title,
        "params": spec.params,
        "numpy": np.__version__,
        # From the installed metadata: a cache hit must not import matplotlib (0.2 s).
        "matplotlib": version("matplotlib"),
    }
    h.update(json.dumps(meta, sort_keys=True).encode())
    for path in source_files() if sources is None else sources:
        h.update(b"\0" + path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def cached_svgs(
    spec: FigureSpec,
    cache_dir: Path,
    *,
    render: Callable[[FigureSpec], Mapping[Theme, bytes]] = render_svgs,
) -> dict[Theme, bytes]:
    """Return ``spec``'s SVGs from ``cache_dir``, rendering (and storing) them on a miss.

    Files are named ``<name>-<key>-<theme>.svg``; older files of the same figure
    are removed when a new key is stored.

    Parameters
    ----------
    spec : FigureSpec
        The figure.
    cache_dir : Path
        Cache folder (created if missing).
    render : callable
        Renders on a miss (tests pass a counting stand-in).

    Returns
    -------
    dict
        ``{"light": svg_bytes, "dark": svg_bytes}``.
    """
    key = cache_key(spec)[:20]
    paths = {theme: cache_dir / f"{spec.name}-{key}-{theme}.svg" for theme in THEMES}
    if all(p.is_file() for p in paths.values()):
        return {theme: p.read_bytes() for theme, p in paths.items()}
    svgs = dict(render(spec))
    cache_dir.mkdir(parents=True, exist_ok=True)
    for old in cache_dir.glob(f"{spec.name}-*.svg"):
        if old not in paths.values():
            old.unlink()
    for theme, path in paths.items():
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(svgs[theme])
        tmp.replace(path)  # atomic: a crash never leaves half a file in the cache
    return svgs


def build_figures(cache_dir: Path) -> dict[str, bytes]:
    """Every figure in both themes, as ``{"figures/<name>-<theme>.svg": svg_bytes}``."""
    out: dict[str, bytes] = {}
    for spec in FIGURES:
        for theme, svg in cached_svgs(spec, cache_dir).items():
            out[f"figures/{spec.name}-{theme}.svg"] = svg
    return out
