"""The fast path of ``scaled_dot_product_attention``: the same formula, in blocks, on threads.

:mod:`attention_ref.core` states attention as its formula: scores, scale, mask, softmax,
weighted sum, each a line of numpy over whole arrays. That materialises every weight
(``n_q x n_k`` per head) and runs the softmax on one core. For large problems
``core.scaled_dot_product_attention`` hands its checked operands to :func:`attention`
instead (a size test chooses, as nanoGPT's ``flash`` switch does), which computes the
same result, tested equal over the property tests and the loop oracle, this way:

- the scale multiplies the ``n_q·d_k`` queries rather than the ``n_q·n_k`` scores;
- the queries go a block at a time, small enough for the block's scores to stay in the
  CPU cache through the passes of the softmax; memory holds one block per thread, never
  the whole weights matrix;
- the row maximum is subtracted only when ``exp`` could overflow (see :func:`_needs_shift`);
- the division by each row's sum is applied to the ``n_q·d_v`` outputs instead of the
  ``n_q·n_k`` weights;
- large problems are shared out, a block of queries of one head at a time, over as many
  threads as numpy's BLAS would use, with BLAS limited to one thread meanwhile (through
  threadpoolctl), so that the softmax runs in parallel as well as the matrix products.

Nothing here validates: the caller passes arrays that ``core`` has checked.
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

FloatArray = npt.NDArray[np.floating[Any]]
BoolArray = npt.NDArray[np.bool_]
Index = tuple[int, ...]  # one head: an index into the leading (batch, head...) dimensions

#: From this many scores (batch x heads x n_q x n_k) on, ``core`` takes this path: below
#: it, whole-array numpy is faster and the weights matrix is small (measured, 4 heads of
#: width 64, float32: plain 0.21 ms against 0.30 ms here at n = 64; 1.07 against 0.55 ms
#: at n = 128).
MIN_SCORES = 1 << 15

#: How many scores the blocks of queries hold at a time, shared between the threads that
#: compute them: 8 MiB in float32, small enough to stay in the CPU's cache between the
#: passes of the softmax, large enough for the matrix products to run at full speed
#: (measured: 2**19 to 2**22 are all close; smaller blocks lose to many small products).
BLOCK_SCORES = 1 << 21

#: Below this many scores the calling thread does all the work: handing blocks to other
#: threads costs more than it saves (measured with 4 heads: no gain at n = 256, a small
#: one at n = 512).
PARALLEL_MIN_SCORES = 1 << 19

_DEFAULT: Any = object()  # "ask threadpoolctl for numpy's BLAS"


@dataclasses.dataclass(frozen=True)
class _Operands:
    """The operands of one call, laid out for blocks: every array has the same leading dims."""

    q: FloatArray  # (*batch, n_q, d_k), already multiplied by the scale
    k_t: FloatArray  # (*batch, d_k, n_k)
    v: FloatArray  # (*batch, n_k, d_v)
    mask: FloatArray | BoolArray | None  # (*batch, n_q or 1, n_k), or None
    is_causal: bool
    shift: bool  # subtract each row's maximum before exp (see _needs_shift)

    @property
    def n_q(self) -> int:
        return int(self.q.shape[-2])

    @property
    def n_k(self) -> int:
        return int(self.k_t.shape[-1])


def attention(
    q: FloatArray,
    k: FloatArray,
    v: FloatArray,
    mask: FloatArray | BoolArray | None,
    *,
    is_causal: bool,
    factor: float,
    compute: np.dtype[Any],
    block_scores: int = BLOCK_SCORES,
    parallel_min_scores: int = PARALLEL_MIN_SCORES,
    blas: Any = _DEFAULT,
) -> FloatArray:
    """``softmax(q @ k.T * factor + mask) @ v`` in blocks of queries, in ``compute`` dtype.

    ``q (..., n_q, d_k)``, ``k (..., n_k, d_k)``, ``v (..., n_k, d_v)`` and ``mask``
    (boolean or floating, broadcasting to ``(..., n_q, n_k)``) are checked by the caller.
    ``block_scores``, ``parallel_min_scores`` and ``blas`` (a threadpoolctl controller,
    or None for one thread) exist for the tests; callers leave them alone.

    Examples
    --------
    >>> q = np.array([[1.0, 0.0, 1.0, 0.0]])
    >>> k = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]])
    >>> v = np.array([[10.0, 0], [0, 5], [2, 2]])
    >>> f64 = np.dtype(np.float64)
    >>> attention(q, k, v, None, is_causal=False, factor=0.5, compute=f64).round(2).tolist()
    [[5.68, 1.55]]
    """
    q_c = q.astype(compute, copy=True)
    q_c *= compute.type(factor)  # scaling n_q·d_k queries, not n_q·n_k scores
    k_c = k.astype(compute, copy=False)
    if mask is not None and mask.dtype.kind == "f":
        mask = mask.astype(compute, copy=False)
    while mask is not None and mask.ndim < 2:  # (n_k,): the same row for every query
        mask = mask[np.newaxis]
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    if mask is not None:
        batch = np.broadcast_shapes(batch, mask.shape[:-2])
    ops = _Operands(
        q=_broadcast_batch(q_c, batch),
        k_t=_broadcast_batch(np.swapaxes(k_c, -1, -2), batch),
        v=_broadcast_batch(v.astype(compute, copy=False), batch),
        mask=None if mask is None else _broadcast_batch(mask, batch),
        is_causal=is_causal,
        shift=_needs_shift(q_c, k_c, mask),
    )
    out = np.empty((*batch, ops.n_q, v.shape[-1]), dtype=compute)  # (..., n_q, d_v)

    def aggregate(at: Index, rows: slice) -> None:
        e, total = _weight_block(ops, at, rows)  # softmax of the block = e / total
        np.divide(np.matmul(e, ops.v[at]), total, out=out[at][rows])  # (rows, d_v)

    _for_each_block(ops, batch, aggregate, block_scores, parallel_min_scores, blas)
    return out


def _broadcast_batch(a: npt.NDArray[Any], batch: tuple[int, ...]) -> npt.NDArray[Any]:
    """``a`` of shape (..., m, n) as a read-only view of shape (*batch, m, n)."""
    return np.broadcast_to(a, (*batch, *a.shape[-2:]))


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


def _weight_block(ops: _Operands, at: Index, rows: slice) -> tuple[FloatArray, FloatArray]:
    """``(e, total)`` for the queries ``rows`` of head ``at``: their softmax is ``e / total``.

    ``e[i, j] = exp(score_ij - c_i)`` (0 where masked), where ``c_i`` is the row's maximum
    score, or 0 when exp cannot overflow, and ``total[i, 0] = sum_j e[i, j]`` (1 for a
    fully masked row, so that dividing leaves its zeros alone).
    """
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported below
        e: FloatArray = np.matmul(ops.q[at][rows], ops.k_t[at])  # (rows, n_k)
    if ops.is_causal:
        causal = np.arange(ops.n_k) <= np.arange(rows.start, rows.stop)[:, np.newaxis]
        np.copyto(e, -np.inf, where=~causal)
    elif ops.mask is not None:
        mask = ops.mask[at] if ops.mask.shape[-2] == 1 else ops.mask[at][rows]
        if mask.dtype == np.bool_:
            np.copyto(e, -np.inf, where=np.logical_not(mask))
        else:
            e += mask
    if ops.shift:
        peak = np.max(e, axis=-1, keepdims=True, initial=-np.inf)  # (rows, 1)
        if np.isnan(peak).any() or np.isposinf(peak).any():
            raise FloatingPointError(
                f"the scores overflowed {e.dtype} (inf or NaN): the inputs are too large"
            )
        peak[np.isneginf(peak)] = 0.0  # fully masked: exp(-inf - 0) = 0
        e -= peak
    np.exp(e, out=e)
    total: FloatArray = np.sum(e, axis=-1, keepdims=True)  # (rows, 1)
    total[total == 0] = 1.0
    return e, total


# --- sharing the blocks out over threads ----------------------------------------------

BlockStep = Callable[[Index, slice], None]

# One parallel call at a time changes BLAS's thread count (see _for_each_block).
_BLAS_LOCK = threading.Lock()


def _for_each_block(
    ops: _Operands,
    batch: tuple[int, ...],
    step: BlockStep,
    block_scores: int,
    parallel_min_scores: int,
    blas: Any,
) -> None:
    """Call ``step(at, rows)`` for every block of queries of every head.

    Small problems run block after block in the calling thread. Large ones are shared
    out over as many threads as numpy's BLAS would use: while they run, BLAS is limited
    to one thread, so that each block (matrix products, softmax and ``step``) runs whole
    on one core, in parallel with the others. ``step`` must only write its own rows.
    Each thread runs in a copy of the caller's context, so ``np.errstate`` holds there.

    BLAS's thread count belongs to the whole process: one call at a time changes it
    (``_BLAS_LOCK``), and if it cannot be changed (threadpoolctl lets only one Python
    thread set it), the blocks run one after another with BLAS as it is.
    """
    heads = math.prod(batch)
    if heads * ops.n_q * ops.n_k >= parallel_min_scores:
        blas = blas_controller() if blas is _DEFAULT else blas
        if blas is not None:
            with _BLAS_LOCK:
                threads = blas_threads(blas)
                if threads > 1:
                    with blas.limit(limits=1):
                        if blas_threads(blas) == 1:
                            rows = _block_rows(ops.n_q, ops.n_k, heads, threads, block_scores)
                            _in_parallel(step, _blocks(batch, ops.n_q, rows), threads)
                            return
    rows = _block_rows(ops.n_q, ops.n_k, heads, 1, block_scores)
    for at, block in _blocks(batch, ops.n_q, rows):
        step(at, block)


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


def _in_parallel(step: BlockStep, blocks: list[tuple[Index, slice]], threads: int) -> None:
    """The ``blocks`` on ``threads`` threads, each block whole on one."""
    pool = _pool(threads)
    futures = [pool.submit(contextvars.copy_context().run, step, at, rows) for at, rows in blocks]
    for future in futures:
        future.result()  # re-raises a block's error here


def _block_rows(n_q: int, n_k: int, heads: int, threads: int, block_scores: int) -> int:
    """Queries per block: the threads' blocks together hold about ``block_scores`` scores.

    Examples
    --------
    >>> _block_rows(n_q=2048, n_k=2048, heads=4, threads=2, block_scores=BLOCK_SCORES)
    512
    >>> _block_rows(n_q=100, n_k=100, heads=1, threads=2, block_scores=BLOCK_SCORES)
    50
    >>> _block_rows(n_q=0, n_k=100, heads=1, threads=1, block_scores=BLOCK_SCORES)
    1
    """
    block = max(1, block_scores // threads // max(1, n_k))
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
def blas_controller() -> Any:
    """threadpoolctl's handle on numpy's BLAS, or None if it finds no BLAS.

    threadpoolctl is a dependency of the distribution; should it be missing anyway,
    the fast path still runs, on one thread.
    """
    try:
        from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]
    except ImportError:
        return None
    blas = ThreadpoolController().select(user_api="blas")
    return blas if blas.lib_controllers else None


def blas_threads(blas: Any) -> int:
    """How many threads BLAS uses now (1 when there is no controller)."""
    if blas is None:
        return 1
    return max(1, *(int(lib.num_threads) for lib in blas.lib_controllers))
