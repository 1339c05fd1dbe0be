"""Measures of a softmax distribution: how peaked it is and how it passes gradients."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from attention_ref import _validate

FloatArray = npt.NDArray[np.floating[Any]]


def entropy(p: npt.ArrayLike, axis: int = -1) -> FloatArray:
    """Shannon entropy (natural log) of distributions along ``axis``.

    ``-sum(p * log(p))`` with ``0 * log(0) = 0``: ``log(n)`` for a uniform
    distribution over ``n`` entries, 0 for a one-hot one. Low entropy means a
    saturated softmax.

    Parameters
    ----------
    p : array_like
        Non-negative weights, each slice along ``axis`` summing to 1 (not checked:
        the formula is applied as it stands).
    axis : int, default -1

    Returns
    -------
    numpy.ndarray
        ``p``'s shape without ``axis``; a float for 1-D input is a 0-d array.

    Examples
    --------
    >>> import math
    >>> from attention_ref import entropy
    >>> round(float(entropy([0.25, 0.25, 0.25, 0.25])), 3) == round(math.log(4), 3)
    True
    >>> round(float(entropy([1.0, 0.0, 0.0])), 3)
    0.0
    >>> entropy([[0.5, 0.5], [1.0, 0.0]]).round(3).tolist()
    [0.693, 0.0]
    """
    arr = _validate.real_array(p, "p")
    _validate.finite(arr, "p")
    if arr.ndim == 0:
        raise ValueError("p must have at least one dimension, got a scalar")
    if (arr < 0).any():
        raise ValueError(f"p must be non-negative (shape {arr.shape}); it holds a negative weight")
    safe = np.where(arr > 0, arr, 1)  # log(1) = 0 makes the 0 * log(0) terms vanish
    plogp: FloatArray = np.sum(arr * np.log(safe), axis=axis)
    return 0.0 - plogp  # rather than -plogp, which would print a one-hot's entropy as -0.0


def softmax_jacobian(p: npt.ArrayLike) -> FloatArray:
    """Jacobian of softmax with respect to its logits, from the weights ``p``.

    With ``p = softmax(x)``, ``d p_i / d x_j = p_i (δ_ij - p_j)``, that is
    ``diag(p) - p pᵀ``. When softmax saturates (one ``p_i`` near 1, the rest near
    0) every entry goes to 0: no gradient reaches the logits any more.

    Parameters
    ----------
    p : array_like, shape (..., n)
        Softmax weights along the last axis.

    Returns
    -------
    numpy.ndarray, shape (..., n, n)
        ``J[..., i, j] = d p_i / d x_j``. Symmetric; each row sums to 0.

    Examples
    --------
    >>> from attention_ref import softmax_jacobian
    >>> softmax_jacobian([0.5, 0.5]).tolist()
    [[0.25, -0.25], [-0.25, 0.25]]
    >>> softmax_jacobian([1.0, 0.0]).tolist()  # saturated: no gradient flows
    [[0.0, 0.0], [0.0, 0.0]]
    """
    arr = _validate.real_array(p, "p")
    _validate.finite(arr, "p")
    _validate.ndim_at_least(arr, 1, "p", "(..., n)")
    n = arr.shape[-1]
    jac = np.zeros((*arr.shape, n), dtype=arr.dtype)  # (..., n, n)
    i = np.arange(n)
    jac[..., i, i] = arr  # diag(p)
    jac -= arr[..., :, np.newaxis] * arr[..., np.newaxis, :]  # minus p pᵀ
    return jac
