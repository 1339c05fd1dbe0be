"""Hidden checks for step 1: the dot product of two vectors.

Run them on any file: ``python checks.py ANSWER.py`` prints every check and exits
with status 0 only when all of them pass. Expected values are worked out by hand
(fixed cases) or by the plain formula below (seeded random cases).
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

TITLE = "Step 1, the dot product"
FUNCTION = "dot"
PARAMS = ("a", "b")
FALLBACK_HINT = "dot-wrong"

# The lesson's worked example: the query and its three keys.
Q = [1, 0, 1, 0]
K1, K2, K3 = [1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]


def expected(a: list[float], b: list[float]) -> float:
    """The definition, written independently of any answer."""
    return math.fsum(x * y for x, y in zip(a, b, strict=True))


def cases() -> list[h.Case]:
    fixed = [
        h.Case("worked example: q · k_1 = 1·1 + 0·0 + 1·1 + 0·0", (Q, K1), 2),
        h.Case("worked example: q · k_2 (orthogonal)", (Q, K2), 0),
        h.Case("worked example: q · k_3 (partial match)", (Q, K3), 1),
        h.Case("negative entries", ([1, 2, 3], [4, -5, 6]), 4 - 10 + 18),
        h.Case("fractions", ([0.5, -1.5], [2.0, 4.0]), 1.0 - 6.0),
        h.Case("vectors of length 1", ([3], [-2]), -6),
    ]
    rng = random.Random(101)
    seeded = []
    for i, n in enumerate((3, 5, 8), start=1):
        a, b = h.vector(rng, n), h.vector(rng, n)
        seeded.append(h.Case(f"random vectors {i} (length {n})", (a, b), expected(a, b)))
    return fixed + seeded


MISTAKES = [
    h.Mistake("dot-no-sum", lambda a, b: [x * y for x, y in zip(a, b)]),
    h.Mistake("dot-sums", lambda a, b: sum(a) * sum(b)),
    h.Mistake("dot-sums", lambda a, b: sum(a) + sum(b)),
    h.Mistake("return-in-loop", lambda a, b: a[0] * b[0]),
]


def properties(run: h.Runner) -> Iterator[h.Result]:
    """dot(a, b) == dot(b, a) on random vectors."""
    rng = random.Random(102)
    a, b = h.vector(rng, 6), h.vector(rng, 6)
    name = "order does not matter: dot(a, b) == dot(b, a)"
    ab, failure = run.call(name, (a, b))
    if failure is None:
        ba, failure = run.call(name, (b, a))
    if failure is not None:
        yield failure
        return
    reason = h.compare(ba, ab, 1e-9)
    yield run.check(
        name,
        (b, a),
        ok=reason is None,
        actual=ba,
        expected=f"the same as dot(a, b) = {h.show(ab)}",
        hint="dot-wrong",
        tol=1e-9,
        detail=reason or "",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
