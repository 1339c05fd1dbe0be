"""Positional information for attention: the sinusoidal encoding and rotary embeddings.

Attention compares every query with every key and sums values with weights that do
not depend on where a token sits: shuffle the tokens and the outputs are shuffled the
same way. Position has to be put in. Two ways of doing it without learning anything:

* the **sinusoidal encoding** (Vaswani et al., 2017) is a vector per position, added
  to the token's embedding before the first layer: entries ``2i`` and ``2i + 1`` of
  position ``p`` are ``sin(p * w_i)`` and ``cos(p * w_i)``, with frequencies
  ``w_i = base ** (-2i / d)`` that fall from 1 to almost ``1 / base``;
* **rotary embeddings** (RoPE, Su et al., 2021) leave the token vectors alone and
  rotate each query and key instead, pair of entries by pair of entries, by the angle
  ``p * w_i``: a query at ``i`` and a key at ``j`` then score ``q · k`` through the
  difference ``i - j`` only.

Both use the same frequencies (:func:`position_frequencies`). Pairs are consecutive
entries ``(2i, 2i + 1)``, as in both papers (some libraries pair entry ``i`` with entry
``i + d/2`` instead: the same maths on permuted columns).

>>> from attention_ref import sinusoidal_positions
>>> sinusoidal_positions(3, 4).round(3).tolist()  # (n_positions, d)
[[0.0, 1.0, 0.0, 1.0], [0.841, 0.54, 0.01, 1.0], [0.909, -0.416, 0.02, 1.0]]
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import numpy.typing as npt

from attention_ref import _validate

FloatArray = npt.NDArray[np.floating[Any]]

#: The base of the frequencies in both papers.
BASE = 10000.0


def _even_width(d: object, name: str) -> int:
    width = _validate.positive_int(d, name)
    if width % 2:
        raise ValueError(
            f"{name} must be even (entries come in (sin, cos) pairs, one per frequency), "
            f"got {width}"
        )
    return width


def position_frequencies(d: int, *, base: float = BASE) -> FloatArray:
    """The angular frequencies of the pairs of entries: ``w_i = base ** (-2i / d)``.

    Parameters
    ----------
    d : int
        The width of the vectors, even: there are ``d // 2`` pairs.
    base : float, keyword-only
        Greater than 1; 10,000 in both papers. The slowest pair turns by about
        ``1 / base`` radians per position.

    Returns
    -------
    numpy.ndarray, shape (d // 2,)
        Falling from ``w_0 = 1`` (one radian per position) geometrically.

    Raises
    ------
    ValueError
        If ``d`` is odd or smaller than 1, or ``base`` is not finite and > 1.
    TypeError
        If ``d`` is not an integer or ``base`` not a real number.

    Examples
    --------
    >>> from attention_ref import position_frequencies
    >>> position_frequencies(6, base=100.0).round(4).tolist()  # 100 ** (-0/6, -2/6, -4/6)
    [1.0, 0.2154, 0.0464]
    >>> position_frequencies(5)
    Traceback (most recent call last):
    ...
    ValueError: d must be even (entries come in (sin, cos) pairs, one per frequency), got 5
    """
    width = _even_width(d, "d")
    b = _validate.real_above(base, "base", 1, " (frequencies must fall)")
    exponents = np.arange(0, width, 2, dtype=np.float64) / width  # (d/2,): 2i / d
    return b**-exponents


def sinusoidal_positions(n_positions: int, d: int, *, base: float = BASE) -> FloatArray:
    """The sinusoidal positional encoding: one row of ``d`` entries per position.

    ``PE[p, 2i] = sin(p * w_i)`` and ``PE[p, 2i + 1] = cos(p * w_i)`` with
    ``w_i = base ** (-2i / d)`` (:func:`position_frequencies`). It is added to the token
    embeddings, row by row: ``Z = E + PE[:n]``.

    Parameters
    ----------
    n_positions : int
        How many positions, 0, 1, 2, ... (0 gives an empty table).
    d : int
        The width of a row, even.
    base : float, keyword-only
        Greater than 1; 10,000 in the paper.

    Returns
    -------
    numpy.ndarray, shape (n_positions, d)
        float64; every entry lies in [-1, 1] and every row has norm ``sqrt(d / 2)``.

    Raises
    ------
    ValueError
        If ``n_positions`` is negative, ``d`` odd or smaller than 1, ``base`` not > 1.
    TypeError
        If ``n_positions`` or ``d`` is not an integer.

    See Also
    --------
    sinusoidal_shift : the fixed matrix that moves a row ``k`` positions on.

    Examples
    --------
    >>> from attention_ref import sinusoidal_positions
    >>> pe = sinusoidal_positions(50, 8)
    >>> pe.shape
    (50, 8)
    >>> pe[0].tolist()  # position 0: sin 0 = 0 and cos 0 = 1 in every pair
    [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    >>> round(float(pe[1, 0]), 4), round(float(pe[1, 1]), 4)  # sin 1, cos 1
    (0.8415, 0.5403)
    >>> sinusoidal_positions(4, 3)
    Traceback (most recent call last):
    ...
    ValueError: d must be even (entries come in (sin, cos) pairs, one per frequency), got 3
    """
    n = _validate.positive_int(n_positions, "n_positions", allow_zero=True)
    freqs = position_frequencies(d, base=base)  # (d/2,)
    angles = np.arange(n, dtype=np.float64)[:, np.newaxis] * freqs  # (n, d/2)
    pe = np.empty((n, 2 * freqs.size), dtype=np.float64)  # (n, d)
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


def _rotations(angles: FloatArray) -> FloatArray:
    """A block-diagonal matrix of 2 x 2 blocks ``[[cos a, -sin a], [sin a, cos a]]``."""
    half = angles.size
    m = np.zeros((2 * half, 2 * half), dtype=np.float64)  # (d, d)
    c, s = np.cos(angles), np.sin(angles)
    idx = np.arange(half) * 2
    m[idx, idx] = c
    m[idx, idx + 1] = -s
    m[idx + 1, idx] = s
    m[idx + 1, idx + 1] = c
    return m


def sinusoidal_shift(k: float, d: int, *, base: float = BASE) -> FloatArray:
    """The fixed matrix ``M_k`` with ``PE[p + k] = PE[p] @ M_k`` for every position ``p``.

    For pair ``i``, ``(sin(a + b), cos(a + b))`` with ``a = p w_i`` and ``b = k w_i`` is
    ``(sin a, cos a)`` times ``[[cos b, -sin b], [sin b, cos b]]``: a rotation by
    ``k w_i`` that does not depend on ``p``. ``M_k`` is these blocks on its diagonal,
    so a layer can learn "look ``k`` tokens back" as one linear map, whatever ``p`` is.

    Parameters
    ----------
    k : float
        The shift, in positions (negative moves back).
    d : int
        The width of the encoding, even.
    base : float, keyword-only
        As in :func:`sinusoidal_positions`.

    Returns
    -------
    numpy.ndarray, shape (d, d)
        Orthogonal and block-diagonal (2 x 2 blocks); rows act on row vectors.

    Raises
    ------
    ValueError
        If ``k`` is not finite, ``d`` odd or smaller than 1, ``base`` not > 1.
    TypeError
        If ``k`` is not a real number.

    Examples
    --------
    >>> import numpy as np
    >>> from attention_ref import sinusoidal_positions, sinusoidal_shift
    >>> pe = sinusoidal_positions(20, 6)
    >>> m3 = sinusoidal_shift(3, 6)  # (6, 6)
    >>> bool(np.allclose(pe[5] @ m3, pe[8])), bool(np.allclose(pe[11] @ m3, pe[14]))
    (True, True)
    >>> sinusoidal_shift(1, 2).round(4).tolist()  # one pair, w_0 = 1: rotate by 1 radian
    [[0.5403, -0.8415], [0.8415, 0.5403]]
    """
    if isinstance(k, bool | np.bool_) or not isinstance(k, numbers.Real):
        raise TypeError(f"k must be a real number of positions, got {type(k).__name__} {k!r}")
    shift = float(k)
    if not math.isfinite(shift):
        raise ValueError(f"k must be finite, got {shift!r}")
    return _rotations(shift * position_frequencies(d, base=base))


def apply_rope(
    x: npt.ArrayLike, positions: npt.ArrayLike | None = None, *, base: float = BASE
) -> FloatArray:
    """Rotary position embedding: rotate each pair of entries of each row by its angle.

    Row ``t`` (at position ``p = positions[t]``) has its pair ``(x[2i], x[2i + 1])``
    turned by ``p * w_i``:
    ``(x[2i] cos(p w_i) - x[2i+1] sin(p w_i), x[2i] sin(p w_i) + x[2i+1] cos(p w_i))``.
    Apply it to the queries and the keys (after their projections, before the scores),
    never to the values. A rotation keeps lengths, and rotating ``q`` by angle ``A`` and
    ``k`` by ``B`` leaves the product of their pair depending on ``A - B`` only: the
    score of a query at ``i`` and a key at ``j`` depends on ``i - j``, not on ``i``.

    Parameters
    ----------
    x : array_like, shape (..., n, d)
        Queries or keys, one row per token; ``d`` even.
    positions : array_like, shape (n,) or broadcastable to (..., n), optional
        The position of each row; defaults to ``0, 1, ..., n - 1``. Real numbers.
    base : float, keyword-only
        As in :func:`position_frequencies`; 10,000 in the paper.

    Returns
    -------
    numpy.ndarray, shape (..., n, d)
        A new array; float32 stays float32 (computed in float64), integers become float64.

    Raises
    ------
    ValueError
        If ``x`` has fewer than 2 dimensions, an odd or zero width, a NaN or an infinity;
        if ``positions`` do not broadcast to ``x.shape[:-1]`` or are not finite.
    TypeError
        If ``x`` or ``positions`` is not real and numeric.

    Examples
    --------
    >>> import numpy as np
    >>> from attention_ref import apply_rope
    >>> apply_rope([[1.0, 0.0], [1.0, 0.0], [0.0, 2.0]]).round(4).tolist()  # d = 2: w = 1
    [[1.0, 0.0], [0.5403, 0.8415], [-1.8186, -0.8323]]
    >>> rng = np.random.default_rng(0)
    >>> q, k = rng.standard_normal((2, 8))  # one query, one key, d = 8
    >>> def score(i, j):  # the query at position i against the key at position j
    ...     return float(apply_rope(q[None], [i])[0] @ apply_rope(k[None], [j])[0])
    >>> round(score(7, 4), 6) == round(score(3, 0), 6) == round(score(103, 100), 6)
    True
    >>> apply_rope(np.ones((4, 3)))
    Traceback (most recent call last):
    ...
    ValueError: x must have an even width d (entries turn in pairs), got shape (4, 3)
    """
    arr = _validate.real_array(x, "x")
    _validate.ndim_at_least(arr, 2, "x", "(..., n, d)")
    d = arr.shape[-1]
    if d == 0 or d % 2:
        raise ValueError(
            f"x must have an even width d (entries turn in pairs), got shape {arr.shape}"
        )
    _validate.finite(arr, "x")
    n = arr.shape[-2]
    if positions is None:
        pos = np.arange(n, dtype=np.float64)  # (n,)
    else:
        pos = _validate.real_array(positions, "positions").astype(np.float64)
        try:
            fits = np.broadcast_shapes(pos.shape, arr.shape[:-1]) == arr.shape[:-1]
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(
                f"positions of shape {pos.shape} do not broadcast to x's rows "
                f"{arr.shape[:-1]} (one position per row of x {arr.shape})"
            )
        _validate.finite(pos, "positions")
    result, _ = _validate.working_dtype(arr)
    angles = pos[..., np.newaxis] * position_frequencies(d, base=base)  # (..., n, d/2)
    cos, sin = np.cos(angles), np.sin(angles)
    even = arr[..., 0::2].astype(np.float64)  # (..., n, d/2)
    odd = arr[..., 1::2].astype(np.float64)  # (..., n, d/2)
    out = np.empty(np.broadcast_shapes(arr.shape, (*angles.shape[:-1], d)), dtype=np.float64)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out.astype(result, copy=False)
