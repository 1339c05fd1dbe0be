"""Hidden checks for lesson 4, step 1: the gradient through softmax, for one row.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand
(fixed cases, the arithmetic in the comments) or by the definition below, written with
exact sums (seeded cases, on weights made by a softmax of random scores); the properties
need no expected value (adding a constant to g changes nothing; the answer sums to 0;
the whole Jacobian diag(p) - p p^T, built entry by entry, times g gives the same).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator

import _harness as h

TITLE = "Lesson 4, step 1, softmax's backward pass"
FUNCTION = "softmax_backward"
PARAMS = ("p", "g")
FALLBACK_HINT = "sb-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "sb-no-dot": "You returned p[i] * g[i]. Softmax ties the weights together: raising one "
    "score lowers every other weight, so each entry also loses the weighted mean of g. "
    "Subtract it first: p[i] * (g[i] - (p[0]*g[0] + p[1]*g[1] + ...)).",
    "sb-diagonal": "p[i] * (1 - p[i]) is only the diagonal of softmax's Jacobian, how weight i "
    "moves with its own score. Score i moves every other weight too (by -p[i] * p[j]); all "
    "of it together is p[i] * (g[i] - sum over j of p[j] * g[j]).",
    "sb-sign": "The sign is flipped: the answer is p[i] * (g[i] - mean), where mean is "
    "p[0]*g[0] + p[1]*g[1] + ..., not p[i] * (mean - g[i]). A weight whose gradient is above "
    "the weighted mean gets a positive score gradient.",
    "sb-g-minus-p": "g - p is not the gradient through softmax. (softmax minus the one-hot "
    "target is the gradient of the cross-entropy loss with respect to the scores, a "
    "different function.) Here g is any gradient from above: return p[i] * (g[i] - "
    "sum over j of p[j] * g[j]).",
    "sb-unweighted": "Subtract the mean of g weighted by p, p[0]*g[0] + p[1]*g[1] + ..., "
    "not the plain average sum(g) / n. The two agree only when every weight is 1/n.",
    "sb-no-outer-p": "Multiply the difference by the weight: p[i] * (g[i] - mean). A score "
    "whose weight is nearly 0 barely moves the output, so its gradient is nearly 0 too.",
    "sb-shift-g": "Adding the same number c to every entry of g must change nothing: the "
    "weighted mean grows by c as well (the weights add up to 1), and the two cancel in "
    "g[i] - mean. Subtract the mean weighted by p.",
    "sb-sum-zero": "The entries of the answer must add up to 0: adding the same number to "
    "every score leaves softmax unchanged, so the loss cannot change in that direction. "
    "p[i] * (g[i] - sum over j of p[j] * g[j]) has that property.",
    "sb-wrong": "dL/ds[i] = p[i] * (g[i] - m), where m = p[0]*g[0] + p[1]*g[1] + ... is the "
    "mean of g weighted by the softmax's output p.",
}

Vector = list[float]


def expected(p: Vector, g: Vector) -> Vector:
    """The definition, written with exact sums (math.fsum)."""
    mean = math.fsum(pi * gi for pi, gi in zip(p, g, strict=True))
    return [pi * (gi - mean) for pi, gi in zip(p, g, strict=True)]


def jacobian_times(p: Vector, g: Vector) -> Vector:
    """The whole Jacobian J[i][j] = p[i] (1 if i == j else 0) - p[i] p[j], entry by entry,
    times g (J is symmetric, so J g is also the gradient dL/ds = J^T g)."""
    n = len(p)
    jac = [[p[i] * ((1.0 if i == j else 0.0) - p[j]) for j in range(n)] for i in range(n)]
    return [math.fsum(jac[i][j] * g[j] for j in range(n)) for i in range(n)]


def _softmax(scores: Vector) -> Vector:
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = math.fsum(exps)
    return [e / total for e in exps]


def _weighted_mean(p: Vector, g: Vector) -> float:
    return math.fsum(pi * gi for pi, gi in zip(p, g, strict=True))


def cases() -> list[h.Case]:
    fixed = [
        # p . g = 0.5*1 + 0.3*2 + 0.2*3 = 1.7; then 0.5*(1 - 1.7), 0.3*(2 - 1.7), 0.2*(3 - 1.7).
        # Every known mistake answers differently here: for sb-no-dot [0.5, 0.6, 0.6],
        # sb-diagonal [0.25, 0.42, 0.48], sb-sign the negation, sb-g-minus-p [0.5, 1.7, 2.8],
        # sb-unweighted (mean 2) [-0.5, 0, 0.2], sb-no-outer-p [-0.7, 0.3, 1.3].
        h.Case(
            "three weights: p . g = 0.5*1 + 0.3*2 + 0.2*3 = 1.7",
            ([0.5, 0.3, 0.2], [1.0, 2.0, 3.0]),
            [-0.35, 0.09, 0.26],
            tol=1e-9,
        ),
        # p . g = 0.2; 0.8*(0 - 0.2) and 0.2*(1 - 0.2).
        h.Case(
            "two weights: p . g = 0.8*0 + 0.2*1 = 0.2",
            ([0.8, 0.2], [0.0, 1.0]),
            [-0.16, 0.16],
            tol=1e-9,
        ),
        # p . g = 1, so every entry is 0.25*(g[i] - 1); for sb-diagonal: 0.75 * 0.25 * 4.
        h.Case(
            "equal weights 1/4: p . g = 4/4 = 1",
            ([0.25, 0.25, 0.25, 0.25], [4.0, 0.0, 0.0, 0.0]),
            [0.75, -0.25, -0.25, -0.25],
            tol=1e-9,
        ),
        # p . g = 2 (the weights add up to 1): every g[i] - 2 is 0. For sb-no-dot (2 p) and
        # sb-g-minus-p (2 - p), which do not vanish.
        h.Case(
            "the same gradient for every weight: nothing to pass back",
            ([0.6, 0.3, 0.1], [2.0, 2.0, 2.0]),
            [0.0, 0.0, 0.0],
            tol=1e-9,
        ),
        # p . g = -1, and 0 * (5 + 1), 1 * (-1 + 1), 0 * (2 + 1) are all 0. For
        # sb-unweighted (mean 2: -3 in the middle) and sb-no-outer-p ([6, 0, 3]).
        h.Case(
            "a saturated softmax (one weight is 1) passes no gradient",
            ([0.0, 1.0, 0.0], [5.0, -1.0, 2.0]),
            [0.0, 0.0, 0.0],
            tol=1e-9,
        ),
        h.Case(
            "a single score: softmax is always 1, the gradient 0",
            ([1.0], [3.0]),
            [0.0],
            tol=1e-9,
        ),
    ]
    rng = random.Random(4101)
    seeded = []
    for i, n in enumerate((3, 5, 8), start=1):
        p, g = _softmax(h.vector(rng, n)), h.vector(rng, n)
        seeded.append(h.Case(f"random case {i} (n = {n})", (p, g), expected(p, g), tol=1e-9))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Keeps only the diagonal of the Jacobian, p_i (1 - p_i): each score sees its own weight
        # only.
        "diagonal_only": h.Mistake(
            "sb-diagonal",
            (
                ("mean = sum(pi * gi for pi, gi in zip(p, g))\n    return [pi * (gi - mean)"),
                "return [pi * (1 - pi) * gi",
            ),
        ),
        # Returns g - p, a half-remembered form of the loss's gradient (softmax minus one-hot).
        "g_minus_p": h.Mistake(
            "sb-g-minus-p",
            (
                ("mean = sum(pi * gi for pi, gi in zip(p, g))\n    return [pi * (gi - mean)"),
                "return [gi - pi",
            ),
        ),
        # Multiplies p and g entry by entry and forgets to subtract the weighted mean of g.
        "no_dot": h.Mistake(
            "sb-no-dot",
            (
                ("mean = sum(pi * gi for pi, gi in zip(p, g))\n    return [pi * (gi - mean)"),
                "return [pi * gi",
            ),
        ),
        # Subtracts the weighted mean but forgets to multiply the difference by p_i.
        "no_outer_p": h.Mistake(
            "sb-no-outer-p", ("pi * (gi - mean) for pi, gi in zip(p, g)", "gi - mean for gi in g")
        ),
        # Subtracts the plain mean of g instead of its mean weighted by p.
        "unweighted_mean": h.Mistake(
            "sb-unweighted", ("pi * gi for pi, gi in zip(p, g)", "g) / len(g")
        ),
        # Subtracts the wrong way round: p_i (sum_j p_j g_j - g_i).
        "wrong_sign": h.Mistake("sb-sign", ("gi - mean", "mean - gi")),
    },
)


def properties(run: h.Runner) -> Iterator[h.Result]:
    """Shifting g changes nothing; the answer sums to 0; it is the Jacobian times g."""
    rng = random.Random(4102)
    p, g = _softmax(h.vector(rng, 5)), h.vector(rng, 5)
    yield run.relation(
        "adding 10 to every entry of g changes nothing (the weights add up to 1)",
        (p, g),
        (p, [v + 10 for v in g]),
        expected="the answer for g itself",
        hint="sb-shift-g",
        tol=1e-9,
    )
    args = (p, g)
    name = "the entries of the answer add up to 0 (a constant added to every score is lost)"
    answer, failure = run.call(name, args)
    if failure is not None:
        yield failure
        return
    items = h.as_list(answer) or []
    numbers = len(items) == len(p) and all(isinstance(v, (int, float)) for v in items)
    total = math.fsum(items) if numbers else math.nan
    ok = abs(total) < 1e-9
    yield run.check(
        name,
        args,
        ok=ok,
        actual=answer,
        expected=f"{len(p)} numbers that add up to 0",
        hint="sb-sum-zero",
        tol=1e-9,
        detail="" if ok else f"they add up to {h.show(total)}",
    )
    p, g = _softmax(h.vector(rng, 6, -2.0, 2.0)), h.vector(rng, 6)
    name = "the same as the whole Jacobian diag(p) - p p^T, built entry by entry, times g"
    answer, failure = run.call(name, (p, g))
    if failure is not None:
        yield failure
        return
    target = jacobian_times(p, g)
    reason = h.compare(answer, target, 1e-9)
    yield run.check(
        name,
        (p, g),
        ok=reason is None,
        actual=answer,
        expected=f"J g = {h.show(target)}",
        hint="sb-wrong",
        tol=1e-9,
        detail=reason or "",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
