"""Figures of the model's parts: lesson 0's sinusoidal encoding and the cosine similarities
of all-MiniLM-L6-v2's learned positions (diverging scales, the background at 0, legible in
both palettes); lesson 3's GELU beside ReLU and one token's vector through the real model.

Examples
--------
>>> a = activations(-2.0, 2.0, 5)
>>> a.x.tolist(), a.relu.tolist()
([-2.0, -1.0, 0.0, 1.0, 2.0], [0.0, 0.0, 0.0, 1.0, 2.0])
>>> round(a.gelu_min, 3), round(a.gelu_argmin, 2)
(-0.17, -0.75)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from attention_ref.block import gelu
from attention_ref.minilm import MiniLM, load_minilm
from site_build.drawing import Palette, style

FloatArray = npt.NDArray[np.float64]


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


def _minilm(weights_sha256: str) -> MiniLM:
    """The installed all-MiniLM-L6-v2; ``ValueError`` unless its weights hash to
    ``weights_sha256`` (in the cache key of the figures drawn from it)."""
    model = load_minilm()
    if model.weights_sha256 != weights_sha256:
        raise ValueError(
            f"the installed weights hash to {model.weights_sha256}, not {weights_sha256}"
        )
    return model


def learned_similarity(weights_sha256: str, block: int = 1) -> Similarity:
    """The cosine similarities of all-MiniLM-L6-v2's learned position rows (:func:`_minilm`
    checks ``weights_sha256``)."""
    rows = np.asarray(_minilm(weights_sha256).position_embeddings, dtype=np.float64)  # (512, 384)
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


@dataclass(frozen=True)
class Activations:
    """GELU and ReLU on a grid, with GELU's lowest point (found on a fine grid)."""

    x: FloatArray
    gelu: FloatArray
    relu: FloatArray
    gelu_min: float
    gelu_argmin: float


def activations(x_min: float, x_max: float, n_points: int) -> Activations:
    """GELU and ReLU at ``n_points`` from ``x_min`` to ``x_max``; GELU's minimum on a grid
    of step 1e-4."""
    if not x_min < x_max:
        raise ValueError(f"need x_min < x_max, got {x_min} and {x_max}")
    if n_points < 2:
        raise ValueError(f"need at least 2 points, got n_points = {n_points}")
    x = np.linspace(x_min, x_max, n_points)
    fine = np.arange(x_min, x_max, 1e-4)
    g = gelu(fine)
    i = int(g.argmin())
    curve = gelu(x).astype(np.float64)
    return Activations(x, curve, np.maximum(x, 0.0), float(g[i]), float(fine[i]))


@dataclass(frozen=True)
class TokenPath:
    """Length of each token's vector after the embeddings (state 0) and after each block,
    and its cosine with the same token's state 0."""

    tokens: list[str]
    token: int
    norms: FloatArray  # (layers + 1, n)
    cosines: FloatArray  # (layers + 1, n)


def token_path(sentence: str, token: str, weights_sha256: str) -> TokenPath:
    """Run all-MiniLM-L6-v2 on ``sentence``; measure each state of each token (``ValueError``
    if ``token`` is not one of them; :func:`_minilm` checks ``weights_sha256``)."""
    run = _minilm(weights_sha256).run(sentence)
    if token not in run.tokens:
        raise ValueError(f"token {token!r} is not in the sentence's tokens {run.tokens}")
    states = run.hidden_states  # (layers + 1, n, hidden)
    norms = np.linalg.norm(states, axis=-1)  # (layers + 1, n)
    cosines = (states * states[0]).sum(axis=-1) / (norms * norms[0])
    return TokenPath(list(run.tokens), run.tokens.index(token), norms, cosines)


def draw_activations(fig: Any, pal: Palette, data: Activations) -> None:
    """GELU (solid) and ReLU (dashed) against x, GELU's minimum marked."""
    ax = fig.add_subplot()
    style(ax, pal)
    ax.plot(data.x, data.relu, color=pal.unscaled, linestyle="--", label="ReLU: max(0, x)")
    ax.plot(data.x, data.gelu, color=pal.scaled, linestyle="-", label=r"GELU: $x\,\Phi(x)$")
    ax.plot([data.gelu_argmin], [data.gelu_min], "o", color=pal.scaled)
    text = f"lowest point: {data.gelu_min:.2f} at x = {data.gelu_argmin:.2f}"
    note = {"xytext": (-40, -28), "textcoords": "offset points", "fontsize": 9}
    ax.annotate(text, (data.gelu_argmin, data.gelu_min), **note)
    ax.set_xlabel("input x")
    ax.set_ylabel("output")
    ax.set_ylim(-0.8, float(data.x.max()) + 0.2)
    ax.legend(loc="upper left")


def draw_token_path(fig: Any, pal: Palette, data: TokenPath) -> None:
    """Each token's length (left) and cosine with its input (right) per state."""
    left, right = fig.subplots(1, 2)
    states = np.arange(data.norms.shape[0])
    for ax, values, label in (
        (left, data.norms, "length of the vector"),
        (right, data.cosines, "cosine with its input"),
    ):
        style(ax, pal)
        for t in range(values.shape[1]):
            if t != data.token:
                ax.plot(states, values[:, t], color=pal.foreground, alpha=0.25, linewidth=0.8)
        ax.plot(states, values[:, data.token], color=pal.scaled, marker="o",
                label=f"“{data.tokens[data.token]}”")  # fmt: skip
        ax.set_xticks(states)
        ax.set_xticklabels(["emb."] + [str(s) for s in states[1:]])
        ax.set_xlabel("after block")
        ax.set_ylabel(label)
    right.set_ylim(-0.05, 1.05)
    left.plot([], [], color=pal.foreground, alpha=0.25, linewidth=0.8, label="other tokens")
    left.legend(loc="lower left")
