"""Lesson 5's variants equal the plain formula: online softmax, tiled attention, grouped-query
attention, the sliding window, and the cache's size.

Each variant is checked against something that shares none of its code: the plain-loop
oracle (testbed.oracle), ``softmax`` and ``scaled_dot_product_attention`` computed over
whole arrays, a Python loop over heads, or a mask written from its definition.
"""

from __future__ import annotations

import math
import tracemalloc
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_ref as ar
from attention_ref import _fast
from testbed.oracle import softmax as oracle_softmax
from tests.test_attention_ref import Problem, assert_matches_oracle, problems

# --- online softmax ----------------------------------------------------------------------


@st.composite
def logit_arrays(draw: st.DrawFn) -> npt.NDArray[np.float64]:
    """2-D or 3-D logits, some -inf, sometimes a whole row of -inf, some of size 1e3."""
    shape = tuple(draw(st.lists(st.integers(1, 9), min_size=1, max_size=3)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = draw(st.sampled_from([1.0, 30.0, 1e3])) * rng.standard_normal(shape)
    x[rng.random(shape) < draw(st.sampled_from([0.0, 0.3, 1.0]))] = -np.inf
    return x


@settings(max_examples=100, deadline=None)
@given(logit_arrays(), st.integers(1, 12), st.data())
def test_online_softmax_equals_softmax(
    x: npt.NDArray[np.float64], block_size: int, data: st.DataObject
) -> None:
    # Block sizes 1 to 12 against rows of 1 to 9: some divide the row, some do not, some
    # exceed it. Each row is also checked against the plain-loop oracle's softmax, which
    # sums with math.fsum: the online version's rescaling costs a few ulps, hence 1e-13.
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    got = ar.online_softmax(x, axis=axis, block_size=block_size)
    np.testing.assert_allclose(got, ar.softmax(x, axis=axis), rtol=1e-13, atol=1e-300)
    rows = np.moveaxis(x, axis, -1).reshape(-1, x.shape[axis])
    want = np.array([oracle_softmax(r.tolist()) for r in rows])
    np.testing.assert_allclose(
        np.moveaxis(got, axis, -1).reshape(-1, x.shape[axis]), want, rtol=1e-13, atol=1e-300
    )


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_online_softmax_keeps_the_dtype_and_rows_of_minus_inf_give_zeros(
    dtype: type[np.floating[Any]],
) -> None:
    x = np.array([[1e4, -1e4, 0.0, 1e4, 3.0], [-np.inf] * 5, [0.0, -np.inf, 0, 0, 0]], dtype)
    with np.errstate(over="raise", invalid="raise", divide="raise"):  # no overflow, no 0/0
        p = ar.online_softmax(x, block_size=2)
    assert p.dtype == dtype
    assert p.tolist() == [[0.5, 0.0, 0.0, 0.5, 0.0], [0.0] * 5, [0.25, 0.0, 0.25, 0.25, 0.25]]


@pytest.mark.parametrize(
    ("block_size", "error", "message"),
    [
        (0, ValueError, "block_size must be >= 1, got 0"),
        (-3, ValueError, "block_size must be >= 1, got -3"),
        (1.5, TypeError, "block_size must be an integer, got float 1.5"),
        (True, TypeError, "block_size must be an integer, got bool True"),
        (None, TypeError, "block_size must be an integer, got NoneType None"),
    ],
)
def test_online_softmax_bad_block_size(
    block_size: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        ar.online_softmax([1.0, 2.0], block_size=block_size)


def test_online_softmax_bad_logits_and_axis() -> None:
    with pytest.raises(ValueError, match=r"x contains \+inf"):
        ar.online_softmax([1.0, np.inf], block_size=1)
    with pytest.raises(ValueError, match="x contains NaN"):
        ar.online_softmax([1.0, np.nan], block_size=1)
    with pytest.raises(ValueError, match=r"axis 2 is out of range for x with shape \(2, 3\)"):
        ar.online_softmax(np.zeros((2, 3)), axis=2, block_size=1)
    with pytest.raises(ValueError, match="at least one dimension"):
        ar.online_softmax(1.0, block_size=1)


# --- tiled attention ---------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(problems(), st.integers(1, 7), st.integers(1, 7))
def test_tiled_attention_matches_the_plain_loop_oracle(
    p: Problem, block_q: int, block_k: int
) -> None:
    # Problems of 1 to 6 queries and keys with tiles of 1 to 7: tiles that divide, that do
    # not and that hold everything; every dtype, mask kind, broadcast and single queries.
    out = ar.tiled_attention(
        p.q,
        p.k,
        p.v,
        p.mask,
        is_causal=p.is_causal,
        scale=p.scale,
        block_q=block_q,
        block_k=block_k,
    )
    weights = ar.attention_weights(p.q, p.k, p.mask, is_causal=p.is_causal, scale=p.scale)
    assert_matches_oracle(p, out, weights)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 40),
    st.integers(1, 40),
    st.sampled_from([(1, 1), (3, 5), (8, 8), (16, 7), (64, 64)]),
    st.sampled_from(["none", "bool", "float", "causal"]),
)
def test_tiled_attention_equals_scaled_dot_product_attention(
    seed: int, n_q: int, n_k: int, blocks: tuple[int, int], kind: str
) -> None:
    # Larger problems than the oracle can take, with batch and head dimensions, against the
    # whole-array formula: both are float64 numpy; the tiles' rescaling costs a few ulps.
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((2, 3, n_q, 8))
    k, v = rng.standard_normal((2, 2, 3, n_k, 8))
    mask: npt.NDArray[Any] | None = None
    if kind == "bool":
        mask = rng.random((3, n_q, n_k)) < 0.5  # per head; some rows fully masked
    elif kind == "float":
        mask = np.where(rng.random((n_q, n_k)) < 0.3, -np.inf, rng.standard_normal((n_q, n_k)))
    causal = kind == "causal"
    want = ar.scaled_dot_product_attention(q, k, v, mask, is_causal=causal)
    got = ar.tiled_attention(q, k, v, mask, is_causal=causal, block_q=blocks[0], block_k=blocks[1])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("kind", ["bool", "float"])
def test_tiled_attention_fully_masked_rows_are_zero(kind: str) -> None:
    rng = np.random.default_rng(3)
    q, k, v = rng.standard_normal((3, 2, 7, 4))
    allowed = rng.random((7, 7)) < 0.6
    allowed[[1, 5]] = False  # queries 1 and 5 may attend to nothing
    mask = allowed if kind == "bool" else np.where(allowed, 0.0, -np.inf)
    with np.errstate(over="raise", invalid="raise", divide="raise"):  # no 0/0 anywhere
        out = ar.tiled_attention(q, k, v, mask, block_q=3, block_k=2)
    assert out[:, [1, 5]].tolist() == [[[0.0] * 4] * 2] * 2
    np.testing.assert_allclose(
        out, ar.scaled_dot_product_attention(q, k, v, mask), rtol=1e-12, atol=1e-13
    )


def test_tiled_attention_keeps_dtypes_and_single_queries() -> None:
    rng = np.random.default_rng(4)
    for dtype in (np.float16, np.float32, np.float64):
        q, k, v = (rng.standard_normal((5, 3)).astype(dtype) for _ in range(3))
        out = ar.tiled_attention(q, k, v, block_q=2, block_k=2)
        assert out.dtype == dtype
        np.testing.assert_allclose(
            out.astype(float), ar.scaled_dot_product_attention(q, k, v).astype(float), rtol=2e-3
        )
    single = ar.tiled_attention([1, 0, 1, 0], np.eye(4)[:3], [[1, 2], [3, 4], [5, 6]], block_k=2)
    assert single.shape == (2,)


def test_tiled_attention_holds_one_tile_of_scores_per_head() -> None:
    # n = 2048 queries and keys, 2 heads, float32: the whole scores would take
    # 2 x 2048 x 2048 x 4 bytes = 32 MiB. tracemalloc sees numpy's buffers: beyond its
    # output, the tiled version may hold a few arrays the size of one 64 x 64 tile per head
    # (the scores, their exponentials, a mask) and the running sums of one block of
    # queries, never a row of scores.
    n, heads, d, tile = 2048, 2, 8, 64
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((heads, n, d)).astype(np.float32) for _ in range(3))
    one_tile = heads * tile * tile * 4  # 32 KiB
    full_scores = heads * n * n * 4

    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        out = ar.tiled_attention(q, k, v, is_causal=True, block_q=tile, block_k=tile)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    extra = peak - before - out.nbytes
    assert extra <= 8 * one_tile, (extra, one_tile)
    assert extra * 100 < full_scores
    np.testing.assert_allclose(
        out[:, -3:],  # the last queries, which read every tile of keys
        ar.scaled_dot_product_attention(q[:, -3:], k, v, ar.causal_mask(n)[-3:]),
        rtol=2e-5,
        atol=2e-6,
    )


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"block_q": 0}, ValueError, "block_q must be >= 1, got 0"),
        ({"block_k": -1}, ValueError, "block_k must be >= 1, got -1"),
        ({"block_k": 2.0}, TypeError, "block_k must be an integer, got float 2.0"),
        ({"mask": np.ones((2, 2), bool), "is_causal": True}, ValueError, "not both"),
        ({"v": np.ones((4, 2))}, ValueError, r"k and v must hold the same number of rows n_k"),
        ({"scale": -1.0}, ValueError, "scale must be finite and > 0"),
        (
            {"q": np.full((2, 4), 1e200), "k": np.full((2, 4), 1e200)},
            FloatingPointError,
            "overflow",
        ),
    ],
)
def test_tiled_attention_errors(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    args = {"q": np.ones((2, 4)), "k": np.ones((2, 4)), "v": np.ones((2, 2))} | kwargs
    with pytest.raises(error, match=message):
        ar.tiled_attention(**args)


# --- grouped-query attention -------------------------------------------------------------


def per_head_loop(
    q: npt.NDArray[Any],
    k: npt.NDArray[Any],
    v: npt.NDArray[Any],
    mask: npt.NDArray[Any] | None,
    is_causal: bool,
) -> npt.NDArray[np.float64]:
    """Grouped-query attention by hand: query head i against key/value head i // (h // g)."""
    h, g = q.shape[-3], k.shape[-3]
    r = h // g  # query heads per key/value head
    heads = []
    for i in range(h):
        m = None if mask is None else mask[..., i, :, :]
        k_i, v_i = k[..., i // r, :, :], v[..., i // r, :, :]
        heads.append(
            ar.scaled_dot_product_attention(q[..., i, :, :], k_i, v_i, m, is_causal=is_causal)
        )
    return np.stack(heads, axis=-3)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from([(1, 1), (2, 1), (2, 2), (4, 1), (4, 2), (6, 3), (6, 2), (8, 4)]),
    st.lists(st.integers(1, 2), max_size=1).map(tuple),
    st.integers(1, 6),
    st.integers(1, 6),
    st.sampled_from(["none", "bool", "float", "causal"]),
)
def test_grouped_query_attention_equals_a_loop_over_heads(
    seed: int, hg: tuple[int, int], batch: tuple[int, ...], n_q: int, n_k: int, kind: str
) -> None:
    h, g = hg
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((*batch, h, n_q, 4))
    k = rng.standard_normal((*batch, g, n_k, 4))
    v = rng.standard_normal((*batch, g, n_k, 3))
    mask: npt.NDArray[Any] | None = None
    if kind == "bool":
        mask = rng.random((*batch, h, n_q, n_k)) < 0.6
    elif kind == "float":
        mask = np.where(
            rng.random((h, n_q, n_k)) < 0.2, -np.inf, rng.standard_normal((h, n_q, n_k))
        )
    causal = kind == "causal"
    got = ar.scaled_dot_product_attention(q, k, v, mask, is_causal=causal, enable_gqa=True)
    want = per_head_loop(
        q, k, v, None if mask is None else np.broadcast_to(mask, (*batch, h, n_q, n_k)), causal
    )
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-14)
    weights = ar.attention_weights(q, k, mask, is_causal=causal, enable_gqa=True)
    np.testing.assert_allclose(
        weights @ np.repeat(v, h // g, axis=-3), want, rtol=1e-12, atol=1e-13
    )
    if g == h:  # one key/value head per query head: plain multi-head attention
        plain = ar.scaled_dot_product_attention(q, k, v, mask, is_causal=causal)
        np.testing.assert_allclose(got, plain, rtol=1e-15, atol=0)


def test_grouped_query_attention_on_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # 8 query heads of 64 x 64 scores (32,768 scores) take the fast path; it must receive
    # one key/value head per query head, in repeat_interleave order.
    h, g, n = 8, 2, 64
    assert h * n * n >= _fast.MIN_SCORES
    rng = np.random.default_rng(5)
    q = rng.standard_normal((h, n, 16))
    k, v = rng.standard_normal((2, g, n, 16))
    seen: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    real = _fast.attention

    def spy(q_: Any, k_: Any, v_: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append((k_.shape, v_.shape))
        for i in range(h):
            assert np.array_equal(k_[i], k[i // (h // g)]) and np.array_equal(
                v_[i], v[i // (h // g)]
            )
        return real(q_, k_, v_, *args, **kwargs)

    monkeypatch.setattr(_fast, "attention", spy)
    got = ar.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    assert seen == [((h, n, 16), (h, n, 16))]
    np.testing.assert_allclose(got, per_head_loop(q, k, v, None, True), rtol=1e-12, atol=1e-13)


def test_multi_query_attention_is_broadcasting() -> None:
    # g = 1 (multi-query): one key/value head for all; plain broadcasting over a head axis
    # of size 1 gives the same, with or without enable_gqa.
    rng = np.random.default_rng(6)
    q = rng.standard_normal((2, 4, 5, 8))
    k, v = rng.standard_normal((2, 2, 1, 6, 8))
    np.testing.assert_allclose(
        ar.scaled_dot_product_attention(q, k, v, enable_gqa=True),
        ar.scaled_dot_product_attention(q, k, v),
        rtol=1e-15,
        atol=0,
    )


def test_without_enable_gqa_different_head_counts_are_an_error_as_before() -> None:
    q, k = np.ones((4, 3, 2)), np.ones((2, 3, 2))
    with pytest.raises(ValueError, match=r"dimensions of q and k do not broadcast: \(4,\), \(2,\)"):
        ar.scaled_dot_product_attention(q, k, k)


@pytest.mark.parametrize(
    ("q_shape", "k_shape", "v_shape", "message"),
    [
        (
            (6, 3, 2),
            (4, 3, 2),
            (4, 3, 2),
            r"the 4 heads of k to divide the 6 heads of q \(h = 6, g = 4",
        ),
        (
            (6, 3, 2),
            (3, 3, 2),
            (4, 3, 2),
            r"the 4 heads of v to divide the 6 heads of q \(h = 6, g = 4",
        ),
        (
            (3, 2),
            (1, 3, 2),
            (1, 3, 2),
            r"q must have shape \(\.\.\., h, n, d\) .* got 2-D shape \(3, 2\)",
        ),
        (
            (2, 3, 2),
            (3, 2),
            (3, 2),
            r"k must have shape \(\.\.\., h, n, d\) .* got 2-D shape \(3, 2\)",
        ),
        ((2, 3, 2), (0, 3, 2), (0, 3, 2), r"the 0 heads of k to divide the 2 heads of q"),
    ],
)
def test_grouped_query_attention_errors(
    q_shape: tuple[int, ...], k_shape: tuple[int, ...], v_shape: tuple[int, ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        ar.scaled_dot_product_attention(
            np.ones(q_shape), np.ones(k_shape), np.ones(v_shape), enable_gqa=True
        )
    with pytest.raises(TypeError, match="enable_gqa must be True or False, got 'yes'"):
        ar.attention_weights(np.ones((2, 3, 2)), np.ones((2, 3, 2)), enable_gqa="yes")  # type: ignore[arg-type]


# --- the sliding window ------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 30), st.integers(1, 35))
def test_sliding_window_mask_from_its_definition(n: int, window: int) -> None:
    mask = ar.sliding_window_mask(n, window)
    assert mask.dtype == np.bool_ and mask.shape == (n, n)
    want = [[i - window < j <= i for j in range(n)] for i in range(n)]  # a loop, as written
    assert mask.tolist() == want
    assert mask.sum(axis=1).tolist() == [min(i + 1, window) for i in range(n)]
    if window >= n:
        assert np.array_equal(mask, ar.causal_mask(n))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12), st.integers(1, 14))
def test_sliding_window_attention_ignores_keys_outside_the_window(
    seed: int, n: int, window: int
) -> None:
    # Query i's output depends only on keys i - window + 1 .. i: attention over that slice
    # alone, with no mask at all, gives the same row.
    rng = np.random.default_rng(seed)
    q, k, v = rng.standard_normal((3, n, 4))
    out = ar.scaled_dot_product_attention(q, k, v, ar.sliding_window_mask(n, window))
    for i in range(n):
        lo = max(0, i - window + 1)
        row = ar.scaled_dot_product_attention(q[i], k[lo : i + 1], v[lo : i + 1])
        np.testing.assert_allclose(out[i], row, rtol=1e-13, atol=1e-14)
    if window >= n:
        causal = ar.scaled_dot_product_attention(q, k, v, is_causal=True)
        np.testing.assert_allclose(out, causal, rtol=1e-15, atol=0)


@pytest.mark.parametrize(
    ("n", "window", "error", "message"),
    [
        (4, 0, ValueError, "window must be >= 1, got 0"),
        (4, -2, ValueError, "window must be >= 1, got -2"),
        (4, 2.5, TypeError, "window must be an integer, got float 2.5"),
        (4, True, TypeError, "window must be an integer, got bool True"),
        (-1, 2, ValueError, "n must be >= 0, got -1"),
        ("4", 2, TypeError, "n must be an integer, got str '4'"),
    ],
)
def test_sliding_window_mask_errors(
    n: Any, window: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        ar.sliding_window_mask(n, window)


# --- the cache's size --------------------------------------------------------------------


def test_kv_cache_bytes_by_hand() -> None:
    # Worked by hand: 2 (keys and values) x 2 layers x 4 heads x 8 wide x 24 tokens x 8 bytes.
    assert ar.kv_cache_bytes(2, 4, 8, 24, 8) == 2 * 2 * 4 * 8 * 24 * 8 == 24_576
    assert ar.kv_cache_bytes(1, 1, 1, 0, 2) == 0  # an empty cache
    # 32 layers, 8 key/value heads of 128, float16, 32,768 tokens: 4 GiB, integer-exact.
    assert ar.kv_cache_bytes(32, 8, 128, 32_768, 2) == 4 * 2**30


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((0, 1, 1, 1, 1), ValueError, "n_layers must be >= 1, got 0"),
        ((1, 0, 1, 1, 1), ValueError, "n_kv_heads must be >= 1, got 0"),
        ((1, 1, 0, 1, 1), ValueError, "d_head must be >= 1, got 0"),
        ((1, 1, 1, -1, 1), ValueError, "n_tokens must be >= 0, got -1"),
        ((1, 1, 1, 1, 0), ValueError, "bytes_per_value must be >= 1, got 0"),
        ((1, 1, 1, 1, 0.5), TypeError, "bytes_per_value must be an integer, got float 0.5"),
        ((1.0, 1, 1, 1, 1), TypeError, "n_layers must be an integer, got float 1.0"),
    ],
)
def test_kv_cache_bytes_errors(args: tuple[Any, ...], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        ar.kv_cache_bytes(*args)


def test_the_cache_of_the_letter_model_weighs_what_kv_cache_bytes_says() -> None:
    from attention_ref.induction import Config, KVCache, decode_step, init_params

    config = Config(d_model=16, heads=2, max_len=10)
    params = init_params(config, np.random.default_rng(0))
    cache = KVCache.empty(config)
    for t in (26, 1, 2, 3, 4, 5, 6):
        decode_step(params, t, cache, config=config)
    assert cache.nbytes() == ar.kv_cache_bytes(2, 2, 8, 7, 8)
    assert math.isclose(cache.nbytes(), 2 * 2 * 16 * 7 * 8)
