"""The hand-written backward passes agree with torch autograd, where torch is installed.

Random shapes with batch and head dimensions, boolean masks, ``is_causal``, fully masked
rows and broadcast keys, in float64: torch differentiates its own forward, so this is an
oracle independent of the formulas in attention_ref.backward. float64 rounding over
these small sums is about 1e-15 relative; 1e-10 leaves room and still catches any wrong
term.
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
F = torch.nn.functional
RTOL = 1e-10


def relative_error(got: npt.NDArray[Any], want: npt.NDArray[Any]) -> float:
    return float(np.max(np.abs(got - want)) / max(float(np.max(np.abs(want))), 1e-12))


def torch_attention(
    q: Any, k: Any, v: Any, mask: Any | None, is_causal: bool, scale: float | None
) -> Any:
    """torch's attention; a fully masked row gives zeros (attention_ref's rule), not NaN."""
    if mask is None:
        return F.scaled_dot_product_attention(q, k, v, is_causal=is_causal, scale=scale)
    seen = mask.any(dim=-1, keepdim=True)  # (..., n_q, 1): the row keeps a key
    safe = mask | ~seen  # a fully masked row attends everywhere, then is zeroed
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=safe, scale=scale)
    return out * seen


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    batch=st.lists(st.integers(1, 3), min_size=0, max_size=2).map(tuple),
    n_q=st.integers(1, 6),
    n_k=st.integers(1, 6),
    d_k=st.integers(1, 8),
    d_v=st.integers(1, 5),
    mask_kind=st.sampled_from(["none", "bool", "bool_full_rows", "causal"]),
    broadcast_k=st.booleans(),
    scale=st.one_of(st.none(), st.floats(0.1, 2.0)),
)
def test_attention_backward_agrees_with_torch_autograd(
    seed: int,
    batch: tuple[int, ...],
    n_q: int,
    n_k: int,
    d_k: int,
    d_v: int,
    mask_kind: str,
    broadcast_k: bool,
    scale: float | None,
) -> None:
    rng = np.random.default_rng(seed)
    kv_batch = tuple(1 for _ in batch) if broadcast_k else batch
    q = rng.standard_normal((*batch, n_q, d_k))
    k = rng.standard_normal((*kv_batch, n_k, d_k))
    v = rng.standard_normal((*kv_batch, n_k, d_v))
    mask = None
    if mask_kind.startswith("bool"):
        mask = rng.random((*batch, n_q, n_k)) < 0.6
        if mask_kind == "bool_full_rows":
            mask[..., 0, :] = False  # the first query sees nothing
    is_causal = mask_kind == "causal"
    g = rng.standard_normal((*batch, n_q, d_v))
    got = ar.scaled_dot_product_attention_backward(
        q, k, v, g, mask, is_causal=is_causal, scale=scale
    )
    tq, tk, tv = (torch.tensor(x, requires_grad=True) for x in (q, k, v))
    tm = None if mask is None else torch.tensor(mask)
    out = torch_attention(tq, tk, tv, tm, is_causal, scale)
    out.backward(torch.tensor(g))
    for name, mine, theirs in zip("qkv", got, (tq.grad, tk.grad, tv.grad), strict=True):
        want = theirs.numpy()
        assert mine.shape == want.shape, f"grad_{name}"
        assert relative_error(mine, want) < RTOL, f"grad_{name}"


def test_the_other_backwards_agree_with_torch_autograd() -> None:
    rng = np.random.default_rng(7)
    x, w = rng.standard_normal((3, 4, 5)), rng.standard_normal((5, 6))
    g = rng.standard_normal((3, 4, 6))
    tx, tw = torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True)
    (tx @ tw).backward(torch.tensor(g))
    grad_x, grad_w = ar.linear_backward(x, w, g)
    assert relative_error(grad_x, tx.grad.numpy()) < RTOL
    assert relative_error(grad_w, tw.grad.numpy()) < RTOL

    logits = rng.standard_normal((3, 4, 6)) * 2
    ts = torch.tensor(logits, requires_grad=True)
    torch.softmax(ts, dim=-1).backward(torch.tensor(g))
    assert relative_error(ar.softmax_backward(ar.softmax(logits), g), ts.grad.numpy()) < RTOL

    targets = rng.integers(0, 6, size=(3, 4))
    tz = torch.tensor(logits, requires_grad=True)
    loss = F.cross_entropy(tz.reshape(-1, 6), torch.tensor(targets).reshape(-1))
    loss.backward()
    assert abs(ar.cross_entropy(logits, targets) - float(loss.detach())) < 1e-12
    assert relative_error(ar.cross_entropy_backward(logits, targets), tz.grad.numpy()) < RTOL

    table = torch.tensor(rng.standard_normal((7, 5)), requires_grad=True)
    ids = rng.integers(0, 7, size=(3, 4))
    ge = rng.standard_normal((3, 4, 5))
    F.embedding(torch.tensor(ids), table).backward(torch.tensor(ge))
    assert relative_error(ar.embedding_backward(ids, ge, 7), table.grad.numpy()) < RTOL
