"""Multi-head attention in numpy: project, split into heads, attend, merge, project back.

For a sequence ``x`` of shape ``(n, d_model)`` (one row per token) and ``h`` heads of
width ``d_head = d_model / h``:

1. project: ``Q = x @ w_q``, ``K = context @ w_k``, ``V = context @ w_v``, each
   ``(n, d_model)`` (``context`` is ``x`` itself for self-attention);
2. split each into ``h`` heads, consecutive blocks of ``d_head`` columns
   (:func:`split_heads`): ``(h, n, d_head)``;
3. attend in every head on its own, scaled by ``1/sqrt(d_head)``
   (:func:`~attention_ref.scaled_dot_product_attention`);
4. concatenate the heads' outputs back into ``(n, d_model)`` (:func:`merge_heads`) and
   multiply by ``w_o``.

The whole of it in plain numpy, for two heads and no mask:

>>> import numpy as np
>>> from attention_ref import multi_head_attention
>>> rng = np.random.default_rng(0)
>>> x = rng.standard_normal((5, 4))  # (n, d_model): 5 tokens
>>> w_q, w_k, w_v, w_o = rng.standard_normal((4, 4, 4))  # each (d_model, d_model)
>>> heads = []
>>> for cols in (slice(0, 2), slice(2, 4)):  # head 0 owns columns 0-1, head 1 columns 2-3
...     q, k, v = (x @ w_q)[:, cols], (x @ w_k)[:, cols], (x @ w_v)[:, cols]  # (n, d_head)
...     s = q @ k.T / np.sqrt(2)  # (n, n)
...     w = np.exp(s - s.max(axis=-1, keepdims=True))
...     heads.append(w / w.sum(axis=-1, keepdims=True) @ v)  # (n, d_head)
>>> by_hand = np.concatenate(heads, axis=-1) @ w_o  # (n, d_model)
>>> bool(np.allclose(by_hand, multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads=2)))
True

The weights follow the row-vector convention of the lesson (``Q = x @ w_q``); torch's
``nn.MultiheadAttention`` stores their transposes (``in_proj_weight`` holds
``w_q.T``, ``w_k.T`` and ``w_v.T`` stacked, ``out_proj.weight`` is ``w_o.T``) and
computes the same outputs and per-head weights when built with ``bias=False``.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict, Unpack, overload

import numpy as np
import numpy.typing as npt

from attention_ref import _validate
from attention_ref.core import attention_weights, scaled_dot_product_attention

FloatArray = npt.NDArray[np.floating[Any]]


def split_heads(x: npt.ArrayLike, num_heads: int) -> FloatArray:
    """Split the last axis into ``num_heads`` heads of equal width.

    Head ``i`` gets columns ``i * d_head`` to ``(i + 1) * d_head - 1``: consecutive
    blocks, not every ``num_heads``-th column.

    Parameters
    ----------
    x : array_like, shape (..., n, d_model)
        One row per token.
    num_heads : int
        A positive divisor of ``d_model``.

    Returns
    -------
    numpy.ndarray, shape (..., num_heads, n, d_model // num_heads)
        A view of ``x`` where possible (no copy).

    Raises
    ------
    ValueError
        If ``x`` has fewer than 2 dimensions, or ``num_heads`` does not divide ``d_model``.
    TypeError
        If ``num_heads`` is not an integer or ``x`` is not real and numeric.

    Examples
    --------
    >>> import numpy as np
    >>> from attention_ref import split_heads
    >>> x = np.arange(8).reshape(2, 4)  # 2 tokens, d_model = 4
    >>> x.tolist()
    [[0, 1, 2, 3], [4, 5, 6, 7]]
    >>> split_heads(x, 2).tolist()  # head 0: columns 0-1; head 1: columns 2-3
    [[[0.0, 1.0], [4.0, 5.0]], [[2.0, 3.0], [6.0, 7.0]]]
    >>> split_heads(x, 3)
    Traceback (most recent call last):
    ...
    ValueError: num_heads must divide d_model = 4 into equal heads, got 3 (divisors: 1, 2, 4)
    """
    arr = _validate.real_array(x, "x")
    _validate.ndim_at_least(arr, 2, "x", "(..., n, d_model)")
    *lead, n, d_model = arr.shape
    heads = _validate.num_heads(num_heads, d_model)
    # (..., n, h, d_head) -> (..., h, n, d_head)
    return np.swapaxes(arr.reshape(*lead, n, heads, d_model // heads), -2, -3)


def merge_heads(x: npt.ArrayLike) -> FloatArray:
    """Concatenate heads side by side: the inverse of :func:`split_heads`.

    Parameters
    ----------
    x : array_like, shape (..., num_heads, n, d_head)

    Returns
    -------
    numpy.ndarray, shape (..., n, num_heads * d_head)
        Row ``t`` is token ``t``'s rows of every head, head 0 first.

    Raises
    ------
    ValueError
        If ``x`` has fewer than 3 dimensions.

    Examples
    --------
    >>> from attention_ref import merge_heads, split_heads
    >>> heads = [[[0, 1], [4, 5]], [[2, 3], [6, 7]]]  # (2 heads, 2 tokens, d_head = 2)
    >>> merge_heads(heads).tolist()
    [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]
    >>> merge_heads(split_heads([[1, 2, 3, 4, 5, 6]], 3)).tolist()
    [[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]
    """
    arr = _validate.real_array(x, "x")
    _validate.ndim_at_least(arr, 3, "x", "(..., num_heads, n, d_head)")
    *lead, heads, n, d_head = arr.shape
    return np.swapaxes(arr, -2, -3).reshape(*lead, n, heads * d_head)


class AttentionOptions(TypedDict, total=False):
    """The keyword arguments of :func:`multi_head_attention` that do not change its type."""

    b_q: npt.ArrayLike | None
    b_k: npt.ArrayLike | None
    b_v: npt.ArrayLike | None
    b_o: npt.ArrayLike | None
    context: npt.ArrayLike | None
    mask: npt.ArrayLike | None
    is_causal: bool


# The two typings: the output alone, or with the weights (return_weights=True).
@overload
def multi_head_attention(
    x: npt.ArrayLike, w_q: npt.ArrayLike, w_k: npt.ArrayLike, w_v: npt.ArrayLike,
    w_o: npt.ArrayLike, *, return_weights: Literal[False] = ..., num_heads: int,
    **options: Unpack[AttentionOptions],
) -> FloatArray: ...  # fmt: skip
@overload
def multi_head_attention(
    x: npt.ArrayLike, w_q: npt.ArrayLike, w_k: npt.ArrayLike, w_v: npt.ArrayLike,
    w_o: npt.ArrayLike, *, return_weights: Literal[True], num_heads: int,
    **options: Unpack[AttentionOptions],
) -> tuple[FloatArray, FloatArray]: ...  # fmt: skip


def multi_head_attention(
    x: npt.ArrayLike,
    w_q: npt.ArrayLike,
    w_k: npt.ArrayLike,
    w_v: npt.ArrayLike,
    w_o: npt.ArrayLike,
    *,
    num_heads: int,
    b_q: npt.ArrayLike | None = None,
    b_k: npt.ArrayLike | None = None,
    b_v: npt.ArrayLike | None = None,
    b_o: npt.ArrayLike | None = None,
    context: npt.ArrayLike | None = None,
    mask: npt.ArrayLike | None = None,
    is_causal: bool = False,
    return_weights: bool = False,
) -> FloatArray | tuple[FloatArray, FloatArray]:
    """Multi-head attention of ``x`` over itself (self-attention) or over ``context``.

    ``merge_heads(attention(split(x @ w_q), split(context @ w_k), split(context @ w_v))) @ w_o``,
    each head scaled by ``1/sqrt(d_model / num_heads)``. Without biases (the default)
    it is ``torch.nn.MultiheadAttention(..., bias=False)``; with ``b_q, b_k, b_v, b_o``
    every projection adds its bias (``Q = x @ w_q + b_q``, the output ``... @ w_o + b_o``),
    as BERT's attention and ``torch.nn.MultiheadAttention(..., bias=True)``.

    Parameters
    ----------
    x : array_like, shape (..., n, d_model)
        The sequence the queries come from, one row per token.
    w_q, w_k, w_v, w_o : array_like, shape (d_model, d_model)
        Projections in the row-vector convention: ``Q = x @ w_q``.
    num_heads : int, keyword-only
        A positive divisor of ``d_model``.
    b_q, b_k, b_v, b_o : array_like, shape (d_model,), optional, keyword-only
        The projections' biases; each one left out (None) is zero.
    context : array_like, shape (..., m, d_model), optional, keyword-only
        The sequence keys and values come from (cross-attention); defaults to ``x``.
        Its leading dimensions broadcast against those of ``x``.
    mask : array_like, optional, keyword-only
        ``(n, m)``, ``(..., n, m)`` (the same for every head) or ``(..., num_heads, n, m)``.
        Boolean: True = may attend. Floating: added to the scaled scores. A mask with as
        many dimensions as ``x`` is read as ``(..., n, m)``, one more as having a head
        axis: with a batch ``x`` of shape ``(b, n, d_model)``, give a mask per head as
        ``(b or 1, num_heads, n, m)``.
    is_causal : bool, keyword-only
        Query ``i`` sees keys ``0..i`` (cannot be combined with ``mask``).
    return_weights : bool, keyword-only
        Also return every head's attention weights.

    Returns
    -------
    numpy.ndarray, shape (..., n, d_model)
        The output, one row per query token. A query that may attend to no key gets
        an all-zero row.
    tuple of (output, weights), if ``return_weights``
        ``weights`` has shape ``(..., num_heads, n, m)``; each row sums to 1 (0 if masked out).

    Raises
    ------
    ValueError
        If ``x`` or ``context`` has fewer than 2 dimensions or a non-finite value,
        ``num_heads`` does not divide ``d_model``, a weight is not ``(d_model, d_model)``,
        a bias is not ``(d_model,)``,
        ``context`` is not ``d_model`` wide, the mask has the wrong shape, or both
        ``mask`` and ``is_causal`` are given.
    TypeError
        If ``num_heads`` is not an integer, or an input is not real and numeric.
    FloatingPointError
        If a projection overflows the dtype.

    Examples
    --------
    Two tokens, two heads of width 1, every weight the identity: head 0 sees column 0
    of ``x``, head 1 column 1. Token 0's query in head 0 is 1, its scores against the
    keys ``[1, 0]`` are ``[1, 0]``, its weights ``[e/(1+e), 1/(1+e)] = [0.731, 0.269]``
    and its output ``0.731``; in head 1 its query is 0, so both keys weigh 0.5.

    >>> import numpy as np
    >>> from attention_ref import multi_head_attention
    >>> eye = np.eye(2)
    >>> out, w = multi_head_attention([[1, 0], [0, 1]], eye, eye, eye, eye, num_heads=2,
    ...                               return_weights=True)
    >>> out.round(3).tolist()  # (n, d_model)
    [[0.731, 0.5], [0.5, 0.731]]
    >>> w.round(3).tolist()  # (num_heads, n, m)
    [[[0.731, 0.269], [0.5, 0.5]], [[0.5, 0.5], [0.269, 0.731]]]

    A causal mask lets token 0 see only itself:

    >>> multi_head_attention([[1, 0], [0, 1]], eye, eye, eye, eye, num_heads=2,
    ...                      is_causal=True).round(3).tolist()
    [[1.0, 0.0], [0.5, 0.731]]

    An output bias is added to every token's row; a key bias ``b_k`` adds the same
    ``q . b_k`` to all of a query's scores, so its weights do not move:

    >>> multi_head_attention([[1, 0], [0, 1]], eye, eye, eye, eye, num_heads=2,
    ...                      b_k=[5, -3], b_o=[10, 20]).round(3).tolist()
    [[10.731, 20.5], [10.5, 20.731]]
    """
    x_arr = _validate.sequence(x, "x")
    d_model = x_arr.shape[-1]
    heads = _validate.num_heads(num_heads, d_model)
    weights = tuple(
        _validate.square_weight(w, name, d_model)
        for w, name in ((w_q, "w_q"), (w_k, "w_k"), (w_v, "w_v"), (w_o, "w_o"))
    )
    biases = tuple(
        None if b is None else _validate.bias(b, name, d_model)
        for b, name in ((b_q, "b_q"), (b_k, "b_k"), (b_v, "b_v"), (b_o, "b_o"))
    )
    if context is None:
        c_arr = x_arr
    else:
        c_arr = _validate.sequence(context, "context")
        if c_arr.shape[-1] != d_model:
            raise ValueError(
                f"context must be as wide as x (d_model = {d_model}), got context {c_arr.shape} "
                f"and x {x_arr.shape}"
            )
        _validate.batch_shape("x and context", x_arr.shape[:-2], c_arr.shape[:-2])
    source = "context" if context is not None else "x"
    if c_arr.shape[-2] == 0:
        raise ValueError(
            f"{source} holds no tokens (shape {c_arr.shape}): the keys and values come from "
            f"it, and attention needs at least one"
        )
    if return_weights:
        return _attend(x_arr, c_arr, weights, biases, heads, mask, is_causal, source)
    out, _ = _attend(
        x_arr, c_arr, weights, biases, heads, mask, is_causal, source, return_weights=False
    )
    return out


def _attend(
    x_arr: FloatArray,
    c_arr: FloatArray,
    weights: tuple[FloatArray, ...],
    biases: tuple[FloatArray | None, ...],
    heads: int,
    mask: npt.ArrayLike | None,
    is_causal: bool,
    source: str,
    *,
    return_weights: bool = True,
) -> tuple[FloatArray, FloatArray]:
    """Multi-head attention on checked arrays; the weights are empty unless asked for."""
    q, k, v = (
        _project(seq, w, b, f"{seq_name} @ {w_name}")
        for seq, w, b, seq_name, w_name in (
            (x_arr, weights[0], biases[0], "x", "w_q"),
            (c_arr, weights[1], biases[1], source, "w_k"),
            (c_arr, weights[2], biases[2], source, "w_v"),
        )
    )
    q_h, k_h, v_h = (split_heads(a, heads) for a in (q, k, v))  # (..., h, n or m, d_head)
    head_mask = None
    if mask is not None:
        batch = np.broadcast_shapes(x_arr.shape[:-2], c_arr.shape[:-2])
        shape = (*batch, heads, x_arr.shape[-2], c_arr.shape[-2])  # (..., h, n, m)
        head_mask = _validate.head_mask(mask, x_arr.ndim, shape)
    if return_weights:
        w_h = attention_weights(q_h, k_h, head_mask, is_causal=is_causal)  # (..., h, n, m)
        out_h = np.matmul(w_h, v_h.astype(w_h.dtype, copy=False))  # (..., h, n, d_head)
        return _project(merge_heads(out_h), weights[3], biases[3], "heads @ w_o"), w_h
    out_h = scaled_dot_product_attention(q_h, k_h, v_h, head_mask, is_causal=is_causal)
    out = _project(merge_heads(out_h), weights[3], biases[3], "heads @ w_o")  # (..., n, d_model)
    return out, np.empty((0,), dtype=out.dtype)


def _project(seq: FloatArray, w: FloatArray, b: FloatArray | None, what: str) -> FloatArray:
    """``seq @ w (+ b)``, refusing a result that overflowed (finite inputs, infinite product)."""
    with np.errstate(over="ignore", invalid="ignore"):
        out: FloatArray = np.matmul(seq, w)
        if b is not None:
            out = np.add(out, b, out=out) if out.dtype == np.result_type(out, b) else out + b
    if not np.isfinite(out).all():
        raise FloatingPointError(
            f"{what} overflows {out.dtype} (shape {out.shape}); scale the inputs down"
        )
    return out
