"""Hidden checks for lesson 5, step 4: which key/value head a query head reads (GQA).

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand (fixed cases: the
groups are written out in the comments) or, for the seeded cases, by listing the groups
one after another, each key/value head repeated once per query head of its group (what
``repeat_interleave`` does in PyTorch), and reading entry i. The properties need no
formula: the whole map of a layer, an int for an answer, and a ValueError naming both
numbers when the heads cannot be split into equal groups.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Iterator
from typing import Any

import _harness as h

TITLE = "Lesson 5, step 4, query heads to key/value heads (grouped-query attention)"
FUNCTION = "kv_head"
PARAMS = ("i", "n_heads", "n_kv_heads")
FALLBACK_HINT = "gqa-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "gqa-interleaved": "i % n_kv_heads deals the query heads out in turn (0, 1, 0, 1, ...). "
    "The groups are CONSECUTIVE heads: with 8 query heads and 2 key/value heads, heads 0 to 3 "
    "read head 0 and heads 4 to 7 read head 1. Divide i by the size of a group.",
    "gqa-by-kv-heads": "Divide i by the size of a group, n_heads // n_kv_heads (how many query "
    "heads share one key/value head), not by n_kv_heads: the two are equal only when "
    "n_heads = n_kv_heads ** 2.",
    "gqa-off-by-one": "Heads are numbered from 0: head i is in group i // (n_heads // "
    "n_kv_heads). Adding 1 to i moves the last head of every group into the next one.",
    "gqa-true-division": "/ gives a float (5 / 4 = 1.25); a head's number is an int that "
    "indexes the list of key/value heads. Use floor division, //.",
    "gqa-no-error": "When n_heads is not a multiple of n_kv_heads the query heads cannot be "
    "split into equal groups, and no answer is right: raise ValueError, with a message "
    "that gives both numbers, e.g. 'n_heads (6) must be a multiple of n_kv_heads (4)'.",
    "gqa-error-message": "Raise a ValueError (not another error), and put both numbers in "
    "its message, so that whoever configured the layer sees what to change.",
    "gqa-wrong": "Each key/value head serves a group of n_heads // n_kv_heads consecutive "
    "query heads: return i // (n_heads // n_kv_heads).",
}


def expected(i: int, n_heads: int, n_kv_heads: int) -> int:
    """The groups written out one after another, each head repeated once per member."""
    group = n_heads // n_kv_heads
    heads = [head for head in range(n_kv_heads) for _ in range(group)]
    return heads[i]


def cases() -> list[h.Case]:
    fixed = [
        # Groups of 3: heads 0-2 read 0, 3-5 read 1, 6-8 read 2, 9-11 read 3. For
        # gqa-interleaved 2 % 4 = 2; gqa-off-by-one (2 + 1) // 3 = 1; gqa-true-division
        # 2 / 3. (gqa-by-kv-heads, 2 // 4 = 0, happens to be right here.)
        h.Case("12 query heads, 4 key/value heads: head 2 is in the first group", (2, 12, 4), 0),
        # Groups of 4: heads 4-7 read 1. For gqa-by-kv-heads 6 // 2 = 3; gqa-interleaved
        # 6 % 2 = 0; gqa-true-division 6 / 4 = 1.5.
        h.Case("8 query heads, 2 key/value heads: head 6 is in the second group", (6, 8, 2), 1),
        # For gqa-off-by-one: (3 + 1) // 4 = 1, the last head pushed into the next group.
        # gqa-interleaved gives 1 too.
        h.Case(
            "8 query heads, 2 key/value heads: head 3 is the last of the first group", (3, 8, 2), 0
        ),
        # Groups of 1 (multi-head attention). For gqa-by-kv-heads 5 // 6 = 0 and
        # gqa-off-by-one 6, a head that does not exist.
        h.Case(
            "6 query heads, 6 key/value heads (multi-head attention): head i reads head i",
            (5, 6, 6),
            5,
        ),
        # One group of 6 (multi-query attention). For gqa-by-kv-heads 5 // 1 = 5,
        # gqa-off-by-one 6 // 6 = 1, gqa-true-division 5 / 6.
        h.Case(
            "6 query heads, 1 key/value head (multi-query attention): all read head 0", (5, 6, 1), 0
        ),
        # Groups of 4, the last head. For gqa-by-kv-heads 31 // 8 = 3, gqa-off-by-one
        # 32 // 4 = 8 (no such head), gqa-true-division 7.75.
        h.Case("32 query heads, 8 key/value heads: the last head reads head 7", (31, 32, 8), 7),
    ]
    rng = random.Random(5401)
    seeded = []
    for number in range(1, 4):
        n_kv_heads, group = rng.choice((2, 4, 8)), rng.choice((2, 3, 4, 5))
        n_heads = n_kv_heads * group
        i = rng.randrange(n_heads)
        name = f"random case {number} ({n_heads} query heads, {n_kv_heads} key/value heads)"
        seeded.append(h.Case(name, (i, n_heads, n_kv_heads), expected(i, n_heads, n_kv_heads)))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Checks the groups with assert: an AssertionError with no message, not a ValueError
        # that says what is wrong.
        "asserts": h.Mistake(
            "gqa-error-message",
            (
                (
                    "if n_heads % n_kv_heads != 0:\n"
                    '        raise ValueError(f"n_heads ({n_heads}) must be a multiple of n_kv_heads ({n_kv_heads})")'
                ),
                "assert n_heads % n_kv_heads == 0",
            ),
            model=False,
        ),
        # Counts the query heads from 1, (i + 1) // group: the last head of each group is one
        # off.
        "counts_from_one": h.Mistake("gqa-off-by-one", ("return i", "return (i + 1)")),
        # Divides by the number of key/value heads, not by the size of a group.
        "divides_by_kv_heads": h.Mistake(
            "gqa-by-kv-heads", ("(n_heads // n_kv_heads)", "n_kv_heads")
        ),
        # Deals the query heads out in turn (interleaved), i % n_kv_heads, instead of in groups.
        "interleaved": h.Mistake("gqa-interleaved", ("// (n_heads // n_kv_heads)", "% n_kv_heads")),
        # Never checks that the groups are equal: 6 heads over 4 key/value heads gives an
        # answer.
        "no_error": h.Mistake(
            "gqa-no-error",
            (
                (
                    "    if n_heads % n_kv_heads != 0:\n"
                    '        raise ValueError(f"n_heads ({n_heads}) must be a multiple of n_kv_heads ({n_kv_heads})")\n'
                ),
                "",
            ),
            model=False,
        ),
        # Divides with /, which gives a float (1.25), not a head's number.
        "true_division": h.Mistake("gqa-true-division", ("/ (n_heads /", " (n_heads ")),
    },
)


def _names_both(error: str, n_heads: int, n_kv_heads: int) -> bool:
    """A ValueError whose message holds both numbers (as whole numbers)."""
    kind, _, message = error.partition(":")
    found = set(re.findall(r"\d+", message))
    return kind == "ValueError" and {str(n_heads), str(n_kv_heads)} <= found


def _raises(run: h.Runner, name: str, args: tuple[int, int, int]) -> h.Result:
    answer, failure = run.call(name, args)
    _, n_heads, n_kv_heads = args
    target = f"a ValueError whose message gives {n_heads} and {n_kv_heads}"
    if failure is None:
        result = run.check(
            name,
            args,
            ok=False,
            actual=answer,
            expected=target,
            hint="gqa-no-error",
            detail="the call returned an answer instead of raising an error",
        )
        result.tolerance = "none: the call must raise"
        return result
    if _names_both(failure.error, n_heads, n_kv_heads):
        return run.check(name, args, ok=True, actual=failure.error, expected=target, hint="")
    # The reader's own error, with its line: the wrong kind, or a message without the numbers.
    failure.name, failure.expected, failure.hint = name, target, "gqa-error-message"
    return failure


def properties(run: h.Runner) -> Iterator[h.Result]:
    """The map of a whole layer; an int; a clear error for groups that cannot be equal."""
    name = "the whole map, 12 query heads over 4 key/value heads: 0 0 0 1 1 1 2 2 2 3 3 3"
    target = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    answers: list[Any] = []
    for i in range(12):
        answer, failure = run.call(name, (i, 12, 4))
        if failure is not None:
            yield failure
            return
        answers.append(answer)
    reason = h.compare(answers, target, 0.0)
    yield run.check(
        name,
        (11, 12, 4),
        ok=reason is None,
        actual=answers,
        expected=f"for heads 0 to 11: {h.show(target)}",
        hint="gqa-wrong",
        detail=reason or "",
    )
    name = "the answer is an int (it indexes the list of key/value heads)"
    answer, failure = run.call(name, (4, 8, 2))
    if failure is not None:
        yield failure
        return
    ok = type(answer) is int
    yield run.check(
        name,
        (4, 8, 2),
        ok=ok,
        actual=answer,
        expected="1, an int",
        hint="gqa-true-division",
        detail="" if ok else f"the answer is {type(answer).__name__}, not int",
    )
    yield _raises(
        run, "6 query heads over 4 key/value heads: a ValueError giving 6 and 4", (5, 6, 4)
    )
    yield _raises(
        run, "4 query heads over 8 key/value heads: a ValueError giving 4 and 8", (1, 4, 8)
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
