"""Hidden checks for lesson 2, step 2: split a sequence into heads.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are written out by hand
(fixed cases) or cut by the plain rule below (seeded random cases).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from typing import Any

import _harness as h

TITLE = "Lesson 2, step 2, split into heads"
FUNCTION = "split_heads"
PARAMS = ("x", "num_heads")
FALLBACK_HINT = "split-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "heads-interleaved": "Heads are consecutive blocks of columns: with d = 6 and 2 heads, "
    "heads[0] gets columns 0, 1, 2 and heads[1] gets columns 3, 4, 5. Taking every "
    "num_heads-th column (row[i::num_heads]) deals the columns out like cards instead.",
    "heads-swapped": "You made d / num_heads heads of width num_heads, the other way round. "
    "There are num_heads heads, and each is d_head = d / num_heads columns wide.",
    "heads-tokens": "You split the tokens (the rows) into groups. Every head sees EVERY "
    "token: it gets all n rows, each cut down to that head's block of columns.",
    "heads-outer": "The outer list is the heads: the answer has num_heads items, each a "
    "list of n rows of width d / num_heads. You built one list per token instead.",
    "heads-not-divisible": "When num_heads does not divide the width d of x, the heads "
    "cannot all have the same width: raise ValueError (saying that num_heads must divide "
    "d) instead of dropping or padding columns.",
    "split-wrong": "Head i gets columns i*d_head up to (not including) (i + 1)*d_head of "
    "every row, where d_head = len(x[0]) // num_heads: [row[i*d_head:(i + 1)*d_head] for "
    "row in x].",
}

Matrix = list[list[float]]


def expected(x: Matrix, num_heads: int) -> list[Matrix]:
    """Head i takes the i-th block of d / num_heads columns, column by column."""
    d_head = len(x[0]) // num_heads
    return [
        [[row[c] for c in range(i * d_head, (i + 1) * d_head)] for row in x]
        for i in range(num_heads)
    ]


def cases() -> list[h.Case]:
    x6 = [[0, 1, 2, 3, 4, 5], [10, 11, 12, 13, 14, 15]]
    x3 = [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], [13, 14, 15, 16, 17, 18]]
    fixed = [
        h.Case(
            "two tokens, d = 4, two heads of width 2",
            ([[1, 2, 3, 4], [5, 6, 7, 8]], 2),
            [[[1, 2], [5, 6]], [[3, 4], [7, 8]]],
        ),
        h.Case(
            "d = 6, two heads of width 3",
            (x6, 2),
            [[[0, 1, 2], [10, 11, 12]], [[3, 4, 5], [13, 14, 15]]],
        ),
        h.Case(
            "three tokens, d = 6, three heads of width 2",
            (x3, 3),
            [[[1, 2], [7, 8], [13, 14]], [[3, 4], [9, 10], [15, 16]], [[5, 6], [11, 12], [17, 18]]],
        ),
        h.Case("one head holds all of x", ([[1, 2, 3], [4, 5, 6]], 1), [[[1, 2, 3], [4, 5, 6]]]),
        h.Case(
            "as many heads as columns: one column each", ([[1, 2, 3]], 3), [[[1]], [[2]], [[3]]]
        ),
    ]
    rng = random.Random(1201)
    seeded = []
    for i, (n, d, num_heads) in enumerate(((3, 8, 4), (4, 6, 3), (2, 12, 2)), start=1):
        x = h.matrix(rng, n, d)
        name = f"random case {i} ({n} tokens, d = {d}, {num_heads} heads)"
        seeded.append(h.Case(name, (x, num_heads), expected(x, num_heads)))
    return fixed + seeded


def _blocks_of(x: Matrix, width: int, count: int) -> list[Matrix]:
    return [[row[i * width : (i + 1) * width] for row in x] for i in range(count)]


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Uses num_heads as the width of a block: d / h heads of width h, the other way round.
        "block_width": h.Mistake(
            "heads-swapped",
            (
                (
                    'f"num_heads = {num_heads} does not divide the width of x, {d}")\n'
                    "    d_head = d // num_heads\n"
                    "    return [[row[i * d_head : (i + 1) * d_head] for row in x] for i in range(num_heads"
                ),
                (
                    '"num_heads must divide the width of x")\n'
                    "    return [[row[i * num_heads : (i + 1) * num_heads] for row in x] for i in range(d // num_heads"
                ),
            ),
        ),
        # Deals the columns out like cards: head i gets columns i, i + h, i + 2h, ...
        "interleaved": h.Mistake(
            "heads-interleaved",
            (
                (
                    "d = len(x[0])\n"
                    "    if d % num_heads != 0:\n"
                    '        raise ValueError(f"num_heads = {num_heads} does not divide the width of x, {d}")\n'
                    "    d_head = d // num_heads\n"
                    "    return [[row[i * d_head : (i + 1) * d_head"
                ),
                (
                    "if len(x[0]) % num_heads != 0:\n"
                    '        raise ValueError("num_heads must divide the width of x")\n'
                    "    return [[row[i::num_heads"
                ),
            ),
        ),
        # Right blocks, but 6 columns and 4 heads silently give 4 heads of width 1.
        "no_divisibility_check": h.Mistake(
            "heads-not-divisible",
            (
                (
                    "d = len(x[0])\n"
                    "    if d % num_heads != 0:\n"
                    '        raise ValueError(f"num_heads = {num_heads} does not divide the width of x, {d}")\n'
                    "    d_head = d"
                ),
                "d_head = len(x[0])",
            ),
            model=False,
        ),
        # Right blocks, wrong nesting: one list per token holding its pieces (n x h x d_head).
        "per_token": h.Mistake(
            "heads-outer",
            (
                'f"num_heads = {num_heads} does not divide the width of x, {d}',
                '"num_heads must divide the width of x',
            ),
            ("row in x] for i in range(num_heads)", "i in range(num_heads)] for row in x"),
        ),
        # Splits the sequence (the rows) into groups of tokens instead of the columns.
        "split_tokens": h.Mistake(
            "heads-tokens",
            (
                (
                    "d = len(x[0])\n"
                    "    if d % num_heads != 0:\n"
                    '        raise ValueError(f"num_heads = {num_heads} does not divide the width of x, {d}")\n'
                    "    d_head = d // num_heads\n"
                    "    return [[row[i * d_head : (i + 1) * d_head] for row in x"
                ),
                (
                    "if len(x[0]) % num_heads != 0:\n"
                    '        raise ValueError("num_heads must divide the width of x")\n'
                    "    size = len(x) // num_heads\n"
                    "    return [x[i * size : (i + 1) * size"
                ),
            ),
        ),
    },
)


def properties(run: h.Runner) -> Iterator[h.Result]:
    """Six columns cannot be shared by four heads: the call must raise ValueError."""
    name = "4 heads cannot share 6 columns: ValueError"
    args: tuple[Any, ...] = ([[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]], 4)
    answer, failure = run.call(name, args)
    if failure is not None and failure.hint in ("not-implemented", "timeout"):
        yield failure  # not written yet, or endless: say that, not "raise ValueError"
        return
    raised = failure is not None and failure.error.startswith("ValueError")
    if failure is None:
        actual: Any = answer
        detail = "no error was raised: columns were dropped or padded"
    else:
        actual = failure.error
        detail = "" if raised else f"raised {failure.error.split(':')[0]}, not ValueError"
    yield h.Result(
        name,
        raised,
        call=run.call_text(args),
        expected="ValueError, because 6 is not a multiple of 4",
        actual=h.show(actual) if failure is None else str(actual),
        tolerance="none: an error is expected, not a value",
        detail=detail,
        hint="" if raised else "heads-not-divisible",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
