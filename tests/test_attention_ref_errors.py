"""Bad input to attention_ref raises a clear error that names the argument and what was wrong."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import attention_ref as ar

Q = np.ones((2, 4))  # (n_q, d_k)
K = np.ones((3, 4))  # (n_k, d_k)
V = np.ones((3, 2))  # (n_k, d_v)


def sdpa(**kwargs: Any) -> Callable[[], object]:
    """A call of scaled_dot_product_attention with the worked shapes, some arguments replaced."""
    args = {"q": Q, "k": K, "v": V} | kwargs
    return lambda: ar.scaled_dot_product_attention(**args)


def weights(**kwargs: Any) -> Callable[[], object]:
    args = {"q": Q, "k": K} | kwargs
    return lambda: ar.attention_weights(**args)


def with_nan(shape: tuple[int, ...], value: float = math.nan) -> np.ndarray:
    a = np.ones(shape)
    a[-1, -1] = value
    return a


BAD_CALLS: list[tuple[str, Callable[[], object], type[Exception], str]] = [
    # --- shapes
    (
        "d_k of q and k differ",
        sdpa(q=np.ones((2, 5))),
        ValueError,
        r"q and k must have the same last dimension d_k, got q \(2, 5\) \(d_k=5\) and k \(3, 4\)",
    ),
    (
        "single query of the wrong width",
        lambda: ar.scores(np.ones(3), K),
        ValueError,
        r"q \(3,\) \(d_k=3\) and k \(3, 4\)",
    ),
    (
        "n_k of k and v differ",
        sdpa(v=np.ones((4, 2))),
        ValueError,
        r"k and v must hold the same number of rows n_k, got k \(3, 4\) \(n_k=3\) and v \(4, 2\)",
    ),
    (
        "no keys",
        sdpa(k=np.ones((0, 4)), v=np.ones((0, 2))),
        ValueError,
        r"k holds no keys \(n_k = 0",
    ),
    (
        "d_k = 0",
        lambda: ar.scores(np.ones((2, 0)), np.ones((3, 0))),
        ValueError,
        "d_k must be at least 1",
    ),
    (
        "k is 1-D",
        sdpa(k=np.ones(4)),
        ValueError,
        r"k must have shape \(\.\.\., n_k, d_k\).*1-D shape \(4,\)",
    ),
    (
        "v is 1-D",
        sdpa(v=np.ones(3)),
        ValueError,
        r"v must have shape \(\.\.\., n_k, d_v\).*1-D shape \(3,\)",
    ),
    ("q is a scalar", lambda: ar.scores(3.0, K), ValueError, r"q must have shape .*0-D shape \(\)"),
    (
        "batch dimensions clash",
        sdpa(q=np.ones((2, 2, 4)), k=np.ones((3, 3, 4)), v=np.ones((3, 3, 2))),
        ValueError,
        r"leading \(batch, head\.\.\.\) dimensions of q and k do not broadcast: \(2,\), \(3,\)",
    ),
    (
        "v's batch dimensions clash",
        sdpa(q=np.ones((2, 2, 4)), k=np.ones((2, 3, 4)), v=np.ones((5, 3, 2))),
        ValueError,
        r"dimensions of q, k and v do not broadcast",
    ),
    # --- masks
    (
        "mask of the wrong shape",
        sdpa(mask=np.ones((2, 4), dtype=bool)),
        ValueError,
        r"mask of shape \(2, 4\) does not broadcast to the scores' shape \(2, 3\)",
    ),
    (
        "mask that would enlarge the result",
        sdpa(mask=np.ones((5, 2, 3), dtype=bool)),
        ValueError,
        r"mask of shape \(5, 2, 3\) does not broadcast to the scores' shape \(2, 3\)",
    ),
    (
        "mask for a single query",
        lambda: ar.attention_weights(np.ones(4), K, mask=np.ones((2, 3), dtype=bool)),
        ValueError,
        r"mask of shape \(2, 3\) does not broadcast to the scores' shape \(3,\)",
    ),
    (
        "integer mask",
        sdpa(mask=np.ones((2, 3), dtype=int)),
        TypeError,
        "mask must be boolean .* got dtype int",
    ),
    (
        "string mask",
        sdpa(mask=[["a", "b", "c"]] * 2),
        TypeError,
        "mask must be boolean .* got dtype <U1",
    ),
    (
        "NaN in a float mask",
        sdpa(mask=with_nan((2, 3))),
        ValueError,
        r"mask contains NaN \(shape \(2, 3\)\)",
    ),
    (
        "+inf in a float mask",
        sdpa(mask=with_nan((2, 3), math.inf)),
        ValueError,
        r"mask contains \+inf",
    ),
    (
        "mask and is_causal",
        sdpa(mask=np.ones((2, 3), dtype=bool), is_causal=True),
        ValueError,
        "either mask or is_causal=True, not both",
    ),
    ("is_causal not a bool", sdpa(is_causal="yes"), TypeError, "is_causal must be True or False"),
    # --- dtypes
    (
        "complex q",
        sdpa(q=Q.astype(complex)),
        TypeError,
        r"q must hold real numbers .* got dtype complex128 with shape \(2, 4\)",
    ),
    (
        "complex v",
        sdpa(v=V.astype(np.complex64)),
        TypeError,
        r"v must hold real numbers .* got dtype complex64",
    ),
    (
        "object k",
        sdpa(k=K.astype(object)),
        TypeError,
        "k must hold real numbers .* got dtype object",
    ),
    (
        "string q",
        sdpa(q=[["1", "2", "3", "4"]]),
        TypeError,
        "q must hold real numbers .* got dtype <U1",
    ),
    (
        "datetime v",
        sdpa(v=np.zeros((3, 2), dtype="datetime64[s]")),
        TypeError,
        "v must hold real numbers .* datetime64",
    ),
    ("ragged q", sdpa(q=[[1.0, 2.0], [1.0]]), TypeError, "q must be a numeric array"),
    # --- values
    ("NaN in q", sdpa(q=with_nan((2, 4))), ValueError, r"q contains NaN \(shape \(2, 4\)\)"),
    (
        "inf in k",
        sdpa(k=with_nan((3, 4), math.inf)),
        ValueError,
        r"k contains an infinite value \(shape \(3, 4\)\)",
    ),
    ("-inf in v", sdpa(v=with_nan((3, 2), -math.inf)), ValueError, r"v contains an infinite value"),
    ("NaN in v", sdpa(v=with_nan((3, 2))), ValueError, r"v contains NaN"),
    (
        "NaN in a single query",
        lambda: ar.scores([1.0, math.nan, 0.0, 0.0], K),
        ValueError,
        "q contains NaN",
    ),
    # --- scale
    ("zero scale", sdpa(scale=0.0), ValueError, r"scale must be finite and > 0, got 0\.0"),
    ("negative scale", weights(scale=-1.0), ValueError, r"scale must be finite and > 0, got -1\.0"),
    ("infinite scale", sdpa(scale=math.inf), ValueError, "scale must be finite and > 0, got inf"),
    ("NaN scale", sdpa(scale=math.nan), ValueError, "scale must be finite and > 0, got nan"),
    ("string scale", sdpa(scale="0.5"), TypeError, "scale must be a real number, got str"),
    ("bool scale", sdpa(scale=True), TypeError, "scale must be a real number, got bool"),
    (
        "array scale",
        sdpa(scale=np.array([0.5, 0.5])),
        TypeError,
        "scale must be a real number, got ndarray",
    ),
    (
        "bad scale in scaled_scores",
        lambda: ar.scaled_scores(Q, K, scale=-2),
        ValueError,
        "scale must be finite and > 0",
    ),
    # --- scale_scores
    (
        "scale_scores without d_k or scale",
        lambda: ar.scale_scores([1.0]),
        ValueError,
        "exactly one of d_k or scale",
    ),
    (
        "scale_scores with both",
        lambda: ar.scale_scores([1.0], 4, scale=0.5),
        ValueError,
        "exactly one of d_k or scale",
    ),
    (
        "scale_scores d_k = 0",
        lambda: ar.scale_scores([1.0], 0),
        ValueError,
        "d_k must be >= 1, got 0",
    ),
    (
        "scale_scores d_k float",
        lambda: ar.scale_scores([1.0], 4.0),  # type: ignore[arg-type]
        TypeError,
        "d_k must be an integer, got float",
    ),
    ("scale_scores NaN", lambda: ar.scale_scores([math.nan], 4), ValueError, r"s contains NaN"),
    (
        "scale_scores complex",
        lambda: ar.scale_scores([1j], 4),
        TypeError,
        "s must hold real numbers",
    ),
    # --- softmax
    (
        "softmax NaN",
        lambda: ar.softmax([0.0, math.nan]),
        ValueError,
        r"x contains NaN \(shape \(2,\)\)",
    ),
    ("softmax +inf", lambda: ar.softmax([0.0, math.inf]), ValueError, r"x contains \+inf"),
    (
        "softmax complex",
        lambda: ar.softmax([1j, 0]),
        TypeError,
        "x must hold real numbers .* complex128",
    ),
    ("softmax scalar", lambda: ar.softmax(1.0), ValueError, "x must have at least one dimension"),
    (
        "softmax bad axis",
        lambda: ar.softmax([[1.0, 2.0]], axis=2),
        ValueError,
        r"axis 2 is out of range for x with shape \(1, 2\)",
    ),
    # --- causal_mask
    ("causal_mask negative", lambda: ar.causal_mask(-1), ValueError, "n_q must be >= 0, got -1"),
    (
        "causal_mask float",
        lambda: ar.causal_mask(2.5),  # type: ignore[arg-type]
        TypeError,
        "n_q must be an integer, got float",
    ),
    (
        "causal_mask n_k",
        lambda: ar.causal_mask(2, "3"),  # type: ignore[arg-type]
        TypeError,
        "n_k must be an integer, got str",
    ),
    # --- entropy and the Jacobian
    ("entropy negative", lambda: ar.entropy([1.5, -0.5]), ValueError, "p must be non-negative"),
    ("entropy NaN", lambda: ar.entropy([math.nan, 1.0]), ValueError, "p contains NaN"),
    ("entropy scalar", lambda: ar.entropy(1.0), ValueError, "p must have at least one dimension"),
    (
        "jacobian object",
        lambda: ar.softmax_jacobian(np.array([None, 1.0])),
        TypeError,
        "p must hold real numbers",
    ),
    (
        "jacobian scalar",
        lambda: ar.softmax_jacobian(0.5),
        ValueError,
        r"p must have shape \(\.\.\., n\)",
    ),
]


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [pytest.param(call, error, message, id=name) for name, call, error, message in BAD_CALLS],
)
def test_bad_input_raises_a_clear_error(
    call: Callable[[], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        call()


def test_every_error_message_is_distinct_enough_to_name_its_argument() -> None:
    """Each case's message pattern mentions an argument name (a guard against vague messages)."""
    names = (
        "q",
        "k",
        "v",
        "mask",
        "scale",
        "is_causal",
        "d_k",
        "s",
        "x",
        "axis",
        "n_q",
        "n_k",
        "p",
    )
    for case, _, _, message in BAD_CALLS:
        words = set(re.findall(r"[a-z_]+", message))
        assert words & set(names), f"{case}: the expected message names no argument"


def test_scores_that_overflow_the_dtype_are_reported() -> None:
    big = np.full((1, 4), 3e38, dtype=np.float32)  # finite, but q·k overflows float32
    with pytest.raises(FloatingPointError, match="overflowed float32"):
        ar.scaled_dot_product_attention(big, big, np.ones((1, 2), dtype=np.float32), scale=1.0)


def test_errors_come_before_any_arithmetic() -> None:
    """A bad v is reported even though q and k would make numpy warn (huge scores)."""
    with pytest.raises(ValueError, match="k and v must hold the same number of rows"):
        big = np.full((2, 4), 3e38, dtype=np.float32)
        ar.scaled_dot_product_attention(big, big, np.ones((3, 1), dtype=np.float32), scale=1.0)
