"""Backward passes, by hand: the gradient of a loss through each function of the model.

Each function here takes what its forward took, plus ``grad_out``, the gradient of
some scalar loss ``L`` with respect to the forward's output, and returns the
gradient of ``L`` with respect to the forward's inputs: the chain rule, one step.
Nothing is differentiated automatically; every line is a formula of lesson 4.

For attention, ``out = P v`` with ``P = softmax(s)`` and ``s = scale · q kᵀ``:

1. ``grad_v = Pᵀ grad_out``;
2. ``grad_P = grad_out vᵀ``;
3. ``grad_s = P ⊙ (grad_P - rowsum(grad_P ⊙ P))``, softmax's Jacobian applied to
   ``grad_P`` (:func:`softmax_backward`);
4. ``grad_q = scale · grad_s k`` and ``grad_k = scale · grad_sᵀ q``.

A finite difference of the forward agrees (float64, random inputs):

>>> import numpy as np
>>> from attention_ref import scaled_dot_product_attention, scaled_dot_product_attention_backward
>>> rng = np.random.default_rng(0)
>>> q, k, v, g = rng.standard_normal((4, 3, 2))  # (n, d): three tokens of width 2
>>> grad_q, grad_k, grad_v = scaled_dot_product_attention_backward(q, k, v, g)
>>> h = 1e-6
>>> bump = np.zeros_like(q)
>>> bump[1, 0] = h
>>> loss = lambda q_: float(np.sum(scaled_dot_product_attention(q_, k, v) * g))
>>> fd = (loss(q + bump) - loss(q - bump)) / (2 * h)
>>> bool(abs(fd - grad_q[1, 0]) < 1e-8)
True
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import numpy.typing as npt

from attention_ref import _validate
from attention_ref.core import _checked, attention_weights, softmax

FloatArray = npt.NDArray[np.floating[Any]]
IntArray = npt.NDArray[np.integer[Any]]


def _grad_out(grad_out: npt.ArrayLike, shape: tuple[int, ...], what: str) -> FloatArray:
    """Check that ``grad_out`` is real, finite and exactly the forward output's shape."""
    g = _validate.real_array(grad_out, "grad_out")
    if g.shape != tuple(shape):
        raise ValueError(
            f"grad_out must have the shape of {what}, {tuple(shape)}, got {g.shape}: "
            f"it is the gradient of the loss with respect to that output"
        )
    _validate.finite(g, "grad_out")
    return g


def _sum_to(a: FloatArray, shape: tuple[int, ...]) -> FloatArray:
    """Sum ``a`` over the axes that broadcasting added or stretched, back to ``shape``."""
    extra = a.ndim - len(shape)
    a = a.sum(axis=tuple(range(extra))) if extra > 0 else a
    stretched = tuple(i for i, n in enumerate(shape) if n == 1 and a.shape[i] != 1)
    return a.sum(axis=stretched, keepdims=True) if stretched else a


def softmax_backward(p: npt.ArrayLike, grad_p: npt.ArrayLike, axis: int = -1) -> FloatArray:
    """Gradient through softmax: its Jacobian ``diag(p) - p pᵀ`` applied to ``grad_p``.

    With ``p = softmax(x)`` and ``g = dL/dp``, ``dL/dx_j = Σ_i g_i p_i (δ_ij - p_j)
    = p_j (g_j - Σ_i g_i p_i)``: the Jacobian–vector product of
    :func:`~attention_ref.softmax_jacobian`, without building the ``n × n`` matrix.

    Parameters
    ----------
    p : array_like
        The softmax's output (weights along ``axis``), e.g. attention weights
        ``(..., n_q, n_k)``. A fully masked row (all zeros) passes no gradient.
    grad_p : array_like, same shape as ``p``
        ``dL/dp``.
    axis : int, default -1
        The axis softmax normalised along.

    Returns
    -------
    numpy.ndarray, same shape as ``p``
        ``dL/dx``, the gradient with respect to the logits. Each slice along
        ``axis`` sums to 0 (adding a constant to every logit changes nothing).

    Examples
    --------
    >>> from attention_ref import softmax_backward, softmax_jacobian
    >>> p, g = [0.5, 0.25, 0.25], [1.0, 0.0, 0.0]
    >>> softmax_backward(p, g).tolist()
    [0.25, -0.125, -0.125]
    >>> (softmax_jacobian(p) @ g).tolist()  # the same, through the whole matrix
    [0.25, -0.125, -0.125]
    """
    p_arr = _validate.real_array(p, "p")
    _validate.finite(p_arr, "p")
    if p_arr.ndim == 0:
        raise ValueError("p must have at least one dimension, got a scalar")
    if not -p_arr.ndim <= axis < p_arr.ndim:
        raise ValueError(f"axis {axis} is out of range for p with shape {p_arr.shape}")
    g = _grad_out(grad_p, p_arr.shape, "p (softmax's output)")
    dot = np.sum(g * p_arr, axis=axis, keepdims=True)  # Σ_i g_i p_i, one per row
    grad_x: FloatArray = p_arr * (g - dot)  # p_j (g_j - Σ_i g_i p_i)
    return grad_x


def scaled_dot_product_attention_backward(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    grad_out: npt.ArrayLike,
    mask: npt.ArrayLike | None = None,
    *,
    is_causal: bool = False,
    scale: float | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Gradients of a loss through :func:`~attention_ref.scaled_dot_product_attention`.

    Takes the forward's arguments, with the same shapes, broadcasting, masks and
    errors, plus ``grad_out = dL/d(out)``, and returns ``(dL/dq, dL/dk, dL/dv)``.

    Parameters
    ----------
    q : array_like, shape (..., n_q, d_k) or (d_k,)
    k : array_like, shape (..., n_k, d_k)
    v : array_like, shape (..., n_k, d_v)
    grad_out : array_like, shape of the forward's output, (..., n_q, d_v) or (..., d_v)
        The leading ``...`` are the broadcast batch dimensions of q, k and v.
    mask : array_like, optional
        As in the forward (True = may attend; a float mask is added). A masked
        key gets no gradient from the query that may not see it; a fully masked
        row passes none at all.
    is_causal : bool, keyword-only
    scale : float, optional, keyword-only
        Defaults to ``1/sqrt(d_k)``.

    Returns
    -------
    grad_q, grad_k, grad_v : numpy.ndarray
        The shapes of ``q``, ``k`` and ``v``: a dimension that was broadcast is
        summed back.

    Raises
    ------
    ValueError, TypeError, FloatingPointError
        The forward's errors; ``ValueError`` names ``grad_out`` when its shape is
        not the output's.

    Examples
    --------
    One query, two keys with equal scores: the weights are 1/2 each, so each value
    row receives half of ``grad_out``.

    >>> from attention_ref import scaled_dot_product_attention_backward
    >>> grad_q, grad_k, grad_v = scaled_dot_product_attention_backward(
    ...     [1.0, 0.0], [[0.0, 1.0], [0.0, -1.0]], [[2.0, 0.0], [0.0, 2.0]], [1.0, 0.0])
    >>> grad_v.tolist()
    [[0.5, 0.0], [0.5, 0.0]]
    >>> grad_q.round(4).tolist()
    [0.0, 0.7071]
    """
    c = _checked(q, k, mask, is_causal, scale, v)
    v_c = cast(FloatArray, c.v)  # (..., n_k, d_v)
    batch = _validate.batch_shape("q, k and v", c.batch, v_c.shape[:-2])
    d_v = v_c.shape[-1]
    out_shape = (*batch, d_v) if c.single else (*batch, c.n_q, d_v)
    g = _grad_out(grad_out, out_shape, "the attention output")
    g = g.astype(c.compute, copy=False)
    g = g[..., np.newaxis, :] if c.single else g  # (..., n_q, d_v)
    p = attention_weights(c.q, c.k, c.mask, is_causal=is_causal, scale=c.factor)  # (..., n_q, n_k)
    grad_v = np.swapaxes(p, -1, -2) @ g  # (..., n_k, d_v): Pᵀ grad_out
    grad_p = g @ np.swapaxes(v_c, -1, -2)  # (..., n_q, n_k): grad_out vᵀ
    grad_s = softmax_backward(p, grad_p)  # (..., n_q, n_k): through softmax's Jacobian
    grad_q: FloatArray = c.factor * (grad_s @ c.k)  # (..., n_q, d_k)
    grad_k: FloatArray = c.factor * (np.swapaxes(grad_s, -1, -2) @ c.q)  # (..., n_k, d_k)
    grad_q = _sum_to(grad_q, c.q.shape)
    if c.single:
        grad_q = grad_q[..., 0, :]  # (..., d_k)
    return (
        grad_q.astype(c.result, copy=False),
        _sum_to(grad_k, c.k.shape).astype(c.result, copy=False),
        _sum_to(grad_v, v_c.shape).astype(c.result, copy=False),
    )


def linear_backward(
    x: npt.ArrayLike, w: npt.ArrayLike, grad_out: npt.ArrayLike
) -> tuple[FloatArray, FloatArray]:
    """Gradients through a linear layer without bias, ``y = x @ w``.

    ``grad_x = grad_out @ wᵀ`` and ``grad_w = xᵀ @ grad_out``, summed over every
    row (every token of every sequence) that shared ``w``.

    Parameters
    ----------
    x : array_like, shape (..., d_in)
        The layer's input rows.
    w : array_like, shape (d_in, d_out)
    grad_out : array_like, shape (..., d_out)
        ``dL/dy``.

    Returns
    -------
    grad_x : numpy.ndarray, shape (..., d_in)
    grad_w : numpy.ndarray, shape (d_in, d_out)

    Examples
    --------
    >>> from attention_ref import linear_backward
    >>> grad_x, grad_w = linear_backward([[1.0, 2.0]], [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]],
    ...                                  [[1.0, 0.0, 0.0]])
    >>> grad_x.tolist(), grad_w.tolist()
    ([[1.0, 0.0]], [[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]])
    """
    x_arr = _validate.real_array(x, "x")
    w_arr = _validate.real_array(w, "w")
    _validate.ndim_at_least(x_arr, 1, "x", "(..., d_in)")
    if w_arr.ndim != 2 or w_arr.shape[0] != x_arr.shape[-1]:
        raise ValueError(
            f"w must have shape (d_in, d_out) with d_in = x's last dimension "
            f"{x_arr.shape[-1]}, got w {w_arr.shape} for x {x_arr.shape}"
        )
    _validate.finite(x_arr, "x")
    _validate.finite(w_arr, "w")
    g = _grad_out(grad_out, (*x_arr.shape[:-1], w_arr.shape[1]), "the output x @ w")
    grad_x: FloatArray = g @ w_arr.T  # (..., d_in)
    rows_x = x_arr.reshape(-1, x_arr.shape[-1])  # (rows, d_in): every token shares w
    rows_g = g.reshape(-1, g.shape[-1])  # (rows, d_out)
    grad_w: FloatArray = rows_x.T @ rows_g  # (d_in, d_out)
    return grad_x, grad_w


def embedding_backward(ids: npt.ArrayLike, grad_out: npt.ArrayLike, vocab_size: int) -> FloatArray:
    """Gradient of the embedding table through a lookup, ``out = table[ids]``.

    Row ``t`` of the table receives the sum of ``grad_out`` over every place where
    token ``t`` was looked up; a token that did not occur gets zeros.

    Parameters
    ----------
    ids : array_like of int, shape (...)
        The token ids looked up, each in ``0 .. vocab_size - 1``.
    grad_out : array_like, shape (..., d_model)
        ``dL/d(out)``.
    vocab_size : int
        Rows of the table.

    Returns
    -------
    numpy.ndarray, shape (vocab_size, d_model)

    Examples
    --------
    >>> from attention_ref import embedding_backward
    >>> embedding_backward([2, 0, 2], [[1.0, 0.0], [0.0, 1.0], [3.0, 3.0]], 3).tolist()
    [[0.0, 1.0], [0.0, 0.0], [4.0, 3.0]]
    """
    n = _validate.positive_int(vocab_size, "vocab_size")
    idx = _token_ids(ids, n)
    g = _validate.real_array(grad_out, "grad_out")
    if g.shape[:-1] != idx.shape or g.ndim != idx.ndim + 1:
        raise ValueError(
            f"grad_out must have shape ids.shape + (d_model,) = {idx.shape} + (d_model,), "
            f"got {g.shape}"
        )
    _validate.finite(g, "grad_out")
    grad_table = np.zeros((n, g.shape[-1]), dtype=g.dtype)  # (vocab_size, d_model)
    np.add.at(grad_table, idx.reshape(-1), g.reshape(-1, g.shape[-1]))  # repeats add up
    return grad_table


def cross_entropy(logits: npt.ArrayLike, targets: npt.ArrayLike) -> float:
    """Mean cross-entropy of the targets under the softmax of the logits, in nats.

    ``L = mean over rows of -log softmax(logits)[target]``, computed from the
    log-sum-exp with the row maximum subtracted (no overflow).

    Parameters
    ----------
    logits : array_like, shape (..., n_classes)
    targets : array_like of int, shape (...)
        The class of each row, in ``0 .. n_classes - 1``.

    Returns
    -------
    float

    Examples
    --------
    Uniform logits over 26 letters cost ln 26 nats, whatever the target:

    >>> import math
    >>> from attention_ref import cross_entropy
    >>> round(cross_entropy([[0.0] * 26], [3]), 4) == round(math.log(26), 4)
    True
    """
    z, t = _logits_and_targets(logits, targets)
    return float(np.mean(_row_losses(z, t)))


def cross_entropy_rows(logits: npt.ArrayLike, targets: npt.ArrayLike) -> FloatArray:
    """The cross-entropy of each row, ``-log softmax(logits)[target]``: shape ``targets``.

    Examples
    --------
    >>> from attention_ref.backward import cross_entropy_rows
    >>> cross_entropy_rows([[0.0, 0.0], [100.0, 0.0]], [0, 0]).round(4).tolist()
    [0.6931, 0.0]
    """
    z, t = _logits_and_targets(logits, targets)
    return _row_losses(z, t)


def cross_entropy_backward(logits: npt.ArrayLike, targets: npt.ArrayLike) -> FloatArray:
    """Gradient of :func:`cross_entropy` (the mean) with respect to the logits.

    ``dL/dlogits = (softmax(logits) - onehot(target)) / rows``: the predicted
    distribution minus the true one, shared out over the rows of the mean.

    Parameters
    ----------
    logits : array_like, shape (..., n_classes)
    targets : array_like of int, shape (...)

    Returns
    -------
    numpy.ndarray, same shape as ``logits``

    Examples
    --------
    >>> from attention_ref import cross_entropy_backward
    >>> cross_entropy_backward([[0.0, 0.0]], [1]).tolist()
    [[0.5, -0.5]]
    """
    z, t = _logits_and_targets(logits, targets)
    grad: FloatArray = softmax(z)  # (..., n_classes): predicted distribution
    rows = np.indices(t.shape)
    grad[(*rows, t)] -= 1.0  # minus the one-hot target
    return grad / max(t.size, 1)


def _row_losses(z: FloatArray, t: IntArray) -> FloatArray:
    """``-log softmax(z)[t]`` for each row."""
    peak = z.max(axis=-1, keepdims=True)  # (..., 1): subtracted, so exp never overflows
    log_total = np.log(np.sum(np.exp(z - peak), axis=-1)) + peak[..., 0]  # (...)
    picked = np.take_along_axis(z, t[..., np.newaxis], axis=-1)[..., 0]  # (...)
    losses: FloatArray = log_total - picked
    return losses


def _token_ids(ids: npt.ArrayLike, n: int, name: str = "ids") -> IntArray:
    """Check that ``ids`` are integers in ``0 .. n - 1``."""
    arr = np.asarray(ids)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must be integers, got dtype {arr.dtype} with shape {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() >= n):
        bad = int(arr.min()) if arr.min() < 0 else int(arr.max())
        raise ValueError(f"{name} must lie in 0 .. {n - 1}, got {bad} (shape {arr.shape})")
    return cast(IntArray, arr)


def _logits_and_targets(
    logits: npt.ArrayLike, targets: npt.ArrayLike
) -> tuple[FloatArray, IntArray]:
    z = _validate.real_array(logits, "logits")
    _validate.ndim_at_least(z, 1, "logits", "(..., n_classes)")
    _validate.finite(z, "logits")
    t = _token_ids(targets, z.shape[-1], "targets")
    if t.shape != z.shape[:-1]:
        raise ValueError(
            f"targets must have the logits' shape without the class axis, {z.shape[:-1]}, "
            f"got {t.shape}"
        )
    return z, t
