"""Hidden checks for step 2: the scaled scores of one query against a list of keys.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand (fixed cases)
or by the plain formula below (the worked example's cases and the seeded random
cases). The worked example's inputs come from their one source,
``snippets/worked_example.py``: the build writes them into the copy you download.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator
from typing import Any

import _harness as h

from _worked_example import K, Q

TITLE = "Step 2, scaled scores"
FUNCTION = "scaled_scores"
PARAMS = ("q", "keys")
FALLBACK_HINT = "scores-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "no-sqrt": "You forgot the scale: divide every dot product by √d_k, the square root of "
    "the width of the query (math.sqrt(len(q))).",
    "divided-by-dk": "Your scores are divided by d_k, not by its square root: either by "
    "d_k itself, or by √d_k twice (for instance scores that were already scaled, divided "
    "again). Scale once: score / math.sqrt(len(q)).",
    "power-precedence": "** 1/2 is not a square root: ** binds tighter than /, and / works "
    "from left to right. Python reads len(q) ** 1/2 as (len(q) ** 1) / 2, that is d_k / 2, "
    "and x / d_k ** 1/2 as (x / d_k) / 2. Write math.sqrt(len(q)) or len(q) ** 0.5. (d_k / "
    "2 happens to equal √d_k when d_k is 4, as in the worked example.)",
    "sqrt-n-keys": "d_k is the width of the query and key vectors, len(q), not the number "
    "of keys len(keys).",
    "scores-wrong": "Each score is dot(q, k) / math.sqrt(len(q)), one per key, in the order"
    " of the keys.",
}


def expected(q: list[float], keys: list[list[float]]) -> list[float]:
    """The definition: q · k / √d_k for every key, d_k = len(q)."""
    return [math.fsum(a * b for a, b in zip(q, k, strict=True)) / math.sqrt(len(q)) for k in keys]


def _scaled(divisor: float, q: list[float], keys: list[list[float]]) -> list[float]:
    return [sum(a * b for a, b in zip(q, k)) / divisor for k in keys]


def cases() -> list[h.Case]:
    raw = [sum(a * b for a, b in zip(Q, k, strict=True)) for k in K]  # q·k, one per key
    fixed = [
        h.Case(
            f"worked example (d_k = {len(Q)}): {raw} / {math.sqrt(len(Q)):g}",
            (Q, K),
            expected(Q, K),
        ),
        # q·k = 9, 4.5, -9 and √9 = 3.
        h.Case(
            "d_k = 9, two keys: [9, 4.5, -9] / 3",
            ([1] * 9, [[1] * 9, [0.5] * 9, [-1] * 9]),
            [3.0, 1.5, -3.0],
        ),
        # q·k = 3·2 + 4·1 = 10 and √2.
        h.Case("d_k = 2, one key: 10 / √2", ([3, 4], [[2, 1]]), [10 / math.sqrt(2)]),
    ]
    rng = random.Random(201)
    seeded = []
    for i, (d_k, n_k) in enumerate(((2, 4), (5, 3), (16, 6)), start=1):
        q, keys = h.vector(rng, d_k), h.matrix(rng, n_k, d_k)
        name = f"random case {i} (d_k = {d_k}, {n_k} keys)"
        seeded.append(h.Case(name, (q, keys), expected(q, keys)))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Divides by d_k instead of its square root.
        "divided_by_dk": h.Mistake(
            "divided-by-dk",
            (
                ("scale = math.sqrt(len(q))\n    return [dot(q, k) / scale"),
                ("d_k = len(q)\n    return [dot(q, k) / d_k"),
            ),
        ),
        # Raw dot products: the √d_k scale is missing.
        "no_sqrt": h.Mistake(
            "no-sqrt",
            (("scale = math.sqrt(len(q))\n    return [dot(q, k) / scale"), "return [dot(q, k)"),
        ),
        # Writes the square root as `** 1/2`, which Python reads as `(d_k ** 1) / 2`.
        "power_precedence": h.Mistake(
            "power-precedence",
            (
                ("scale = math.sqrt(len(q))\n    return [dot(q, k) / scale"),
                ("d_k = len(q)\n    return [dot(q, k) / d_k**1 / 2"),
            ),
        ),
        # Takes d_k to be the number of keys instead of the width of the vectors.
        "sqrt_n_keys": h.Mistake(
            "sqrt-n-keys",
            (
                ("scale = math.sqrt(len(q))\n    return [dot(q, k) / scale"),
                "return [dot(q, k) / math.sqrt(len(keys))",
            ),
        ),
        # Writes √d_k as len(q) ** 1 / 2, which is d_k / 2.
        "power_half": h.Mistake("power-precedence", ("math.sqrt(len(q))", "len(q) ** 1 / 2")),
    },
)


def _reversed(answer: Any) -> Any:
    items = h.as_list(answer)
    return items[::-1] if items is not None else answer


def properties(run: h.Runner) -> Iterator[h.Result]:
    """Reversing the keys reverses the scores: one score per key, in the keys' order."""
    rng = random.Random(202)
    q, keys = h.vector(rng, 3), h.matrix(rng, 5, 3)
    yield run.relation(
        "one score per key, in the keys' order (keys reversed)",
        (q, keys),
        (q, keys[::-1]),
        expected="the scores for the keys in their order, reversed",
        hint="scores-wrong",
        predict=_reversed,
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
