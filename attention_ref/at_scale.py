"""Attention at scale: the same formula, computed so that it fits a long context.

Lesson 5's variants of the plain formula, each equal to it (and tested so):

- :func:`online_softmax`: softmax in one pass over blocks, keeping a running maximum
  and a running sum (Milakov & Gimelshein 2018), then one normalisation;
- :func:`tiled_attention`: FlashAttention's forward pass (Dao et al. 2022): blocks of
  queries against blocks of keys, so that the ``n_q x n_k`` scores are never stored;
- :func:`sliding_window_mask`: each query sees only its last ``window`` keys
  (Beltagy et al. 2020; Mistral 7B);
- :func:`kv_cache_bytes`: what a decoder's cache of keys and values weighs, which
  grouped-query attention (``enable_gqa`` of
  :func:`~attention_ref.scaled_dot_product_attention`) divides.

>>> import numpy as np
>>> from attention_ref import scaled_dot_product_attention, tiled_attention
>>> q, k, v = np.random.default_rng(0).standard_normal((3, 2, 10, 4))  # (heads, n, d) each
>>> out = tiled_attention(q, k, v, is_causal=True, block_q=3, block_k=4)  # (2, 10, 4)
>>> bool(np.allclose(out, scaled_dot_product_attention(q, k, v, is_causal=True)))
True
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import numpy.typing as npt

from attention_ref import _validate
from attention_ref.core import _checked, _no_overflow

FloatArray = npt.NDArray[np.floating[Any]]
BoolArray = npt.NDArray[np.bool_]


def online_softmax(x: npt.ArrayLike, axis: int = -1, *, block_size: int) -> FloatArray:
    """Softmax along ``axis``, reading the logits one block at a time.

    One pass over the blocks keeps, for each row, the largest logit seen so far ``m``
    and the sum ``l`` of ``exp(x_j - m)`` over the logits seen so far. When a block
    brings a larger maximum ``m'``, the sum so far is rescaled to it (Milakov &
    Gimelshein 2018)::

        m' = max(m, max_j x_j)                                   # over the block's j
        l' = l * exp(m - m') + sum_j exp(x_j - m')

    After the last block, ``m`` is the row's maximum and ``l`` its softmax denominator,
    and a second, independent pass writes ``exp(x - m) / l``. The result is
    :func:`~attention_ref.softmax`'s for every ``block_size``, up to rounding.

    Parameters
    ----------
    x : array_like
        Logits. ``-inf`` is allowed (weight 0); NaN and ``+inf`` are not.
    axis : int, default -1
        The axis to normalise along.
    block_size : int, keyword-only
        How many logits of a row each step reads, >= 1. It need not divide the
        row's length (the last block is shorter), and may exceed it (one block).

    Returns
    -------
    numpy.ndarray, same shape as ``x``
        As :func:`~attention_ref.softmax`: rows summing to 1, a row of ``-inf`` giving
        all zeros; float16/32/64 preserved (float16 computed in float32), integers
        become float64.

    Raises
    ------
    ValueError
        If ``x`` is a scalar or holds NaN or ``+inf``, ``axis`` is out of range, or
        ``block_size`` < 1.
    TypeError
        If ``x`` is not real and numeric, or ``block_size`` is not an integer.

    Examples
    --------
    >>> import math
    >>> from attention_ref import online_softmax, softmax
    >>> online_softmax([1.0, 0.0, 0.5, 3.0, -1.0], block_size=2).round(3).tolist()
    [0.105, 0.039, 0.064, 0.778, 0.014]
    >>> softmax([1.0, 0.0, 0.5, 3.0, -1.0]).round(3).tolist()
    [0.105, 0.039, 0.064, 0.778, 0.014]
    >>> online_softmax([-math.inf, -math.inf, -math.inf], block_size=2).tolist()
    [0.0, 0.0, 0.0]
    """
    arr = _validate.real_array(x, "x")
    _validate.no_nan(arr, "x")
    _validate.no_pos_inf(arr, "x")
    if arr.ndim == 0:
        raise ValueError("x must have at least one dimension, got a scalar")
    if not -arr.ndim <= axis < arr.ndim:
        raise ValueError(f"axis {axis} is out of range for x with shape {arr.shape}")
    block = _validate.positive_int(block_size, "block_size")
    result, compute = _validate.working_dtype(arr)
    rows = np.moveaxis(arr.astype(compute, copy=False), axis, -1)  # (..., n): rows last
    n = rows.shape[-1]
    m = np.full((*rows.shape[:-1], 1), -np.inf, dtype=compute)  # (..., 1): running maximum
    total = np.zeros_like(m)  # (..., 1): running sum of exp(x - m)
    for start in range(0, n, block):
        x_blk = rows[..., start : start + block]  # (..., b)
        m_new = np.maximum(m, np.max(x_blk, axis=-1, keepdims=True))  # (..., 1)
        ref = _finite_or_zero(m_new)  # a row that is -inf so far keeps a sum of 0
        total = total * np.exp(m - ref) + np.sum(np.exp(x_blk - ref), axis=-1, keepdims=True)
        m = m_new
    total[total == 0] = 1.0  # a row of -inf: its zeros stay zeros, not 0/0
    weights = np.exp(rows - _finite_or_zero(m)) / total  # (..., n): the normalisation
    return np.moveaxis(weights, -1, axis).astype(result, copy=False)


def _finite_or_zero(m: FloatArray) -> FloatArray:
    """``m`` with ``-inf`` (a row with no unmasked logit yet) replaced by 0.

    Subtracting 0 from a row of ``-inf`` leaves ``exp`` at 0, where ``-inf - -inf``
    would give NaN; every other row subtracts its maximum so far.
    """
    return np.where(np.isneginf(m), 0.0, m).astype(m.dtype, copy=False)


def tiled_attention(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    mask: npt.ArrayLike | None = None,
    *,
    is_causal: bool = False,
    scale: float | None = None,
    block_q: int = 64,
    block_k: int = 64,
) -> FloatArray:
    """Scaled dot-product attention in tiles: FlashAttention's forward pass, readably.

    The queries go ``block_q`` at a time. For each block of queries, the keys and
    values go ``block_k`` at a time, and three running quantities per query row
    replace the row of weights (Dao et al. 2022, Algorithm 1):

    - ``m``, the largest score seen so far;
    - ``l``, the sum of ``exp(s - m)`` over the scores seen so far;
    - ``acc``, the sum of ``exp(s - m) * v`` over the values seen so far.

    A new tile of scores ``s`` raises the maximum to ``m'``; what was summed against
    the old maximum is rescaled by ``exp(m - m')``::

        p    = exp(s - m')                        # (block_q, block_k)
        l'   = exp(m - m') * l + sum_j p
        acc' = exp(m - m') * acc + p @ v_tile     # (block_q, d_v)

    After the last tile of keys, ``acc / l`` is the block's output: the
    :func:`~attention_ref.scaled_dot_product_attention` result, up to rounding. Each
    head holds one ``block_q x block_k`` tile of scores at a time (all heads of a call
    are computed side by side, as a GPU runs one tile per head in parallel), never its
    ``n_q x n_k`` scores. Under ``is_causal``, tiles wholly above the diagonal are
    skipped: every key in them is masked.

    This is the algorithm as taught, not :func:`~attention_ref.scaled_dot_product_attention`'s
    fast path. FlashAttention is fast on a GPU because a tile stays in on-chip memory
    between its steps; in numpy every step of every tile is a separate call that writes
    its result to main memory, and the Python loop over the tiles costs time of its own.
    ``python -m bench --only kernel`` times both.

    Parameters
    ----------
    q, k, v, mask, is_causal, scale
        As :func:`~attention_ref.scaled_dot_product_attention`: ``q (..., n_q, d_k)``
        or ``(d_k,)``, ``k (..., n_k, d_k)``, ``v (..., n_k, d_v)``; a boolean mask is
        True where a query may attend, a floating mask is added to the scaled scores.
    block_q : int, default 64, keyword-only
        Queries per tile, >= 1 (the last tile may be shorter).
    block_k : int, default 64, keyword-only
        Keys per tile, >= 1 (the last tile may be shorter).

    Returns
    -------
    numpy.ndarray, shape (..., n_q, d_v), or (..., d_v) for a single query
        Equal to ``scaled_dot_product_attention(q, k, v, mask, ...)`` up to rounding;
        a query whose keys are all masked gets an all-zero row.

    Raises
    ------
    ValueError, TypeError, FloatingPointError
        As :func:`~attention_ref.scaled_dot_product_attention`; also ``TypeError`` or
        ``ValueError`` for a ``block_q`` or ``block_k`` that is not an integer >= 1.

    Examples
    --------
    The worked example, with tiles of one key:

    >>> from attention_ref import tiled_attention
    >>> q = [1, 0, 1, 0]
    >>> K = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]]
    >>> V = [[10, 0], [0, 5], [2, 2]]
    >>> tiled_attention(q, K, V, block_k=1).round(3).tolist()
    [5.679, 1.546]
    """
    c = _checked(q, k, mask, is_causal, scale, v)
    rows_per_tile = _validate.positive_int(block_q, "block_q")
    keys_per_tile = _validate.positive_int(block_k, "block_k")
    v_c = cast(FloatArray, c.v)  # (..., n_k, d_v), checked
    batch = _validate.batch_shape("q, k and v", c.batch, v_c.shape[:-2])
    n_q, n_k, d_v = c.n_q, c.n_k, int(v_c.shape[-1])
    k_t = np.swapaxes(c.k, -1, -2)  # (..., d_k, n_k)
    masks: npt.NDArray[Any] | None = None  # boolean or floating
    if c.mask is not None:
        masks = np.broadcast_to(c.mask, (*batch, n_q, n_k))  # a read-only view, no copy
    out = np.empty((*batch, n_q, d_v), dtype=c.compute)  # (..., n_q, d_v)
    for i in range(0, n_q, rows_per_tile):
        rows = slice(i, min(i + rows_per_tile, n_q))
        q_blk = c.q[..., rows, :]  # (..., b_q, d_k)
        m = np.full((*batch, rows.stop - i, 1), -np.inf, dtype=c.compute)  # running max
        l_sum = np.zeros_like(m)  # (..., b_q, 1): running sum of exp(s - m)
        acc = np.zeros((*batch, rows.stop - i, d_v), dtype=c.compute)  # running exp(s - m) @ v
        for j in range(0, n_k, keys_per_tile):
            if is_causal and j > rows.stop - 1:
                break  # this tile and the next lie above the diagonal: all masked
            cols = slice(j, min(j + keys_per_tile, n_k))
            with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported below
                s: FloatArray = q_blk @ k_t[..., cols] * c.factor  # (..., b_q, b_k): a tile
            s = _no_overflow(s)
            if is_causal:  # key j <= query i, for this tile's rows and columns only
                seen = np.arange(j, cols.stop) <= np.arange(i, rows.stop)[:, np.newaxis]
                s = np.where(seen, s, -np.inf)
            elif masks is not None:
                tile = masks[..., rows, cols]  # (..., b_q, b_k)
                s = np.where(tile, s, -np.inf) if tile.dtype == np.bool_ else s + tile
            m_new: FloatArray = np.maximum(m, np.max(s, axis=-1, keepdims=True))  # (..., b_q, 1)
            ref = _finite_or_zero(m_new)
            p = np.exp(s - ref)  # (..., b_q, b_k): 0 where masked
            rescale = np.exp(m - ref)  # (..., b_q, 1): exp(m - m'), 0 before the first key
            l_sum = rescale * l_sum + np.sum(p, axis=-1, keepdims=True)
            acc = rescale * acc + p @ v_c[..., cols, :]  # (..., b_q, d_v)
            m = m_new
        l_sum[l_sum == 0] = 1.0  # a fully masked query: its zero row stays zero
        out[..., rows, :] = acc / l_sum
    return c.finish(out)


def sliding_window_mask(n: int, window: int) -> BoolArray:
    """The boolean sliding-window causal mask: query ``i`` sees its last ``window`` keys.

    ``mask[i, j]`` is True (may attend) when ``i - window < j <= i``: ``window`` counts
    the keys a query sees, itself included, so row ``i`` has ``min(i + 1, window)``
    True entries. ``window >= n`` gives :func:`~attention_ref.causal_mask` ``(n)``.

    Published code counts the window in different ways; the same number can mean one
    key more or fewer:

    - Hugging Face transformers (``src/transformers/masking_utils.py``,
      ``sliding_window_overlay``) keeps ``kv_idx > q_idx - sliding_window`` on top of
      the causal mask: exactly this function's ``window``;
    - Mistral's reference code (mistralai/mistral-inference, ``one_file_ref.py``) bands
      its causal mask with ``torch.triu(mask, diagonal=-sliding_window)``, which keeps
      ``j >= i - sliding_window``: ``sliding_window`` keys before the query plus the
      query itself, this function's ``window = sliding_window + 1`` (its rolling cache
      of keys, by contrast, holds ``sliding_window`` entries);
    - Longformer (allenai/longformer, ``longformer/sliding_chunks.py``) takes a
      one-sided window ``w`` and is not causal: each token sees ``w`` keys before it,
      itself and ``w`` after it, ``2w + 1`` keys (Hugging Face's Longformer config names
      ``2w`` its ``attention_window``). Its causal half is this function's
      ``window = w + 1``.

    Parameters
    ----------
    n : int
        Number of queries and keys, >= 0.
    window : int
        Keys each query may see, itself included, >= 1.

    Returns
    -------
    numpy.ndarray of bool, shape (n, n)

    Raises
    ------
    TypeError
        If ``n`` or ``window`` is not an integer.
    ValueError
        If ``n`` < 0 or ``window`` < 1.

    Examples
    --------
    >>> from attention_ref import sliding_window_mask
    >>> sliding_window_mask(4, 2).astype(int).tolist()
    [[1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 1, 0], [0, 0, 1, 1]]
    >>> sliding_window_mask(3, 5).astype(int).tolist()  # window >= n: the causal mask
    [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    """
    size = _validate.positive_int(n, "n", allow_zero=True)
    keys = _validate.positive_int(window, "window")
    i = np.arange(size)[:, np.newaxis]  # (n, 1): the query
    j = np.arange(size)  # (n,): the key
    return (j <= i) & (j > i - keys)  # (n, n)


def kv_cache_bytes(
    n_layers: int, n_kv_heads: int, d_head: int, n_tokens: int, bytes_per_value: int
) -> int:
    """Bytes a decoder's cache of keys and values holds for ``n_tokens`` tokens.

    Every layer keeps one key and one value vector of ``d_head`` numbers per key/value
    head and per token::

        2 * n_layers * n_kv_heads * d_head * n_tokens * bytes_per_value

    With multi-head attention ``n_kv_heads`` is the number of heads; grouped-query
    attention divides it (``g`` groups), multi-query attention makes it 1.

    Parameters
    ----------
    n_layers, n_kv_heads, d_head : int
        The model's layers, key/value heads per layer and head width, each >= 1.
    n_tokens : int
        Tokens in the cache (the context so far), >= 0.
    bytes_per_value : int
        Bytes of one stored number, >= 1: 2 for float16 or bfloat16, 4 for float32.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        If an argument is not an integer.
    ValueError
        If an argument is below its minimum.

    Examples
    --------
    A model of 32 layers with 32 heads of width 128 in float16, for 4,096 tokens,
    then the same with 8 key/value heads (grouped-query attention):

    >>> from attention_ref import kv_cache_bytes
    >>> kv_cache_bytes(32, 32, 128, 4096, 2) / 2**30  # GiB
    2.0
    >>> kv_cache_bytes(32, 8, 128, 4096, 2) / 2**30
    0.5
    """
    layers = _validate.positive_int(n_layers, "n_layers")
    heads = _validate.positive_int(n_kv_heads, "n_kv_heads")
    width = _validate.positive_int(d_head, "d_head")
    tokens = _validate.positive_int(n_tokens, "n_tokens", allow_zero=True)
    size = _validate.positive_int(bytes_per_value, "bytes_per_value")
    return 2 * layers * heads * width * tokens * size  # keys and values


__all__ = ["kv_cache_bytes", "online_softmax", "sliding_window_mask", "tiled_attention"]
