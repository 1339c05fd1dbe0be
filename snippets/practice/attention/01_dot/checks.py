"""Hidden checks for step 1: the dot product of two vectors.

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

import _harness as h

from _worked_example import K, Q

TITLE = "Step 1, the dot product"
FUNCTION = "dot"
PARAMS = ("a", "b")
FALLBACK_HINT = "dot-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "dot-no-sum": "A dot product is ONE number: multiply matching entries and add the "
    "products up (a[0]*b[0] + a[1]*b[1] + ...), do not return the list of products.",
    "dot-sums": "Multiply matching entries pair by pair and then add: a[0]*b[0] + a[1]*b[1]"
    " + ... That is not the same as combining sum(a) and sum(b).",
    "return-in-loop": "Your function returns after the first pair: the `return` line is "
    "indented inside the loop. Move it out (dedent it) so that every pair is added first.",
    "dot-off-by-one": "Your loop misses an entry: range(len(a) - 1) stops before the last "
    "position and range(1, len(a)) skips position 0. Positions run from 0 to len(a) - 1: "
    "range(len(a)), or zip(a, b), visits every one of them.",
    "dot-wrong": "Walk through both lists together (zip(a, b)), multiply each pair of "
    "entries and add all the products.",
}

K1, K2, K3 = K  # the lesson's worked example: the query and its three keys


def expected(a: list[float], b: list[float]) -> float:
    """The definition, written independently of any answer."""
    return math.fsum(x * y for x, y in zip(a, b, strict=True))


def cases() -> list[h.Case]:
    by_hand = " + ".join(f"{a}·{b}" for a, b in zip(Q, K1, strict=True))
    fixed = [
        # tests/test_practice.py holds the words to the numbers: k_2 is orthogonal to q,
        # k_3 matches it in part.
        h.Case(f"worked example: q · k_1 = {by_hand}", (Q, K1), expected(Q, K1)),
        h.Case("worked example: q · k_2 (orthogonal)", (Q, K2), expected(Q, K2)),
        h.Case("worked example: q · k_3 (partial match)", (Q, K3), expected(Q, K3)),
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


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Returns the list of products instead of their sum.
        "elementwise": h.Mistake(
            "dot-no-sum",
            (
                (
                    "total = 0.0\n"
                    "    for x, y in zip(a, b):\n"
                    "        total += x * y\n"
                    "    return total"
                ),
                "return [x * y for x, y in zip(a, b)]",
            ),
        ),
        # The range starts at 1, as if positions were counted from 1: the first pair is skipped.
        "off_by_one_first": h.Mistake(
            "dot-off-by-one",
            (
                ("0.0\n    for x, y in zip(a, b):\n        total += x * y"),
                ("0\n    for i in range(1, len(a)):\n        total += a[i] * b[i]"),
            ),
        ),
        # The range stops one position early: the last pair of entries is never added.
        "off_by_one_last": h.Mistake(
            "dot-off-by-one",
            (
                ("0.0\n    for x, y in zip(a, b):\n        total += x * y"),
                ("0\n    for i in range(len(a) - 1):\n        total += a[i] * b[i]"),
            ),
        ),
        # Multiplies the two sums instead of the matching entries.
        "product_of_sums": h.Mistake(
            "dot-sums",
            (
                (
                    "total = 0.0\n"
                    "    for x, y in zip(a, b):\n"
                    "        total += x * y\n"
                    "    return total"
                ),
                "return sum(a) * sum(b)",
            ),
        ),
        # The `return` is indented inside the loop: only the first pair counts.
        "return_in_loop": h.Mistake("return-in-loop", ("return", "    return")),
        # Adds every entry of both lists: sum(a) + sum(b).
        "sum_of_sums": h.Mistake("dot-sums", ("x * y", "x + y")),
    },
)


def properties(run: h.Runner) -> Iterator[h.Result]:
    """dot(a, b) == dot(b, a) on random vectors."""
    rng = random.Random(102)
    a, b = h.vector(rng, 6), h.vector(rng, 6)
    yield run.relation(
        "order does not matter: dot(a, b) == dot(b, a)",
        (a, b),
        (b, a),
        expected="the same as dot(a, b)",
        hint="dot-wrong",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
