"""The experiments behind "why divide by √d_k": seeded measurements with ``attention_ref``
at each key width, unscaled and scaled (the notebook ``docs/notebooks/sqrt_dk.py`` must get
:func:`dot_product_spread`'s numbers: ``tests/test_notebook.py``).

Examples
--------
>>> D_KS[:3], D_KS[-1]
((1, 2, 4), 1024)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

import attention_ref as ar

FloatArray = npt.NDArray[np.float64]
Measure = Callable[[npt.NDArray[np.floating[Any]]], Any]  # of the logits

#: The key widths every experiment of the figures sweeps: 1, 2, 4, ..., 1024.
D_KS: tuple[int, ...] = tuple(2**i for i in range(11))


def _at_least(name: str, value: Any, low: int) -> None:
    if not isinstance(value, int | np.integer) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")


@dataclass(frozen=True)
class Sweep:
    """A measure at each key width ``d_k`` (n_widths,), of the scores unscaled and scaled
    by ``1/sqrt(d_k)``, over ``n_samples`` random queries of ``n_keys`` random keys."""

    d_k: FloatArray
    unscaled: FloatArray
    scaled: FloatArray
    n_keys: int
    n_samples: int


def _sweep(
    d_ks: Sequence[int], n_keys: int, n_samples: int, seed: int, *measures: Measure
) -> list[Sweep]:
    """One :class:`Sweep` per measure of the logits (n_samples, n_q=1, n_keys)."""
    widths = tuple(d_ks)
    if not widths or any(not isinstance(d, int | np.integer) or d < 1 for d in widths):
        raise ValueError(f"d_ks must be a non-empty sequence of positive integers, got {d_ks!r}")
    _at_least("n_samples", n_samples, 2)
    rng = np.random.default_rng(seed)
    values = []  # (n_widths, n_measures, 2: unscaled, scaled)
    for d in widths:
        q = rng.standard_normal((n_samples, 1, d))  # (n_samples, n_q=1, d_k)
        k = rng.standard_normal((n_samples, n_keys, d))  # (n_samples, n_k, d_k)
        logits = [ar.scaled_scores(q, k, scale=scale) for scale in (1.0, None)]
        values.append([[float(m(z)) for z in logits] for m in measures])
    a = np.array(values, dtype=np.float64)
    d_k = np.array(widths, dtype=np.float64)
    return [Sweep(d_k, a[:, i, 0], a[:, i, 1], n_keys, n_samples) for i in range(len(measures))]


def dot_product_spread(d_ks: Sequence[int], *, n_samples: int, seed: int) -> Sweep:
    """Measure the variance of ``q·k`` for standard normal ``q`` and ``k``.

    The sum of ``d_k`` products of variance 1 has variance ``d_k``; dividing by
    ``sqrt(d_k)`` brings it back to 1.

    Examples
    --------
    >>> s = dot_product_spread((4, 64), n_samples=4000, seed=0)
    >>> [round(float(v / d), 1) for v, d in zip(s.unscaled, s.d_k)]
    [1.0, 1.0]
    >>> [round(float(v), 1) for v in s.scaled]
    [1.0, 1.0]
    """
    return _sweep(d_ks, 1, n_samples, seed, np.var)[0]


def softmax_saturation(
    d_ks: Sequence[int], *, n_keys: int, n_samples: int, seed: int
) -> tuple[Sweep, Sweep]:
    """Measure the mean largest weight and the mean entropy in nats (``log(n_keys)`` if
    uniform) of softmax over random scores.

    Examples
    --------
    >>> largest, entropy = softmax_saturation((1, 1024), n_keys=16, n_samples=200, seed=0)
    >>> bool(largest.unscaled[-1] > 0.9 > largest.scaled[-1])
    True
    """
    _at_least("n_keys", n_keys, 2)
    measures = (
        lambda z: np.mean(np.max(ar.softmax(z), axis=-1)),
        lambda z: np.mean(ar.entropy(ar.softmax(z))),
    )
    largest, entropy = _sweep(d_ks, n_keys, n_samples, seed, *measures)
    return largest, entropy


def non_max_reach(p: npt.ArrayLike) -> FloatArray:
    """Mean of ``sum_i |dp_i/dz_j|`` over every logit ``z_j`` but the largest, per row of
    the weights ``p`` (..., n_k): near 0 when softmax saturates.

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
        raise ValueError(f"p needs at least 2 weights on its last axis, got shape {weights.shape}")
    jac = ar.softmax_jacobian(weights)  # (..., n_k, n_k), [i, j] = dp_i/dz_j
    reach = np.abs(jac).sum(axis=-2)  # (..., n_k): sum_i |dp_i/dz_j| for each logit j
    top = weights.argmax(axis=-1)[..., None]  # (..., 1)
    others = np.arange(weights.shape[-1]) != top  # (..., n_k): True except at the argmax
    return np.asarray((reach * others).sum(axis=-1) / (weights.shape[-1] - 1), dtype=np.float64)


def gradient_reach(d_ks: Sequence[int], *, n_keys: int, n_samples: int, seed: int) -> Sweep:
    """Measure how much gradient (mean :func:`non_max_reach`) reaches the non-maximal
    logits, unscaled and scaled.

    Examples
    --------
    >>> g = gradient_reach((1, 1024), n_keys=16, n_samples=200, seed=0)
    >>> bool(g.unscaled[-1] < 0.01 < g.scaled[-1])
    True
    """
    _at_least("n_keys", n_keys, 2)
    reach = _sweep(d_ks, n_keys, n_samples, seed, lambda z: np.mean(non_max_reach(ar.softmax(z))))
    return reach[0]
