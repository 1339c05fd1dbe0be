"""Hidden checks for lesson 0, step 2: embedding lookup.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand
(fixed cases) or as one-hot rows times the table (seeded random cases).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator

import _harness as h

TITLE = "Lesson 0, step 2, embedding lookup"
FUNCTION = "embed"
PARAMS = ("ids", "table")
FALLBACK_HINT = "embed-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "embed-off-by-one": "Ids count from 0, like the rows of a Python list: the vector of id "
    "3 is table[3], the fourth row. table[token_id - 1] is the row of the id before.",
    "embed-column": "You took a COLUMN of the table (entry id of every row). The vector of a "
    "token is a ROW: table[token_id], d numbers long, one row per id of the vocabulary.",
    "embed-place": "You took the row of the token's PLACE in the sentence (row t for the "
    "t-th token). The row to take is the token's id: table[ids[t]]. The same id gives the "
    "same row wherever it stands.",
    "embed-summed": "Return one row per token, not their sum: a list of len(ids) rows. "
    "Adding the rows up loses the order of the words (a bag of words).",
    "embed-wrong": "For each id in ids, in order, take row table[id]: the answer has "
    "len(ids) rows of width len(table[0]).",
}

Matrix = list[list[float]]


def expected(ids: list[int], table: Matrix) -> Matrix:
    """One-hot row times the table, written independently of any answer."""
    vocab, d = len(table), len(table[0])
    out = []
    for token_id in ids:
        one_hot = [1.0 if v == token_id else 0.0 for v in range(vocab)]
        out.append([math.fsum(one_hot[v] * table[v][j] for v in range(vocab)) for j in range(d)])
    return out


TABLE = [[0.5, -1.0, 2.0], [1.0, 0.0, 0.0], [-2.0, 3.0, 1.5], [0.0, 0.25, -0.75], [4.0, 4.0, 4.0]]


def cases() -> list[h.Case]:
    wide = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15], [16, 17, 18, 19, 20]]
    fixed = [
        h.Case("one token: id 3 is row 3", ([3], TABLE), [[0.0, 0.25, -0.75]]),
        # The same id twice gives the same row twice.
        h.Case(
            "ids [2, 0, 2]: rows 2, 0 and 2 again",
            ([2, 0, 2], TABLE),
            [[-2.0, 3.0, 1.5], [0.5, -1.0, 2.0], [-2.0, 3.0, 1.5]],
        ),
        h.Case("id 0 is the first row", ([0, 4], TABLE), [[0.5, -1.0, 2.0], [4.0, 4.0, 4.0]]),
        # 4 ids in the vocabulary, vectors of width 5: a row has 5 numbers.
        h.Case(
            "a vocabulary of 4 ids, vectors of width 5",
            ([1, 3], wide),
            [[6, 7, 8, 9, 10], [16, 17, 18, 19, 20]],
        ),
    ]
    rng = random.Random(2002)
    seeded = []
    for i, (vocab, d, n) in enumerate(((6, 4, 3), (8, 2, 5), (5, 6, 2)), start=1):
        table = h.matrix(rng, vocab, d)
        ids = [rng.randrange(1, vocab) for _ in range(n)][::-1]
        name = f"random case {i} ({n} tokens, vocabulary {vocab}, width {d})"
        seeded.append(h.Case(name, (ids, table), expected(ids, table)))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Takes column id of the table (entry id of every row) instead of row id.
        "column": h.Mistake(
            "embed-column", ("list(table[token_id])", "[row[token_id] for row in table]")
        ),
        # Counts the rows from 1: takes row id - 1 (ids start at 0, like Python's lists).
        "off_by_one": h.Mistake("embed-off-by-one", ("table[token_id", "table[token_id - 1")),
        # Takes row t for the token at place t: the token's place instead of its id.
        "positions": h.Mistake(
            "embed-place", ("token_id]) for token_id in ids", "t]) for t in range(len(ids))")
        ),
        # Adds the rows up into one vector (a bag of words) instead of one row per token.
        "summed": h.Mistake(
            "embed-summed",
            (
                "return [list(table[token_id]) for token_id in ids",
                (
                    "d = len(table[0])\n"
                    "    return [sum(table[token_id][j] for token_id in ids) for j in range(d)"
                ),
            ),
        ),
    },
)


def explain_exception(exc: Exception, args: tuple[list[int], Matrix]) -> str | None:
    """An index past the end of a row: a column was looked up (ids go past the width)."""
    if isinstance(exc, IndexError):
        return "embed-column"
    return None


def properties(run: h.Runner) -> Iterator[h.Result]:
    """Reordering the ids reorders the rows, and nothing else changes."""
    ids = [4, 1, 2]
    yield run.relation(
        "reversing the ids reverses the rows",
        (ids, TABLE),
        (ids[::-1], TABLE),
        expected="the rows in reverse order",
        hint="embed-place",
        predict=lambda rows: (h.as_list(rows) or [])[::-1],
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
