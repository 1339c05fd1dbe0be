"""Hidden checks for lesson 2, step 3: merge the heads back into one sequence.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are written out by hand
(fixed cases) or joined by the plain rule below (seeded random cases); one case
merges what splitting a known x gives, so the answer must be x itself.
"""

from __future__ import annotations

import random
import sys

import _harness as h

TITLE = "Lesson 2, step 3, merge the heads"
FUNCTION = "merge_heads"
PARAMS = ("heads",)
FALLBACK_HINT = "merge-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "merge-stacked": "You stacked the heads one under the other (n * num_heads rows). "
    "Merging puts them SIDE BY SIDE: n rows, each row t made of row t of every head.",
    "merge-added": "You added the heads up. Merging joins them: no number is combined with "
    "another, each row just gets longer (num_heads * d_head entries).",
    "merge-interleaved": "You took the columns of the heads in turn. split_heads gives "
    "each head one consecutive block, so merging puts whole blocks back one after the "
    "other: all of heads[0]'s row, then all of heads[1]'s.",
    "merge-reversed": "Keep the heads in their order: heads[0]'s block comes first (columns "
    "0 to d_head - 1), then heads[1]'s, and so on.",
    "merge-wrong": "Row t of the answer is heads[0][t] + heads[1][t] + ... + heads[-1][t] "
    "(the lists joined, one after the other), for every token t.",
}

Matrix = list[list[float]]


def expected(heads: list[Matrix]) -> Matrix:
    """Row t: the rows t of all heads, joined in order."""
    merged = []
    for t in range(len(heads[0])):
        row: list[float] = []
        for head in heads:
            row += head[t]
        merged.append(row)
    return merged


def _split(x: Matrix, num_heads: int) -> list[Matrix]:
    width = len(x[0]) // num_heads
    return [[row[i * width : (i + 1) * width] for row in x] for i in range(num_heads)]


def cases() -> list[h.Case]:
    fixed = [
        h.Case(
            "two heads of width 2, two tokens",
            ([[[1, 2], [5, 6]], [[3, 4], [7, 8]]],),
            [[1, 2, 3, 4], [5, 6, 7, 8]],
        ),
        h.Case(
            "two heads of width 3, one token",
            ([[[1, 2, 3]], [[4, 5, 6]]],),
            [[1, 2, 3, 4, 5, 6]],
        ),
        h.Case(
            "three heads of width 1",
            ([[[1], [4]], [[2], [5]], [[3], [6]]],),
            [[1, 2, 3], [4, 5, 6]],
        ),
        h.Case(
            "one head: merging changes nothing", ([[[1, 2, 3], [4, 5, 6]]],), [[1, 2, 3], [4, 5, 6]]
        ),
    ]
    rng = random.Random(1301)
    x = h.matrix(rng, 3, 6)
    fixed.append(h.Case("merging the 3 heads of a 3 x 6 x gives x back", (_split(x, 3),), x))
    seeded = []
    for i, (num_heads, n, d_head) in enumerate(((4, 3, 2), (2, 4, 3), (3, 2, 2)), start=1):
        heads = [h.matrix(rng, n, d_head) for _ in range(num_heads)]
        name = f"random case {i} ({num_heads} heads of {n} tokens, width {d_head})"
        seeded.append(h.Case(name, (heads,), expected(heads)))
    return fixed + seeded


def _interleaved(heads: list[Matrix]) -> Matrix:
    return [
        [v for values in zip(*(hd[t] for hd in heads)) for v in values]
        for t in range(len(heads[0]))
    ]


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Adds the heads entry by entry instead of joining them: rows stay d_head wide.
        "added": h.Mistake(
            "merge-added",
            (
                ("n = len(heads[0])\n    return [[value for head in heads for value in head[t]"),
                (
                    "n, d_head = len(heads[0]), len(heads[0][0])\n"
                    "    return [[sum(head[t][c] for head in heads) for c in range(d_head)"
                ),
            ),
        ),
        # Deals the columns back in turn: heads[0]'s first, heads[1]'s first, ... (zip of the
        # rows).
        "interleaved": h.Mistake(
            "merge-interleaved",
            (
                (
                    "n = len(heads[0])\n"
                    "    return [[value for head in heads for value in head[t]] for t in range(n)]"
                ),
                (
                    "merged = []\n"
                    "    for t in range(len(heads[0])):\n"
                    "        row = []\n"
                    "        for values in zip(*(head[t] for head in heads)):\n"
                    "            row.extend(values)\n"
                    "        merged.append(row)\n"
                    "    return merged"
                ),
            ),
        ),
        # Joins the heads last one first.
        "reversed_heads": h.Mistake("merge-reversed", ("in heads", "in heads[::-1]")),
        # Puts the heads one under the other: n * h rows of width d_head.
        "stacked": h.Mistake(
            "merge-stacked",
            (
                (
                    "n = len(heads[0])\n"
                    "    return [[value for head in heads for value in head[t]] for t in range(n)]"
                ),
                (
                    "rows = []\n"
                    "    for head in heads:\n"
                    "        rows.extend(list(row) for row in head)\n"
                    "    return rows"
                ),
            ),
        ),
    },
)


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
