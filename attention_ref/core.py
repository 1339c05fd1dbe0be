"""Scaled dot-product attention in numpy, one step per function.

The three steps of attention are each a function here, so every step of the
lesson's worked example can be shown as a call:

1. score: :func:`scores` (``q @ k.T``), then :func:`scale_scores` (times ``1/sqrt(d_k)``);
2. normalise: :func:`softmax` along each query's row (:func:`attention_weights`);
3. aggregate: weights ``@ v`` (:func:`scaled_dot_product_attention`).

The whole formula, ``softmax(q k^T / sqrt(d_k)) v``, in plain numpy for one head
without a mask; the functions below compute the same for any shapes, masks and dtypes:

>>> import numpy as np
>>> from attention_ref import scaled_dot_product_attention
>>> q, k, v = np.random.default_rng(0).standard_normal((3, 5, 4))  # 5 rows of width 4 each
>>> s = q @ k.T / np.sqrt(q.shape[-1])  # (n_q, n_k): scaled scores
>>> w = np.exp(s - s.max(axis=-1, keepdims=True))
>>> w = w / w.sum(axis=-1, keepdims=True)  # (n_q, n_k): softmax along each query's row
>>> bool(np.allclose(w @ v, scaled_dot_product_attention(q, k, v)))  # (n_q, d_v)
True

Conventions (the same as ``torch.nn.functional.scaled_dot_product_attention``):

* shapes are ``q (..., n_q, d_k)``, ``k (..., n_k, d_k)``, ``v (..., n_k, d_v)``;
  the leading ``...`` (batch, heads) broadcast against each other;
  a single query may be given as a vector ``(d_k,)``;
* a boolean mask means True = this query may attend to this key;
  a floating mask is added to the scaled scores (use ``-inf`` to forbid a key);
* float16, float32 and float64 are preserved; integers and booleans become float64.

How it stays close to the speed of its two matrix products (``q @ k.T`` and
``weights @ v``): the scale multiplies the n_q·d_k queries rather than the n_q·n_k
scores; the softmax works in place on a block of queries at a time, small enough to
stay in the CPU cache; the row maximum is subtracted only when exp could overflow;
and the division by each row's sum is applied to the n_q·d_v outputs instead of the
n_q·n_k weights. Extra memory is one block of scores, not the whole weights matrix.
Large problems are shared out, a block of queries of one head at a time, over as many
threads as numpy's BLAS would use, each block computed whole on one core, so the
softmax runs in parallel as well as the matrix products. All of that speed-only
machinery sits at the end of this module, after ``_weight_block`` (the softmax of one
block); the public functions only say what to do with each block.
"""

from __future__ import annotations

import contextvars
import dataclasses
import functools
import math
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import numpy.typing as npt

from attention_ref import _validate

FloatArray = npt.NDArray[np.floating[Any]]
BoolArray = npt.NDArray[np.bool_]

# How many scores the blocks of queries hold at a time (see _weight_block), shared
# between the threads that compute them: 8 MiB in float32, small enough to stay in the
# CPU's cache between the passes of the softmax, large enough for the matrix products
# to run at full speed (measured: 2**19 to 2**22 are all close; smaller blocks lose to
# the overhead of many small products).
_BLOCK_SCORES = 1 << 21

# Below this many scores (batch x n_q x n_k) the calling thread does all the work:
# handing blocks to other threads costs more than it saves on small problems
# (measured with 4 heads: no gain at n = 256, a small one at n = 512).
_PARALLEL_MIN_SCORES = 1 << 19


def scores(q: npt.ArrayLike, k: npt.ArrayLike) -> FloatArray:
    """Raw dot-product scores of every query against every key.

    Parameters
    ----------
    q : array_like, shape (..., n_q, d_k) or (d_k,)
        The queries, one per row, or a single query vector.
    k : array_like, shape (..., n_k, d_k)
        The keys, one per row.

    Returns
    -------
    numpy.ndarray, shape (..., n_q, n_k), or (..., n_k) for a single query
        ``scores[..., i, j] = q[..., i, :] · k[..., j, :]``.

    Raises
    ------
    ValueError
        If the widths ``d_k`` differ, there are no keys, a value is not finite,
        or ``k`` is not at least 2-D.
    TypeError
        If an input is not real and numeric.

    Examples
    --------
    The worked example's query against its three keys:

    >>> from attention_ref import scores
    >>> q = [1, 0, 1, 0]
    >>> K = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]]
    >>> scores(q, K).tolist()
    [2.0, 0.0, 1.0]
    """
    q_arr, k_arr = _validate.queries_and_keys(q, k)
    result, compute = _validate.working_dtype(q_arr, k_arr)
    k_t = np.swapaxes(k_arr.astype(compute, copy=False), -1, -2)  # (..., d_k, n_k)
    s: FloatArray = np.matmul(q_arr.astype(compute, copy=False), k_t)  # (..., n_q, n_k)
    return s.astype(result, copy=False)


def scale_scores(
    s: npt.ArrayLike, d_k: int | None = None, *, scale: float | None = None
) -> FloatArray:
    """Multiply scores by ``scale``, by default ``1/sqrt(d_k)``.

    Parameters
    ----------
    s : array_like
        Scores of any shape, typically ``(..., n_q, n_k)`` from :func:`scores`.
        ``-inf`` (a masked score) stays ``-inf``.
    d_k : int, optional
        The width of queries and keys; the default scale is ``1/sqrt(d_k)``.
    scale : float, optional, keyword-only
        An explicit factor (finite, > 0). Give ``d_k`` or ``scale``, not both.

    Returns
    -------
    numpy.ndarray, same shape as ``s``
        ``s * scale``; float dtypes are preserved, integers become float64.

    Examples
    --------
    >>> from attention_ref import scale_scores
    >>> scale_scores([2.0, 0.0, 1.0], d_k=4).tolist()
    [1.0, 0.0, 0.5]
    >>> scale_scores([2.0, 0.0, 1.0], scale=0.25).tolist()
    [0.5, 0.0, 0.25]
    """
    arr = _validate.real_array(s, "s")
    _validate.no_nan(arr, "s")
    if (d_k is None) == (scale is None):
        raise ValueError(
            f"scale_scores needs exactly one of d_k or scale, got d_k={d_k!r}, scale={scale!r}"
        )
    if scale is None:
        factor = 1.0 / math.sqrt(_validate.positive_int(d_k, "d_k"))
    else:
        factor = _validate.positive_scale(scale)
    return arr * arr.dtype.type(factor)


def scaled_scores(q: npt.ArrayLike, k: npt.ArrayLike, *, scale: float | None = None) -> FloatArray:
    """Dot-product scores times ``scale`` (default ``1/sqrt(d_k)``).

    The same as ``scale_scores(scores(q, k), d_k)``: the logits fed to softmax.

    Parameters
    ----------
    q : array_like, shape (..., n_q, d_k) or (d_k,)
    k : array_like, shape (..., n_k, d_k)
    scale : float, optional, keyword-only
        Finite and > 0; defaults to ``1/sqrt(d_k)``.

    Returns
    -------
    numpy.ndarray, shape (..., n_q, n_k), or (..., n_k) for a single query

    Examples
    --------
    >>> from attention_ref import scaled_scores
    >>> K = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]]
    >>> scaled_scores([1, 0, 1, 0], K).tolist()
    [1.0, 0.0, 0.5]
    """
    s = scores(q, k)
    if scale is None:
        return scale_scores(s, d_k=np.shape(q)[-1])
    return scale_scores(s, scale=scale)


def softmax(x: npt.ArrayLike, axis: int = -1) -> FloatArray:
    """Softmax along ``axis``: ``exp(x) / sum(exp(x))``, computed safely.

    The maximum of each row is subtracted first, so no ``exp`` overflows: finite
    logits as large as ±1e4 give finite weights. ``-inf`` entries get weight
    exactly 0. A row that is entirely ``-inf`` (every key masked) gives all
    zeros, not NaN: it is the only case where a row does not sum to 1.

    Parameters
    ----------
    x : array_like
        Logits. ``-inf`` is allowed (weight 0); NaN and ``+inf`` are not.
    axis : int, default -1
        The axis to normalise along.

    Returns
    -------
    numpy.ndarray, same shape as ``x``
        Non-negative weights summing to 1 along ``axis``. float16/32/64 are
        preserved (float16 is computed in float32); integers become float64.

    Examples
    --------
    >>> import math
    >>> from attention_ref import softmax
    >>> softmax([1.0, 0.0, 0.5]).round(3).tolist()
    [0.506, 0.186, 0.307]
    >>> softmax([10_000.0, 0.0]).tolist()  # no overflow
    [1.0, 0.0]
    >>> softmax([0.0, -math.inf, 0.0]).tolist()  # -inf gets exactly 0
    [0.5, 0.0, 0.5]
    >>> softmax([-math.inf, -math.inf]).tolist()  # a fully masked row
    [0.0, 0.0]
    """
    arr = _validate.real_array(x, "x")
    _validate.no_nan(arr, "x")
    _validate.no_pos_inf(arr, "x")
    if arr.ndim == 0:
        raise ValueError("x must have at least one dimension, got a scalar")
    if not -arr.ndim <= axis < arr.ndim:
        raise ValueError(f"axis {axis} is out of range for x with shape {arr.shape}")
    result, compute = _validate.working_dtype(arr)
    e = arr.astype(compute, copy=True)
    total = _exp_shifted_(e, axis=axis)
    e /= total
    return e.astype(result, copy=False)


def causal_mask(n_q: int, n_k: int | None = None) -> BoolArray:
    """The boolean causal mask: query ``i`` may attend to keys ``0..i``.

    Lower-triangular and aligned to the top-left corner, like ``is_causal=True``
    in ``torch.nn.functional.scaled_dot_product_attention``.

    Parameters
    ----------
    n_q : int
        Number of queries (rows), >= 0.
    n_k : int, optional
        Number of keys (columns), >= 0; defaults to ``n_q``.

    Returns
    -------
    numpy.ndarray of bool, shape (n_q, n_k)
        ``mask[i, j] = j <= i`` (True = may attend).

    Examples
    --------
    >>> from attention_ref import causal_mask
    >>> causal_mask(3).astype(int).tolist()
    [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    >>> causal_mask(2, 3).astype(int).tolist()
    [[1, 0, 0], [1, 1, 0]]
    """
    rows = _validate.positive_int(n_q, "n_q", allow_zero=True)
    cols = rows if n_k is None else _validate.positive_int(n_k, "n_k", allow_zero=True)
    return _causal_rows(0, rows, cols)


def attention_weights(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    mask: npt.ArrayLike | None = None,
    *,
    is_causal: bool = False,
    scale: float | None = None,
) -> FloatArray:
    """Attention weights: the softmax of the scaled (and masked) scores.

    Parameters
    ----------
    q : array_like, shape (..., n_q, d_k) or (d_k,)
    k : array_like, shape (..., n_k, d_k)
    mask : array_like, optional
        Broadcasts to the scores' shape ``(..., n_q, n_k)``. Boolean: True = may
        attend. Floating: added to the scaled scores (``-inf`` forbids a key).
    is_causal : bool, keyword-only
        Apply :func:`causal_mask`. Cannot be combined with ``mask``.
    scale : float, optional, keyword-only
        Finite and > 0; defaults to ``1/sqrt(d_k)``.

    Returns
    -------
    numpy.ndarray, shape (..., n_q, n_k), or (..., n_k) for a single query
        Each row is non-negative and sums to 1, except a fully masked row,
        which is all zeros.

    Raises
    ------
    ValueError, TypeError, FloatingPointError
        As :func:`scaled_dot_product_attention`.

    Examples
    --------
    >>> from attention_ref import attention_weights
    >>> K = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]]
    >>> attention_weights([1, 0, 1, 0], K).round(3).tolist()
    [0.506, 0.186, 0.307]
    >>> attention_weights([[1, 0], [0, 1]], [[1, 0], [0, 1]], is_causal=True).round(3).tolist()
    [[1.0, 0.0], [0.33, 0.67]]
    """
    q_arr, k_arr = _validate.queries_and_keys(q, k)
    prep = _prepare(q_arr, k_arr, mask, is_causal, scale)
    weights = np.empty(prep.scores_shape, dtype=prep.result)  # (..., n_q, n_k)

    def store(at: Index, rows: slice, e: FloatArray, total: FloatArray) -> None:
        np.divide(e, total, out=weights[at][rows])  # softmax = e / total, row by row

    _for_each_block(prep, prep.scores_shape[:-2], store)
    return weights[..., 0, :] if prep.single else weights


def scaled_dot_product_attention(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    mask: npt.ArrayLike | None = None,
    *,
    is_causal: bool = False,
    scale: float | None = None,
) -> FloatArray:
    """Scaled dot-product attention: ``softmax(q @ k.T * scale + mask) @ v``.

    Arguments mean what they mean in
    ``torch.nn.functional.scaled_dot_product_attention``.

    Parameters
    ----------
    q : array_like, shape (..., n_q, d_k) or (d_k,)
        Queries (or one query vector).
    k : array_like, shape (..., n_k, d_k)
        Keys.
    v : array_like, shape (..., n_k, d_v)
        Values, one row per key.
    mask : array_like, optional
        Broadcasts to the scores' shape ``(..., n_q, n_k)``. Boolean: True = may
        attend. Floating: added to the scaled scores (``-inf`` forbids a key).
    is_causal : bool, keyword-only
        Apply :func:`causal_mask` (query ``i`` sees keys ``0..i``). Giving both
        ``mask`` and ``is_causal=True`` is an error, as in torch.
    scale : float, optional, keyword-only
        Finite and > 0; defaults to ``1/sqrt(d_k)``.

    Returns
    -------
    numpy.ndarray, shape (..., n_q, d_v), or (..., d_v) for a single query
        Each output row is a weighted average of the rows of ``v``. A query
        whose keys are all masked gets an all-zero row (never NaN).

    Raises
    ------
    ValueError
        On mismatched shapes (``d_k`` of q and k, ``n_k`` of k and v, a mask
        that does not broadcast), no keys, NaN or infinite inputs, a bad scale,
        or both ``mask`` and ``is_causal``.
    TypeError
        If an input is not real and numeric, or the mask is neither boolean
        nor floating.
    FloatingPointError
        If finite inputs are so large that their dot products overflow the dtype.

    Examples
    --------
    The lesson's worked example: one query, three keys, three values.

    >>> from attention_ref import scaled_dot_product_attention
    >>> q = [1, 0, 1, 0]
    >>> K = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]]
    >>> V = [[10, 0], [0, 5], [2, 2]]
    >>> out = scaled_dot_product_attention(q, K, V)
    >>> out.round(3).tolist()
    [5.679, 1.546]
    >>> out.round(2).tolist()
    [5.68, 1.55]

    Masking the best key (True = may attend) moves the output towards the others:

    >>> scaled_dot_product_attention(q, K, V, mask=[False, True, True]).round(3).tolist()
    [1.245, 3.133]
    """
    q_arr, k_arr = _validate.queries_and_keys(q, k)
    v_arr = _validate.values(v, k_arr)
    prep = _prepare(q_arr, k_arr, mask, is_causal, scale, v_arr)
    v_c = v_arr.astype(prep.compute, copy=False)  # (..., n_k, d_v)
    batch = _validate.batch_shape("q, k and v", prep.scores_shape[:-2], v_arr.shape[:-2])
    out = np.empty((*batch, prep.n_q, v_arr.shape[-1]), dtype=prep.result)  # (..., n_q, d_v)

    v_c = np.broadcast_to(v_c, (*batch, *v_c.shape[-2:]))  # (..., n_k, d_v), a view

    # For a block of queries of one head, e / total = softmax(q k^T * scale + mask) (see
    # _weight_block), and the block's outputs are (e / total) @ v. The division comes
    # after the product: dividing n_q·d_v outputs is cheaper than dividing n_q·n_k weights.
    def aggregate(at: Index, rows: slice, e: FloatArray, total: FloatArray) -> None:
        np.divide(np.matmul(e, v_c[at]), total, out=out[at][rows])  # (rows, d_v)

    _for_each_block(prep, batch, aggregate)
    return out[..., 0, :] if prep.single else out


# --- the shared machinery -------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Prepared:
    """Checked, ready-to-compute operands of one attention call."""

    q: FloatArray  # (..., n_q, d_k), already multiplied by the scale
    k_t: FloatArray  # (..., d_k, n_k)
    mask: FloatArray | BoolArray | None  # None, or broadcastable to (..., n_q, n_k)
    is_causal: bool
    result: np.dtype[Any]  # the dtype returned
    compute: np.dtype[Any]  # the dtype computed in (float32 for float16)
    single: bool  # q was one vector (d_k,)
    scores_shape: tuple[int, ...]  # (..., n_q, n_k), with n_q = 1 for a single query
    shift: bool  # subtract each row's maximum before exp (see _needs_shift)

    @property
    def n_q(self) -> int:
        return self.scores_shape[-2]

    @property
    def n_k(self) -> int:
        return self.scores_shape[-1]


def _prepare(
    q: FloatArray,
    k: FloatArray,
    mask: npt.ArrayLike | None,
    is_causal: bool,
    scale: float | None,
    v: FloatArray | None = None,
) -> _Prepared:
    """Validate the mask and scale and bring q, k and the mask into the (..., n_q, n_k) layout."""
    if not isinstance(is_causal, bool | np.bool_):
        raise TypeError(f"is_causal must be True or False, got {is_causal!r}")
    if mask is not None and is_causal:
        raise ValueError("give either mask or is_causal=True, not both (as in torch)")
    factor = 1.0 / math.sqrt(q.shape[-1]) if scale is None else _validate.positive_scale(scale)
    operands = (q, k) if v is None else (q, k, v)
    result, compute = _validate.working_dtype(*operands)

    single = q.ndim == 1
    if single:
        q = q[np.newaxis, :]  # (1, d_k): one query row
    scores_shape = (*np.broadcast_shapes(q.shape[:-2], k.shape[:-2]), q.shape[-2], k.shape[-2])

    checked_mask: FloatArray | BoolArray | None = None
    if mask is not None:
        user_shape = scores_shape[:-2] + scores_shape[-1:] if single else scores_shape
        checked_mask = _validate.attention_mask(mask, user_shape)
        if single:
            checked_mask = checked_mask[..., np.newaxis, :]  # (..., 1, n_k)
        while checked_mask.ndim < 2:  # (n_k,) -> (1, n_k): the same row for every query
            checked_mask = checked_mask[np.newaxis]
        if checked_mask.dtype.kind == "f":
            checked_mask = checked_mask.astype(compute, copy=False)
    # Scaling the n_q·d_k queries is cheaper than scaling the n_q·n_k scores
    # and equal to it up to rounding.
    q_scaled = q.astype(compute, copy=True)
    q_scaled *= compute.type(factor)
    k_t = np.swapaxes(k.astype(compute, copy=False), -1, -2)  # (..., d_k, n_k)
    shift = _needs_shift(q_scaled, k, checked_mask)
    return _Prepared(
        q_scaled, k_t, checked_mask, is_causal, result, compute, single, scores_shape, shift
    )


def _needs_shift(q_scaled: FloatArray, k: FloatArray, mask: FloatArray | BoolArray | None) -> bool:
    """Whether exp of the scores could overflow unless each row's maximum is subtracted first.

    Softmax does not change when a whole row is shifted, so subtracting the maximum
    is only a guard against overflow. Every score obeys ``|q·k| <= |q| |k|``
    (Cauchy-Schwarz): when that bound keeps exp far from overflowing (and from
    underflowing to all zeros), the two passes of the shift can be skipped.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        q_norm = float(np.linalg.norm(q_scaled, axis=-1).max(initial=0.0))
        k_norm = float(np.linalg.norm(k, axis=-1).max(initial=0.0))
        bound = q_norm * k_norm
        if mask is not None and mask.dtype.kind == "f":  # the mask is added to the scores
            bound += float(np.abs(mask[np.isfinite(mask)]).max(initial=0.0))
    safe = 0.5 * math.log(float(np.finfo(q_scaled.dtype).max))  # 44 for float32, 354 for float64
    return not bound <= safe  # also True when the bound is NaN or inf


def _weight_block(prep: _Prepared, at: Index, rows: slice) -> tuple[FloatArray, FloatArray]:
    """``(e, total)`` for the queries ``rows`` of head ``at``: their softmax is ``e / total``.

    ``at`` indexes the leading (batch, head...) dimensions of ``prep``'s arrays.
    ``e[i, j] = exp(score_ij - c_i)`` (0 where masked), where ``c_i`` is the row's
    maximum score, or 0 when exp cannot overflow (see :func:`_needs_shift`), and
    ``total[i, 0] = sum_j e[i, j]`` (set to 1 for a fully masked row, so dividing
    leaves its zeros alone).

    Each query's weights need only its own row of scores, so the queries are
    processed a few rows of one head at a time: the block's scores stay in the CPU
    cache through the passes of the softmax, and memory never holds more than the
    blocks in progress besides the result.
    """
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported below
        e: FloatArray = np.matmul(prep.q[at][rows], prep.k_t[at])  # (rows, n_k)
    if prep.is_causal:
        np.copyto(e, -np.inf, where=~_causal_rows(rows.start, rows.stop, prep.n_k))
    elif prep.mask is not None:
        mask = prep.mask[at] if prep.mask.shape[-2] == 1 else prep.mask[at][rows]
        if mask.dtype == np.bool_:
            np.copyto(e, -np.inf, where=np.logical_not(mask))
        else:
            e += mask
    total = _exp_shifted_(e, axis=-1, shift=prep.shift)  # (rows, 1)
    return e, total


# --- speed only: sharing the blocks out over threads ----------------------------------

Index = tuple[int, ...]  # one head: an index into the leading (batch, head...) dimensions
BlockStep = Callable[[Index, slice, FloatArray, FloatArray], None]

# One parallel call at a time changes BLAS's thread count (see _for_each_block).
_BLAS_LOCK = threading.Lock()


def _for_each_block(prep: _Prepared, batch: tuple[int, ...], step: BlockStep) -> None:
    """Call ``step(at, rows, e, total)`` for every block of queries of every head.

    ``batch`` is the shape of the leading (batch, head...) dimensions to cover (those
    of the scores, or more); ``at`` runs over its indices and ``e``, ``total`` are as
    in :func:`_weight_block`. The result is the same, up to rounding, as one block
    holding every query of every head.

    Small problems run block after block in the calling thread. Large ones are shared
    out over as many threads as numpy's BLAS would use: while they run, BLAS is
    limited to one thread, so that each block (matrix products, softmax and ``step``)
    runs whole on one core, in parallel with the others, instead of only the matrix
    products being parallel. ``step`` must therefore only write its own rows. Each
    thread runs in a copy of the caller's context, so ``np.errstate`` applies there too.

    BLAS's thread count belongs to the whole process: one call at a time changes it
    (``_BLAS_LOCK``), and if it cannot be changed (threadpoolctl lets only one Python
    thread set it), the blocks run one after another with BLAS as it is.
    """
    prep = dataclasses.replace(  # every array with the leading dimensions `batch`, as views
        prep,
        q=_broadcast_batch(prep.q, batch),
        k_t=_broadcast_batch(prep.k_t, batch),
        mask=None if prep.mask is None else _broadcast_batch(prep.mask, batch),
    )
    heads = math.prod(batch)
    if heads * prep.n_q * prep.n_k >= _PARALLEL_MIN_SCORES:
        blas = _blas_controller()
        if blas is not None:
            with _BLAS_LOCK:
                threads = _blas_threads(blas)
                if threads > 1:
                    with blas.limit(limits=1):
                        if _blas_threads(blas) == 1:
                            block = _block_rows(prep.n_q, prep.n_k, heads, threads)
                            _in_parallel(prep, step, _blocks(batch, prep.n_q, block), threads)
                            return
    for at, rows in _blocks(batch, prep.n_q, _block_rows(prep.n_q, prep.n_k, heads, threads=1)):
        _one_block(prep, step, at, rows)


def _broadcast_batch(a: npt.NDArray[Any], batch: tuple[int, ...]) -> npt.NDArray[Any]:
    """``a`` of shape (..., m, n) as a read-only view of shape (*batch, m, n)."""
    return np.broadcast_to(a, (*batch, *a.shape[-2:]))


def _blocks(batch: tuple[int, ...], n_q: int, block: int) -> list[tuple[Index, slice]]:
    """Every head's queries, ``block`` rows at a time: ``[(at, rows), ...]``.

    Examples
    --------
    >>> [(at, rows.start, rows.stop) for at, rows in _blocks((2,), n_q=3, block=2)]
    [((0,), 0, 2), ((0,), 2, 3), ((1,), 0, 2), ((1,), 2, 3)]
    """
    return [
        (at, slice(start, min(start + block, n_q)))
        for at in np.ndindex(*batch)
        for start in range(0, n_q, block)
    ]


def _one_block(prep: _Prepared, step: BlockStep, at: Index, rows: slice) -> None:
    step(at, rows, *_weight_block(prep, at, rows))


def _in_parallel(
    prep: _Prepared, step: BlockStep, blocks: list[tuple[Index, slice]], threads: int
) -> None:
    """The ``blocks`` on ``threads`` threads, each block whole on one."""
    pool = _pool(threads)
    futures = [
        pool.submit(contextvars.copy_context().run, _one_block, prep, step, at, rows)
        for at, rows in blocks
    ]
    for future in futures:
        future.result()  # re-raises a block's error here


def _block_rows(n_q: int, n_k: int, heads: int, threads: int) -> int:
    """Queries per block: the threads' blocks together hold about ``_BLOCK_SCORES`` scores.

    Examples
    --------
    >>> _block_rows(n_q=2048, n_k=2048, heads=4, threads=2)  # 4 MiB of float32 a block
    512
    >>> _block_rows(n_q=100, n_k=100, heads=1, threads=2)  # every thread gets a block
    50
    >>> _block_rows(n_q=0, n_k=100, heads=1, threads=1)  # no queries: range(0, 0, 1) is empty
    1
    """
    block = max(1, _BLOCK_SCORES // threads // max(1, n_k))
    blocks_per_head = -(-threads // max(1, heads))  # enough blocks to go round the threads
    return max(1, min(block, -(-n_q // blocks_per_head)))


_POOLS: dict[int, ThreadPoolExecutor] = {}


def _pool(threads: int) -> ThreadPoolExecutor:
    """A pool of ``threads`` threads, kept for the next call (called with _BLAS_LOCK held).

    Starting new threads for every call cost about 1 ms more a call (measured at
    n = 512 with 4 heads: 2.6 against 3.9 ms, best of 40).
    """
    if threads not in _POOLS:
        _POOLS[threads] = ThreadPoolExecutor(threads, thread_name_prefix="attention_ref")
    return _POOLS[threads]


def _forget_pools() -> None:
    """In a forked child the pools' threads are gone: start new ones when needed."""
    _POOLS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pools)


@functools.cache
def _blas_controller() -> Any:
    """threadpoolctl's handle on numpy's BLAS, or None without threadpoolctl or a BLAS."""
    try:
        from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]
    except ImportError:  # the wheel depends on numpy alone: one thread then
        return None
    blas = ThreadpoolController().select(user_api="blas")
    return blas if blas.lib_controllers else None


def _blas_threads(blas: Any) -> int:
    """How many threads BLAS uses now (1 when there is no controller)."""
    if blas is None:
        return 1
    return max(1, *(int(lib.num_threads) for lib in blas.lib_controllers))


def _exp_shifted_(e: FloatArray, axis: int, shift: bool = True) -> FloatArray:
    """In place: ``e <- exp(e - max(e))`` along ``axis``; return the sums (keepdims).

    A slice that is all ``-inf`` becomes all zeros with sum 1 (not 0/0 = NaN).
    ``shift=False`` skips subtracting the maximum, for scores known to be small.
    """
    if shift:
        peak = np.max(e, axis=axis, keepdims=True, initial=-np.inf)  # (..., 1) per row
        if np.isnan(peak).any() or np.isposinf(peak).any():
            raise FloatingPointError(
                f"the scores overflowed {e.dtype} (inf or NaN): the inputs are too large"
            )
        peak[np.isneginf(peak)] = 0.0  # fully masked: exp(-inf - 0) = 0
        e -= peak
    np.exp(e, out=e)
    total: FloatArray = np.sum(e, axis=axis, keepdims=True)
    total[total == 0] = 1.0
    return total


def _causal_rows(start: int, stop: int, n_k: int) -> BoolArray:
    """Rows ``start..stop-1`` of the causal mask: ``mask[i, j] = j <= i``."""
    return np.arange(n_k) <= np.arange(start, stop)[:, np.newaxis]  # (stop - start, n_k)
