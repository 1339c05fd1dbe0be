"""Lesson 5's variants agree with torch's scaled_dot_product_attention, where torch is installed.

- grouped-query attention against ``enable_gqa=True`` (torch >= 2.5);
- the sliding-window mask, passed to both as an explicit boolean mask;
- tiled attention against torch with the same masks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_ref as ar

torch = pytest.importorskip(
    "torch", reason="torch not installed: the optional 'model' extra (make model-deps) adds it"
)
# The one torch oracle call of the test suite (imported after the skip above: it needs torch).
from tests.test_attention_ref_torch import torch_sdpa  # noqa: E402

# float64: both sides compute the same sums in other orders (a few ulps); float32: the
# tolerance of tests/test_attention_ref_torch.py.
TOL = {np.float64: 1e-12, np.float32: 2e-5}


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    hg=st.sampled_from([(1, 1), (2, 1), (4, 1), (4, 2), (4, 4), (6, 2), (6, 3), (8, 2)]),
    batch=st.lists(st.integers(1, 2), max_size=1).map(tuple),
    n_q=st.integers(1, 8),
    n_k=st.integers(1, 8),
    dtype=st.sampled_from([np.float32, np.float64]),
    mask_kind=st.sampled_from(["none", "bool", "float", "causal"]),
)
def test_grouped_query_attention_agrees_with_torch(
    seed: int,
    hg: tuple[int, int],
    batch: tuple[int, ...],
    n_q: int,
    n_k: int,
    dtype: type[np.floating[Any]],
    mask_kind: str,
) -> None:
    h, g = hg
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((*batch, h, n_q, 8)).astype(dtype)
    k = rng.standard_normal((*batch, g, n_k, 8)).astype(dtype)
    v = rng.standard_normal((*batch, g, n_k, 4)).astype(dtype)
    mask: npt.NDArray[Any] | None = None
    if mask_kind == "bool":
        mask = rng.random((h, n_q, n_k)) < 0.6
        mask[..., 0] = True  # older torch gives NaN for a fully masked row: keep one key open
    elif mask_kind == "float":
        mask = rng.standard_normal((*batch, h, n_q, n_k)).astype(dtype)
    causal = mask_kind == "causal"
    ours = ar.scaled_dot_product_attention(q, k, v, mask, is_causal=causal, enable_gqa=True)
    theirs = torch_sdpa(q, k, v, mask, is_causal=causal, enable_gqa=True)
    assert ours.dtype == theirs.dtype
    np.testing.assert_allclose(ours, theirs, rtol=TOL[dtype], atol=TOL[dtype])


def test_grouped_query_attention_errors_where_torch_does() -> None:
    q, k = np.ones((6, 3, 2)), np.ones((4, 3, 2))
    with pytest.raises(RuntimeError):
        torch_sdpa(q, k, k, enable_gqa=True)
    with pytest.raises(ValueError, match=r"h = 6, g = 4"):
        ar.scaled_dot_product_attention(q, k, k, enable_gqa=True)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 24),
    window=st.integers(1, 30),
    blocks=st.sampled_from([(1, 1), (4, 3), (8, 8), (64, 64)]),
)
def test_sliding_window_attention_agrees_with_torch(
    seed: int, n: int, window: int, blocks: tuple[int, int]
) -> None:
    # The same boolean mask (True = may attend in both) given to torch, to the plain
    # formula and to the tiles; a window >= n must also equal torch's is_causal.
    rng = np.random.default_rng(seed)
    q, k, v = rng.standard_normal((3, 2, n, 8))
    mask = ar.sliding_window_mask(n, window)
    theirs = torch_sdpa(q, k, v, mask)
    np.testing.assert_allclose(
        ar.scaled_dot_product_attention(q, k, v, mask), theirs, rtol=1e-12, atol=1e-12
    )
    tiled = ar.tiled_attention(q, k, v, mask, block_q=blocks[0], block_k=blocks[1])
    np.testing.assert_allclose(tiled, theirs, rtol=1e-12, atol=1e-12)
    if window >= n:
        np.testing.assert_allclose(
            theirs, torch_sdpa(q, k, v, is_causal=True), rtol=1e-12, atol=1e-12
        )


def test_tiled_attention_agrees_with_torch_at_a_larger_size() -> None:
    # 300 queries and keys in tiles of 64 (the last tile shorter), causal and with a float
    # mask, float32 as a GPU kernel would see it.
    rng = np.random.default_rng(1)
    q, k, v = rng.standard_normal((3, 1, 4, 300, 32)).astype(np.float32)
    float_mask = rng.standard_normal((300, 300)).astype(np.float32)
    cases: list[tuple[npt.NDArray[Any] | None, bool]] = [(None, True), (float_mask, False)]
    for mask, causal in cases:
        ours = ar.tiled_attention(q, k, v, mask, is_causal=causal)
        theirs = torch_sdpa(q, k, v, mask, is_causal=causal)
        np.testing.assert_allclose(ours, theirs, rtol=2e-5, atol=2e-5)
