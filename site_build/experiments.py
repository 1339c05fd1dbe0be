"""The experiments behind "why divide by √d_k", as pure functions of their parameters.

Three measurements, each from ``attention_ref`` (no maths is redone here) with a seeded
``numpy.random.Generator``:

* :func:`dot_product_spread` -- the variance of ``q·k`` for random unit-variance
  ``q`` and ``k``, with and without the ``1/sqrt(d_k)`` scale;
* :func:`softmax_saturation` -- the largest attention weight and the entropy of
  the weights over ``n_keys`` keys;
* :func:`gradient_reach` -- how much gradient the softmax lets through to the
  logits that are *not* the largest.

The figures (:mod:`site_build.figures`) draw them; the notebook
(``docs/notebooks/sqrt_dk.py``) runs :func:`dot_product_spread`'s experiment with the
same seed and sample size in the reader's own cells, and ``tests/test_notebook.py``
checks that it gets the same numbers.

Examples
--------
>>> D_KS[:3], D_KS[-1]
((1, 2, 4), 1024)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

import attention_ref as ar

FloatArray = npt.NDArray[np.float64]

#: The key widths every experiment sweeps: 1, 2, 4, ..., 1024.
D_KS: tuple[int, ...] = tuple(2**i for i in range(11))


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


def _weight_sweep(
    d_ks: Sequence[int], n_keys: int, n_samples: int, seed: int
) -> Iterator[tuple[int, FloatArray, FloatArray]]:
    """For each width ``d``: the weights of random queries over ``n_keys`` random keys.

    Yields ``(d, unscaled, scaled)``, both ``(n_samples, n_keys)``, from one generator
    seeded with ``seed``, after checking the arguments.
    """
    widths = _check_sweep(d_ks, n_samples)
    if not isinstance(n_keys, int | np.integer) or n_keys < 2:
        raise ValueError(f"n_keys must be an integer >= 2, got {n_keys!r}")
    rng = np.random.default_rng(seed)
    for d in widths:
        q = rng.standard_normal((n_samples, 1, d))  # (n_samples, n_q=1, d_k)
        k = rng.standard_normal((n_samples, n_keys, d))  # (n_samples, n_k, d_k)
        plain = ar.attention_weights(q, k, scale=1.0)[:, 0, :]  # (n_samples, n_k)
        scaled = ar.attention_weights(q, k)[:, 0, :]  # (n_samples, n_k), scale 1/sqrt(d_k)
        yield d, np.asarray(plain, dtype=np.float64), np.asarray(scaled, dtype=np.float64)


def _sweep_means(
    d_ks: Sequence[int],
    n_keys: int,
    n_samples: int,
    seed: int,
    measures: Sequence[Callable[[FloatArray], npt.NDArray[np.floating[Any]]]],
) -> tuple[FloatArray, FloatArray]:
    """The widths of :func:`_weight_sweep`, and the mean of each measure at each width.

    Each measure maps weights ``(n_samples, n_k)`` to one number per sample. Returns
    ``d_k`` ``(n_widths,)`` and the means ``(n_widths, n_measures, 2)``, the last axis
    unscaled then scaled.
    """
    widths, means = [], []
    for d, plain, scaled in _weight_sweep(d_ks, n_keys, n_samples, seed):
        widths.append(d)
        means.append([[float(np.mean(m(w))) for w in (plain, scaled)] for m in measures])
    return np.array(widths, dtype=np.float64), np.array(means, dtype=np.float64)


@dataclass(frozen=True)
class KeySweep:
    """What a sweep of :func:`_weight_sweep` measured at: the key widths and the sizes.

    Attributes
    ----------
    d_k : ndarray, shape (n_widths,)
    n_keys, n_samples : int
        Keys each query attends over; queries at each width.
    """

    d_k: FloatArray
    n_keys: int
    n_samples: int


@dataclass(frozen=True)
class Saturation(KeySweep):
    """How peaked the softmax is at each key width (means over the samples).

    Attributes
    ----------
    max_unscaled, max_scaled : ndarray, shape (n_widths,)
        Mean of the largest weight of each query.
    entropy_unscaled, entropy_scaled : ndarray, shape (n_widths,)
        Mean entropy of the weights, in nats (``log(n_keys)`` when uniform).
    """

    max_unscaled: FloatArray
    max_scaled: FloatArray
    entropy_unscaled: FloatArray
    entropy_scaled: FloatArray


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
    widths, means = _sweep_means(d_ks, n_keys, n_samples, seed, (_largest, ar.entropy))
    return Saturation(
        d_k=widths,
        max_unscaled=means[:, 0, 0],
        max_scaled=means[:, 0, 1],
        entropy_unscaled=means[:, 1, 0],
        entropy_scaled=means[:, 1, 1],
        n_keys=n_keys,
        n_samples=n_samples,
    )


def _largest(weights: FloatArray) -> FloatArray:
    """The largest weight of each row: ``(..., n_k) -> (...)``."""
    return np.asarray(weights.max(axis=-1), dtype=np.float64)


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
class GradientReach(KeySweep):
    """Mean :func:`non_max_reach` over the samples, at each key width."""

    unscaled: FloatArray
    scaled: FloatArray


def gradient_reach(
    d_ks: Sequence[int] = D_KS, *, n_keys: int = 16, n_samples: int = 512, seed: int = 2
) -> GradientReach:
    """Measure how much gradient reaches the non-maximal logits, unscaled and scaled.

    Parameters
    ----------
    d_ks, n_keys, n_samples, seed
        The sweep, as in :func:`softmax_saturation`.

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
    widths, means = _sweep_means(d_ks, n_keys, n_samples, seed, (non_max_reach,))
    return GradientReach(
        d_k=widths,
        n_keys=n_keys,
        n_samples=n_samples,
        unscaled=means[:, 0, 0],
        scaled=means[:, 0, 1],
    )
