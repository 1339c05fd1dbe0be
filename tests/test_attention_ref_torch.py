"""attention_ref agrees with torch scaled_dot_product_attention, where torch is installed."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_ref as ar
from site_build.worked_example import as_floats, read
from testbed.mha_cases import MhaCase, mha_cases

torch = pytest.importorskip(
    "torch", reason="torch not installed: the optional 'model' extra (make model-deps) adds it"
)
F = torch.nn.functional


def torch_sdpa(
    q: npt.NDArray[Any],
    k: npt.NDArray[Any],
    v: npt.NDArray[Any],
    mask: npt.NDArray[Any] | None = None,
    **kwargs: Any,
) -> npt.NDArray[Any]:
    t = [torch.from_numpy(np.ascontiguousarray(x)) for x in (q, k, v)]
    m = None if mask is None else torch.from_numpy(np.ascontiguousarray(mask))
    result: npt.NDArray[Any] = F.scaled_dot_product_attention(*t, attn_mask=m, **kwargs).numpy()
    return result


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    batch=st.lists(st.integers(1, 3), min_size=0, max_size=2).map(tuple),
    n_q=st.integers(1, 9),
    n_k=st.integers(1, 9),
    d_k=st.integers(1, 16),
    d_v=st.integers(1, 8),
    dtype=st.sampled_from([np.float32, np.float64]),
    mask_kind=st.sampled_from(["none", "bool", "float", "causal"]),
    scale=st.one_of(st.none(), st.floats(0.05, 2.0)),
)
def test_agrees_with_torch(
    seed: int,
    batch: tuple[int, ...],
    n_q: int,
    n_k: int,
    d_k: int,
    d_v: int,
    dtype: type[np.floating[Any]],
    mask_kind: str,
    scale: float | None,
) -> None:
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((*batch, n_q, d_k)).astype(dtype)
    k = rng.standard_normal((*batch, n_k, d_k)).astype(dtype)
    v = rng.standard_normal((*batch, n_k, d_v)).astype(dtype)
    mask: npt.NDArray[Any] | None = None
    if mask_kind == "bool":
        mask = rng.random((n_q, n_k)) < 0.6
        mask[:, 0] = True  # torch gives NaN for a fully masked row: keep one key per query
    elif mask_kind == "float":
        mask = rng.standard_normal((*batch, n_q, n_k)).astype(dtype)  # torch wants the query dtype
    is_causal = mask_kind == "causal"
    ours = ar.scaled_dot_product_attention(q, k, v, mask, is_causal=is_causal, scale=scale)
    theirs = torch_sdpa(q, k, v, mask, is_causal=is_causal, scale=scale)
    assert ours.dtype == theirs.dtype
    tol = 1e-12 if dtype == np.float64 else 2e-5
    np.testing.assert_allclose(ours, theirs, rtol=tol, atol=tol)


def test_worked_example_agrees_with_torch() -> None:
    q, k, v = as_floats(read())  # the lesson's, from snippets/worked_example.py
    q = q[np.newaxis]  # (1, d_k)
    np.testing.assert_allclose(
        ar.scaled_dot_product_attention(q, k, v), torch_sdpa(q, k, v), rtol=1e-14
    )


def test_causal_alignment_agrees_with_torch_when_n_q_differs_from_n_k() -> None:
    rng = np.random.default_rng(0)
    for n_q, n_k in ((2, 5), (5, 2)):
        q, k, v = (
            rng.standard_normal((n_q, 3)),
            rng.standard_normal((n_k, 3)),
            rng.standard_normal((n_k, 2)),
        )
        np.testing.assert_allclose(
            ar.scaled_dot_product_attention(q, k, v, is_causal=True),
            torch_sdpa(q, k, v, is_causal=True),
            rtol=1e-12,
        )


def test_fully_masked_rows_agree_with_torch() -> None:
    """torch (2.13, CPU) also returns an all-zero row for a query that may attend to nothing."""
    rng = np.random.default_rng(1)
    q, k, v = rng.standard_normal((3, 4)), rng.standard_normal((5, 4)), rng.standard_normal((5, 2))
    mask = np.ones((3, 5), dtype=bool)
    mask[1] = False
    theirs = torch_sdpa(q, k, v, mask)
    if np.isnan(theirs[1]).any():
        pytest.skip(f"torch {torch.__version__} gives NaN for a fully masked row (older behaviour)")
    np.testing.assert_allclose(ar.scaled_dot_product_attention(q, k, v, mask), theirs, rtol=1e-12)
    assert theirs[1].tolist() == [0.0, 0.0]


def torch_mha(
    x: npt.NDArray[Any],
    w: tuple[npt.NDArray[Any], ...],
    num_heads: int,
    context: npt.NDArray[Any] | None,
    mask: npt.NDArray[Any] | None,
    is_causal: bool,
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """torch.nn.MultiheadAttention(bias=False, batch_first=True) with our weights.

    torch stores the transposes of the row-vector weights: in_proj_weight stacks
    w_q.T, w_k.T, w_v.T; out_proj.weight is w_o.T. Its boolean attn_mask means True =
    may NOT attend, the opposite of ours, and a causal mask must be passed explicitly.
    """
    w_q, w_k, w_v, w_o = w
    d_model = x.shape[-1]
    layer = torch.nn.MultiheadAttention(
        d_model, num_heads, bias=False, batch_first=True, dtype=torch.float64
    )
    with torch.no_grad():
        layer.in_proj_weight.copy_(torch.from_numpy(np.concatenate([w_q.T, w_k.T, w_v.T])))
        layer.out_proj.weight.copy_(torch.from_numpy(np.ascontiguousarray(w_o.T)))
    xt = torch.from_numpy(x)[None]  # (1, n, d): torch wants a batch here
    ct = xt if context is None else torch.from_numpy(context)[None]
    if is_causal:
        mask = ar.causal_mask(x.shape[0], ct.shape[1])
    attn_mask = None
    if mask is not None:
        attn_mask = torch.from_numpy(~mask)
        if mask.ndim == 3:  # (h, n, m) -> torch's (batch * h, n, m)
            attn_mask = attn_mask.reshape(-1, *mask.shape[-2:])
    with torch.no_grad():
        out, weights = layer(
            xt, ct, ct, need_weights=True, attn_mask=attn_mask, average_attn_weights=False
        )
    return out[0].numpy(), weights[0].numpy()


@settings(max_examples=80, deadline=None)
@given(case=mha_cases(max_tokens=7, heads=(1, 2, 3, 4), max_d_head=5, keep=0.6, key_0_open=True))
def test_multi_head_agrees_with_torch(case: MhaCase) -> None:
    theirs, theirs_w = torch_mha(
        case.x, case.w, case.heads, case.context, case.mask, case.is_causal
    )
    ours, ours_w, _ = case.ours()
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ours_w, theirs_w, rtol=1e-10, atol=1e-12)
