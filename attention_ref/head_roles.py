"""What one attention head mostly looks at: its role, a function of its weights.

For one head's ``(n, n)`` weights (rows are queries and sum to 1) four shares are
measured, each averaged over the query rows it applies to:

- ``special``: the weight on ``[CLS]`` and ``[SEP]`` together (every row);
- ``previous``: the weight on key ``i - 1`` (rows ``i >= 1``);
- ``self``: the weight on key ``i`` (every row);
- ``next``: the weight on key ``i + 1`` (rows ``i < n - 1``).

The head gets the role whose share is largest when that share, rounded to 3 decimals,
is at least ``threshold``; otherwise it is ``mixed`` and its share is the largest of the
four. Shares are compared after rounding so the label always agrees with the number
shown beside it; a tie goes to the role listed first in :data:`ROLES`.

These are the role names everywhere: in this module, in the site's data
(``site_build/heads_figure.py``), in the heads widget's JavaScript (``ROLE_KEYS``) and on
the pages; :data:`ROLES` gives the words a reader sees for each.

Examples
--------
>>> from attention_ref.head_roles import head_role, role_shares
>>> previous_token = [[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
>>> head_role(previous_token, ["a", "b", "c"])
{'role': 'previous', 'share': 1.0}
>>> [round(s, 3) for s in role_shares(previous_token, ["a", "b", "c"]).values()]
[0.0, 1.0, 0.333, 0.0]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

#: The default threshold: a head must put at least half its attention on one pattern.
THRESHOLD = 0.5

#: The tokens whose weight counts as ``special``.
SPECIAL_TOKENS = ("[CLS]", "[SEP]")

#: Every role with the words a reader sees; the first four are patterns, in the order
#: that breaks a tie.
ROLES: dict[str, str] = {
    "special": "mostly [CLS]/[SEP]",
    "previous": "mostly the previous token",
    "self": "mostly itself",
    "next": "mostly the next token",
    "mixed": "no single pattern",
}
PATTERNS = ("special", "previous", "self", "next")

ABOUT = (
    "For each head, the share of its attention that goes to [CLS]/[SEP], to the previous "
    "token, to itself and to the next token, each averaged over the query rows it applies "
    "to; the head takes the largest of the four when that share (rounded to 3 decimals) "
    "is at least the threshold, and is 'mixed' otherwise."
)

# Rows of stored data sum to 1 only up to rounding (n entries of 4 decimals each).
ROW_SUM_TOLERANCE = 0.01


def _as_weights(weights: Any, tokens: Sequence[str]) -> np.ndarray:
    """``weights`` as a checked ``(n, n)`` float array, or a ``ValueError`` naming it."""
    if isinstance(tokens, str) or not all(isinstance(t, str) for t in tokens):
        raise ValueError("tokens: must be a list of strings")
    n = len(tokens)
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ValueError(f"weights: not a matrix of numbers ({err})") from err
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ValueError(f"weights: must be a square (n, n) matrix, got shape {w.shape}")
    if w.shape[0] != n:
        raise ValueError(f"weights: shape {w.shape} does not match {n} tokens")
    if n < 2:
        raise ValueError(f"weights: need at least 2 tokens, got {n}")
    if not np.isfinite(w).all():
        raise ValueError("weights: holds a value that is not finite")
    if (w < 0).any():
        raise ValueError("weights: holds a negative value")
    sums = w.sum(axis=1)  # (n,)
    worst = int(np.argmax(np.abs(sums - 1.0)))
    if abs(sums[worst] - 1.0) > ROW_SUM_TOLERANCE:
        raise ValueError(
            f"weights: row {worst} sums to {float(sums[worst]):.4f}, not 1 "
            "(give weights in [0, 1], divided by the record's scale)"
        )
    return w


def role_shares(weights: Any, tokens: Sequence[str]) -> dict[str, float]:
    """The share of one head's attention that goes to each pattern, averaged over rows.

    Parameters
    ----------
    weights : array_like, shape (n, n)
        One head's attention weights; row ``i`` is query ``i`` and sums to 1.
    tokens : sequence of str
        The ``n`` tokens; ``[CLS]`` and ``[SEP]`` are found by name.

    Returns
    -------
    dict
        ``special``, ``previous``, ``self``, ``next``: floats in [0, 1], not rounded.

    Raises
    ------
    ValueError
        Naming ``weights`` or ``tokens``: not square, not as wide as the tokens, fewer
        than 2 tokens, a negative or non-finite value, a row that does not sum to 1.

    Examples
    --------
    A head where every query looks at ``[CLS]``: its ``special`` share is 1; query 0
    (``[CLS]`` itself) also counts towards ``self`` and query 1 towards ``previous``.

    >>> sink = [[1.0, 0.0, 0.0]] * 3
    >>> {k: round(v, 3) for k, v in role_shares(sink, ["[CLS]", "a", "[SEP]"]).items()}
    {'special': 1.0, 'previous': 0.5, 'self': 0.333, 'next': 0.0}
    >>> role_shares([[1.0]], ["a"])
    Traceback (most recent call last):
    ...
    ValueError: weights: need at least 2 tokens, got 1
    """
    w = _as_weights(weights, tokens)  # (n, n)
    special = [j for j, t in enumerate(tokens) if t in SPECIAL_TOKENS]
    return {
        "special": float(w[:, special].sum(axis=1).mean()) if special else 0.0,
        "previous": float(np.diagonal(w, offset=-1).mean()),  # w[i, i-1], i >= 1
        "self": float(np.diagonal(w).mean()),
        "next": float(np.diagonal(w, offset=1).mean()),  # w[i, i+1], i < n-1
    }


def classify(shares: Mapping[str, float], threshold: float = THRESHOLD) -> dict[str, Any]:
    """The role and share for a head's four :func:`role_shares`.

    Parameters
    ----------
    shares : mapping
        A share for each of ``special``, ``previous``, ``self``, ``next``.
    threshold : float
        In (0, 1]: the least share (after rounding to 3 decimals) a pattern needs.

    Returns
    -------
    dict
        ``{"role": str, "share": float}``, the share rounded to 3 decimals.

    Examples
    --------
    >>> classify({"special": 0.2, "previous": 0.5, "self": 0.5, "next": 0.1})
    {'role': 'previous', 'share': 0.5}
    >>> classify({"special": 0.4996, "previous": 0.1, "self": 0.1, "next": 0.1})
    {'role': 'special', 'share': 0.5}
    >>> classify({"special": 0.4994, "previous": 0.1, "self": 0.1, "next": 0.1})
    {'role': 'mixed', 'share': 0.499}
    >>> classify({"special": 0.4}, 0.5)
    Traceback (most recent call last):
    ...
    ValueError: shares: missing 'previous'
    """
    if isinstance(threshold, bool) or not isinstance(threshold, int | float):
        raise ValueError(f"threshold: must be a number, got {threshold!r}")
    if not (0.0 < threshold <= 1.0):
        raise ValueError(f"threshold: must be in (0, 1], got {threshold!r}")
    rounded = {}
    for key in PATTERNS:
        if key not in shares:
            raise ValueError(f"shares: missing {key!r}")
        value = float(shares[key])
        if not math.isfinite(value) or value < 0:
            raise ValueError(f"shares: {key!r} must be a finite number >= 0, got {value!r}")
        rounded[key] = round(value, 3)
    best = max(PATTERNS, key=lambda k: rounded[k])  # the first of equals wins
    role = best if rounded[best] >= threshold else "mixed"
    return {"role": role, "share": rounded[best]}


def head_role(weights: Any, tokens: Sequence[str], threshold: float = THRESHOLD) -> dict[str, Any]:
    """The role of one head: :func:`classify` of its :func:`role_shares`.

    Examples
    --------
    Uniform attention over 4 tokens puts 1/2 on ``[CLS]`` and ``[SEP]`` together:

    >>> head_role([[0.25] * 4] * 4, ["[CLS]", "a", "b", "[SEP]"])
    {'role': 'special', 'share': 0.5}
    >>> head_role([[0.25] * 4] * 4, ["[CLS]", "a", "b", "[SEP]"], threshold=0.6)
    {'role': 'mixed', 'share': 0.5}
    """
    return classify(role_shares(weights, tokens), threshold)
