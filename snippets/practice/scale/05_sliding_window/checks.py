"""Hidden checks for lesson 5, step 5: the causal sliding-window mask.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are written out by hand (fixed cases,
row by row) or, for the seeded cases, built from the keys each query sees, the range
max(0, i - window + 1) to i. The properties need no expected mask: a window of n or more
is the causal mask, and query i sees min(i + 1, window) keys.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from typing import Any

import _harness as h

TITLE = "Lesson 5, step 5, the sliding-window mask"
FUNCTION = "sliding_window_mask"
PARAMS = ("n", "window")
FALLBACK_HINT = "sw-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "sw-plus-one": "Each query sees one key too many: the window counts the query's own "
    "key too, so query i sees keys i - window + 1 to i (window keys), i.e. "
    "i - window < j <= i, not i - window <= j.",
    "sw-no-self": "Each query must see its own key: j <= i, not j < i. The window counts it: "
    "query i sees keys i - window + 1 to i.",
    "sw-symmetric": "A sliding window in a decoder is causal: it looks back only. Query i "
    "sees no key after it (j <= i), however close: |i - j| < window lets it see the future.",
    "sw-negative-index": "row[j] with a negative j counts from the END of the row in Python, "
    "so an early query whose window reaches before key 0 sees keys from the future (or the "
    "index runs off the row). Start the window at max(0, i - window + 1), or compare indices: "
    "i - window < j <= i.",
    "sw-not-bool": "Return booleans, True and False, not 1 and 0: a mask says whether a query "
    "may attend to a key (True = attend), as in the lessons and in PyTorch.",
    "sw-causal": "A window of n keys or more hides nothing the causal mask shows: every query "
    "sees every key up to itself, j <= i.",
    "sw-count": "Query i sees min(i + 1, window) keys: the window's keys, fewer at the start "
    "of the sequence where there are not that many before it.",
    "sw-wrong": "mask[i][j] is True exactly when i - window < j <= i: j not in the future, and "
    "among the window most recent keys, the query's own included.",
}

Mask = list[list[bool]]
T, F = True, False


def expected(n: int, window: int) -> Mask:
    """Row i: True on the keys max(0, i - window + 1) to i."""
    mask = []
    for i in range(n):
        seen = set(range(max(0, i - window + 1), i + 1))
        mask.append([j in seen for j in range(n)])
    return mask


def _negative_index(n: int, window: int) -> Mask:
    mask = []
    for i in range(n):
        row = [False] * n
        for j in range(i - window + 1, i + 1):
            row[j] = True  # a negative j wraps round to the end (IndexError below -n)
        mask.append(row)
    return mask


def cases() -> list[h.Case]:
    fixed = [
        # Window 2: each query sees itself and the key before it. For sw-plus-one (three
        # keys: row 2 is [T, T, T, F, F]); sw-no-self (the diagonal False); sw-symmetric
        # (row 0 is [T, T, F, F, F]: key 1 is in the future); sw-negative-index (row 0
        # sets row[-1], the last key: [T, F, F, F, T]); sw-not-bool (1 and 0).
        h.Case(
            "5 tokens, a window of 2: itself and the key before it",
            (5, 2),
            [
                [T, F, F, F, F],
                [T, T, F, F, F],
                [F, T, T, F, F],
                [F, F, T, T, F],
                [F, F, F, T, T],
            ],
        ),
        # Window 1: the diagonal only. For sw-no-self (nothing at all) and sw-plus-one
        # (the diagonal and the key before it).
        h.Case(
            "4 tokens, a window of 1: each query sees only itself",
            (4, 1),
            [[T, F, F, F], [F, T, F, F], [F, F, T, F], [F, F, F, T]],
        ),
        # Window n: the causal mask. For sw-symmetric (every key) and sw-negative-index
        # (row 0 sets row[-3] to row[0]: every key).
        h.Case(
            "4 tokens, a window of 4 = n: the causal mask",
            (4, 4),
            [[T, F, F, F], [T, T, F, F], [T, T, T, F], [T, T, T, T]],
        ),
        # A window longer than the sequence is the causal mask too. For
        # sw-negative-index: row[-9] of a row of 3 runs off the row (IndexError).
        h.Case(
            "3 tokens, a window of 10: the causal mask",
            (3, 10),
            [[T, F, F], [T, T, F], [T, T, T]],
        ),
        # Window 3 over 6 tokens: rows 3 to 5 slide. For sw-negative-index: row 1 sets
        # row[-1], the last key ([T, T, F, F, F, T]).
        h.Case(
            "6 tokens, a window of 3: the last 3 keys, itself included",
            (6, 3),
            [
                [T, F, F, F, F, F],
                [T, T, F, F, F, F],
                [T, T, T, F, F, F],
                [F, T, T, T, F, F],
                [F, F, T, T, T, F],
                [F, F, F, T, T, T],
            ],
        ),
        h.Case("one token, a window of 1: it sees itself", (1, 1), [[T]]),
    ]
    rng = random.Random(5501)
    seeded = []
    for number, n in enumerate((7, 8, 9), start=1):
        window = rng.randint(2, n - 2)
        name = f"random case {number} ({n} tokens, a window of {window})"
        seeded.append(h.Case(name, (n, window), expected(n, window)))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Sets row[j] for j from i - window + 1 to i: a negative j counts from the END of the
        # row, so early queries see keys from the future (or the index runs off the row).
        "negative_index": h.Mistake(
            "sw-negative-index",
            (
                "return [[i - window < j <= i for j in range(n)] for i in range(n)]",
                (
                    "mask = []\n"
                    "    for i in range(n):\n"
                    "        row = [False] * n\n"
                    "        for j in range(i - window + 1, i + 1):\n"
                    "            row[j] = True\n"
                    "        mask.append(row)\n"
                    "    return mask"
                ),
            ),
        ),
        # Leaves the query's own key out: i - window < j < i.
        "no_self": h.Mistake("sw-no-self", ("j <=", "j <")),
        # Returns 1 and 0 instead of True and False.
        "ones_and_zeros": h.Mistake(
            "sw-not-bool", ("i - window < j <= i", "1 if i - window < j <= i else 0")
        ),
        # A window on both sides, |i - j| < window: the query also sees future keys.
        "symmetric": h.Mistake("sw-symmetric", ("i - window < j <= i", "abs(i - j) < window")),
        # Counts the window without the query itself: window + 1 keys, i - window <= j <= i.
        "window_plus_one": h.Mistake("sw-plus-one", ("window <", "window <=")),
    },
)


def explain_exception(exc: Exception, args: tuple[int, int]) -> str | None:
    """An index below -n: the window reached back before key 0 and ran off the row."""
    n, window = args
    return "sw-negative-index" if isinstance(exc, IndexError) and window > n else None


def _rows(answer: Any, n: int) -> list[list[Any]] | None:
    rows = h.as_list(answer)
    if rows is None or len(rows) != n:
        return None
    lists = [h.as_list(row) for row in rows]
    return None if any(row is None or len(row) != n for row in lists) else lists  # type: ignore[return-value]


def properties(run: h.Runner) -> Iterator[h.Result]:
    """A window of n or more is the causal mask; query i sees min(i + 1, window) keys."""
    causal = [[j <= i for j in range(6)] for i in range(6)]
    for window in (6, 100):
        name = f"6 tokens, a window of {window}: exactly the causal mask (j <= i)"
        answer, failure = run.call(name, (6, window))
        if failure is not None:
            yield failure
            continue
        reason = h.compare(answer, causal, 0.0)
        yield run.check(
            name,
            (6, window),
            ok=reason is None,
            actual=answer,
            expected=f"the causal mask, {h.show(causal)}",
            hint="sw-causal",
            detail=reason or "",
        )
    n, window = 9, 4
    name = "9 tokens, a window of 4: query i sees min(i + 1, 4) keys"
    answer, failure = run.call(name, (n, window))
    if failure is not None:
        yield failure
        return
    rows = _rows(answer, n)
    counts = [sum(1 for x in row if x is True) for row in rows] if rows else None
    target = [min(i + 1, window) for i in range(n)]
    ok = counts == target
    yield run.check(
        name,
        (n, window),
        ok=ok,
        actual=answer,
        expected=f"rows with {h.show(target)} True entries",
        hint="sw-count",
        detail="" if ok else f"the rows hold {h.show(counts)} True entries",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
