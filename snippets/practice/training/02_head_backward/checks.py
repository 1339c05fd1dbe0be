"""Hidden checks for lesson 4, step 2: the gradients of one head's weights and values.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand
(fixed cases, the products in the comments) or by the plain sums below (seeded cases,
with weights made by a softmax of random scores); the properties need no expected value
(doubling g doubles both gradients; the rows of grad_v add up to the rows of g).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator
from typing import Any

import _harness as h

TITLE = "Lesson 4, step 2, the backward pass of one head's output"
FUNCTION = "head_backward"
PARAMS = ("p", "v", "g")
FALLBACK_HINT = "hb-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "hb-no-transpose": "The values' gradient is p^T g, not p g: value j was used by every "
    "query i with weight p[i][j], so grad_v[j][c] = p[0][j]*g[0][c] + p[1][j]*g[1][c] + ..., "
    "going down COLUMN j of p. grad_v has n_k rows, one per value, like v.",
    "hb-swapped": "Return the pair in the order (grad_p, grad_v): first the gradient of the "
    "weights (the shape of p, n_q x n_k), then the gradient of the values (the shape of v, "
    "n_k x d_v).",
    "hb-grad-p-transposed": "grad_p has the shape of p: one row per QUERY, one column per "
    "key. Entry [i][j] is query i's output gradient against value j, g[i] . v[j]; you built "
    "v g^T, one row per key, its transpose.",
    "hb-one-query": "Each value is used by every query, so its gradient adds up what all "
    "of them send back: grad_v[j][c] = sum over i of p[i][j] * g[i][c], not the first "
    "query's share alone.",
    "hb-through-softmax": "You passed g v^T through softmax's backward (step 1): that is "
    "dL/ds, the gradient of the scores. This step asks for dL/dp, the gradient of the "
    "weights themselves, one step earlier: grad_p = g v^T, nothing more.",
    "hb-shapes": "An index ran past the end of a list. p is n_q x n_k, v is n_k x d_v and g "
    "is n_q x d_v (read the sizes from the lists: len(p), len(v), len(v[0])); grad_p has "
    "the shape of p and grad_v the shape of v.",
    "hb-value-total": "Every query's weights add up to 1, so the gradient a query's output "
    "receives is shared out among the values in full: the rows of grad_v must add up, "
    "column by column, to the rows of g. grad_v = p^T g does that.",
    "hb-wrong": "grad_p[i][j] = sum over c of g[i][c] * v[j][c] (that is g v^T); grad_v[j][c] "
    "= sum over i of p[i][j] * g[i][c] (that is p^T g); return (grad_p, grad_v).",
}

Matrix = list[list[float]]


def _transpose(a: Matrix) -> Matrix:
    return [list(col) for col in zip(*a, strict=True)]


def _matmul(a: Matrix, b: Matrix) -> Matrix:
    """a b, refusing shapes that do not fit (a known mistake's model then answers nothing)."""
    if len(a[0]) != len(b):
        raise ValueError("shapes do not fit")
    return [
        [math.fsum(x * y for x, y in zip(row, col, strict=True)) for col in zip(*b)] for row in a
    ]


def expected(p: Matrix, v: Matrix, g: Matrix) -> tuple[Matrix, Matrix]:
    """Sums written out, entry by entry: grad_p = g v^T, grad_v = p^T g."""
    n_q, n_k, d_v = len(p), len(v), len(v[0])
    grad_p = [
        [math.fsum(g[i][c] * v[j][c] for c in range(d_v)) for j in range(n_k)] for i in range(n_q)
    ]
    grad_v = [
        [math.fsum(p[i][j] * g[i][c] for i in range(n_q)) for c in range(d_v)] for j in range(n_k)
    ]
    return grad_p, grad_v


def _softmax_rows(scores: Matrix) -> Matrix:
    rows = []
    for s in scores:
        top = max(s)
        exps = [math.exp(x - top) for x in s]
        total = math.fsum(exps)
        rows.append([e / total for e in exps])
    return rows


def _through_softmax(p: Matrix, v: Matrix, g: Matrix) -> tuple[Matrix, Matrix]:
    grad_p, grad_v = expected(p, v, g)
    grad_s = []
    for pr, gr in zip(p, grad_p, strict=True):
        mean = math.fsum(a * b for a, b in zip(pr, gr, strict=True))
        grad_s.append([a * (b - mean) for a, b in zip(pr, gr, strict=True)])
    return grad_s, grad_v


def cases() -> list[h.Case]:
    fixed = [
        # grad_p = g v^T: [1, 0] . [1, 2] = 1, [1, 0] . [3, 4] = 3; [0, 2] . [1, 2] = 4,
        # [0, 2] . [3, 4] = 8. grad_v = p^T g: value 0 gets 1*[1, 0] + 0.5*[0, 2] = [1, 1],
        # value 1 gets 0*[1, 0] + 0.5*[0, 2] = [0, 1]. Square, so that every known mistake
        # answers: for hb-no-transpose p g = [[1, 0], [0.5, 1]], hb-grad-p-transposed v g^T
        # = [[1, 4], [3, 8]], hb-one-query [[1, 0], [0, 0]], hb-through-softmax
        # [[0, 0], [-1, 1]], hb-swapped the pair the other way round.
        h.Case(
            "two queries, two keys, d_v = 2: every entry worked by hand",
            ([[1.0, 0.0], [0.5, 0.5]], [[1.0, 2.0], [3.0, 4.0]], [[1.0, 0.0], [0.0, 2.0]]),
            ([[1.0, 3.0], [4.0, 8.0]], [[1.0, 1.0], [0.0, 1.0]]),
            tol=1e-9,
        ),
        # grad_p = [[1 - 0, 0 - 1, 2 - 2]]; value j gets p[0][j] * [1, -1]. One query and
        # three keys: for hb-grad-p-transposed (3 x 1, not 1 x 3) and hb-swapped.
        h.Case(
            "one query, three keys: grad_p has the shape of p, grad_v the shape of v",
            ([[0.2, 0.3, 0.5]], [[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]], [[1.0, -1.0]]),
            ([[1.0, -1.0, 0.0]], [[0.2, -0.2], [0.3, -0.3], [0.5, -0.5]]),
            tol=1e-9,
        ),
        # For hb-one-query: each value gets 0.5 * [1, 0] from each of three queries,
        # [1.5, 0]; grad_p rows are [1, 0] . [2, 0] = 2 and [1, 0] . [0, 2] = 0.
        h.Case(
            "three queries share two values: a value's gradient adds up over the queries",
            (
                [[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]],
                [[2.0, 0.0], [0.0, 2.0]],
                [[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]],
            ),
            ([[2.0, 0.0], [2.0, 0.0], [2.0, 0.0]], [[1.5, 0.0], [1.5, 0.0]]),
            tol=1e-9,
        ),
        # Query 0 looks only at key 0, query 1 only at key 2: value 1, which nobody looks
        # at, gets no gradient. grad_p[i][j] = g[i][0] * v[j][0].
        h.Case(
            "hard attention: a value nobody attends to gets no gradient",
            ([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]], [[1.0], [2.0], [3.0]], [[5.0], [7.0]]),
            ([[5.0, 10.0, 15.0], [7.0, 14.0, 21.0]], [[5.0], [0.0], [7.0]]),
            tol=1e-9,
        ),
        # v = 0: grad_p = 0. Value 0 gets 0.25*[4, 0, -4] + 1*[1, 1, 1] = [2, 1, 0], value 1
        # gets 0.75*[4, 0, -4] + 0*[1, 1, 1] = [3, 0, -3].
        h.Case(
            "zero values: the weights get no gradient, the values still do",
            (
                [[0.25, 0.75], [1.0, 0.0]],
                [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
                [[4.0, 0.0, -4.0], [1.0, 1.0, 1.0]],
            ),
            ([[0.0, 0.0], [0.0, 0.0]], [[2.0, 1.0, 0.0], [3.0, 0.0, -3.0]]),
            tol=1e-9,
        ),
    ]
    rng = random.Random(4201)
    seeded = []
    for i, (n_q, n_k, d_v) in enumerate(((2, 3, 2), (3, 2, 4), (4, 4, 3)), start=1):
        p = _softmax_rows(h.matrix(rng, n_q, n_k))
        v, g = h.matrix(rng, n_k, d_v), h.matrix(rng, n_q, d_v)
        name = f"random case {i} (n_q = {n_q}, n_k = {n_k}, d_v = {d_v})"
        seeded.append(h.Case(name, (p, v, g), expected(p, v, g), tol=1e-9))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Writes the weights' gradient as v g^T (one row per key), the transpose of g v^T.
        "grad_p_transposed": h.Mistake(
            "hb-grad-p-transposed",
            (
                "g[i][c] * v[j][c] for c in range(d_v)) for j in range(n_k)] for i in range(n_q",
                "v[j][c] * g[i][c] for c in range(d_v)) for i in range(n_q)] for j in range(n_k",
            ),
        ),
        # Forgets the transpose in the values' gradient: p g instead of p^T g.
        "no_transpose": h.Mistake("hb-no-transpose", ("i][j", "j][i")),
        # Gives each value the gradient of the first query only, instead of the sum over
        # queries.
        "one_query": h.Mistake(
            "hb-one-query", ("sum(p[i][j] * g[i][c] for i in range(n_q))", "p[0][j] * g[0][c]")
        ),
        # Computes both gradients right and returns them in the wrong order, (grad_v, grad_p).
        "swapped": h.Mistake("hb-swapped", ("grad_p, grad_v", "grad_v, grad_p")),
        # Goes one step too far: passes g v^T back through softmax, giving dL/ds instead of
        # dL/dp.
        "through_softmax": h.Mistake(
            "hb-through-softmax",
            (
                "[sum(g[i][c] * v[j][c] for c in range(d_v)) for j in range(n_k)] for i in range(n_q)]",
                (
                    "]\n"
                    "    for i in range(n_q):\n"
                    "        row = [sum(g[i][c] * v[j][c] for c in range(d_v)) for j in range(n_k)]\n"
                    "        mean = sum(p[i][j] * row[j] for j in range(n_k))\n"
                    "        grad_p.append([p[i][j] * (row[j] - mean) for j in range(n_k)])"
                ),
            ),
        ),
    },
)


def explain_exception(exc: Exception, args: tuple[Matrix, Matrix, Matrix]) -> str | None:
    """An index past the end of a list: the sizes were not read from the right lists."""
    if isinstance(exc, IndexError):
        return "hb-shapes"
    return None


def _part(answer: Any, index: int) -> Any:
    items = h.as_list(answer)
    return items[index] if items is not None and len(items) == 2 else None


def properties(run: h.Runner) -> Iterator[h.Result]:
    """g enters both products once: doubling it doubles them; grad_v shares g out in full."""
    rng = random.Random(4202)
    p = _softmax_rows(h.matrix(rng, 3, 4))
    v, g = h.matrix(rng, 4, 2), h.matrix(rng, 3, 2)
    yield run.relation(
        "both gradients are linear in g: doubling g doubles grad_p and grad_v",
        (p, v, g),
        (p, v, [[2 * x for x in row] for row in g]),
        expected="twice the pair for g itself",
        hint="hb-wrong",
        predict=lambda pair: [
            [[2 * x for x in (h.as_list(row) or [])] for row in (h.as_list(part) or [])]
            for part in (h.as_list(pair) or [])
        ],
        tol=1e-9,
    )
    name = "the rows of grad_v add up to the rows of g (each query's weights add up to 1)"
    answer, failure = run.call(name, (p, v, g))
    if failure is not None:
        yield failure
        return
    rows = h.as_list(_part(answer, 1)) or []
    shaped = [h.as_list(r) or [] for r in rows]
    fits = len(shaped) == 4 and all(
        len(r) == 2 and all(isinstance(x, (int, float)) for x in r) for r in shaped
    )
    totals = [math.fsum(r[c] for r in shaped) for c in range(2)] if fits else [math.nan] * 2
    target = [math.fsum(row[c] for row in g) for c in range(2)]
    reason = h.compare(totals, target, 1e-9)
    yield run.check(
        name,
        (p, v, g),
        ok=reason is None,
        actual=answer,
        expected=f"grad_v (4 rows of 2) whose columns add up to {h.show(target)}",
        hint="hb-value-total",
        tol=1e-9,
        detail="" if reason is None else f"the columns of grad_v add up to {h.show(totals)}",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
