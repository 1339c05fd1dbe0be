"""attention_ref.block: hand-worked values, properties, a plain-loop oracle, bad input.

torch's versions of the same parts are compared in tests/test_block_torch.py.
"""

from __future__ import annotations

import decimal
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import attention_ref as ar
from attention_ref import EncoderLayerWeights, encoder_layer, erf, feed_forward, gelu, layer_norm
from testbed import oracle

# --- erf -------------------------------------------------------------------------------


def _erf_series(x: float, *, one_plus: bool = False) -> float:
    """erf(x) from its Maclaurin series, 2/sqrt(pi) sum (-1)^n x^(2n+1) / (n! (2n+1)),
    summed in 80-digit decimals (the terms reach e^(x^2) before they cancel), pi from
    Machin's formula: an oracle that shares nothing with math.erf."""
    with decimal.localcontext() as ctx:
        ctx.prec = 80
        x_d = decimal.Decimal(x)

        def atan_inv(m: int) -> decimal.Decimal:  # atan(1/m)
            total, power, n = decimal.Decimal(0), decimal.Decimal(1) / m, 0
            while power > decimal.Decimal(10) ** -85:
                total += (-1) ** n * power / (2 * n + 1)
                power /= m * m
                n += 1
            return total

        pi = 16 * atan_inv(5) - 4 * atan_inv(239)
        term, total, n = x_d, decimal.Decimal(0), 0  # term = (-1)^n x^(2n+1) / n!
        while n < 10 or abs(term) > decimal.Decimal(10) ** -40:
            total += term / (2 * n + 1)
            n += 1
            term = -term * x_d * x_d / n
        value = 2 / pi.sqrt() * total
        return float(1 + value if one_plus else value)  # 1 + erf(x) before any rounding


def test_erf_matches_its_series_to_a_few_ulps() -> None:
    rng = np.random.default_rng(20261201)
    xs = np.concatenate(
        [rng.uniform(-6, 6, 150), rng.standard_normal(30) * 1e-3, [0.5, 1.0, 2.0, 1 / 64]]
    )
    ours = erf(xs)
    ref = np.array([_erf_series(float(x)) for x in xs])
    rel = np.abs(ours - ref) / np.maximum(np.abs(ref), np.finfo(float).tiny)
    worst = float(rel.max())
    print(f"erf: worst relative difference to the series over {xs.size} points: {worst:.2e}")
    # a few units in the last place (2.2e-16 each) of float64
    assert worst <= 1e-15, xs[rel.argmax()]
    # the series itself, on a value known from tables: erf(1) = 0.84270079294971486934...
    assert _erf_series(1.0) == pytest.approx(0.8427007929497149, rel=1e-16)


def test_gelu_keeps_its_precision_in_the_left_tail() -> None:
    """Where erf(x / sqrt 2) is close to -1, x/2 (1 + erf) loses the digits 1 + erf cancels;
    the oracle cancels in 80-digit decimals."""
    xs = np.array([-8.0, -7.0, -6.0, -5.5, -5.0, -3.0, -1.0, 0.5, 3.0])
    ref = np.array([x / 2 * _erf_series(x / math.sqrt(2), one_plus=True) for x in xs])
    rel = np.abs(gelu(xs) - ref) / np.abs(ref)
    # The floor is the rounding of z = x / sqrt 2 itself (1.1e-16 relative): erfc's relative
    # change per relative change of z is about 2 z^2, 64 at x = -8, so ~1e-14 there.
    # Computing 1 + erf in float64 instead gives ~1e-5 at x = -7.
    assert float(rel.max()) <= 5e-14, dict(zip(xs.tolist(), rel.tolist(), strict=True))


def test_erf_special_values_and_dtypes() -> None:
    assert erf([np.inf, -np.inf]).tolist() == [1.0, -1.0]
    assert np.isnan(erf(np.nan))
    assert math.copysign(1, float(erf(-0.0))) == -1  # odd: keeps the sign of zero
    assert erf(np.float32(0.5)).dtype == np.float32
    assert erf([1, 2]).dtype == np.float64
    with pytest.raises(TypeError, match="x must hold real numbers"):
        erf(["a"])


# --- gelu ------------------------------------------------------------------------------


def test_gelu_hand_worked_values() -> None:
    assert float(gelu(0.0)) == 0.0
    assert float(gelu(1.0)) == pytest.approx(0.8413447460685429, rel=1e-15)  # Phi(1)
    assert float(gelu(-1.0)) == pytest.approx(-0.15865525393145707, rel=1e-14)  # -Phi(-1)
    assert float(gelu(2.0)) == pytest.approx(2 * 0.9772498680518208, rel=1e-15)


def test_gelu_matches_the_math_erf_oracle() -> None:
    xs = np.linspace(-12, 12, 4801)
    ref = np.array([oracle.gelu(x) for x in xs])
    # below about -3, 1 + erf(x / sqrt(2)) cancels: both lose relative accuracy there
    # (torch computes it the same way), so the tolerance there is absolute, |x| ulp(1)
    assert np.allclose(gelu(xs), ref, rtol=1e-14, atol=12 * 2.3e-16)


@settings(max_examples=200, deadline=None)
@given(st.floats(-0.75, 50), st.floats(0, 10))
def test_gelu_is_increasing_above_its_minimum(x: float, step: float) -> None:
    # gelu' = Phi(x) + x phi(x) is 0 at x = -0.7518: increasing from there on
    assert float(gelu(x + step)) >= float(gelu(x))


@settings(max_examples=200, deadline=None)
@given(st.floats(-50, 50))
def test_gelu_lies_between_zero_and_relu_and_keeps_its_minimum(x: float) -> None:
    y = float(gelu(x))
    assert min(0.0, x) <= y <= max(0.0, x)
    assert y >= -0.17  # the minimum is gelu(-0.7518) = -0.16997


def test_gelu_rejects_non_finite_input() -> None:
    with pytest.raises(ValueError, match=r"x contains NaN \(shape \(2,\)\)"):
        gelu([1.0, np.nan])
    with pytest.raises(ValueError, match="x contains an infinite value"):
        gelu([np.inf])


# --- layer_norm ------------------------------------------------------------------------


def test_layer_norm_of_one_two_three_by_hand() -> None:
    # mean 2, biased variance 2/3: [-1, 0, 1] / sqrt(2/3)
    out = layer_norm([1.0, 2.0, 3.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0], eps=1e-300)
    s = math.sqrt(1.5)
    assert out.tolist() == pytest.approx([-s, 0.0, s], abs=1e-15)
    s = 1 / math.sqrt(2 / 3 + 1e-12)  # the default eps is BERT's, 1e-12
    shifted = layer_norm([1.0, 2.0, 3.0], [2.0, 1.0, 0.5], [1.0, -1.0, 0.0])
    assert shifted.tolist() == pytest.approx([1 - 2 * s, -1.0, 0.5 * s], abs=1e-12)


def test_layer_norm_eps_keeps_a_constant_row_finite() -> None:
    out = layer_norm([[5.0, 5.0, 5.0, 5.0]], np.ones(4), np.arange(4.0), eps=1e-5)
    assert out.tolist() == [[0.0, 1.0, 2.0, 3.0]]  # centred to 0, only the bias is left


@settings(max_examples=100, deadline=None)
@given(
    hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=8),
        elements=st.floats(-1e3, 1e3),
    )
)
def test_layer_norm_rows_have_mean_zero_and_variance_one(x: Any) -> None:
    spread = x.max(axis=-1) - x.min(axis=-1)
    d = x.shape[-1]
    out = layer_norm(x, np.ones(d), np.zeros(d), eps=1e-12)
    assert out.shape == x.shape
    # a (nearly) constant row is all rounding noise over sqrt(eps): only its size is bounded
    varied = spread > 1e-3 * np.abs(x).max(axis=-1, initial=1.0)
    assert np.allclose(out.mean(axis=-1)[varied], 0, atol=1e-9)
    assert np.allclose(out.var(axis=-1)[varied], 1, atol=1e-6)
    assert np.all(np.abs(out) <= math.sqrt(d))  # |z| <= sqrt(d - 1) for any row


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 5), st.integers(1, 12))
def test_layer_norm_matches_the_plain_loop_oracle(seed: int, n: int, d: int) -> None:
    rng = np.random.default_rng(seed)
    x, gain, bias = rng.standard_normal((n, d)) * 3, rng.standard_normal(d), rng.standard_normal(d)
    eps = float(rng.uniform(1e-12, 1e-2))
    ref = [oracle.layer_norm_row(r, gain.tolist(), bias.tolist(), eps) for r in x.tolist()]
    assert np.allclose(layer_norm(x, gain, bias, eps=eps), ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"x": np.ones((2, 3)), "gain": np.ones(2)}, ValueError, r"gain must have shape \(d,\)"),
        ({"bias": np.ones((1, 3))}, ValueError, r"bias must have shape \(d,\) = \(3,\)"),
        ({"x": [[1.0, np.nan, 2.0]]}, ValueError, "x contains NaN"),
        ({"gain": [1.0, np.inf, 1.0]}, ValueError, "gain contains an infinite value"),
        ({"eps": 0.0}, ValueError, "eps must be finite and > 0, got 0.0"),
        ({"eps": -1e-5}, ValueError, "eps must be finite and > 0"),
        ({"eps": "small"}, TypeError, "eps must be a real number"),
        ({"x": np.ones((2, 0)), "gain": [], "bias": []}, ValueError, "rows of width d = 0"),
        ({"x": 3.0}, ValueError, r"x must have shape \(\.\.\., d\)"),
    ],
)
def test_layer_norm_errors_name_the_argument(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    args: dict[str, Any] = {"x": np.ones((2, 3)), "gain": np.ones(3), "bias": np.zeros(3)}
    args.update(kwargs)
    with pytest.raises(error, match=message):
        layer_norm(args.pop("x"), args.pop("gain"), args.pop("bias"), **args)


# --- feed_forward ----------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 4), st.integers(1, 6), st.integers(1, 10))
def test_feed_forward_matches_the_plain_loop_oracle(seed: int, n: int, d: int, f: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    w_1, b_1 = rng.standard_normal((d, f)), rng.standard_normal(f)
    w_2, b_2 = rng.standard_normal((f, d)), rng.standard_normal(d)
    ref = [
        oracle.feed_forward_row(r, w_1.tolist(), b_1.tolist(), w_2.tolist(), b_2.tolist())
        for r in x.tolist()
    ]
    assert np.allclose(feed_forward(x, w_1, b_1, w_2, b_2), ref, rtol=1e-12, atol=1e-12)


def test_feed_forward_treats_each_token_on_its_own() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((5, 4))
    w = (rng.standard_normal((4, 16)), rng.standard_normal(16), rng.standard_normal((16, 4)))
    full = feed_forward(x, w[0], w[1], w[2], np.zeros(4))
    alone = np.stack(
        [feed_forward(x[i : i + 1], w[0], w[1], w[2], np.zeros(4))[0] for i in range(5)]
    )
    assert np.allclose(full, alone, rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    ("which", "value", "message"),
    [
        ("w_1", np.ones((3, 8)), r"w_1 must have shape \(d_model, d_ff\) with d_model = 4"),
        ("b_1", np.ones(7), r"b_1 must have shape \(d_ff,\) = \(8,\)"),
        ("w_2", np.ones((4, 8)), r"w_2 must have shape \(d_ff, d_model\) = \(8, 4\)"),
        ("b_2", np.ones(8), r"b_2 must have shape \(d_model,\) = \(4,\)"),
        ("x", np.ones(4), r"x must have shape \(\.\.\., n, d_model\)"),
        ("w_2", np.full((8, 4), np.nan), "w_2 contains NaN"),
    ],
)
def test_feed_forward_errors_name_the_argument(which: str, value: Any, message: str) -> None:
    args: dict[str, Any] = {
        "x": np.ones((2, 4)),
        "w_1": np.ones((4, 8)),
        "b_1": np.ones(8),
        "w_2": np.ones((8, 4)),
        "b_2": np.ones(4),
    }
    args[which] = value
    with pytest.raises(ValueError, match=message):
        feed_forward(**args)


# --- multi_head_attention's biases -----------------------------------------------------


def test_multi_head_attention_biases_by_hand() -> None:
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 6))
    w_q, w_k, w_v, w_o = rng.standard_normal((4, 6, 6))
    b_q, b_k, b_v, b_o = rng.standard_normal((4, 6))
    heads = []
    for h in range(3):
        cols = slice(2 * h, 2 * h + 2)
        q, k, v = ((x @ w + b)[:, cols] for w, b in ((w_q, b_q), (w_k, b_k), (w_v, b_v)))
        s = q @ k.T / math.sqrt(2)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        heads.append(e / e.sum(axis=-1, keepdims=True) @ v)
    by_hand = np.concatenate(heads, axis=-1) @ w_o + b_o
    got = ar.multi_head_attention(
        x, w_q, w_k, w_v, w_o, num_heads=3, b_q=b_q, b_k=b_k, b_v=b_v, b_o=b_o
    )
    assert np.allclose(got, by_hand, rtol=1e-12, atol=1e-12)
    # zero biases are the bias-free function exactly
    zero = np.zeros(6)
    plain = ar.multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads=3)
    with_zero = ar.multi_head_attention(
        x, w_q, w_k, w_v, w_o, num_heads=3, b_q=zero, b_k=zero, b_v=zero, b_o=zero
    )
    assert np.array_equal(plain, with_zero)


@pytest.mark.parametrize("name", ["b_q", "b_k", "b_v", "b_o"])
def test_multi_head_attention_bias_errors_name_the_bias(name: str) -> None:
    eye = np.eye(4)
    with pytest.raises(
        ValueError, match=rf"{name} must have shape \(d_model,\) = \(4,\), got \(3,\)"
    ):
        ar.multi_head_attention(
            np.ones((2, 4)), eye, eye, eye, eye, num_heads=2, **{name: np.ones(3)}
        )
    with pytest.raises(ValueError, match=f"{name} contains NaN"):
        ar.multi_head_attention(
            np.ones((2, 4)), eye, eye, eye, eye, num_heads=2, **{name: [0, np.nan, 0, 0]}
        )


# --- encoder_layer ---------------------------------------------------------------------


def _as_lists(layer: EncoderLayerWeights) -> dict[str, Any]:
    return {f.name: getattr(layer, f.name).tolist() for f in layer.__dataclass_fields__.values()}


@settings(max_examples=15, deadline=None)
@given(
    st.integers(0, 2**32 - 1), st.integers(1, 5), st.sampled_from([(4, 1), (4, 2), (6, 3), (8, 4)])
)
def test_encoder_layer_matches_the_plain_loop_oracle(
    seed: int, n: int, shape: tuple[int, int]
) -> None:
    d, heads = shape
    layer = EncoderLayerWeights.random(d, 4 * d, seed=seed)
    x = np.random.default_rng(seed + 1).standard_normal((n, d))
    ref = oracle.encoder_layer(x.tolist(), _as_lists(layer), heads, 1e-12)
    assert np.allclose(encoder_layer(x, layer, num_heads=heads), ref, rtol=1e-10, atol=1e-10)


def test_encoder_layer_is_post_ln_from_the_parts() -> None:
    layer = EncoderLayerWeights.random(8, 32, seed=7)
    x = np.random.default_rng(8).standard_normal((2, 5, 8))  # a batch of two sequences
    w = layer
    att = ar.multi_head_attention(
        x, w.w_q, w.w_k, w.w_v, w.w_o, num_heads=4, b_q=w.b_q, b_k=w.b_k, b_v=w.b_v, b_o=w.b_o
    )
    a = layer_norm(x + att, w.norm1_gain, w.norm1_bias, eps=1e-6)
    y = layer_norm(
        a + feed_forward(a, w.w_1, w.b_1, w.w_2, w.b_2), w.norm2_gain, w.norm2_bias, eps=1e-6
    )
    out, weights = encoder_layer(x, layer, num_heads=4, eps=1e-6, return_weights=True)
    assert np.allclose(out, y, rtol=1e-12, atol=1e-12)
    assert weights.shape == (2, 4, 5, 5)
    assert np.allclose(weights.sum(axis=-1), 1)


def test_encoder_layer_mask_hides_a_key() -> None:
    layer = EncoderLayerWeights.random(4, 8, seed=2)
    x = np.random.default_rng(0).standard_normal((3, 4))
    mask = np.array([True, True, False])  # nobody may attend to token 2
    _, w = encoder_layer(
        x, layer, num_heads=2, mask=np.broadcast_to(mask, (3, 3)), return_weights=True
    )
    assert np.all(w[..., 2] == 0)


def test_parameter_counts_add_up() -> None:
    layer = EncoderLayerWeights.random(384, 1536, seed=0, dtype=np.float32)
    counts = layer.parameter_counts()
    assert counts == {
        "attention": 4 * 384 * 384 + 4 * 384,
        "feed_forward": 2 * 384 * 1536 + 1536 + 384,
        "norms": 4 * 384,
    }


def test_encoder_layer_weights_check_shapes_on_creation() -> None:
    good = EncoderLayerWeights.random(4, 8, seed=0)
    fields = {f: getattr(good, f) for f in good.__dataclass_fields__}
    with pytest.raises(ValueError, match=r"w_k must have shape \(d_model, d_model\) = \(4, 4\)"):
        EncoderLayerWeights(**{**fields, "w_k": np.ones((4, 5))})
    with pytest.raises(ValueError, match=r"norm2_bias must have shape \(d_model,\) = \(4,\)"):
        EncoderLayerWeights(**{**fields, "norm2_bias": np.ones(3)})
    with pytest.raises(ValueError, match=r"w_2 must have shape \(d_ff, d_model\) = \(8, 4\)"):
        EncoderLayerWeights(**{**fields, "w_2": np.ones((4, 8))})


def test_encoder_layer_errors() -> None:
    layer = EncoderLayerWeights.random(4, 8, seed=0)
    with pytest.raises(ValueError, match=r"x must have rows of width d_model = 4"):
        encoder_layer(np.ones((2, 5)), layer, num_heads=2)
    with pytest.raises(ValueError, match="num_heads must divide d_model = 4"):
        encoder_layer(np.ones((2, 4)), layer, num_heads=3)
    with pytest.raises(ValueError, match="eps must be finite and > 0"):
        encoder_layer(np.ones((2, 4)), layer, num_heads=2, eps=0)
    with pytest.raises(ValueError, match="x contains NaN"):
        encoder_layer(np.full((2, 4), np.nan), layer, num_heads=2)
    with pytest.raises(ValueError, match="x holds no tokens"):
        encoder_layer(np.ones((0, 4)), layer, num_heads=2)
    with pytest.raises(TypeError, match="weights must be an EncoderLayerWeights, got dict"):
        encoder_layer(np.ones((2, 4)), {}, num_heads=2)  # type: ignore[arg-type]
