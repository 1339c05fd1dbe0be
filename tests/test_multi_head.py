"""multi_head_attention, split_heads and merge_heads against hand-worked values and plain loops."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_ref as ar
from testbed import oracle
from testbed.mha_cases import MhaCase, mha_cases

Array = npt.NDArray[Any]


def weights(rng: np.random.Generator, d_model: int) -> tuple[Array, Array, Array, Array]:
    """Four (d_model, d_model) projections, scaled like a trained layer's (1/sqrt(d))."""
    w_q, w_k, w_v, w_o = rng.standard_normal((4, d_model, d_model)) / math.sqrt(d_model)
    return w_q, w_k, w_v, w_o


def lists(w: tuple[Array, Array, Array, Array]) -> tuple[Any, Any, Any, Any]:
    """The four projections as nested lists, for the oracle."""
    return w[0].tolist(), w[1].tolist(), w[2].tolist(), w[3].tolist()


# --- split_heads and merge_heads -------------------------------------------------------


def test_split_heads_takes_consecutive_blocks_of_columns() -> None:
    x = [[0, 1, 2, 3, 4, 5], [10, 11, 12, 13, 14, 15]]  # 2 tokens, d_model = 6
    assert ar.split_heads(x, 3).tolist() == [
        [[0, 1], [10, 11]],
        [[2, 3], [12, 13]],
        [[4, 5], [14, 15]],
    ]
    assert ar.split_heads(x, 2).tolist() == [[[0, 1, 2], [10, 11, 12]], [[3, 4, 5], [13, 14, 15]]]
    assert ar.split_heads(x, 1).tolist() == [x]


def test_split_heads_keeps_leading_dimensions() -> None:
    x = np.arange(2 * 3 * 5 * 8, dtype=np.float32).reshape(2, 3, 5, 8)  # (b1, b2, n, d)
    heads = ar.split_heads(x, 4)
    assert heads.shape == (2, 3, 4, 5, 2)
    assert heads.dtype == np.float32
    assert heads[1, 2, 3, 4].tolist() == x[1, 2, 4, 6:8].tolist()  # head 3 = columns 6-7


@settings(max_examples=60, deadline=None)
@given(
    lead=st.lists(st.integers(1, 3), max_size=2).map(tuple),
    n=st.integers(1, 5),
    heads=st.integers(1, 4),
    d_head=st.integers(1, 4),
)
def test_merge_heads_undoes_split_heads(
    lead: tuple[int, ...], n: int, heads: int, d_head: int
) -> None:
    x = np.random.default_rng(n).standard_normal((*lead, n, heads * d_head))
    assert np.array_equal(ar.merge_heads(ar.split_heads(x, heads)), x)
    h = np.random.default_rng(heads).standard_normal((*lead, heads, n, d_head))
    assert np.array_equal(ar.split_heads(ar.merge_heads(h), heads), h)


# --- hand-worked values ----------------------------------------------------------------


def test_two_heads_worked_by_hand() -> None:
    """Identity projections, two heads of width 1; w_o swaps the two columns.

    Head 0 sees column 0 of x = [[1, 0], [0, 1]]: token 0's query 1 scores the keys
    [1, 0] -> weights [e/(1+e), 1/(1+e)], output e/(1+e); token 1's query 0 gives
    0.5 each, output 0.5. Head 1 is the mirror image. w_o then swaps the columns.
    """
    e = math.e / (1 + math.e)
    eye = np.eye(2)
    swap = np.array([[0.0, 1.0], [1.0, 0.0]])
    out, w = ar.multi_head_attention(
        [[1, 0], [0, 1]], eye, eye, eye, swap, num_heads=2, return_weights=True
    )
    np.testing.assert_allclose(out, [[0.5, e], [e, 0.5]], rtol=1e-15)
    np.testing.assert_allclose(w, [[[e, 1 - e], [0.5, 0.5]], [[0.5, 0.5], [1 - e, e]]], rtol=1e-15)


def test_heads_are_scaled_by_their_own_width() -> None:
    """d_model = 4 in one head of 4 vs two heads of 2: the scale is 1/2 vs 1/sqrt(2).

    x has one token pair; q = k = x. Token 0 = [1, 1, 1, 1] against itself scores 4,
    against token 1 = 0 scores 0. One head: weights [e^2, 1]/(e^2 + 1).
    Two heads: each scores 2 / sqrt(2) = sqrt(2): weights [e^sqrt2, 1]/(e^sqrt2 + 1).
    """
    eye = np.eye(4)
    x = [[1, 1, 1, 1], [0, 0, 0, 0]]
    _, one = ar.multi_head_attention(x, eye, eye, eye, eye, num_heads=1, return_weights=True)
    _, two = ar.multi_head_attention(x, eye, eye, eye, eye, num_heads=2, return_weights=True)
    assert one[0, 0, 0] == pytest.approx(math.exp(2) / (math.exp(2) + 1), rel=1e-14)
    r = math.exp(math.sqrt(2))
    assert two[:, 0, 0].tolist() == pytest.approx([r / (r + 1)] * 2, rel=1e-14)


def test_fully_masked_query_gets_zeros() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 4))
    mask = np.ones((3, 3), dtype=bool)
    mask[1] = False
    out, w = ar.multi_head_attention(
        x, *weights(rng, 4), num_heads=2, mask=mask, return_weights=True
    )
    assert out[1].tolist() == [0.0] * 4
    assert w[:, 1].tolist() == [[0.0] * 3] * 2
    assert np.isfinite(out).all()


# --- against the plain-loop oracle ----------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(case=mha_cases(max_tokens=5, heads=(1, 2, 3), max_d_head=3, keep=0.7))
def test_agrees_with_plain_loops(case: MhaCase) -> None:
    mask = case.mask.tolist() if case.mask is not None else None
    theirs, theirs_w = oracle.multi_head_attention(
        case.x.tolist(),
        *lists(case.w),
        num_heads=case.heads,
        context=None if case.context is None else case.context.tolist(),
        mask=mask if case.kind == "mask" else None,
        head_masks=mask if case.kind == "head_masks" else None,
        is_causal=case.is_causal,
    )
    ours, ours_w, without = case.ours()
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ours_w, theirs_w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(without, theirs, rtol=1e-10, atol=1e-12)


def test_batches_and_mask_layouts() -> None:
    """(b, n, d) with masks (n, m), (b, n, m) and (b, h, n, m): each item as on its own."""
    rng = np.random.default_rng(7)
    b, n, heads, d = 3, 4, 2, 6
    x = rng.standard_normal((b, n, d))
    w = weights(rng, d)
    per_item = rng.random((b, n, n)) < 0.6
    per_head = rng.random((b, heads, n, n)) < 0.6
    shared = rng.random((n, n)) < 0.6
    for mask in (shared, per_item, per_head):
        out, att = ar.multi_head_attention(x, *w, num_heads=heads, mask=mask, return_weights=True)
        assert out.shape == (b, n, d) and att.shape == (b, heads, n, n)
        for i in range(b):
            item_mask = np.broadcast_to(
                mask, (b, *mask.shape[-3:]) if mask.ndim == 4 else (b, n, n)
            )[i]
            kwargs: dict[str, Any] = (
                {"head_masks": item_mask.tolist()}
                if mask.ndim == 4
                else {"mask": item_mask.tolist()}
            )
            theirs, theirs_w = oracle.multi_head_attention(
                x[i].tolist(), *lists(w), num_heads=heads, **kwargs
            )
            np.testing.assert_allclose(out[i], theirs, rtol=1e-10, atol=1e-12)
            np.testing.assert_allclose(att[i], theirs_w, rtol=1e-10, atol=1e-12)


def test_float32_stays_float32() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    w32 = [a.astype(np.float32) for a in weights(rng, 8)]
    w = (w32[0], w32[1], w32[2], w32[3])
    out, att = ar.multi_head_attention(x, *w, num_heads=4, return_weights=True)
    assert out.dtype == np.float32 and att.dtype == np.float32
    theirs, _ = oracle.multi_head_attention(x.tolist(), *lists(w), num_heads=4)
    np.testing.assert_allclose(out, theirs, rtol=2e-5, atol=2e-6)


# --- properties ------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 7),
    heads=st.sampled_from([1, 2, 4]),
    cross=st.booleans(),
)
def test_permuting_tokens_permutes_outputs(seed: int, n: int, heads: int, cross: bool) -> None:
    """Self-attention is permutation-equivariant; cross-attention ignores the context's order."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 8))
    w = weights(rng, 8)
    perm = rng.permutation(n)
    if cross:
        context = rng.standard_normal((n + 1, 8))
        shuffled = context[rng.permutation(n + 1)]
        np.testing.assert_allclose(
            ar.multi_head_attention(x[perm], *w, num_heads=heads, context=shuffled),
            ar.multi_head_attention(x, *w, num_heads=heads, context=context)[perm],
            rtol=1e-10,
            atol=1e-12,
        )
    else:
        np.testing.assert_allclose(
            ar.multi_head_attention(x[perm], *w, num_heads=heads),
            ar.multi_head_attention(x, *w, num_heads=heads)[perm],
            rtol=1e-10,
            atol=1e-12,
        )


def test_causal_is_not_permutation_equivariant() -> None:
    """The mask ties outputs to positions: the same check fails once the mask is causal."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((4, 4))
    w = weights(rng, 4)
    perm = np.array([3, 2, 1, 0])
    shuffled = ar.multi_head_attention(x[perm], *w, num_heads=2, is_causal=True)
    assert not np.allclose(
        shuffled, ar.multi_head_attention(x, *w, num_heads=2, is_causal=True)[perm]
    )


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1), n=st.integers(1, 6), d=st.integers(1, 6), causal=st.booleans()
)
def test_one_head_is_plain_attention_of_the_projections(
    seed: int, n: int, d: int, causal: bool
) -> None:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    w_q, w_k, w_v, w_o = weights(rng, d)
    plain = ar.scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v, is_causal=causal) @ w_o
    np.testing.assert_allclose(
        ar.multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads=1, is_causal=causal),
        plain,
        rtol=1e-12,
        atol=1e-14,
    )


# --- errors ----------------------------------------------------------------------------

X = np.zeros((3, 4))
NOT_AN_INT: Any = 2.0
W = np.eye(4)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (
            lambda: ar.multi_head_attention(X, W, W, W, W, num_heads=3),
            ValueError,
            r"num_heads must divide d_model = 4 .* got 3",
        ),
        (
            lambda: ar.multi_head_attention(X, W, W, W, W, num_heads=0),
            ValueError,
            r"num_heads must be >= 1, got 0",
        ),
        (
            lambda: ar.multi_head_attention(X, W, W, W, W, num_heads=NOT_AN_INT),
            TypeError,
            r"num_heads must be an integer",
        ),
        (
            lambda: ar.multi_head_attention(X, W, np.eye(3), W, W, num_heads=2),
            ValueError,
            r"w_k must have shape \(d_model, d_model\) = \(4, 4\), got \(3, 3\)",
        ),
        (
            lambda: ar.multi_head_attention(X, W, W, W, np.eye(4)[:2], num_heads=2),
            ValueError,
            r"w_o must have shape .* got \(2, 4\)",
        ),
        (
            lambda: ar.multi_head_attention(X, W, W, W, W, num_heads=2, context=np.zeros((5, 3))),
            ValueError,
            r"context must be as wide as x \(d_model = 4\)",
        ),
        (
            lambda: ar.multi_head_attention(X, W, W, W, W, num_heads=2, mask=np.ones((3, 4), bool)),
            ValueError,
            r"mask must have shape \(n, m\).* n = 3 queries and m = 3 keys, got \(3, 4\)",
        ),
        (
            lambda: ar.multi_head_attention(
                X, W, W, W, W, num_heads=2, mask=np.ones((3, 3, 3), bool)
            ),
            ValueError,
            r"mask of shape \(3, 3, 3\) does not broadcast to the weights' shape \(2, 3, 3\)",
        ),
        (
            lambda: ar.multi_head_attention(X, W, W, W, W, num_heads=2, mask=np.ones(3, bool)),
            ValueError,
            r"mask must have shape",
        ),
        (
            lambda: ar.multi_head_attention(X, W, W, W, W, num_heads=2, mask=np.ones((3, 3), int)),
            TypeError,
            r"mask must be boolean",
        ),
        (
            lambda: ar.multi_head_attention(np.zeros(4), W, W, W, W, num_heads=2),
            ValueError,
            r"x must have shape \(\.\.\., n, d_model\) \(at least 2-D\), got 1-D",
        ),
        (
            lambda: ar.multi_head_attention(np.full((3, 4), np.nan), W, W, W, W, num_heads=2),
            ValueError,
            r"x contains NaN",
        ),
        (
            lambda: ar.multi_head_attention(X, W, W, np.full((4, 4), np.inf), W, num_heads=2),
            ValueError,
            r"w_v contains an infinite value",
        ),
        (
            lambda: ar.multi_head_attention(X, W, W, W, W, num_heads=2, context=[[np.inf] * 4]),
            ValueError,
            r"context contains an infinite value",
        ),
        (
            lambda: ar.multi_head_attention([["a"] * 4], W, W, W, W, num_heads=2),
            TypeError,
            r"x must hold real numbers",
        ),
        (
            lambda: ar.multi_head_attention(
                np.zeros((2, 3, 4)), W, W, W, W, num_heads=2, context=np.zeros((3, 3, 4))
            ),
            ValueError,
            r"x and context do not broadcast",
        ),
        (
            lambda: ar.multi_head_attention(
                X, W, W, W, W, num_heads=2, mask=np.ones((3, 3), bool), is_causal=True
            ),
            ValueError,
            r"either mask or is_causal",
        ),
        (
            lambda: ar.multi_head_attention(
                np.full((3, 4), 1e200), W * 1e200, W, W, W, num_heads=2
            ),
            FloatingPointError,
            r"x @ w_q overflows float64",
        ),
        (
            lambda: ar.multi_head_attention(np.zeros((0, 4)), W, W, W, W, num_heads=2),
            ValueError,
            r"x holds no tokens \(shape \(0, 4\)\)",
        ),
        (
            lambda: ar.multi_head_attention(X, W, W, W, W, num_heads=2, context=np.zeros((0, 4))),
            ValueError,
            r"context holds no tokens",
        ),
        (
            lambda: ar.multi_head_attention(np.zeros((2, 0)), W, W, W, W, num_heads=1),
            ValueError,
            r"x has rows of width d_model = 0",
        ),
        (
            lambda: ar.split_heads(np.zeros(4), 2),
            ValueError,
            r"x must have shape \(\.\.\., n, d_model\)",
        ),
        (
            lambda: ar.merge_heads(np.zeros((3, 4))),
            ValueError,
            r"x must have shape \(\.\.\., num_heads, n, d_head\)",
        ),
    ],
)
def test_bad_input_names_the_argument(call: Any, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        call()
