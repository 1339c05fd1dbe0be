"""An independent, plain-loop implementation of scaled dot-product attention.

Pure Python (lists, ``math``), no numpy, one query and one key at a time, written
straight from the formula

    weights_ij = exp(s_ij) / sum_j' exp(s_ij'),   s_ij = scale * (q_i · k_j) + mask_ij
    output_i   = sum_j weights_ij * v_j

so that `attention_ref` is checked against something that shares none of its
code. Sums use ``math.fsum`` (exactly rounded), so the oracle is at least as
accurate as the code under test. It is slow: use it on small inputs (benchmarks
may time it at small n as the "plain loops" baseline).

Conventions are those of `attention_ref`: a boolean mask means True = may attend,
a float mask is added to the scaled scores, a fully masked query gets all-zero
weights and an all-zero output.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

Vector = Sequence[float]
Matrix = Sequence[Sequence[float]]
MaskRows = Sequence[Sequence[bool]] | Sequence[Sequence[float]]


def dot(a: Vector, b: Vector) -> float:
    """The dot product of two vectors of the same length."""
    if len(a) != len(b):
        raise ValueError(f"dot: lengths differ ({len(a)} and {len(b)})")
    return math.fsum(x * y for x, y in zip(a, b, strict=True))


def softmax(logits: Vector) -> list[float]:
    """Softmax of one row; ``-inf`` gets 0 and an all ``-inf`` row gives all zeros."""
    finite = [x for x in logits if x != -math.inf]
    if not finite:
        return [0.0 for _ in logits]
    top = max(finite)
    exps = [0.0 if x == -math.inf else math.exp(x - top) for x in logits]
    total = math.fsum(exps)
    return [e / total for e in exps]


def entropy(p: Vector) -> float:
    """Natural-log entropy of one distribution, with 0·log 0 = 0."""
    return -math.fsum(x * math.log(x) for x in p if x > 0)


def attention(
    q: Matrix,
    k: Matrix,
    v: Matrix,
    mask: MaskRows | None = None,
    *,
    is_causal: bool = False,
    scale: float | None = None,
) -> tuple[list[list[float]], list[list[float]]]:
    """Attention of the queries ``q`` (n_q rows) over keys ``k`` and values ``v`` (n_k rows).

    ``mask`` is None or an n_q × n_k table of booleans (True = may attend) or of
    floats (added to the scaled scores). ``is_causal`` lets query i see keys 0..i.

    Returns ``(output, weights)``: n_q rows of d_v numbers and n_q rows of n_k weights.
    """
    if len(k) != len(v):
        raise ValueError(f"k has {len(k)} rows but v has {len(v)}")
    d_k = len(k[0])
    d_v = len(v[0])
    factor = 1.0 / math.sqrt(d_k) if scale is None else scale
    output: list[list[float]] = []
    weights: list[list[float]] = []
    for i, q_i in enumerate(q):
        logits: list[float] = []
        for j, k_j in enumerate(k):
            s = factor * dot(q_i, k_j)
            if is_causal and j > i:
                s = -math.inf
            if mask is not None:
                m = mask[i][j]
                if isinstance(m, bool):
                    s = s if m else -math.inf
                else:
                    s = s + m
            logits.append(s)
        w = softmax(logits)
        weights.append(w)
        output.append([math.fsum(w[j] * v[j][c] for j in range(len(v))) for c in range(d_v)])
    return output, weights


def _as_lists(x: Any) -> Any:
    """Nested lists from a numpy array (its ``tolist``) or any nested sequence."""
    return x.tolist() if hasattr(x, "tolist") else x


def _depth(x: Any) -> int:
    """How many levels of nesting ``x`` has (a vector is 1, a matrix 2...)."""
    depth = 0
    while isinstance(x, list | tuple):
        depth += 1
        if not x:
            break
        x = x[0]
    return depth


def _broadcast_loop(operands: list[tuple[Any, int]], run: Callable[[list[Any]], Any]) -> Any:
    """Loop over leading dimensions, numpy-style broadcasting, then ``run`` the core.

    ``operands`` pairs each nested list with its number of core dimensions
    (2 for a matrix, 0 for an absent operand); the leading dimensions broadcast.
    """
    leading = [_depth(x) - core if x is not None else 0 for x, core in operands]
    top = max(leading)
    if top == 0:
        return run([x for x, _ in operands])
    sizes = {len(x) for (x, _), lead in zip(operands, leading, strict=True) if lead == top}
    size = max(sizes)
    if not sizes <= {1, size}:
        raise ValueError(f"leading dimensions do not broadcast: sizes {sorted(sizes)}")
    result = []
    for i in range(size):
        picked = [
            (x[i if len(x) > 1 else 0], core) if lead == top else (x, core)
            for (x, core), lead in zip(operands, leading, strict=True)
        ]
        result.append(_broadcast_loop(picked, run))
    return result


def scaled_dot_product_attention(
    q: Any,
    k: Any,
    v: Any,
    mask: Any = None,
    *,
    is_causal: bool = False,
    scale: float | None = None,
) -> Any:
    """Plain-loop attention with the signature of ``attention_ref``'s.

    Accepts nested lists or numpy arrays: ``q (..., n_q, d_k)`` or ``(d_k,)``,
    ``k (..., n_k, d_k)``, ``v (..., n_k, d_v)``, an optional mask broadcasting to
    ``(..., n_q, n_k)`` (or ``(..., n_k)`` for a single query). Returns the output
    as nested lists, ``(..., n_q, d_v)`` (or ``(..., d_v)``).
    """
    return _batched(q, k, v, mask, is_causal, scale, want_weights=False)


def attention_weights(
    q: Any, k: Any, mask: Any = None, *, is_causal: bool = False, scale: float | None = None
) -> Any:
    """Plain-loop attention weights, as nested lists ``(..., n_q, n_k)`` (or ``(..., n_k)``)."""
    return _batched(q, k, k, mask, is_causal, scale, want_weights=True)


def _batched(
    q: Any, k: Any, v: Any, mask: Any, is_causal: bool, scale: float | None, want_weights: bool
) -> Any:
    q, k, v, mask = (_as_lists(x) for x in (q, k, v, mask))
    single = _depth(q) == 1
    if single:
        q = [q]
        if mask is not None:
            mask = _wrap_rows(mask)
    if mask is not None and _depth(mask) == 1:  # one row of mask, for every query
        mask = [mask]

    def run(xs: list[Any]) -> list[list[float]]:
        q_, k_, v_, m_ = xs
        n_q, n_k = len(q_), len(k_)
        if m_ is not None:  # broadcast the mask's own (n_q, n_k) dimensions
            m_ = [m_[i if len(m_) > 1 else 0] for i in range(n_q)]
            m_ = [[row[j if len(row) > 1 else 0] for j in range(n_k)] for row in m_]
        output, weights = attention(q_, k_, v_, m_, is_causal=is_causal, scale=scale)
        return weights if want_weights else output

    mask_core = 0 if mask is None else 2
    result = _broadcast_loop([(q, 2), (k, 2), (v, 2), (mask, mask_core)], run)
    return _unwrap_rows(result) if single else result


def _wrap_rows(x: Any) -> Any:
    """Turn every innermost row ``r`` into ``[r]`` (adds an n_q = 1 axis)."""
    if _depth(x) == 1:
        return [x]
    return [_wrap_rows(y) for y in x]


def _unwrap_rows(x: Any) -> Any:
    """Undo :func:`_wrap_rows` on a result: ``[[r]] -> [r]`` at the innermost level."""
    if _depth(x) == 2:
        return x[0]
    return [_unwrap_rows(y) for y in x]


def matmul(a: Matrix, b: Matrix) -> list[list[float]]:
    """The product of an n × d and a d × p table of numbers, one exactly rounded sum per entry."""
    if any(len(row) != len(b) for row in a):
        raise ValueError(f"matmul: rows of a must be {len(b)} long")
    return [
        [math.fsum(row[t] * b[t][c] for t in range(len(b))) for c in range(len(b[0]))] for row in a
    ]


def multi_head_attention(
    x: Matrix,
    w_q: Matrix,
    w_k: Matrix,
    w_v: Matrix,
    w_o: Matrix,
    num_heads: int,
    context: Matrix | None = None,
    mask: MaskRows | None = None,
    *,
    head_masks: Sequence[MaskRows] | None = None,
    is_causal: bool = False,
) -> tuple[list[list[float]], list[list[list[float]]]]:
    """Plain-loop multi-head attention of one sequence ``x`` (n rows of d_model numbers).

    Head ``h`` takes columns ``h*d_head .. (h+1)*d_head - 1`` of each projection, attends
    on its own (scaled by ``1/sqrt(d_head)``), and the heads' outputs are laid side by
    side, token by token, before the product with ``w_o``. ``mask`` is one n × m table
    for every head; ``head_masks`` gives one table per head instead. Returns
    ``(output, weights)``: n rows of d_model numbers and, per head, n rows of m weights.
    """
    if len(x[0]) % num_heads:
        raise ValueError(f"num_heads = {num_heads} does not divide d_model = {len(x[0])}")
    if mask is not None and head_masks is not None:
        raise ValueError("give mask (one for every head) or head_masks, not both")
    context = x if context is None else context
    q, k, v = matmul(x, w_q), matmul(context, w_k), matmul(context, w_v)
    d_head = len(x[0]) // num_heads
    joined: list[list[float]] = [[] for _ in x]
    weights = []
    for h in range(num_heads):
        cols = range(h * d_head, (h + 1) * d_head)
        q_h, k_h, v_h = ([[row[c] for c in cols] for row in m] for m in (q, k, v))
        m_h = mask if head_masks is None else head_masks[h]
        out_h, w_h = attention(q_h, k_h, v_h, m_h, is_causal=is_causal)
        weights.append(w_h)
        for token, row in enumerate(out_h):
            joined[token].extend(row)
    return matmul(joined, w_o), weights


# --- The transformer block's other parts, one token (row) at a time -------------------


def layer_norm_row(row: Vector, gain: Vector, bias: Vector, eps: float) -> list[float]:
    """LayerNorm of one token: mean and biased variance (divided by d) over its features."""
    d = len(row)
    mean = math.fsum(row) / d
    var = math.fsum((x - mean) ** 2 for x in row) / d
    inv = 1.0 / math.sqrt(var + eps)
    return [(x - mean) * inv * g + b for x, g, b in zip(row, gain, bias, strict=True)]


def gelu(x: float) -> float:
    """The exact GELU of one number, with ``math.erf``."""
    return 0.5 * x * (1.0 + math.erf(x / math.sqrt(2.0)))


def linear_row(row: Vector, w: Matrix, b: Vector) -> list[float]:
    """``row @ w + b`` for one token, ``w`` of shape (d_in, d_out) as nested lists."""
    return [math.fsum(row[i] * w[i][j] for i in range(len(row))) + b[j] for j in range(len(w[0]))]


def feed_forward_row(
    row: Vector, w_1: Matrix, b_1: Vector, w_2: Matrix, b_2: Vector
) -> list[float]:
    """``gelu(row @ w_1 + b_1) @ w_2 + b_2`` for one token."""
    hidden = [gelu(h) for h in linear_row(row, w_1, b_1)]
    return linear_row(hidden, w_2, b_2)


def encoder_layer(x: Matrix, p: dict[str, Any], num_heads: int, eps: float) -> list[list[float]]:
    """A post-LN encoder layer, token by token and head by head, from nested lists.

    ``p`` holds the weights as nested lists under the names of
    ``attention_ref.block.EncoderLayerWeights`` (w_q, b_q, ..., norm2_bias).
    """
    d = len(x[0])
    d_head = d // num_heads
    q = [linear_row(r, p["w_q"], p["b_q"]) for r in x]
    k = [linear_row(r, p["w_k"], p["b_k"]) for r in x]
    v = [linear_row(r, p["w_v"], p["b_v"]) for r in x]
    merged: list[list[float]] = [[] for _ in x]
    for h in range(num_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        out, _ = attention([r[cols] for r in q], [r[cols] for r in k], [r[cols] for r in v])
        for t, row in enumerate(out):
            merged[t].extend(row)
    attended = [linear_row(r, p["w_o"], p["b_o"]) for r in merged]
    a = [
        layer_norm_row(
            [xi + ai for xi, ai in zip(xr, ar, strict=True)], p["norm1_gain"], p["norm1_bias"], eps
        )
        for xr, ar in zip(x, attended, strict=True)
    ]
    result = []
    for ar in a:
        f = feed_forward_row(ar, p["w_1"], p["b_1"], p["w_2"], p["b_2"])
        summed = [ai + fi for ai, fi in zip(ar, f, strict=True)]
        result.append(layer_norm_row(summed, p["norm2_gain"], p["norm2_bias"], eps))
    return result
