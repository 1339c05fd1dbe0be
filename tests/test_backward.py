"""The hand-written backward passes agree with central finite differences of their forwards.

Every gradient is checked entry by entry against ``(f(x + h) - f(x - h)) / 2h`` in
float64 on random cases, with ``L = sum(out * G)`` for a random ``G`` (so ``dL/dout = G``).
With h = 1e-6 the difference's own error is about h² · f''' ≈ 1e-12 plus rounding
(1e-16 / h ≈ 1e-10 relative), so 1e-6 relative is a loose bound that a wrong term
(a missing transpose, a missing scale, a wrong sign) still breaks by orders of magnitude.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import attention_ref as ar
from attention_ref.backward import cross_entropy_rows

H = 1e-6
RTOL = 1e-6

Array = npt.NDArray[np.float64]


def numeric_grad(f: Callable[[Array], float], x: Array) -> Array:
    """Central differences of the scalar function f at x, one entry at a time."""
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        bump = np.zeros_like(x)
        bump[i] = H
        grad[i] = (f(x + bump) - f(x - bump)) / (2 * H)
    return grad


def relative_error(got: Array, want: Array) -> float:
    """The largest difference, relative to the largest entry of the reference."""
    return float(np.max(np.abs(got - want)) / max(float(np.max(np.abs(want))), 1e-12))


ATTENTION_CASES: list[dict[str, Any]] = [
    {"shape_q": (3, 4), "shape_k": (5, 4), "d_v": 2},
    {"shape_q": (2, 3, 4, 3), "shape_k": (2, 3, 4, 3), "d_v": 2, "is_causal": True},
    {"shape_q": (2, 3, 4), "shape_k": (1, 5, 4), "d_v": 3, "mask": "bool"},  # k, v broadcast
    {"shape_q": (2, 3, 2), "shape_k": (2, 4, 2), "d_v": 2, "mask": "float", "scale": 0.7},
    {"shape_q": (2, 3, 2), "shape_k": (2, 3, 2), "d_v": 2, "mask": "full_row"},
    {"shape_q": (4,), "shape_k": (3, 4), "d_v": 2},  # one query vector
]


def make_case(case: dict[str, Any], seed: int) -> tuple[dict[str, Any], Array]:
    rng = np.random.default_rng(seed)
    q = rng.standard_normal(case["shape_q"])
    k = rng.standard_normal(case["shape_k"])
    v = rng.standard_normal((*case["shape_k"][:-1], case["d_v"]))
    args: dict[str, Any] = {"q": q, "k": k, "v": v}
    kind = case.get("mask")
    scores_shape = ar.attention_weights(q, k).shape  # (..., n_q, n_k), or (..., n_k)
    if kind == "bool":
        m = rng.random(scores_shape) < 0.7
        m[..., 0] = True  # every row keeps a key
        args["mask"] = m
    elif kind == "float":
        args["mask"] = rng.standard_normal(scores_shape)
    elif kind == "full_row":
        m = np.ones(scores_shape, dtype=bool)
        m[..., 1, :] = False  # query 1 sees no key: its output is 0, and so is its gradient
        args["mask"] = m
    if case.get("is_causal"):
        args["is_causal"] = True
    if "scale" in case:
        args["scale"] = case["scale"]
    out = ar.scaled_dot_product_attention(**args)
    g = rng.standard_normal(out.shape)
    return args, g


@pytest.mark.parametrize("case", ATTENTION_CASES, ids=lambda c: str(c.get("mask", c["shape_q"])))
def test_attention_backward_matches_finite_differences(case: dict[str, Any]) -> None:
    args, g = make_case(case, seed=len(str(case)))
    grads = ar.scaled_dot_product_attention_backward(grad_out=g, **args)
    for name, grad in zip("qkv", grads, strict=True):
        assert grad.shape == args[name].shape

        def loss(x: Array, name: str = name) -> float:
            return float(np.sum(ar.scaled_dot_product_attention(**(args | {name: x})) * g))

        want = numeric_grad(loss, args[name])
        assert relative_error(grad, want) < RTOL, f"grad_{name}"


def test_a_fully_masked_row_passes_no_gradient() -> None:
    args, g = make_case(ATTENTION_CASES[4], seed=1)
    grad_q, grad_k, grad_v = ar.scaled_dot_product_attention_backward(grad_out=g, **args)
    assert np.all(grad_q[..., 1, :] == 0.0)  # exactly: its weights are exact zeros
    assert np.isfinite(grad_k).all() and np.isfinite(grad_v).all()


def test_softmax_backward_matches_finite_differences_and_the_jacobian() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 3, 5))
    g = rng.standard_normal(x.shape)
    got = ar.softmax_backward(ar.softmax(x), g)
    want = numeric_grad(lambda x_: float(np.sum(ar.softmax(x_) * g)), x)
    assert relative_error(got, want) < RTOL
    via_matrix = np.einsum("...ij,...j->...i", ar.softmax_jacobian(ar.softmax(x)), g)
    assert relative_error(got, via_matrix) < 1e-12  # J is symmetric: Jᵀg = Jg
    along_0 = ar.softmax_backward(ar.softmax(x, axis=0), g, axis=0)
    want_0 = numeric_grad(lambda x_: float(np.sum(ar.softmax(x_, axis=0) * g)), x)
    assert relative_error(along_0, want_0) < RTOL


def test_linear_backward_matches_finite_differences() -> None:
    rng = np.random.default_rng(4)
    x, w = rng.standard_normal((2, 3, 4)), rng.standard_normal((4, 5))
    g = rng.standard_normal((2, 3, 5))
    grad_x, grad_w = ar.linear_backward(x, w, g)
    assert relative_error(grad_x, numeric_grad(lambda x_: float(np.sum((x_ @ w) * g)), x)) < RTOL
    assert relative_error(grad_w, numeric_grad(lambda w_: float(np.sum((x @ w_) * g)), w)) < RTOL


def test_embedding_backward_matches_finite_differences() -> None:
    rng = np.random.default_rng(5)
    table = rng.standard_normal((6, 3))
    ids = np.array([[0, 2, 2], [5, 0, 2]])  # 2 repeats and tokens 1, 3, 4 absent
    g = rng.standard_normal((2, 3, 3))
    got = ar.embedding_backward(ids, g, 6)
    want = numeric_grad(lambda t: float(np.sum(t[ids] * g)), table)
    assert relative_error(got, want) < RTOL
    assert np.all(got[[1, 3, 4]] == 0.0)


def test_cross_entropy_and_its_backward() -> None:
    rng = np.random.default_rng(6)
    z = rng.standard_normal((2, 4, 7)) * 3
    t = rng.integers(0, 7, size=(2, 4))
    by_loop = np.mean(
        [
            -math.log(math.exp(z[b, i, t[b, i]]) / sum(math.exp(c) for c in z[b, i]))
            for b in range(2)
            for i in range(4)
        ]
    )
    assert math.isclose(ar.cross_entropy(z, t), by_loop, rel_tol=1e-12)
    assert math.isclose(float(np.mean(cross_entropy_rows(z, t))), by_loop, rel_tol=1e-12)
    got = ar.cross_entropy_backward(z, t)
    assert relative_error(got, numeric_grad(lambda z_: ar.cross_entropy(z_, t), z)) < RTOL
    assert ar.cross_entropy([[1e4, 0.0]], [0]) == 0.0  # no overflow


BAD_CALLS: list[tuple[Callable[[], object], type[Exception], str]] = [
    (
        lambda: ar.scaled_dot_product_attention_backward(
            np.ones((2, 4)), np.ones((3, 4)), np.ones((3, 2)), np.ones((2, 3))
        ),
        ValueError,
        r"grad_out must have the shape of the attention output, (2, 2), got (2, 3)",
    ),
    (
        lambda: ar.scaled_dot_product_attention_backward(
            np.ones((2, 4)), np.ones((3, 5)), np.ones((3, 2)), np.ones((2, 2))
        ),
        ValueError,
        "q and k must have the same last dimension d_k",
    ),
    (
        lambda: ar.scaled_dot_product_attention_backward(
            np.ones((2, 4)), np.ones((3, 4)), np.ones((3, 2)), np.full((2, 2), np.nan)
        ),
        ValueError,
        "grad_out contains NaN",
    ),
    (
        lambda: ar.scaled_dot_product_attention_backward(
            np.ones((2, 4)),
            np.ones((3, 4)),
            np.ones((3, 2)),
            np.ones((2, 2)),
            mask=np.ones((2, 3), dtype=bool),
            is_causal=True,
        ),
        ValueError,
        "give either mask or is_causal=True, not both",
    ),
    (
        lambda: ar.softmax_backward([0.5, 0.5], [1.0, 0.0, 0.0]),
        ValueError,
        "grad_out must have the shape of p (softmax's output), (2,), got (3,)",
    ),
    (
        lambda: ar.linear_backward(np.ones((2, 3)), np.ones((4, 5)), np.ones((2, 5))),
        ValueError,
        "w must have shape (d_in, d_out) with d_in = x's last dimension 3",
    ),
    (
        lambda: ar.embedding_backward([0, 7], np.ones((2, 3)), 5),
        ValueError,
        "ids must lie in 0 .. 4, got 7",
    ),
    (
        lambda: ar.embedding_backward([0.0, 1.0], np.ones((2, 3)), 5),
        TypeError,
        "ids must be integers, got dtype float64",
    ),
    (
        lambda: ar.cross_entropy(np.ones((3, 4)), [0, 1]),
        ValueError,
        "targets must have the logits' shape without the class axis, (3,), got (2,)",
    ),
    (
        lambda: ar.cross_entropy_backward(np.ones((2, 4)), [0, 4]),
        ValueError,
        "targets must lie in 0 .. 3, got 4",
    ),
]


@pytest.mark.parametrize(("call", "error", "message"), BAD_CALLS, ids=lambda x: "")
def test_bad_input_is_named(
    call: Callable[[], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        call()
