"""Hidden checks for lesson 0, step 4: adding positions to the token vectors.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand
(fixed cases) or by the formula below (seeded random cases).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator

import _harness as h

TITLE = "Lesson 0, step 4, adding positions"
FUNCTION = "add_positions"
PARAMS = ("ids", "table")
FALLBACK_HINT = "add-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "add-from-one": "Places count from 0: the first token is at position 0 and gets "
    "sinusoidal(0, d) = [0, 1, 0, 1, ...]. enumerate(rows) gives t = 0, 1, 2, ...; do not "
    "add 1 to it.",
    "add-nothing": "The token vectors alone do not say where each token stands: a swapped "
    "sentence gives the same rows, swapped. Add sinusoidal(t, d) to row t.",
    "add-by-id": "The position is the token's PLACE t in the sentence, not its id: the same "
    "word at two places must get two different position vectors, sinusoidal(t, d).",
    "add-concatenated": "Add the two vectors entry by entry, so that Z keeps the width d of "
    "the table: row[j] + position[j]. Appending them gives rows of width 2d.",
    "add-wrong": "Row t of the answer is table[ids[t]][j] + sinusoidal(t, d)[j] for every "
    "entry j, with t = 0 for the first token and d = len(table[0]).",
}

Matrix = list[list[float]]


def position(p: int, d: int) -> list[float]:
    """Entry j of the sinusoidal vector of position p, pair j // 2 (independent form)."""
    return [
        (math.sin if j % 2 == 0 else math.cos)(p * math.exp(-math.log(1e4) * (j - j % 2) / d))
        for j in range(d)
    ]


def expected(ids: list[int], table: Matrix) -> Matrix:
    d = len(table[0])
    return [
        [a + b for a, b in zip(table[i], position(t, d), strict=True)] for t, i in enumerate(ids)
    ]


#: "dog bites man": three words of a tiny vocabulary, vectors of width 4.
WORDS = {"dog": 0, "bites": 1, "man": 2}
TABLE = [[1.0, 0.0, 0.5, 0.0], [0.0, 1.0, 0.0, 0.5], [0.5, 0.5, 1.0, 1.0]]


def cases() -> list[h.Case]:
    s1, c1 = math.sin(1), math.cos(1)
    s2, c2 = math.sin(2), math.cos(2)
    fixed = [
        # Position 0 adds [0, 1, 0, 1].
        h.Case("one token at position 0", ([1], TABLE), [[0.0, 2.0, 0.0, 1.5]]),
        # dog at 0, bites at 1 (pair 0 turns 1 radian, pair 1 1/100), man at 2.
        h.Case(
            "'dog bites man'",
            ([0, 1, 2], TABLE),
            [
                [1.0, 1.0, 0.5, 1.0],
                [s1, 1.0 + c1, math.sin(0.01), 0.5 + math.cos(0.01)],
                [0.5 + s2, 0.5 + c2, 1.0 + math.sin(0.02), 1.0 + math.cos(0.02)],
            ],
        ),
        h.Case(
            "'man bites dog'",
            ([2, 1, 0], TABLE),
            [
                [0.5, 1.5, 1.0, 2.0],
                [s1, 1.0 + c1, math.sin(0.01), 0.5 + math.cos(0.01)],
                [1.0 + s2, c2, 0.5 + math.sin(0.02), math.cos(0.02)],
            ],
        ),
        # d = 2: one pair. The same id at positions 0 and 1.
        h.Case("the same id twice, d = 2", ([0, 0], [[2.0, 3.0]]), [[2.0, 4.0], [2 + s1, 3 + c1]]),
    ]
    rng = random.Random(2004)
    seeded = []
    for i, (vocab, d, n) in enumerate(((6, 4, 4), (5, 6, 3), (9, 8, 6)), start=1):
        table = h.matrix(rng, vocab, d)
        ids = [rng.randrange(1, vocab) for _ in range(n)]
        name = f"random case {i} ({n} tokens, width {d})"
        seeded.append(h.Case(name, (ids, table), expected(ids, table)))
    return fixed + seeded


def _shifted(start: int) -> object:
    def z(ids: list[int], table: Matrix) -> Matrix:
        d = len(table[0])
        return [
            [a + b for a, b in zip(table[i], position(t + start, d), strict=True)]
            for t, i in enumerate(ids)
        ]

    return z


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Uses the token's id as its position: sinusoidal(ids[t], d) instead of sinusoidal(t,
        # d).
        "by_id": h.Mistake(
            "add-by-id",
            ("t, d))] for t, row in enumerate(rows", "i, d))] for i, row in zip(ids, rows"),
        ),
        # Appends the position vector to the token vector (width 2d) instead of adding it.
        "concatenated": h.Mistake(
            "add-concatenated",
            ("[e + s for e, s in zip(row, sinusoidal(t, d))]", "row + sinusoidal(t, d)"),
        ),
        # Numbers the places from 1: the first token gets the vector of position 1.
        "from_one": h.Mistake("add-from-one", ("sinusoidal(t", "sinusoidal(t + 1")),
        # Returns the token vectors alone: nothing tells one place from another.
        "no_positions": h.Mistake(
            "add-nothing",
            (
                (
                    "d = len(table[0])\n"
                    "    rows = embed(ids, table)\n"
                    "    return [[e + s for e, s in zip(row, sinusoidal(t, d))] for t, row in enumerate(rows)]"
                ),
                "return embed(ids, table)",
            ),
        ),
    },
)


def properties(run: h.Runner) -> Iterator[h.Result]:
    """'dog' at the start and 'dog' at the end of a sentence get different rows."""
    name = "a swapped sentence gives a different Z: 'dog' first and 'dog' last differ"
    first, failure = run.call(name, ([0, 1, 2], TABLE))
    if failure is None:
        second, failure = run.call(name, ([2, 1, 0], TABLE))
    if failure is not None:
        yield failure
        return
    rows1, rows2 = h.as_list(first) or [], h.as_list(second) or []
    same = len(rows1) == len(rows2) == 3 and h.compare(rows1[0], rows2[2], 1e-9) is None
    yield run.check(
        name,
        ([2, 1, 0], TABLE),
        ok=len(rows2) == 3 and not same,
        actual=second,
        expected="row 2 (dog at position 2) unlike row 0 of 'dog bites man' (dog at 0)",
        hint="add-nothing",
        detail="dog's row is the same at position 0 and at position 2",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
