"""attention_ref.positions against hand-worked values, plain loops and its defining properties.

The oracles share no code with the module: the sinusoidal table is rebuilt entry by
entry with ``math.sin``/``math.cos``, the rotary embedding as complex multiplication
(a pair ``(a, b)`` is ``a + bi``, rotating it by an angle multiplies by ``e^{i angle}``).
"""

from __future__ import annotations

import cmath
import math
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_ref as ar

Array = npt.NDArray[Any]


def loop_sinusoidal(n: int, d: int, base: float = 10000.0) -> list[list[float]]:
    """PE[p][2i] = sin(p / base^(2i/d)), PE[p][2i+1] = cos(p / base^(2i/d)), one entry at a time."""
    table = []
    for p in range(n):
        row = []
        for j in range(d):
            i = j // 2
            angle = p / math.pow(base, 2 * i / d)
            row.append(math.sin(angle) if j % 2 == 0 else math.cos(angle))
        table.append(row)
    return table


def complex_rope(row: list[float], position: float, base: float = 10000.0) -> list[float]:
    """Rotate each pair (row[2i], row[2i+1]) as the complex number a + bi times e^{i p w_i}."""
    d = len(row)
    out: list[float] = []
    for i in range(d // 2):
        z = complex(row[2 * i], row[2 * i + 1]) * cmath.exp(1j * position * base ** (-2 * i / d))
        out += [z.real, z.imag]
    return out


# --- hand-worked values -------------------------------------------------------------------


def test_frequencies_by_hand() -> None:
    # d = 4, base 10,000: w_0 = 10000^0 = 1, w_1 = 10000^(-2/4) = 1/100.
    assert ar.position_frequencies(4).tolist() == [1.0, 0.01]
    # d = 2: a single pair turning one radian per position.
    assert ar.position_frequencies(2).tolist() == [1.0]
    # base 16, d = 8: 16^0, 16^(-1/4) = 1/2, 16^(-1/2) = 1/4, 16^(-3/4) = 1/8.
    assert ar.position_frequencies(8, base=16.0).tolist() == pytest.approx([1, 0.5, 0.25, 0.125])


def test_sinusoidal_by_hand() -> None:
    pe = ar.sinusoidal_positions(3, 4)
    # Position 0 is (sin 0, cos 0) in every pair.
    assert pe[0].tolist() == [0.0, 1.0, 0.0, 1.0]
    # Position 2: pair 0 turns 2 radians, pair 1 turns 2/100.
    assert pe[2].tolist() == pytest.approx(
        [math.sin(2), math.cos(2), math.sin(0.02), math.cos(0.02)], abs=1e-15
    )
    assert ar.sinusoidal_positions(0, 4).shape == (0, 4)


def test_shift_by_hand() -> None:
    # d = 4, k = 2: pair 0 turns by 2 radians, pair 1 by 0.02; off-diagonal blocks are 0.
    c0, s0, c1, s1 = math.cos(2), math.sin(2), math.cos(0.02), math.sin(0.02)
    expected = [[c0, -s0, 0, 0], [s0, c0, 0, 0], [0, 0, c1, -s1], [0, 0, s1, c1]]
    assert np.allclose(ar.sinusoidal_shift(2, 4), expected, rtol=0, atol=1e-15)
    assert ar.sinusoidal_shift(0, 6).tolist() == np.eye(6).tolist()


def test_rope_by_hand() -> None:
    # d = 2 (w = 1): (1, 0) at position 1 becomes (cos 1, sin 1); at position pi/2, (0, 1).
    out = ar.apply_rope([[1.0, 0.0], [1.0, 0.0]], [1.0, math.pi / 2])
    assert np.allclose(out, [[math.cos(1), math.sin(1)], [0.0, 1.0]], rtol=0, atol=1e-15)
    # Position 0 changes nothing.
    x = [[3.0, -1.0, 0.5, 2.0]]
    assert ar.apply_rope(x, [0]).tolist() == x
    # d = 4 at position 100: pair 0 turns 100 radians, pair 1 exactly 1 radian.
    out = ar.apply_rope([[0.0, 0.0, 2.0, 0.0]], [100])
    assert out[0, 2:].tolist() == pytest.approx([2 * math.cos(1), 2 * math.sin(1)], abs=1e-12)


# --- against the independent loops ----------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(0, 30),
    half=st.integers(1, 8),
    base=st.sampled_from([10000.0, 100.0, 2.5]),
)
def test_sinusoidal_matches_the_loop(n: int, half: int, base: float) -> None:
    got = ar.sinusoidal_positions(n, 2 * half, base=base)
    assert got.shape == (n, 2 * half)
    assert np.allclose(got, np.asarray(loop_sinusoidal(n, 2 * half, base)).reshape(n, 2 * half))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 6), half=st.integers(1, 6), seed=st.integers(0, 10_000))
def test_rope_matches_complex_multiplication(n: int, half: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 2 * half))
    positions = rng.uniform(-50, 500, n)
    got = ar.apply_rope(x, positions)
    expected = [complex_rope(row.tolist(), float(p)) for row, p in zip(x, positions, strict=True)]
    assert np.allclose(got, expected, atol=1e-12)
    # The default positions are 0, 1, ..., n - 1.
    assert np.allclose(
        ar.apply_rope(x), [complex_rope(row.tolist(), float(t)) for t, row in enumerate(x)]
    )


def test_rope_keeps_leading_dimensions_and_float32() -> None:
    x = np.random.default_rng(1).standard_normal((2, 3, 5, 4)).astype(np.float32)  # (b, h, n, d)
    out = ar.apply_rope(x)
    assert out.shape == x.shape and out.dtype == np.float32
    for b in range(2):
        for head in range(3):
            for t in range(5):
                assert np.allclose(out[b, head, t], complex_rope(x[b, head, t].tolist(), t))
    # One position per (batch, row): broadcastable positions.
    per_batch = np.array([[0, 1, 2, 3, 4], [10, 11, 12, 13, 14]])[:, None, :]  # (2, 1, 5)
    out = ar.apply_rope(x, per_batch)
    assert np.allclose(out[1, 2, 0], complex_rope(x[1, 2, 0].tolist(), 10), atol=1e-6)
    assert ar.apply_rope([[1, 0]]).dtype == np.float64  # integers become float64


# --- the properties the lesson shows -------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(p=st.integers(0, 400), k=st.integers(-100, 100), half=st.integers(1, 16))
def test_a_shift_is_one_fixed_linear_map_for_every_position(p: int, k: int, half: int) -> None:
    d = 2 * half
    pe = ar.sinusoidal_positions(600, d)
    m = ar.sinusoidal_shift(k, d)
    if 0 <= p + k < 600:
        assert np.allclose(pe[p] @ m, pe[p + k], atol=1e-9)
    # M_k is a rotation: orthogonal, determinant 1; M_k M_j = M_(k+j); M_-k undoes M_k.
    assert np.allclose(m @ m.T, np.eye(d), atol=1e-12)
    assert math.isclose(float(np.linalg.det(m)), 1.0, abs_tol=1e-9)
    assert np.allclose(m @ ar.sinusoidal_shift(7, d), ar.sinusoidal_shift(k + 7, d), atol=1e-9)
    assert np.allclose(m @ ar.sinusoidal_shift(-k, d), np.eye(d), atol=1e-9)


def test_the_shift_is_a_rotation_per_frequency_pair() -> None:
    d, k = 8, 5
    m = ar.sinusoidal_shift(k, d)
    freqs = ar.position_frequencies(d)
    for i in range(d // 2):
        block = m[2 * i : 2 * i + 2, 2 * i : 2 * i + 2]
        angle = k * freqs[i]
        assert np.allclose(
            block, [[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]]
        )
        rest = np.delete(m[2 * i : 2 * i + 2], [2 * i, 2 * i + 1], axis=1)
        assert not rest.any(), "a pair must not mix with another pair"


def test_every_row_of_the_encoding_has_the_same_norm() -> None:
    pe = ar.sinusoidal_positions(300, 16)
    assert np.allclose(np.linalg.norm(pe, axis=1), math.sqrt(8))
    assert np.abs(pe).max() <= 1.0


@settings(max_examples=40, deadline=None)
@given(
    i=st.integers(0, 300),
    j=st.integers(0, 300),
    shift=st.integers(-200, 200),
    seed=st.integers(0, 1000),
)
def test_rope_scores_depend_only_on_the_distance(i: int, j: int, shift: int, seed: int) -> None:
    q, k = np.random.default_rng(seed).standard_normal((2, 16))

    def score(a: float, b: float) -> float:
        return float(ar.apply_rope(q[None], [a])[0] @ ar.apply_rope(k[None], [b])[0])

    assert math.isclose(score(i, j), score(i + shift, j + shift), rel_tol=1e-9, abs_tol=1e-9)
    # And the rotation keeps lengths.
    assert math.isclose(
        float(np.linalg.norm(ar.apply_rope(q[None], [i]))), float(np.linalg.norm(q)), rel_tol=1e-12
    )


def test_added_positions_do_not_give_a_distance_only_score() -> None:
    """The contrast the lesson draws: with PE added to the vectors, q·k moves with i itself."""
    q, k = np.random.default_rng(3).standard_normal((2, 16))
    pe = ar.sinusoidal_positions(20, 16)
    scores = [float((q + pe[i]) @ (k + pe[i - 2])) for i in range(2, 20)]
    assert max(scores) - min(scores) > 0.1


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: ar.sinusoidal_positions(4, 5), ValueError, r"d must be even .* got 5"),
        (lambda: ar.sinusoidal_positions(4, 0), ValueError, r"d must be >= 1, got 0"),
        (lambda: ar.sinusoidal_positions(-1, 4), ValueError, r"n_positions must be >= 0, got -1"),
        (lambda: ar.sinusoidal_positions(2.5, 4), TypeError, r"n_positions must be an integer"),
        (
            lambda: ar.sinusoidal_positions(3, 4, base=1.0),
            ValueError,
            r"base must be finite and > 1",
        ),
        (lambda: ar.position_frequencies(4, base="x"), TypeError, r"base must be a real number"),
        (lambda: ar.sinusoidal_shift(math.inf, 4), ValueError, r"k must be finite, got inf"),
        (lambda: ar.sinusoidal_shift("2", 4), TypeError, r"k must be a real number"),
        (lambda: ar.apply_rope([1.0, 0.0]), ValueError, r"x must have shape \(\.\.\., n, d\)"),
        (lambda: ar.apply_rope(np.ones((3, 5))), ValueError, r"even width d .* got shape \(3, 5\)"),
        (lambda: ar.apply_rope(np.ones((3, 0))), ValueError, r"even width d .* got shape \(3, 0\)"),
        (
            lambda: ar.apply_rope(np.ones((3, 4)), [0, 1]),
            ValueError,
            r"positions of shape \(2,\) do not broadcast to x's rows \(3,\)",
        ),
        (
            lambda: ar.apply_rope(np.ones((3, 4)), [0, 1, math.nan]),
            ValueError,
            r"positions contains NaN",
        ),
        (lambda: ar.apply_rope([["a", "b"]]), TypeError, r"x must hold real numbers"),
        (lambda: ar.apply_rope([[math.inf, 0.0]]), ValueError, r"x contains an infinite value"),
    ],
)
def test_bad_input_is_named(call: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        call()
