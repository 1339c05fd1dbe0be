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
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

import attention_ref as ar

FloatArray = npt.NDArray[np.float64]
Measure = Callable[[FloatArray], npt.NDArray[np.floating[Any]]]

#: The key widths every experiment sweeps: 1, 2, 4, ..., 1024.
D_KS: tuple[int, ...] = tuple(2**i for i in range(11))


def _at_least(name: str, value: Any, low: int) -> None:
    if not isinstance(value, int | np.integer) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")


def _check_sweep(d_ks: Sequence[int], n_samples: int) -> tuple[int, ...]:
    widths = tuple(d_ks)
    if not widths or any(not isinstance(d, int | np.integer) or d < 1 for d in widths):
        raise ValueError(f"d_ks must be a non-empty sequence of positive integers, got {d_ks!r}")
    _at_least("n_samples", n_samples, 2)
    return tuple(int(d) for d in widths)


@dataclass(frozen=True)
class Spread:
    """Sample variance of ``q·k`` and of ``q·k / sqrt(d_k)`` at each ``d_k`` (n_widths,)."""

    d_k: FloatArray
    unscaled: FloatArray
    scaled: FloatArray
    n_samples: int


def dot_product_spread(
    d_ks: Sequence[int] = D_KS, *, n_samples: int = 4096, seed: int = 0
) -> Spread:
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
    widths = _check_sweep(d_ks, n_samples)
    rng = np.random.default_rng(seed)
    unscaled, scaled = [], []
    for d in widths:
        q = rng.standard_normal((n_samples, 1, d))  # (n_samples, n_q=1, d_k)
        k = rng.standard_normal((n_samples, 1, d))  # (n_samples, n_k=1, d_k)
        s = ar.scores(q, k)[:, 0, 0]  # (n_samples,): one q·k per pair
        unscaled.append(np.var(s))
        scaled.append(np.var(ar.scale_scores(s, d)))
    d_k = np.array(widths, dtype=np.float64)
    return Spread(d_k, np.array(unscaled), np.array(scaled), n_samples)


def _sweep_means(
    d_ks: Sequence[int], n_keys: int, n_samples: int, seed: int, measures: Sequence[Measure]
) -> tuple[FloatArray, FloatArray]:
    """``d_k`` (n_widths,) and each measure's mean over random queries of ``n_keys`` random
    keys (n_widths, n_measures, 2: unscaled, scaled)."""
    widths = _check_sweep(d_ks, n_samples)
    _at_least("n_keys", n_keys, 2)
    rng = np.random.default_rng(seed)
    means = []
    for d in widths:
        q = rng.standard_normal((n_samples, 1, d))  # (n_samples, n_q=1, d_k)
        k = rng.standard_normal((n_samples, n_keys, d))  # (n_samples, n_k, d_k)
        plain = ar.attention_weights(q, k, scale=1.0)[:, 0, :]  # (n_samples, n_k)
        scaled = ar.attention_weights(q, k)[:, 0, :]  # (n_samples, n_k), scale 1/sqrt(d_k)
        weights = [np.asarray(w, dtype=np.float64) for w in (plain, scaled)]
        means.append([[float(np.mean(m(w))) for w in weights] for m in measures])
    return np.array(widths, dtype=np.float64), np.array(means, dtype=np.float64)


@dataclass(frozen=True)
class KeySweep:
    """A sweep's key widths ``d_k`` (n_widths,), keys per query and queries per width."""

    d_k: FloatArray
    n_keys: int
    n_samples: int


@dataclass(frozen=True)
class Saturation(KeySweep):
    """Mean largest weight and mean entropy in nats (``log(n_keys)`` if uniform)."""

    max_unscaled: FloatArray
    max_scaled: FloatArray
    entropy_unscaled: FloatArray
    entropy_scaled: FloatArray


def softmax_saturation(
    d_ks: Sequence[int] = D_KS, *, n_keys: int = 16, n_samples: int = 512, seed: int = 1
) -> Saturation:
    """Measure the largest weight and the entropy of softmax over random scores.

    Examples
    --------
    >>> s = softmax_saturation((1, 1024), n_keys=16, n_samples=200, seed=0)
    >>> bool(s.max_unscaled[-1] > 0.9 > s.max_scaled[-1])
    True
    """
    largest = partial(np.max, axis=-1)
    widths, means = _sweep_means(d_ks, n_keys, n_samples, seed, (largest, ar.entropy))
    return Saturation(
        widths, n_keys, n_samples, means[:, 0, 0], means[:, 0, 1], means[:, 1, 0], means[:, 1, 1]
    )


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


@dataclass(frozen=True)
class GradientReach(KeySweep):
    """Mean :func:`non_max_reach` over the queries at each key width."""

    unscaled: FloatArray
    scaled: FloatArray


def gradient_reach(
    d_ks: Sequence[int] = D_KS, *, n_keys: int = 16, n_samples: int = 512, seed: int = 2
) -> GradientReach:
    """Measure how much gradient reaches the non-maximal logits, unscaled and scaled.

    Examples
    --------
    >>> g = gradient_reach((1, 1024), n_samples=200, seed=0)
    >>> bool(g.unscaled[-1] < 0.01 < g.scaled[-1])
    True
    """
    widths, means = _sweep_means(d_ks, n_keys, n_samples, seed, (non_max_reach,))
    return GradientReach(widths, n_keys, n_samples, means[:, 0, 0], means[:, 0, 1])
