"""Hidden checks for lesson 2, step 1: project a sequence (a matrix times a matrix).

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand
(fixed cases) or by the plain formula below (seeded random cases).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator

import _harness as h

TITLE = "Lesson 2, step 1, project a sequence"
FUNCTION = "project"
PARAMS = ("x", "w")
FALLBACK_HINT = "project-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "project-transposed": "You went along the rows of w. Entry [i][j] of x W is row i of x "
    "against COLUMN j of w: x[i][0]*w[0][j] + x[i][1]*w[1][j] + ... The lesson writes "
    "tokens as rows (Q = X W), so w has d_in rows and d_out columns.",
    "project-width": "An output row has one entry per COLUMN of w: d_out = len(w[0]). "
    "len(w) is the number of rows of w, d_in, the width of the tokens.",
    "project-elementwise": "You multiplied x and w entry by entry. In a matrix product each "
    "entry of the answer is a SUM of d_in products: row i of x times column j of w.",
    "project-one-row": "Return one projected row per token, in the order of the tokens: a "
    "list of n rows, not the projection of the first token only.",
    "project-wrong": "Entry [i][j] of the answer is the sum over k of x[i][k] * w[k][j]: "
    "build it for every token i (a row of x) and every column j of w.",
}

Matrix = list[list[float]]


def expected(x: Matrix, w: Matrix) -> Matrix:
    """X W, written independently of any answer: sums over the shared dimension."""
    columns = list(zip(*w, strict=True))  # d_out columns of length d_in
    return [
        [math.fsum(a * b for a, b in zip(row, col, strict=True)) for col in columns] for row in x
    ]


def cases() -> list[h.Case]:
    fixed = [
        # [1, 2] W = [1*5 + 2*7, 1*6 + 2*8]; [3, 4] W = [3*5 + 4*7, 3*6 + 4*8].
        h.Case(
            "two tokens, w of 2 x 2", ([[1, 2], [3, 4]], [[5, 6], [7, 8]]), [[19, 22], [43, 50]]
        ),
        # Tokens [1, 0] and [0, 1] pick rows of w; [1, 1] adds them.
        h.Case(
            "d_in = 2, d_out = 3: three tokens pick and add rows of w",
            ([[1, 0], [0, 1], [1, 1]], [[1, 2, 3], [4, 5, 6]]),
            [[1, 2, 3], [4, 5, 6], [5, 7, 9]],
        ),
        h.Case(
            "d_in = 3, d_out = 1: w of ones adds up each token",
            ([[1, 2, 3], [-1, 0, 1]], [[1], [1], [1]]),
            [[6], [0]],
        ),
        # [2, -1, 0.5] W = [2*1 + 0.5*2, -1*1 + 0.5*2].
        h.Case(
            "one token, d_in = 3, d_out = 2",
            ([[2, -1, 0.5]], [[1, 0], [0, 1], [2, 2]]),
            [[3.0, 0.0]],
        ),
        # The lesson's worked example: token 0 = [1, 0, 1, 0] adds rows 0 and 2 of W_Q.
        h.Case(
            "the lesson's worked example: Q = X W_Q",
            (
                [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]],
                [[0, 0, 0, 0], [-1, 1, 0, 0], [1, -1, 1, 0], [2, -2, 0, 1]],
            ),
            [[1, -1, 1, 0], [1, -1, 0, 1], [-1, 1, 0, 0]],
        ),
    ]
    rng = random.Random(1101)
    seeded = []
    for i, (n, d_in, d_out) in enumerate(((4, 3, 2), (3, 4, 4), (2, 2, 5)), start=1):
        x, w = h.matrix(rng, n, d_in), h.matrix(rng, d_in, d_out)
        name = f"random case {i} ({n} tokens, d_in = {d_in}, d_out = {d_out})"
        seeded.append(h.Case(name, (x, w), expected(x, w)))
    return fixed + seeded


def _along_rows(x: Matrix, w: Matrix) -> Matrix:
    return [[sum(a * b for a, b in zip(row, w_row)) for w_row in w] for row in x]


def _width_from_rows(x: Matrix, w: Matrix) -> Matrix:
    return [[sum(row[k] * w[k][j] for k in range(len(row))) for j in range(len(w))] for row in x]


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Multiplies x and w entry by entry (numpy's x * w, not x @ w).
        "elementwise": h.Mistake(
            "project-elementwise",
            (
                (
                    "d_in, d_out = len(w), len(w[0])\n"
                    "    return [[sum(row[k] * w[k][j] for k in range(d_in)) for j in range(d_out)] for row in x"
                ),
                "return [[a * b for a, b in zip(row, w_row)] for row, w_row in zip(x, w)",
            ),
        ),
        # Projects the first token only: one vector comes back instead of one row per token.
        "first_row_only": h.Mistake(
            "project-one-row",
            (
                (
                    "d_in, d_out = len(w), len(w[0])\n"
                    "    return [[sum(row[k] * w[k][j] for k in range(d_in)) for j in range(d_out)] for row in x"
                ),
                (
                    "row = x[0]\n"
                    "    return [sum(row[k] * w[k][j] for k in range(len(w))) for j in range(len(w[0]))"
                ),
            ),
        ),
        # Compares each token with the ROWS of w (x W^T, or W x with column vectors).
        "transposed": h.Mistake(
            "project-transposed",
            (
                (
                    "d_in, d_out = len(w), len(w[0])\n"
                    "    return [[sum(row[k] * w[k][j] for k in range(d_in)) for j in range(d_out)"
                ),
                "return [[sum(a * b for a, b in zip(row, w_row)) for w_row in w",
            ),
        ),
        # Gives each output row one entry per row of w (d_in) instead of per column (d_out).
        "width_from_rows": h.Mistake(
            "project-width",
            (
                (
                    "d_in, d_out = len(w), len(w[0])\n"
                    "    return [[sum(row[k] * w[k][j] for k in range(d_in)) for j in range(d_out)] for row in x]"
                ),
                (
                    "out = []\n"
                    "    for row in x:\n"
                    "        out.append([sum(row[k] * w[k][j] for k in range(len(row))) for j in range(len(w))])\n"
                    "    return out"
                ),
            ),
        ),
    },
)


def explain_exception(exc: Exception, args: tuple[Matrix, Matrix]) -> str | None:
    """An index past the end of a row of w, when w has more rows than columns: the width."""
    w = args[1]
    if isinstance(exc, IndexError) and w and len(w) > len(w[0]):
        return "project-width"
    return None


def properties(run: h.Runner) -> Iterator[h.Result]:
    """Every token on its own: reversing the tokens reverses the rows; w = I changes nothing."""
    rng = random.Random(1102)
    x, w = h.matrix(rng, 4, 3), h.matrix(rng, 3, 2)
    yield run.relation(
        "each token is projected on its own: reversing the tokens reverses the rows",
        (x, w),
        (x[::-1], w),
        expected="the rows in reverse order",
        hint="project-wrong",
        predict=lambda rows: (h.as_list(rows) or [])[::-1],
    )
    identity = [[1.0 if i == j else 0.0 for j in range(3)] for i in range(3)]
    answer, failure = run.call("the identity matrix gives x back", (x, identity))
    if failure is not None:
        yield failure
        return
    reason = h.compare(answer, x, 1e-9)
    yield run.check(
        "the identity matrix gives x back",
        (x, identity),
        ok=reason is None,
        actual=answer,
        expected=f"x itself: {h.show(x)}",
        hint="project-wrong",
        tol=1e-9,
        detail=reason or "",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
