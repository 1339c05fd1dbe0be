"""attention_ref against an independent plain-loop oracle, hand-worked values and properties."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_ref as ar
from attention_ref import _fast, core
from site_build.worked_example import read
from testbed import oracle
from testbed.oracle import entropy as oracle_entropy
from testbed.oracle import softmax as oracle_softmax

# Tolerances for comparing with the oracle (which computes in exactly rounded double
# precision from the same input values): relative to the size of the values.
TOLERANCE = {np.float64: 1e-12, np.float32: 2e-5, np.float16: 4e-3}


# --- an oracle over leading (batch, head) dimensions --------------------------------------


def oracle_batched(
    q: npt.NDArray[Any],
    k: npt.NDArray[Any],
    v: npt.NDArray[Any],
    mask: npt.NDArray[Any] | None,
    is_causal: bool,
    scale: float | None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The plain-loop oracle's output and weights, as float64 arrays."""
    q64, k64, v64 = (x.astype(np.float64) for x in (q, k, v))  # ints and bools as numbers
    kwargs: dict[str, Any] = {"is_causal": is_causal, "scale": scale}
    out = oracle.scaled_dot_product_attention(q64, k64, v64, mask, **kwargs)
    weights = oracle.attention_weights(q64, k64, mask, **kwargs)
    return np.asarray(out, dtype=np.float64), np.asarray(weights, dtype=np.float64)


# --- random problems ---------------------------------------------------------------------


@dataclass
class Problem:
    q: npt.NDArray[Any]
    k: npt.NDArray[Any]
    v: npt.NDArray[Any]
    mask: npt.NDArray[Any] | None
    is_causal: bool
    scale: float | None


def _leading(draw: st.DrawFn, batch: tuple[int, ...]) -> tuple[int, ...]:
    """Leading dims of one operand: a suffix of ``batch``, some sizes replaced by 1."""
    keep = draw(st.integers(0, len(batch)))
    dims = batch[len(batch) - keep :]
    return tuple(d if draw(st.booleans()) else 1 for d in dims)


@st.composite
def problems(
    draw: st.DrawFn,
    dtypes: tuple[str, ...] = ("f8", "f4", "f2", "i8", "?"),
    masks: tuple[str, ...] = ("none", "bool", "float", "causal"),
) -> Problem:
    batch = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    n_q, n_k = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    d_k, d_v = draw(st.integers(1, 5)), draw(st.integers(1, 4))
    dtype = np.dtype(draw(st.sampled_from(dtypes)))
    single = draw(st.integers(0, 5)) == 0
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    # Large values (30) make scores of hundreds: softmax must then subtract the row maximum.
    size = draw(st.sampled_from([0.1, 1.0, 3.0, 30.0]))

    def operand(shape: tuple[int, ...]) -> npt.NDArray[Any]:
        if dtype == np.bool_:
            return rng.random(shape) < 0.5
        if dtype.kind == "i":
            return rng.integers(-3, 4, shape).astype(dtype)
        return (size * rng.standard_normal(shape)).astype(dtype)

    q_shape = (d_k,) if single else (*_leading(draw, batch), n_q, d_k)
    k = operand((*_leading(draw, batch), n_k, d_k))
    v = operand((*_leading(draw, batch), n_k, d_v))
    q = operand(q_shape)
    rows = 1 if single else n_q
    scores_batch = np.broadcast_shapes(q.shape[:-2] if not single else (), k.shape[:-2])

    kind = draw(st.sampled_from(masks))
    mask: npt.NDArray[Any] | None = None
    if kind in ("bool", "float"):
        # A mask of a shape that broadcasts to the scores' shape.
        tail = draw(st.sampled_from(["full", "row", "keys"]))
        m_shape: tuple[int, ...] = {
            "full": (*scores_batch, rows, n_k),
            "row": (1, n_k),
            "keys": (n_k,),
        }[tail]
        if single:
            m_shape = (*scores_batch, n_k) if tail == "full" else (n_k,)
        if kind == "bool":
            mask = rng.random(m_shape) < 0.7
        else:
            mask = rng.standard_normal(m_shape)
            mask[rng.random(m_shape) < 0.2] = -np.inf
    scale = draw(st.one_of(st.none(), st.floats(0.05, 3.0)))
    return Problem(q, k, v, mask, kind == "causal", scale)


class FakeBlas:
    """Stands in for threadpoolctl's handle on BLAS, with ``threads`` threads.

    ``stuck``: limiting does nothing, as when another Python thread controls BLAS.
    """

    def __init__(self, threads: int, stuck: bool = False) -> None:
        self.lib = SimpleNamespace(num_threads=threads)
        self.lib_controllers = [self.lib]
        self.stuck = stuck
        self.limits: list[int] = []

    @contextmanager
    def limit(self, limits: int) -> Iterator[None]:
        self.limits.append(limits)
        saved = self.lib.num_threads
        if not self.stuck:
            self.lib.num_threads = limits
        try:
            yield
        finally:
            self.lib.num_threads = saved


def fast(
    q: Any,
    k: Any,
    v: Any,
    mask: Any = None,
    *,
    is_causal: bool = False,
    scale: float | None = None,
    block_scores: int = _fast.BLOCK_SCORES,
    blas: Any = None,
) -> npt.NDArray[Any]:
    """The fast path alone, on the operands ``core`` checks; with ``blas`` of several
    threads it shares out even the smallest problem (``parallel_min_scores=0``)."""
    c = core._checked(q, k, mask, is_causal, scale, v)
    out = _fast.attention(
        c.q, c.k, c.v, c.mask, is_causal=is_causal, factor=c.factor, compute=c.compute,
        block_scores=block_scores, parallel_min_scores=0, blas=blas,
    )  # fmt: skip
    return c.finish(out)


def assert_matches_oracle(p: Problem, out: npt.NDArray[Any], weights: npt.NDArray[Any]) -> None:
    expected_out, expected_w = oracle_batched(p.q, p.k, p.v, p.mask, p.is_causal, p.scale)
    assert out.shape == expected_out.shape
    assert weights.shape[-1] == p.k.shape[-2]
    assert weights.shape == expected_w.shape
    dtype = np.result_type(*(x if x.dtype.kind == "f" else np.float64 for x in (p.q, p.k, p.v)))
    assert out.dtype == dtype
    # Rounding the scores costs about eps·|score| in each logit, so the tolerance grows with them.
    largest_score = float(np.abs(oracle_scores(p)).max())
    tol = TOLERANCE[out.dtype.type] * max(1.0, largest_score)
    v_size = float(np.abs(p.v.astype(float)).max())
    np.testing.assert_allclose(weights, expected_w, rtol=tol, atol=tol)
    np.testing.assert_allclose(out, expected_out, rtol=tol, atol=tol * max(1.0, v_size))


@settings(max_examples=400, deadline=None)
@given(problems())
def test_matches_the_plain_loop_oracle(p: Problem) -> None:
    out = ar.scaled_dot_product_attention(
        p.q, p.k, p.v, p.mask, is_causal=p.is_causal, scale=p.scale
    )
    weights = ar.attention_weights(p.q, p.k, p.mask, is_causal=p.is_causal, scale=p.scale)
    assert weights.dtype == np.result_type(
        *(x if x.dtype.kind == "f" else np.float64 for x in (p.q, p.k))
    )
    assert_matches_oracle(p, out, weights)


@settings(max_examples=400, deadline=None)
@given(problems(), st.sampled_from([None, 1, 7, 20]), st.sampled_from([1, 3]))
def test_the_fast_path_matches_the_plain_loop_oracle(
    p: Problem, block: int | None, n_threads: int
) -> None:
    # The fast path works through the queries a block at a time; small blocks (a few
    # scores each) make these small problems cross block boundaries too, and with
    # several threads the blocks are computed in parallel.
    blas = FakeBlas(n_threads)
    out = fast(
        p.q, p.k, p.v, p.mask, is_causal=p.is_causal, scale=p.scale,
        block_scores=block or _fast.BLOCK_SCORES, blas=blas,
    )  # fmt: skip
    weights = ar.attention_weights(p.q, p.k, p.mask, is_causal=p.is_causal, scale=p.scale)
    assert_matches_oracle(p, out, weights)
    assert blas.limits == ([1] if n_threads > 1 else [])  # shared out when BLAS has threads


def test_the_size_test_chooses_the_path() -> None:
    # The first call is below the fast path's size (4 x 64 x 64 scores < 2**15), the
    # second at it: both agree with the plain-loop oracle's worked value.
    rng = np.random.default_rng(7)
    for n in (64, 128):
        q, k, v = (rng.standard_normal((4, n, 8)) for _ in range(3))
        assert (4 * n * n >= _fast.MIN_SCORES) == (n == 128)
        np.testing.assert_allclose(
            ar.scaled_dot_product_attention(q, k, v), fast(q, k, v), rtol=1e-12, atol=1e-13
        )
        expected, _ = oracle_batched(q[:1, :3], k[:1], v[:1], None, False, None)
        np.testing.assert_allclose(
            ar.scaled_dot_product_attention(q, k, v)[:1, :3], expected, rtol=1e-12, atol=1e-13
        )


def oracle_scores(p: Problem) -> npt.NDArray[np.float64]:
    """|scale · q·k| for every pair, from the oracle's dot product (for tolerances only)."""
    d_k = p.k.shape[-1]
    factor = 1.0 / math.sqrt(d_k) if p.scale is None else p.scale
    q = p.q.astype(float).reshape(-1, d_k)
    k = p.k.astype(float).reshape(-1, d_k)
    return np.array([[factor * oracle.dot(a, b) for b in k.tolist()] for a in q.tolist()])


@settings(max_examples=200, deadline=None)
@given(problems(dtypes=("f8",), masks=("none",)))
def test_steps_compose_to_the_weights(p: Problem) -> None:
    """scores -> scale_scores -> softmax gives attention_weights."""
    d_k = p.q.shape[-1]
    s = ar.scores(p.q, p.k)
    scaled = ar.scale_scores(s, d_k) if p.scale is None else ar.scale_scores(s, scale=p.scale)
    np.testing.assert_allclose(ar.scaled_scores(p.q, p.k, scale=p.scale), scaled, rtol=1e-13)
    np.testing.assert_allclose(
        ar.softmax(scaled), ar.attention_weights(p.q, p.k, scale=p.scale), rtol=1e-12, atol=1e-14
    )


# --- a hand-worked example, and the lesson's worked example --------------------------------

# Worked by hand (not the lesson's example): scores 2, 0, 2 over sqrt(2), so the weights
# are e^√2, 1, e^√2 over 1 + 2e^√2.
HAND_Q = [2, 0]
HAND_K = [[1, 0], [0, 1], [1, 1]]
HAND_V = [[1, 0], [0, 1], [1, 1]]
ROOT2 = math.sqrt(2)
HAND_Z = 1 + 2 * math.exp(ROOT2)
HAND_W = [math.exp(ROOT2) / HAND_Z, 1 / HAND_Z, math.exp(ROOT2) / HAND_Z]

# The lesson's worked example, from its one source (snippets/worked_example.py).
LESSON = read()
Q, K, V = LESSON.q, LESSON.keys, LESSON.values


def test_hand_worked_example_step_by_step() -> None:
    # Step 1: q·k_j = 2, 0, 2.  Step 2: divide by sqrt(2).
    assert ar.scores(HAND_Q, HAND_K).tolist() == [2.0, 0.0, 2.0]
    assert ar.scale_scores([2.0, 0.0, 2.0], d_k=2).tolist() == pytest.approx(
        [ROOT2, 0.0, ROOT2], rel=1e-15
    )
    # Step 3: softmax, worked out with math.exp.
    assert ar.attention_weights(HAND_Q, HAND_K).tolist() == pytest.approx(HAND_W, rel=1e-15)
    # Step 4: the weighted sum of the values: v_1 + v_3 weigh the same, v_2 the rest.
    got = ar.scaled_dot_product_attention(HAND_Q, HAND_K, HAND_V)
    assert got.shape == (2,)
    out = [2 * math.exp(ROOT2) / HAND_Z, (1 + math.exp(ROOT2)) / HAND_Z]
    assert got.tolist() == pytest.approx(out, rel=1e-15)


def test_worked_example_step_by_step() -> None:
    """The lesson's example against the formula written out in plain Python."""
    d_k = len(Q)
    s = [sum(a * b for a, b in zip(Q, k, strict=True)) for k in K]  # step 1: q·k_j
    assert ar.scores(Q, K).tolist() == pytest.approx(s, rel=1e-15)
    scaled = [x / math.sqrt(d_k) for x in s]  # step 2
    assert ar.scale_scores(s, d_k=d_k).tolist() == pytest.approx(scaled, rel=1e-15)
    assert ar.scaled_scores(Q, K).tolist() == pytest.approx(scaled, rel=1e-15)
    e = [math.exp(x) for x in scaled]  # step 3: softmax, with math.exp
    w = [x / sum(e) for x in e]
    assert ar.attention_weights(Q, K).tolist() == pytest.approx(w, rel=1e-14)
    # Step 4: the weighted sum of the values.
    out = [sum(wj * v[i] for wj, v in zip(w, V, strict=True)) for i in range(len(V[0]))]
    got = ar.scaled_dot_product_attention(Q, K, V)
    assert got.shape == (len(V[0]),)
    assert got.tolist() == pytest.approx(out, rel=1e-14)


def test_worked_example_as_a_batch_of_one_query() -> None:
    got = ar.scaled_dot_product_attention([Q], K, V)
    assert got.shape == (1, 2)
    np.testing.assert_allclose(got[0], ar.scaled_dot_product_attention(Q, K, V), rtol=1e-15)


# --- softmax -----------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(-1e4, 1e4), min_size=1, max_size=12),
    st.floats(-1e3, 1e3),
)
def test_softmax_matches_oracle_sums_to_one_and_is_shift_invariant(
    logits: list[float], shift: float
) -> None:
    p = ar.softmax(logits)
    assert np.all(p >= 0)
    assert math.isclose(float(p.sum()), 1.0, rel_tol=1e-12)
    np.testing.assert_allclose(p, oracle_softmax(logits), rtol=1e-12, atol=1e-300)
    shifted = ar.softmax(np.asarray(logits) + shift)
    # exp(x - max) only changes by the rounding of x + shift, relative to |x| + |shift|.
    np.testing.assert_allclose(shifted, p, atol=1e-9 * (1e4 + abs(shift)))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_softmax_huge_logits_do_not_overflow(dtype: type[np.floating[Any]]) -> None:
    with np.errstate(
        over="raise", invalid="raise", divide="raise"
    ):  # any overflow or invalid operation would raise here
        p = ar.softmax(np.array([1e4, -1e4, 0.0, 1e4], dtype=dtype))
    assert p.dtype == dtype
    assert p.tolist() == [0.5, 0.0, 0.0, 0.5]
    assert ar.softmax(np.full(3, -1e4, dtype=dtype)).tolist() == pytest.approx(
        [1 / 3] * 3, rel=1e-3
    )


def test_softmax_minus_inf_gets_exactly_zero_and_other_axes() -> None:
    p = ar.softmax([[0.0, -math.inf, math.log(3.0)], [-math.inf, 2.0, -math.inf]])
    assert p[0, 1] == 0.0
    assert p[1].tolist() == [0.0, 1.0, 0.0]
    assert p[0].tolist() == pytest.approx([0.25, 0.0, 0.75], rel=1e-15)
    cols = ar.softmax([[0.0, 1.0], [0.0, 1.0]], axis=0)
    assert cols.tolist() == [[0.5, 0.5], [0.5, 0.5]]


def test_softmax_of_an_all_minus_inf_row_is_all_zeros() -> None:
    p = ar.softmax([[-math.inf, -math.inf], [0.0, 0.0]])
    assert p.tolist() == [[0.0, 0.0], [0.5, 0.5]]


def test_softmax_does_not_modify_its_input() -> None:
    x = np.array([3.0, 1.0, 2.0], dtype=np.float32)
    ar.softmax(x)
    assert x.tolist() == [3.0, 1.0, 2.0]


# --- properties of attention -------------------------------------------------------------


def _random(shape: tuple[int, ...], seed: int) -> npt.NDArray[np.float64]:
    return np.random.default_rng(seed).standard_normal(shape)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 5), st.integers(1, 8))
def test_rows_of_weights_sum_to_one(seed: int, n_q: int, n_k: int) -> None:
    q, k = _random((2, n_q, 4), seed), _random((2, n_k, 4), seed + 1) * 5
    w = ar.attention_weights(q, k)
    assert np.all(w >= 0)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=1e-13)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 8), st.randoms(use_true_random=False))
def test_permuting_keys_and_values_together_changes_nothing(seed: int, n_k: int, r: Any) -> None:
    q, k, v = _random((3, 4), seed), _random((n_k, 4), seed + 1), _random((n_k, 2), seed + 2)
    perm = list(range(n_k))
    r.shuffle(perm)
    out = ar.scaled_dot_product_attention(q, k, v)
    # The permutation reorders the sum over keys. An output near 0 is a sum of terms of
    # about 1 that cancel, and the new order moves it by a few ulps of those terms, not of
    # the result (8 terms of |v| < 4: under 8 ulps of 4, 1e-14). A relative tolerance alone
    # failed at -1.3e-5 (off by 2.8e-17, seed 111860).
    np.testing.assert_allclose(
        ar.scaled_dot_product_attention(q, k[perm], v[perm]), out, rtol=1e-12, atol=1e-14
    )
    w = ar.attention_weights(q, k)
    np.testing.assert_allclose(ar.attention_weights(q, k[perm]), w[:, perm], rtol=1e-12)


@pytest.mark.parametrize("use_float_mask", [False, True])
def test_a_masked_out_key_has_no_effect(use_float_mask: bool) -> None:
    q, k, v = _random((3, 4), 1), _random((5, 4), 2), _random((5, 2), 3)
    keep = np.array([True, True, False, True, True])
    mask = np.where(keep, 0.0, -np.inf) if use_float_mask else keep
    out = ar.scaled_dot_product_attention(q, k, v, mask)
    # The same as attention over the other keys only ...
    np.testing.assert_allclose(
        out, ar.scaled_dot_product_attention(q, k[keep], v[keep]), rtol=1e-13
    )
    # ... and whatever the masked key and its value hold.
    k2, v2 = k.copy(), v.copy()
    k2[2], v2[2] = 1e3, -1e3
    np.testing.assert_allclose(ar.scaled_dot_product_attention(q, k2, v2, mask), out, rtol=1e-14)
    assert ar.attention_weights(q, k, mask)[:, 2].tolist() == [0.0, 0.0, 0.0]


def test_float_mask_is_added_to_the_scaled_scores() -> None:
    q, k, v = _random((2, 3), 4), _random((4, 3), 5), _random((4, 2), 6)
    bias = _random((2, 4), 7)
    logits = (q @ k.T) * 0.7 + bias
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(ar.attention_weights(q, k, bias, scale=0.7), w, rtol=1e-13)
    np.testing.assert_allclose(
        ar.scaled_dot_product_attention(q, k, v, bias, scale=0.7), w @ v, rtol=1e-12
    )


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("size", [0.5, 3.0, 8.0])
def test_a_constant_added_to_the_scores_changes_nothing(
    dtype: type[np.floating[Any]], size: float
) -> None:
    """Shift invariance, through a constant float mask; large constants force the max shift."""
    q, k = (
        (size * _random((2, 5, 8), 7)).astype(dtype),
        (size * _random((2, 7, 8), 8)).astype(dtype),
    )
    v = _random((2, 7, 3), 9).astype(dtype)
    w = ar.attention_weights(q, k)
    out = ar.scaled_dot_product_attention(q, k, v)
    _, expected_w = oracle_batched(q, k, v, None, False, None)
    tol = TOLERANCE[dtype] * size * size * 8
    np.testing.assert_allclose(w, expected_w, rtol=tol, atol=tol)
    for constant in (-1000.0, -50.0, 30.0, 500.0):
        mask = np.full((5, 7), constant)
        np.testing.assert_allclose(ar.attention_weights(q, k, mask), w, rtol=tol, atol=tol)
        np.testing.assert_allclose(
            ar.scaled_dot_product_attention(q, k, v, mask), out, rtol=tol, atol=tol
        )


def test_a_large_uniform_score_offset_does_not_overflow() -> None:
    # Keys parallel to the query with huge dot products: softmax must subtract the maximum.
    q = np.array([[100.0, 100.0]])
    k = np.array([[100.0, 100.0], [99.0, 99.0]])
    v = np.array([[1.0], [0.0]])
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        w = ar.attention_weights(q, k, scale=1.0)  # scores 20000 and 19800
    assert w[0].tolist() == pytest.approx([1.0, math.exp(-200.0)], rel=1e-12)
    assert ar.scaled_dot_product_attention(q, k, v, scale=1.0).tolist() == [[1.0]]


def test_inputs_are_not_modified() -> None:
    q, k, v = (_random((2, 3, 4), s).astype(np.float32) for s in (1, 2, 3))
    mask = np.array([[True, False, True]] * 3)
    copies = [a.copy() for a in (q, k, v, mask)]
    ar.scaled_dot_product_attention(q, k, v, mask)
    ar.attention_weights(q, k, mask)
    ar.softmax(q)
    ar.scale_scores(q, 4)
    for a, b in zip((q, k, v, mask), copies, strict=True):
        assert np.array_equal(a, b)


def test_non_contiguous_inputs() -> None:
    q, k, v = _random((4, 3), 1), _random((4, 5), 2), _random((2, 5), 3)
    out = ar.scaled_dot_product_attention(q.T, k.T, v.T)  # transposed views
    expected, _ = oracle_batched(q.T.copy(), k.T.copy(), v.T.copy(), None, False, None)
    np.testing.assert_allclose(out, expected, rtol=1e-12)


# --- masks -------------------------------------------------------------------------------


def test_causal_mask_values() -> None:
    assert ar.causal_mask(3).tolist() == [
        [True, False, False],
        [True, True, False],
        [True, True, True],
    ]
    # Top-left aligned when n_q != n_k, as torch's is_causal.
    assert ar.causal_mask(2, 4).tolist() == [
        [True, False, False, False],
        [True, True, False, False],
    ]
    assert ar.causal_mask(3, 2).tolist() == [[True, False], [True, True], [True, True]]
    assert ar.causal_mask(0).shape == (0, 0)
    assert ar.causal_mask(3).dtype == np.bool_


def test_is_causal_equals_the_causal_mask_and_each_query_ignores_later_keys() -> None:
    q, k, v = _random((2, 5, 3), 1), _random((2, 5, 3), 2), _random((2, 5, 2), 3)
    out = ar.scaled_dot_product_attention(q, k, v, is_causal=True)
    assert out.tolist() == ar.scaled_dot_product_attention(q, k, v, ar.causal_mask(5)).tolist()
    for i in range(5):  # query i only sees keys 0..i
        np.testing.assert_allclose(
            out[:, i : i + 1],
            ar.scaled_dot_product_attention(q[:, i : i + 1], k[:, : i + 1], v[:, : i + 1]),
            rtol=1e-12,
        )


def test_masks_broadcast_over_leading_dimensions() -> None:
    q, k, v = _random((2, 3, 4, 5), 1), _random((2, 3, 6, 5), 2), _random((2, 3, 6, 2), 3)
    mask = np.random.default_rng(4).random((4, 6)) < 0.6
    mask[:, 0] = True
    full = np.broadcast_to(mask, (2, 3, 4, 6))
    expected = ar.scaled_dot_product_attention(q, k, v, full)
    for m in (
        mask,
        mask[np.newaxis],
        mask[np.newaxis, np.newaxis],
        np.broadcast_to(mask, (3, 4, 6)),
    ):
        np.testing.assert_array_equal(ar.scaled_dot_product_attention(q, k, v, m), expected)
    one_per_head = np.random.default_rng(5).random((3, 1, 6)) < 0.5
    one_per_head[..., 1] = True
    got = ar.scaled_dot_product_attention(q, k, v, one_per_head)
    for h in range(3):
        np.testing.assert_allclose(
            got[:, h],
            ar.scaled_dot_product_attention(q[:, h], k[:, h], v[:, h], one_per_head[h]),
            rtol=1e-13,
        )


@pytest.mark.parametrize("kind", ["bool", "float"])
def test_a_fully_masked_query_gets_zero_weights_and_a_zero_output(kind: str) -> None:
    q, k, v = _random((2, 3, 4), 1), _random((2, 5, 4), 2), _random((2, 5, 3), 3)
    mask = np.ones((3, 5), dtype=bool)
    mask[1] = False  # query 1 may attend to nothing
    m = mask if kind == "bool" else np.where(mask, 0.0, -np.inf)
    with np.errstate(over="raise", invalid="raise", divide="raise"):  # no 0/0 anywhere
        out = ar.scaled_dot_product_attention(q, k, v, m)
        w = ar.attention_weights(q, k, m)
    assert not np.isnan(out).any()
    assert out[:, 1].tolist() == [[0.0] * 3] * 2
    assert w[:, 1].tolist() == [[0.0] * 5] * 2
    np.testing.assert_allclose(w[:, [0, 2]].sum(axis=-1), 1.0, rtol=1e-13)
    np.testing.assert_allclose(
        out[:, :1], ar.scaled_dot_product_attention(q[:, :1], k, v), rtol=1e-13
    )


def test_a_fully_masked_single_query() -> None:
    out = ar.scaled_dot_product_attention(HAND_Q, HAND_K, HAND_V, mask=[False, False, False])
    assert out.tolist() == [0.0, 0.0]
    assert ar.attention_weights(HAND_Q, HAND_K, mask=[False] * 3).tolist() == [0.0, 0.0, 0.0]


# --- dtypes ------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_float_dtypes_are_preserved(dtype: type[np.floating[Any]]) -> None:
    q, k, v = (np.asarray(x, dtype=dtype) for x in (HAND_Q, HAND_K, HAND_V))
    assert ar.scores(q, k).dtype == dtype
    assert ar.scale_scores(ar.scores(q, k), 2).dtype == dtype
    assert ar.scaled_scores(q, k).dtype == dtype
    assert ar.softmax(q).dtype == dtype
    assert ar.attention_weights(q, k).dtype == dtype
    assert (
        ar.attention_weights(q, k, mask=np.zeros(3)).dtype == dtype
    )  # a float64 mask does not promote
    out = ar.scaled_dot_product_attention(q, k, v)
    assert out.dtype == dtype
    by_hand = [2 * math.exp(ROOT2) / HAND_Z, (1 + math.exp(ROOT2)) / HAND_Z]
    assert out.tolist() == pytest.approx(by_hand, rel=2e-3 if dtype == np.float16 else 1e-6)
    assert ar.entropy(ar.softmax(q)).dtype == dtype
    assert ar.softmax_jacobian(ar.softmax(q)).dtype == dtype


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint8, np.bool_])
def test_integer_and_boolean_inputs_become_float64(dtype: type[np.generic]) -> None:
    q, k, v = (np.asarray(x).astype(dtype) for x in (HAND_Q, HAND_K, HAND_V))
    for result in (
        ar.scores(q, k),
        ar.scaled_scores(q, k),
        ar.scale_scores(ar.scores(q, k).astype(dtype), 2),
        ar.softmax(q),
        ar.attention_weights(q, k),
        ar.scaled_dot_product_attention(q, k, v),
        ar.entropy(v),
    ):
        assert result.dtype == np.float64


def test_mixed_dtypes_follow_numpy_promotion() -> None:
    q32 = np.asarray(HAND_Q, dtype=np.float32)
    k32 = np.asarray(HAND_K, np.float32)
    assert ar.scaled_dot_product_attention(q32, k32, HAND_V).dtype == np.float64
    assert ar.attention_weights(q32, np.asarray(HAND_K, np.float16)).dtype == np.float32


# --- entropy and the softmax Jacobian ----------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-30, 30), min_size=1, max_size=10))
def test_entropy_matches_oracle(logits: list[float]) -> None:
    p = ar.softmax(logits)
    assert float(ar.entropy(p)) == pytest.approx(oracle_entropy(p.tolist()), rel=1e-12, abs=1e-15)


def test_entropy_values() -> None:
    assert float(ar.entropy([0.25] * 4)) == pytest.approx(math.log(4), rel=1e-15)
    assert float(ar.entropy([1.0, 0.0, 0.0])) == 0.0
    h = ar.entropy(np.array([[0.5, 0.5], [0.1, 0.9]]))
    assert h.tolist() == pytest.approx([math.log(2), -(0.1 * math.log(0.1) + 0.9 * math.log(0.9))])
    assert ar.entropy([[0.5, 0.1], [0.5, 0.9]], axis=0).tolist() == pytest.approx(h.tolist())


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-5, 5), min_size=1, max_size=6))
def test_softmax_jacobian_matches_finite_differences(logits: list[float]) -> None:
    jac = ar.softmax_jacobian(ar.softmax(logits))
    h = 1e-6
    for j in range(len(logits)):
        up = [x + h if i == j else x for i, x in enumerate(logits)]
        down = [x - h if i == j else x for i, x in enumerate(logits)]
        column = [
            (a - b) / (2 * h) for a, b in zip(oracle_softmax(up), oracle_softmax(down), strict=True)
        ]
        np.testing.assert_allclose(jac[:, j], column, atol=1e-8)
    np.testing.assert_allclose(jac.sum(axis=1), 0.0, atol=1e-15)


def test_softmax_jacobian_batched_and_saturated() -> None:
    jac = ar.softmax_jacobian([[0.5, 0.5], [1.0, 0.0]])
    assert jac.shape == (2, 2, 2)
    assert jac.tolist() == [[[0.25, -0.25], [-0.25, 0.25]], [[0.0, 0.0], [0.0, 0.0]]]


# --- scaling -----------------------------------------------------------------------------


def test_scale_defaults_to_one_over_sqrt_dk() -> None:
    q, k = _random((3, 16), 1), _random((5, 16), 2)
    np.testing.assert_allclose(ar.scaled_scores(q, k), (q @ k.T) / 4.0, rtol=1e-14)
    np.testing.assert_allclose(
        ar.attention_weights(q, k), ar.attention_weights(q, k, scale=0.25), rtol=1e-14
    )
    np.testing.assert_allclose(ar.scaled_scores(q, k, scale=2.0), (q @ k.T) * 2.0, rtol=1e-14)
    assert ar.scale_scores([-math.inf, 2.0], d_k=4).tolist() == [-math.inf, 1.0]


def test_empty_query_set_and_empty_values() -> None:
    k, v = _random((3, 4), 1), _random((3, 2), 2)
    assert ar.scaled_dot_product_attention(np.ones((0, 4)), k, v).shape == (0, 2)
    assert ar.attention_weights(np.ones((2, 0, 4)), k).shape == (2, 0, 3)
    assert ar.scaled_dot_product_attention(np.ones((2, 4)), k, np.ones((3, 0))).shape == (2, 0)


def test_the_oracle_itself_on_the_hand_worked_example() -> None:
    """The oracle is only a good judge if it gets the hand-worked numbers too."""
    w = HAND_W
    out = oracle.scaled_dot_product_attention(HAND_Q, HAND_K, HAND_V)
    assert out == pytest.approx([w[0] + w[2], w[1] + w[2]], rel=1e-15)
    assert oracle.attention_weights(HAND_Q, HAND_K) == pytest.approx(w, rel=1e-15)
    # Hiding k_2 leaves two equal scores: half each.
    for row in oracle.attention_weights([HAND_Q, HAND_Q], HAND_K, [[True, False, True]]):
        assert row == pytest.approx([0.5, 0.0, 0.5], rel=1e-15)


# --- blocks shared out over threads ------------------------------------------------------


def _large(seed: int) -> tuple[npt.NDArray[np.float32], ...]:
    """q, k, v of 4 heads whose 4 x 256 x 512 scores are enough to be shared out."""
    rng = np.random.default_rng(seed)
    shapes = [(4, 256, 8), (4, 512, 8), (4, 512, 3)]
    return tuple(rng.standard_normal(s).astype(np.float32) for s in shapes)


def test_threads_compute_the_same_result_as_one_thread() -> None:
    q, k, v = _large(0)
    mask = np.random.default_rng(1).random((256, 512)) < 0.5
    mask[3] = False  # a fully masked query
    one, three = FakeBlas(1), FakeBlas(3)
    expected = fast(q, k, v, mask, blas=one)
    expected_causal = fast(q, k, v, is_causal=True, blas=one)
    # 10 rows a block: 4 heads x 26 blocks, on 3 threads
    out = fast(q, k, v, mask, block_scores=3 * 512 * 10, blas=three)
    causal = fast(q, k, v, is_causal=True, block_scores=3 * 512 * 10, blas=three)
    assert one.limits == []
    assert three.limits == [1, 1]  # BLAS at one thread while the blocks are shared out
    assert three.lib.num_threads == 3  # and as before afterwards
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(causal, expected_causal, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        out, ar.scaled_dot_product_attention(q, k, v, mask), rtol=1e-5, atol=1e-6
    )
    assert out[:, 3].tolist() == [[0.0] * 3] * 4


def test_blas_that_cannot_be_limited_is_left_alone() -> None:
    q, k, v = _large(3)
    expected = fast(q, k, v, blas=FakeBlas(2))
    blas = FakeBlas(2, stuck=True)
    out = fast(q, k, v, blas=blas)
    assert blas.limits == [1]  # tried, then ran on one thread
    assert blas.lib.num_threads == 2
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


def test_an_error_in_a_thread_is_raised_to_the_caller() -> None:
    big = np.full((6, 4), 3e38, dtype=np.float32)  # finite, but q·k overflows float32
    ones = np.ones((6, 2), dtype=np.float32)
    blas = FakeBlas(2)
    with pytest.raises(FloatingPointError, match="overflowed"):
        fast(big, big, ones, scale=1.0, blas=blas)
    assert blas.limits == [1]  # it ran in the threads
    with pytest.raises(FloatingPointError, match="overflowed"):  # and the plain path says so too
        ar.scaled_dot_product_attention(big, big, ones, scale=1.0)


def test_the_callers_errstate_holds_in_the_threads() -> None:
    # Scores of +900 and -900: the shifted exp(-1800) underflows to 0, which numpy
    # ignores by default and raises under errstate(under="raise"), in every thread.
    q = np.array([[30.0, 0.0]] * 4)
    k = np.array([[30.0, 0.0], [-30.0, 0.0]])
    v = np.array([[1.0], [0.0]])
    assert fast(q, k, v, scale=1.0, blas=FakeBlas(2))[:, 0].tolist() == [1.0] * 4
    blas = FakeBlas(2)
    with np.errstate(under="raise"), pytest.raises(FloatingPointError, match="underflow"):
        fast(q, k, v, scale=1.0, blas=blas)
    assert blas.limits == [1]


def test_real_blas_threads_are_restored_even_by_concurrent_callers() -> None:
    blas = _fast.blas_controller()
    if blas is None:
        pytest.skip("threadpoolctl finds no BLAS in this numpy")
    q, k, v = _large(2)
    with blas.limit(limits=1):
        expected = ar.scaled_dot_product_attention(q, k, v)
    results: list[npt.NDArray[Any]] = []

    def call() -> None:
        results.append(ar.scaled_dot_product_attention(q, k, v))

    with blas.limit(limits=2):
        call()  # from the thread that set the limit: shared out over 2 threads
        assert _fast.blas_threads(blas) == 2
        callers = [threading.Thread(target=call) for _ in range(3)]
        for caller in callers:
            caller.start()
        for caller in callers:
            caller.join()
        assert _fast.blas_threads(blas) == 2
    assert len(results) == 4
    for out in results:
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
