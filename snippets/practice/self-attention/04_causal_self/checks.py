"""Hidden checks for lesson 2, step 4: causal self-attention over a whole sequence.

Run them on any file: ``python checks.py ANSWER.py`` prints every check and exits
with status 0 only when all of them pass. Expected values are worked out by hand
(fixed cases, written as closed forms) or by the plain formula below (seeded cases).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

try:
    import _harness as h
except ImportError:  # run from the repository: the harness sits two folders up
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    import _harness as h

TITLE = "Lesson 2, step 4, causal self-attention"
FUNCTION = "causal_self_attention"
PARAMS = ("q", "k", "v")
FALLBACK_HINT = "causal-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "causal-future": "Position i must not attend to later positions: only keys 0..i take "
    "part in its softmax. A later key or value changed an earlier output, so the future "
    "leaks into the past.",
    "causal-after-softmax": "You removed the future after the softmax, so the weights of "
    "position i add up to less than 1. Mask BEFORE the softmax: leave keys i+1.. out (or "
    "give them a score of -inf), so that keys 0..i share all of the weight.",
    "causal-off-by-one": "Position i attends to itself too: keys 0..i INCLUSIVE, "
    "range(i + 1). With range(i), position 0 has no key at all.",
    "causal-inverted": "Your mask is the wrong way round: position i attends to positions "
    "0..i (the past and itself), not to positions i..n-1.",
    "causal-no-scale": "Divide every score by sqrt(d_k), the width of a query (len(q[0])), "
    "before the softmax. Without it, wide vectors give large scores and a softmax that "
    "is almost one-hot.",
    "causal-wrong-scale": "Scale by sqrt(d_k), the square root of the width of the queries "
    "and keys: not by the number of positions, not by the width of the values, and not "
    "by d_k itself.",
    "no-max": "Subtract the largest score of each row before math.exp: exp of a large score "
    "overflows, and only the maximum keeps every exponent at most 0 with one of them "
    "exactly 0.",
    "causal-wrong": "For each position i: the scores q[i]·k[j] / sqrt(d_k) for j = 0..i, "
    "the softmax of those scores, then the weighted sum of v[0..i].",
}

E = math.e
Matrix = list[list[float]]
Allowed = Callable[[int, int, int], bool]  # (i, j, n) -> may position i attend to j?


def _past(i: int, j: int, n: int) -> bool:
    return j <= i


def _rows(
    q: Matrix,
    k: Matrix,
    v: Matrix,
    *,
    allowed: Allowed = _past,
    scale: float | None = None,
    after: bool = False,
) -> Matrix:
    """Attention of every position over the keys ``allowed`` lets it see.

    ``scale`` defaults to sqrt(d_k); ``after`` takes the softmax over every key and then
    zeroes the forbidden weights without renormalising (a mistake's model).
    """
    n = len(q)
    s = math.sqrt(len(q[0])) if scale is None else scale
    out = []
    for i in range(n):
        ok = [allowed(i, j, n) for j in range(n)]
        scores = [math.fsum(a * b for a, b in zip(q[i], k[j], strict=True)) / s for j in range(n)]
        live = scores if after else [x for x, y in zip(scores, ok, strict=True) if y]
        top = max(live)
        exps = [math.exp(x - top) if (after or y) else 0.0 for x, y in zip(scores, ok, strict=True)]
        total = math.fsum(exps)
        w = [e / total if y else 0.0 for e, y in zip(exps, ok, strict=True)]
        out.append(
            [math.fsum(a * row[c] for a, row in zip(w, v, strict=True)) for c in range(len(v[0]))]
        )
    return out


def expected(q: Matrix, k: Matrix, v: Matrix) -> Matrix:
    """Position i: softmax of q[i]·k[j] / sqrt(d_k) over j <= i, then the blend of v."""
    return _rows(q, k, v)


def cases() -> list[h.Case]:
    ones = [1, 1, 1, 1]
    fixed = [
        # All scores 0: equal weights over the positions seen, so row i averages v[0..i].
        h.Case(
            "zero queries: position i averages v[0..i]",
            ([[0, 0], [0, 0], [0, 0]], [[1, 2], [3, 4], [5, 6]], [[3, 0], [0, 3], [3, 3]]),
            [[3.0, 0.0], [1.5, 1.5], [2.0, 2.0]],
        ),
        # Position 1 scores 0 and 4 against keys 0 and 1, divided by sqrt(4) = 2: [0, 2].
        h.Case(
            "d_k = 4: the scores are divided by sqrt(4) = 2",
            ([ones, ones], [[0, 0, 0, 0], ones], [[1, 0], [0, 1]]),
            [[1.0, 0.0], [1 / (1 + E**2), E**2 / (1 + E**2)]],
        ),
        # d_k = 1 and scores ln 1, ln 2, ln 3: the weights of the last position are 1 : 2 : 3.
        h.Case(
            "three positions, d_k = 1: the last one weighs v as 1 : 2 : 3",
            (
                [[1], [1], [1]],
                [[0.0], [math.log(2)], [math.log(3)]],
                [[6, 0, 0], [0, 6, 0], [0, 0, 6]],
            ),
            [[6.0, 0.0, 0.0], [2.0, 4.0, 0.0], [1.0, 2.0, 3.0]],
        ),
        h.Case(
            "one position sees only itself", ([[5, -5]], [[1, 2]], [[3, 4, 5]]), [[3.0, 4.0, 5.0]]
        ),
        # Scaled scores of position 1: [1800, -1800]: all the weight on key 0.
        h.Case(
            "large scores must not overflow",
            ([[30] * 4, [30] * 4], [[30] * 4, [-30] * 4], [[1, 2], [3, 4]]),
            [[1.0, 2.0], [1.0, 2.0]],
        ),
    ]
    rng = random.Random(1401)
    seeded = []
    for i, (n, d_k, d_v) in enumerate(((4, 3, 2), (5, 4, 3), (3, 2, 5)), start=1):
        q, k, v = h.matrix(rng, n, d_k), h.matrix(rng, n, d_k), h.matrix(rng, n, d_v)
        name = f"random case {i} ({n} positions, d_k = {d_k}, values of width {d_v})"
        seeded.append(h.Case(name, (q, k, v), expected(q, k, v)))
    return fixed + seeded


def _everything(i: int, j: int, n: int) -> bool:
    return True


def _future(i: int, j: int, n: int) -> bool:
    return j >= i


MISTAKES = [
    h.Mistake("causal-future", lambda q, k, v: _rows(q, k, v, allowed=_everything)),
    h.Mistake("causal-after-softmax", lambda q, k, v: _rows(q, k, v, after=True)),
    h.Mistake("causal-inverted", lambda q, k, v: _rows(q, k, v, allowed=_future)),
    h.Mistake("causal-no-scale", lambda q, k, v: _rows(q, k, v, scale=1.0)),
    h.Mistake("causal-wrong-scale", lambda q, k, v: _rows(q, k, v, scale=math.sqrt(len(q)))),
    h.Mistake("causal-wrong-scale", lambda q, k, v: _rows(q, k, v, scale=math.sqrt(len(v[0])))),
    h.Mistake("causal-wrong-scale", lambda q, k, v: _rows(q, k, v, scale=float(len(q[0])))),
]


def explain_exception(exc: Exception, args: tuple[Matrix, Matrix, Matrix]) -> str | None:
    """No key at all for position 0 (max() of nothing, or 0/0) is the off-by-one."""
    if isinstance(exc, OverflowError):
        return "no-max"
    if isinstance(exc, ZeroDivisionError) or (isinstance(exc, ValueError) and "empty" in str(exc)):
        return "causal-off-by-one"
    return None


def properties(run: h.Runner) -> Iterator[h.Result]:
    """Changing the last position's key and value leaves every earlier output unchanged."""
    rng = random.Random(1402)
    n = 4
    q, k, v = h.matrix(rng, n, 3), h.matrix(rng, n, 3), h.matrix(rng, n, 2)
    changed = (q, [*k[:-1], [9.0, 9.0, 9.0]], [*v[:-1], [-50.0, 50.0]])
    yield run.relation(
        "the future does not leak: a new last key and value keep outputs 0..n-2",
        (q, k, v),
        changed,
        expected=f"the first {n - 1} outputs as before",
        hint="causal-future",
        part=lambda rows: (h.as_list(rows) or [])[: n - 1],
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
