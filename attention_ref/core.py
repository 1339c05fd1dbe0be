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

Each public function is its formula, line by line, over whole arrays. Large problems
take a fast path instead, in :mod:`attention_ref._fast`: the same formula computed in
blocks of queries on several threads, chosen by size (as nanoGPT's ``flash`` switch
chooses its fused kernel) and tested equal to this one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from attention_ref import _fast, _validate

FloatArray = npt.NDArray[np.floating[Any]]
BoolArray = npt.NDArray[np.bool_]


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
    x = arr.astype(compute, copy=False)
    peak = np.max(x, axis=axis, keepdims=True, initial=-np.inf)  # each row's maximum
    peak[np.isneginf(peak)] = 0.0  # a fully masked row: exp(-inf - 0) = 0 everywhere
    e = np.exp(x - peak)  # exp(x - max): at most 1, never overflows
    total = np.sum(e, axis=axis, keepdims=True)
    total[total == 0] = 1.0  # the fully masked row stays all zeros, not 0/0
    weights: FloatArray = e / total
    return weights.astype(result, copy=False)


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
    return np.arange(cols) <= np.arange(rows)[:, np.newaxis]  # (n_q, n_k): key j <= query i


def attention_weights(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    mask: npt.ArrayLike | None = None,
    *,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
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
    enable_gqa : bool, keyword-only
        Grouped-query attention, as in :func:`scaled_dot_product_attention`.

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
    c = _checked(q, k, mask, is_causal, scale, enable_gqa=enable_gqa)
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported below
        s = c.q @ np.swapaxes(c.k, -1, -2) * c.factor  # (..., n_q, n_k): the scaled scores
    mask = causal_mask(c.n_q, c.n_k) if is_causal else c.mask  # True = may attend
    if mask is not None:  # a forbidden key's score becomes -inf; a float mask is added
        s = np.where(mask, s, -np.inf) if mask.dtype == np.bool_ else s + mask
    weights = softmax(_no_overflow(s))  # (..., n_q, n_k): each row sums to 1
    return c.finish(weights)


def scaled_dot_product_attention(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    mask: npt.ArrayLike | None = None,
    *,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
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
    enable_gqa : bool, keyword-only
        Grouped-query attention (Ainslie et al. 2023), as ``enable_gqa`` in torch 2.5 and
        later: ``q`` has ``h`` heads, ``q (..., h, n_q, d_k)``, and ``k``, ``v`` have fewer,
        ``(..., g, n_k, d)``, with ``g`` dividing ``h``. Query head ``i`` uses key/value
        head ``i // (h // g)``: each key/value head serves ``h // g`` consecutive query
        heads (``repeat_interleave``). ``g = h`` is multi-head attention; ``g = 1`` is
        multi-query attention (Shazeer 2019). With False (the default) the head axes
        broadcast as any other leading axis.

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
        or both ``mask`` and ``is_causal``; with ``enable_gqa``, operands without a head
        axis ``(..., h, n, d)`` or ``g`` key/value heads that do not divide ``h``.
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

    Grouped-query attention: four query heads share two key/value heads, so query heads
    0 and 1 read key/value head 0, and heads 2 and 3 read head 1:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> q4 = rng.standard_normal((4, 3, 8))  # (h, n_q, d_k): 4 query heads
    >>> k2, v2 = rng.standard_normal((2, 2, 5, 8))  # (g, n_k, d) each: 2 key/value heads
    >>> out = scaled_dot_product_attention(q4, k2, v2, enable_gqa=True)  # (4, 3, 8)
    >>> bool(np.allclose(out[3], scaled_dot_product_attention(q4[3], k2[1], v2[1])))
    True
    """
    c = _checked(q, k, mask, is_causal, scale, v, enable_gqa=enable_gqa)
    v_c = cast(FloatArray, c.v)  # (..., n_k, d_v), checked
    batch = _validate.batch_shape("q, k and v", c.batch, v_c.shape[:-2])
    if math.prod(batch) * c.n_q * c.n_k >= _fast.MIN_SCORES:  # large: the fast path
        out = _fast.attention(
            c.q, c.k, v_c, c.mask, is_causal=is_causal, factor=c.factor, compute=c.compute
        )
        return c.finish(out)
    weights = attention_weights(
        c.q, c.k, c.mask, is_causal=is_causal, scale=scale
    )  # (..., n_q, n_k); c.k already holds a key head for every query head
    return c.finish(weights @ v_c)  # (..., n_q, d_v): the weighted sum


# --- checking the operands ------------------------------------------------------------


@dataclass(frozen=True)
class _Checked:
    """The checked operands of one call, queries as rows even for a single query vector."""

    q: FloatArray  # (..., n_q, d_k), in the compute dtype
    k: FloatArray  # (..., n_k, d_k), in the compute dtype
    v: FloatArray | None  # (..., n_k, d_v), in the compute dtype, when given
    mask: FloatArray | BoolArray | None  # broadcasts to (..., n_q, n_k)
    factor: float  # the scale
    single: bool  # q was one vector (d_k,)
    result: np.dtype[Any]  # the dtype returned
    compute: np.dtype[Any]  # the dtype computed in (float32 for float16)

    @property
    def n_q(self) -> int:
        return int(self.q.shape[-2])

    @property
    def n_k(self) -> int:
        return int(self.k.shape[-2])

    @property
    def batch(self) -> tuple[int, ...]:
        return np.broadcast_shapes(self.q.shape[:-2], self.k.shape[:-2])

    def finish(self, a: FloatArray) -> FloatArray:
        """``a`` (..., n_q, m) in the result dtype, without the query axis for a single query."""
        a = a.astype(self.result, copy=False)
        return a[..., 0, :] if self.single else a


def _checked(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    mask: npt.ArrayLike | None,
    is_causal: bool,
    scale: float | None,
    v: npt.ArrayLike | None = None,
    *,
    enable_gqa: bool = False,
) -> _Checked:
    """Check the operands, the mask and the scale; bring them to the (..., n_q, n_k) layout.

    With ``enable_gqa``, ``k`` and ``v`` come back with one head for every query head
    (see :func:`_grouped_heads`).
    """
    if not isinstance(enable_gqa, bool | np.bool_):
        raise TypeError(f"enable_gqa must be True or False, got {enable_gqa!r}")
    if enable_gqa:
        q, k, v = _grouped_heads(q, k, v)
    q_arr, k_arr = _validate.queries_and_keys(q, k)
    v_arr = None if v is None else _validate.values(v, k_arr)
    if not isinstance(is_causal, bool | np.bool_):
        raise TypeError(f"is_causal must be True or False, got {is_causal!r}")
    if mask is not None and is_causal:
        raise ValueError("give either mask or is_causal=True, not both (as in torch)")
    factor = 1.0 / math.sqrt(q_arr.shape[-1]) if scale is None else _validate.positive_scale(scale)
    operands = (q_arr, k_arr) if v_arr is None else (q_arr, k_arr, v_arr)
    result, compute = _validate.working_dtype(*operands)
    single = q_arr.ndim == 1
    if single:
        q_arr = q_arr[np.newaxis, :]  # (1, d_k): one query row
    batch = np.broadcast_shapes(q_arr.shape[:-2], k_arr.shape[:-2])
    checked_mask: FloatArray | BoolArray | None = None
    if mask is not None:
        scores_shape = (*batch, q_arr.shape[-2], k_arr.shape[-2])
        user_shape = scores_shape[:-2] + scores_shape[-1:] if single else scores_shape
        checked_mask = _validate.attention_mask(mask, user_shape)
        if single:
            checked_mask = checked_mask[..., np.newaxis, :]  # (..., 1, n_k)
        if checked_mask.dtype.kind == "f":
            checked_mask = checked_mask.astype(compute, copy=False)
    return _Checked(
        q=q_arr.astype(compute, copy=False),
        k=k_arr.astype(compute, copy=False),
        v=None if v_arr is None else v_arr.astype(compute, copy=False),
        mask=checked_mask,
        factor=factor,
        single=single,
        result=result,
        compute=compute,
    )


def _grouped_heads(
    q: npt.ArrayLike, k: npt.ArrayLike, v: npt.ArrayLike | None
) -> tuple[FloatArray, FloatArray, FloatArray | None]:
    """``q``, and ``k`` and ``v`` with each of their ``g`` heads repeated ``h // g`` times.

    ``q (..., h, n_q, d_k)``, ``k (..., g, n_k, d_k)``, ``v (..., g_v, n_k, d_v)``: key head
    ``j`` becomes heads ``j * r .. j * r + r - 1`` (``r = h // g``), as torch's
    ``repeat_interleave`` along the head axis, so query head ``i`` meets key head ``i // r``.

    Examples
    --------
    >>> import numpy as np
    >>> q, k = np.zeros((4, 1, 2)), np.arange(2.0).reshape(2, 1, 1) * np.ones((2, 1, 2))
    >>> _, k4, _ = _grouped_heads(q, k, None)
    >>> k4[:, 0, 0].tolist()  # query heads 0, 1 read key head 0; heads 2, 3 read key head 1
    [0.0, 0.0, 1.0, 1.0]
    """
    q_arr = _validate.real_array(q, "q")
    operands = {"k": _validate.real_array(k, "k")}
    if v is not None:
        operands["v"] = _validate.real_array(v, "v")
    layout = "(..., h, n, d) with a head axis (enable_gqa=True)"
    _validate.ndim_at_least(q_arr, 3, "q", layout)
    h = int(q_arr.shape[-3])
    for name, arr in operands.items():
        _validate.ndim_at_least(arr, 3, name, layout)
        g = int(arr.shape[-3])
        if g == 0 or h % g:
            raise ValueError(
                f"enable_gqa=True needs the {g} heads of {name} to divide the {h} heads of q "
                f"(h = {h}, g = {g}; {name} {arr.shape}, q {q_arr.shape})"
            )
        operands[name] = np.repeat(arr, h // g, axis=-3)  # (..., h, n_k, d)
    return q_arr, operands["k"], operands.get("v")


def _no_overflow(s: FloatArray) -> FloatArray:
    """``s`` itself, unless finite inputs gave scores of +inf or NaN (an overflow)."""
    if np.isnan(s).any() or np.isposinf(s).any():
        raise FloatingPointError(
            f"the scores overflowed {s.dtype} (inf or NaN): the inputs are too large"
        )
    return s
