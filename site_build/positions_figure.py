"""Lesson 0's figures: the sinusoidal encoding, and the cosine similarities of
all-MiniLM-L6-v2's 512 learned positions; both in a diverging scale of the palette's two
series colours with the background at 0, so that they read in both palettes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from site_build.drawing import Palette, style


@dataclass(frozen=True)
class Similarity:
    """``cos`` (n, n) of position rows i and j, drawn as means of ``block`` x ``block``
    squares (:func:`block_means`) to keep the SVG small."""

    cos: np.ndarray
    block: int = 1


def cosine_matrix(rows: np.ndarray) -> np.ndarray:
    """Cosine similarity of every pair of rows of ``rows`` (n, d): (n, n), 1 on the diagonal.

    Examples
    --------
    >>> cosine_matrix(np.array([[1.0, 0.0], [1.0, 1.0], [0.0, -2.0]])).round(3).tolist()
    [[1.0, 0.707, 0.0], [0.707, 1.0, -0.707], [0.0, -0.707, 1.0]]
    """
    unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)  # (n, d)
    return np.asarray(unit @ unit.T, dtype=np.float64)  # (n, n)


def block_means(a: np.ndarray, block: int) -> np.ndarray:
    """The mean of each ``block`` x ``block`` square of ``a`` (n, n), n a multiple of block.

    Examples
    --------
    >>> block_means(np.arange(16.0).reshape(4, 4), 2).tolist()
    [[2.5, 4.5], [10.5, 12.5]]
    """
    n = a.shape[0]
    if a.shape != (n, n) or block < 1 or n % block:
        raise ValueError(f"need a square array whose side {a.shape} is a multiple of {block}")
    return np.asarray(a.reshape(n // block, block, n // block, block).mean(axis=(1, 3)))


def learned_similarity(weights_sha256: str, block: int = 1) -> Similarity:
    """The cosine similarities of all-MiniLM-L6-v2's learned position rows; ``ValueError``
    unless the installed weights hash to ``weights_sha256`` (in the cache key)."""
    from attention_ref.minilm import load_minilm

    model = load_minilm()
    if model.weights_sha256 != weights_sha256:
        raise ValueError(
            f"the installed weights hash to {model.weights_sha256}, not {weights_sha256}"
        )
    rows = np.asarray(model.position_embeddings, dtype=np.float64)  # (512, 384)
    return Similarity(cosine_matrix(rows), block)


def _signed_image(fig: Any, pal: Palette, values: np.ndarray, label: str, **kw: Any) -> Any:
    """Draw ``values`` in [-1, 1] with a colour bar; return the axes."""
    from matplotlib.colors import LinearSegmentedColormap

    cmap = LinearSegmentedColormap.from_list("lesson0", [pal.unscaled, pal.background, pal.scaled])
    ax = fig.add_subplot()
    style(ax, pal, grid=False)
    image = ax.imshow(values, cmap=cmap, vmin=-1, vmax=1, interpolation="none", **kw)
    bar = fig.colorbar(image, ax=ax, ticks=[-1, 0, 1], fraction=0.04, pad=0.02)
    bar.set_label(label)
    return ax


def draw_sinusoidal(fig: Any, pal: Palette, pe: np.ndarray) -> None:
    """``pe`` (n, d) of ``attention_ref.sinusoidal_positions``: columns are positions, rows
    the entries of the vector (entry 0 at the top)."""
    n, d = pe.shape
    extent = (-0.5, n - 0.5, d - 0.5, -0.5)
    ax = _signed_image(fig, pal, pe.T, "value (sin or cos)", aspect="auto", extent=extent)
    ax.set_xlabel("position p")
    ax.set_ylabel("entry of the vector (pair i = entry // 2)")


def draw_similarity(fig: Any, pal: Palette, data: Similarity) -> None:
    """Row i, column j: the cosine of position rows i and j."""
    n = data.cos.shape[0]
    means = block_means(data.cos, data.block)  # (n / block, n / block)
    extent = (-0.5, n - 0.5, n - 0.5, -0.5)
    ax = _signed_image(fig, pal, means, "cosine similarity", aspect="equal", extent=extent)
    ax.set_xticks([0, 128, 256, 384, 511])
    ax.set_yticks([0, 128, 256, 384, 511])
    ax.set_xlabel("position j")
    ax.set_ylabel("position i")
