"""Hidden checks for step 6 (bonus): several queries with a causal mask.

Run them on any file: ``python checks.py ANSWER.py`` prints every check and exits
with status 0 only when all of them pass. Expected values are worked out by hand
(fixed cases, written as closed forms) or by the plain formula below (seeded cases).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator
from pathlib import Path

try:
    import _harness as h
except ImportError:  # run from the repository: the harness sits one folder up
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import _harness as h

TITLE = "Step 6 (bonus), causal attention"
FUNCTION = "causal_attention"
PARAMS = ("queries", "keys", "values")
FALLBACK_HINT = "causal-wrong"

E = math.e
K = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]]
V = [[10, 0], [0, 5], [2, 2]]

Vector = list[float]
Matrix = list[list[float]]


def _one_query(q: Vector, keys: Matrix, values: Matrix) -> Vector:
    """softmax(q·k / √d_k) over the given keys, then the weighted sum of the values."""
    if not keys:  # only reached by the off-by-one model below: no key, a zero output
        return [0.0] * len(values[0]) if values else []
    scores = [math.fsum(a * b for a, b in zip(q, k, strict=True)) / math.sqrt(len(q)) for k in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = math.fsum(exps)
    columns = zip(*values, strict=True)
    return [math.fsum(e * x for e, x in zip(exps, col, strict=True)) / total for col in columns]


def expected(queries: Matrix, keys: Matrix, values: Matrix) -> Matrix:
    """Query i sees keys 0..i (True = may attend where j <= i)."""
    return [_one_query(q, keys[: i + 1], values[: i + 1]) for i, q in enumerate(queries)]


def cases() -> list[h.Case]:
    queries = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
    # Query 0 sees k_1 only: v_1. Query 1 sees k_1, k_2 with scaled scores [0, 1]: weights
    # 1/(1+e), e/(1+e). Query 2 scores 1 against every key: equal weights, the average.
    hand = [[10.0, 0.0], [10 / (1 + E), 5 * E / (1 + E)], [12 / 3, 7 / 3]]
    # Two positions, d_k = 2: query 1 scores 0 and 1 against keys 0 and 1, scaled by √2.
    w1 = math.exp(1 / math.sqrt(2)) / (1 + math.exp(1 / math.sqrt(2)))
    two = [[1.0, 2.0], [1 * (1 - w1) + 3 * w1, 2 * (1 - w1) + 4 * w1]]
    fixed = [
        h.Case("worked keys and values, three queries", (queries, K, V), hand),
        h.Case(
            "two positions: query 0 sees key 0 only",
            ([[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1, 2], [3, 4]]),
            two,
        ),
        h.Case(
            "one query sees its own key only", ([[5, -5]], [[1, 2]], [[3, 4, 5]]), [[3.0, 4.0, 5.0]]
        ),
    ]
    rng = random.Random(601)
    seeded = []
    for i, (n, d_k, d_v) in enumerate(((4, 3, 2), (5, 4, 3)), start=1):
        qs, ks, vs = h.matrix(rng, n, d_k), h.matrix(rng, n, d_k), h.matrix(rng, n, d_v)
        name = f"random case {i} ({n} positions, d_k = {d_k}, values of width {d_v})"
        seeded.append(h.Case(name, (qs, ks, vs), expected(qs, ks, vs)))
    return fixed + seeded


MISTAKES = [
    h.Mistake("no-mask", lambda qs, ks, vs: [_one_query(q, ks, vs) for q in qs]),
    h.Mistake(
        "mask-inverted",
        lambda qs, ks, vs: [_one_query(q, ks[i:], vs[i:]) for i, q in enumerate(qs)],
    ),
    h.Mistake(
        "mask-off-by-one",
        lambda qs, ks, vs: [_one_query(q, ks[:i], vs[:i]) for i, q in enumerate(qs)],
    ),
]


def explain_exception(exc: Exception, args: tuple[Matrix, Matrix, Matrix]) -> str | None:
    """An empty list of keys for query 0 (max() of nothing, or 0/0) is the off-by-one."""
    if isinstance(exc, OverflowError):
        return "no-max"
    if isinstance(exc, ZeroDivisionError) or (isinstance(exc, ValueError) and "empty" in str(exc)):
        return "mask-off-by-one"
    return None


def properties(run: h.Runner) -> Iterator[h.Result]:
    """Changing the last key and value must leave every earlier output unchanged."""
    rng = random.Random(602)
    n = 4
    queries, keys, values = h.matrix(rng, n, 3), h.matrix(rng, n, 3), h.matrix(rng, n, 2)
    changed = (queries, [*keys[:-1], [9.0, 9.0, 9.0]], [*values[:-1], [-50.0, 50.0]])
    name = "the future does not leak: changing the last key and value keeps outputs 0..n-2"
    before, failure = run.call(name, (queries, keys, values))
    if failure is None:
        after, failure = run.call(name, changed)
    if failure is not None:
        yield failure
        return
    head_before = (h.as_list(before) or [])[: n - 1]
    head_after = (h.as_list(after) or [])[: n - 1]
    reason = h.compare(head_after, head_before, 1e-9)
    if len(head_before) != n - 1:
        reason = f"expected {n} outputs"
    yield run.check(
        name,
        changed,
        ok=reason is None,
        actual=after,
        expected=f"the first {n - 1} outputs as before: {h.show(head_before)}",
        hint="causal",
        tol=1e-9,
        detail=reason or "",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
