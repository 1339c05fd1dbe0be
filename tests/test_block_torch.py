"""attention_ref.block agrees with torch's LayerNorm, GELU, MultiheadAttention and
TransformerEncoderLayer given the same weights, where torch is installed."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_ref as ar
from attention_ref.block import EncoderLayerWeights, encoder_layer, gelu, layer_norm

torch = pytest.importorskip(
    "torch", reason="torch not installed: the optional 'model' extra (make model-deps) adds it"
)


def t(a: npt.ArrayLike) -> Any:
    return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float64))


def test_gelu_equals_torch_gelu() -> None:
    x = np.concatenate(
        [np.linspace(-10, 10, 20_001), np.random.default_rng(0).standard_normal(5000)]
    )
    ours = gelu(x)
    theirs = torch.nn.functional.gelu(t(x)).numpy()  # approximate="none": the erf GELU
    worst = float(np.abs(ours - theirs).max())
    print(f"gelu vs torch (float64): worst absolute difference {worst:.2e}")
    assert np.allclose(ours, theirs, rtol=1e-14, atol=5e-15)
    tanh = torch.nn.functional.gelu(t(x), approximate="tanh").numpy()
    assert np.abs(ours - tanh).max() > 1e-4  # the tanh form is a different function


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(1, 40), st.sampled_from([1e-12, 1e-5])
)
def test_layer_norm_equals_torch(seed: int, n: int, d: int, eps: float) -> None:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((2, n, d)) * rng.uniform(0.1, 10)
    gain, bias = rng.standard_normal(d), rng.standard_normal(d)
    norm = torch.nn.LayerNorm(d, eps=eps).double()
    with torch.no_grad():
        norm.weight.copy_(t(gain))
        norm.bias.copy_(t(bias))
        theirs = norm(t(x)).numpy()
    assert np.allclose(layer_norm(x, gain, bias, eps=eps), theirs, rtol=1e-10, atol=1e-10)


def _torch_mha(d: int, heads: int, layer: EncoderLayerWeights, mha: Any) -> None:
    with torch.no_grad():
        mha.in_proj_weight.copy_(t(np.concatenate([layer.w_q.T, layer.w_k.T, layer.w_v.T])))
        mha.in_proj_bias.copy_(t(np.concatenate([layer.b_q, layer.b_k, layer.b_v])))
        mha.out_proj.weight.copy_(t(layer.w_o.T))
        mha.out_proj.bias.copy_(t(layer.b_o))


def layer_and_batch(
    seed: int, n: int, d: int, *, d_ff: int, batch: int
) -> tuple[EncoderLayerWeights, np.ndarray]:
    """Random layer weights from ``seed``, and ``batch`` random sequences of ``n`` tokens."""
    layer = EncoderLayerWeights.random(d, d_ff, seed=seed)
    return layer, np.random.default_rng(seed + 1).standard_normal((batch, n, d))


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 7),
    st.sampled_from([(4, 1), (8, 2), (12, 3), (16, 4)]),
)
def test_multi_head_attention_with_biases_equals_torch(
    seed: int, n: int, shape: tuple[int, int]
) -> None:
    d, heads = shape
    layer, x = layer_and_batch(seed, n, d, d_ff=2 * d, batch=3)
    mha = torch.nn.MultiheadAttention(d, heads, bias=True, batch_first=True).double().eval()
    _torch_mha(d, heads, layer, mha)
    with torch.no_grad():
        out_t, w_t = mha(t(x), t(x), t(x), need_weights=True, average_attn_weights=False)
    w = layer
    out, weights = ar.multi_head_attention(
        x, w.w_q, w.w_k, w.w_v, w.w_o, num_heads=heads,
        b_q=w.b_q, b_k=w.b_k, b_v=w.b_v, b_o=w.b_o, return_weights=True,
    )  # fmt: skip
    assert np.allclose(out, out_t.numpy(), rtol=1e-10, atol=1e-10)
    assert np.allclose(weights, w_t.numpy(), rtol=1e-10, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 9), st.sampled_from([(8, 2), (12, 4), (24, 3)]))
def test_encoder_layer_equals_torch_transformer_encoder_layer(
    seed: int, n: int, shape: tuple[int, int]
) -> None:
    d, heads = shape
    layer, x = layer_and_batch(seed, n, d, d_ff=4 * d, batch=2)
    torch_layer = (
        torch.nn.TransformerEncoderLayer(
            d,
            heads,
            dim_feedforward=4 * d,
            dropout=0.0,
            activation="gelu",
            layer_norm_eps=1e-12,
            batch_first=True,
            norm_first=False,
        )
        .double()
        .eval()
    )
    _torch_mha(d, heads, layer, torch_layer.self_attn)
    with torch.no_grad():
        torch_layer.linear1.weight.copy_(t(layer.w_1.T))
        torch_layer.linear1.bias.copy_(t(layer.b_1))
        torch_layer.linear2.weight.copy_(t(layer.w_2.T))
        torch_layer.linear2.bias.copy_(t(layer.b_2))
        rng = np.random.default_rng(seed + 2)
        for norm in (torch_layer.norm1, torch_layer.norm2):
            norm.weight.copy_(t(1 + 0.1 * rng.standard_normal(d)))
            norm.bias.copy_(t(0.1 * rng.standard_normal(d)))
        theirs = torch_layer(t(x)).numpy()
    fields = {f: getattr(layer, f) for f in layer.__dataclass_fields__}
    fields.update(
        norm1_gain=torch_layer.norm1.weight.detach().numpy(),
        norm1_bias=torch_layer.norm1.bias.detach().numpy(),
        norm2_gain=torch_layer.norm2.weight.detach().numpy(),
        norm2_bias=torch_layer.norm2.bias.detach().numpy(),
    )
    ours = encoder_layer(x, EncoderLayerWeights(**fields), num_heads=heads, eps=1e-12)
    assert np.allclose(ours, theirs, rtol=1e-9, atol=1e-9)
