"""Hidden checks for lesson 5, step 3: one decoding step with a cache of keys and values.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand (fixed cases: the
query is made of logarithms, so the weights are small fractions; the arithmetic is in
the comments) or, for the seeded cases, by attention written out below (scores,
softmax, weighted sum, exact sums). The property needs no value of the step: decoding
a sequence token by token from an empty cache must give causal attention over the whole
sequence, written out as a plain loop over the queries.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator
from typing import Any

import _harness as h

TITLE = "Lesson 5, step 3, a decoding step with a cache of keys and values"
FUNCTION = "decode_step"
PARAMS = ("cache_k", "cache_v", "q", "k", "v")
FALLBACK_HINT = "dc-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "dc-before-append": "The new token did not attend to itself: its key and value must join "
    "the cache BEFORE the query looks at it. Attend over cache_k + [k] and cache_v + [v], "
    "n + 1 keys (for the first token, its own key is the only one).",
    "dc-no-scale": "Divide every score by sqrt(d_k), the width of q and of each key, as in "
    "lesson 1: q . key / sqrt(d_k). The cache changes where the keys come from, not the "
    "formula.",
    "dc-only-new": "The output is the new value itself: the query attended to its own key "
    "only. It must attend to every cached key too, softmax over all n + 1 scores: that is "
    "what the cache is kept for.",
    "dc-wrong-axis": "Every key got weight 1 (the output is the sum of the values): softmax "
    "ran over one score at a time, the wrong axis. The new query's n + 1 scores, one per "
    "key, are normalised together, so that its weights add up to 1.",
    "dc-cache-not-returned": "Return the cache with the new token in it: cache_k + [k] and "
    "cache_v + [v], one row longer than before. The next step attends over that cache.",
    "dc-causal": "Decoding token by token from an empty cache must give what causal attention "
    "over the whole sequence gives: token t attends to keys 0 to t, itself included. Check "
    "that the cache you return holds every token so far, in order.",
    "dc-wrong": "keys = cache_k + [k], values = cache_v + [v]; scores = q . key / sqrt(d_k) for "
    "each of the n + 1 keys; weights = softmax(scores); out = the weighted sum of the "
    "values; return (keys, values, out).",
}

Vector = list[float]
Matrix = list[list[float]]
LN2, LN3 = math.log(2), math.log(3)


def attend(q: Vector, keys: Matrix, values: Matrix, *, scale: bool = True) -> Vector:
    """One query's attention output, written out: scores, softmax, weighted sum."""
    root = math.sqrt(len(q)) if scale else 1.0
    scores = [math.fsum(a * b for a, b in zip(q, key, strict=True)) / root for key in keys]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = math.fsum(exps)
    return [
        math.fsum(e * row[i] for e, row in zip(exps, values)) / total for i in range(len(values[0]))
    ]


def expected(
    cache_k: Matrix, cache_v: Matrix, q: Vector, k: Vector, v: Vector
) -> tuple[Matrix, Matrix, Vector]:
    keys, values = [*cache_k, k], [*cache_v, v]
    return keys, values, attend(q, keys, values)


def causal_attention(qs: Matrix, ks: Matrix, vs: Matrix) -> Matrix:
    """Every query t over keys 0..t: the whole sequence at once, no cache."""
    return [attend(q, ks[: t + 1], vs[: t + 1]) for t, q in enumerate(qs)]


def _with_out(out: Any) -> Any:
    return lambda ck, cv, q, k, v: ([*ck, k], [*cv, v], out(ck, cv, q, k, v))


def cases() -> list[h.Case]:
    q = [LN2] * 4
    fixed = [
        # d_k = 4, so scores are q . key / 2: [2 ln 2, 0, 4 ln 2] / 2 = [ln 2, 0, ln 4], the
        # weights [2, 1, 4] / 7, and out = (2 [7, 0] + 1 [0, 7]) / 7 = [2, 1]. For
        # dc-no-scale: [4, 1, 16] / 21, out [4/3, 1/3]; for dc-before-append: [2, 1] / 3
        # over the cache only, out [14/3, 7/3]; for dc-only-new: v = [0, 0]; for
        # dc-wrong-axis: [7, 0] + [0, 7] + [0, 0]; for dc-cache-not-returned: the old cache.
        h.Case(
            "two cached tokens and a new one: weights [2, 1, 4] / 7",
            (
                [[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]],
                [[7.0, 0.0], [0.0, 7.0]],
                q,
                [1.0, 1.0, 1.0, 1.0],
                [0.0, 0.0],
            ),
            (
                [[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]],
                [[7.0, 0.0], [0.0, 7.0], [0.0, 0.0]],
                [2.0, 1.0],
            ),
            tol=1e-9,
        ),
        # Scores [2 ln 3, 0] / 2 = [ln 3, 0]: weights [3, 1] / 4, out 3/4 [4, 8] + 1/4 [0, -4]
        # = [3, 5]. For dc-no-scale: [9, 1] / 10, out [3.6, 6.8]; for dc-before-append: the
        # cached value [4, 8]; for dc-only-new: [0, -4]; for dc-wrong-axis: [4, 4].
        h.Case(
            "the cached token matters more than the new one: weights [3, 1] / 4",
            ([[1.0, 1.0, 0.0, 0.0]], [[4.0, 8.0]], [LN3] * 4, [0.0, 0.0, 0.0, 0.0], [0.0, -4.0]),
            ([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]], [[4.0, 8.0], [0.0, -4.0]], [3.0, 5.0]),
            tol=1e-9,
        ),
        # The first token: an empty cache, so the token attends to itself alone, weight 1.
        # For dc-before-append there is nothing to attend to at all.
        h.Case(
            "the first token: an empty cache, it attends to itself alone",
            ([], [], [1.0, 0.0], [0.0, 1.0], [3.0, -1.0]),
            ([[0.0, 1.0]], [[3.0, -1.0]], [3.0, -1.0]),
            tol=1e-9,
        ),
    ]
    rng = random.Random(5301)
    seeded = []
    for i, (n, d_k, d_v) in enumerate(((3, 4, 2), (5, 2, 3), (8, 4, 4)), start=1):
        cache_k, cache_v = h.matrix(rng, n, d_k), h.matrix(rng, n, d_v)
        args = (cache_k, cache_v, h.vector(rng, d_k), h.vector(rng, d_k), h.vector(rng, d_v))
        name = f"random case {i} ({n} cached tokens, d_k = {d_k}, d_v = {d_v})"
        seeded.append(h.Case(name, args, expected(*args), tol=1e-9))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Appends k and v to the caller's lists themselves, as a cache in a real model would:
        # the checks call again with the cache they gave, and find it changed.
        "appends_in_place": h.Mistake(
            "mutated-input",
            (
                (
                    "keys, values = cache_k + [k], cache_v + [v]\n"
                    "    scores = [sum(a * b for a, b in zip(q, key)) / math.sqrt(len(q)) for key in keys"
                ),
                (
                    "cache_k.append(k)\n"
                    "    cache_v.append(v)\n"
                    "    scores = [sum(a * b for a, b in zip(q, key)) / math.sqrt(len(q)) for key in cache_k"
                ),
            ),
            (
                ("values)) / total for i in range(len(v))]\n    return keys, values"),
                ("cache_v)) / total for i in range(len(v))]\n    return cache_k, cache_v"),
            ),
            model=False,
        ),
        # Attends over the old cache, then appends: the new token never sees itself.
        "before_append": h.Mistake(
            "dc-before-append",
            (
                (
                    "keys, values = cache_k + [k], cache_v + [v]\n"
                    "    scores = [sum(a * b for a, b in zip(q, key)) / math.sqrt(len(q)) for key in keys"
                ),
                "scores = [sum(a * b for a, b in zip(q, key)) / math.sqrt(len(q)) for key in cache_k",
            ),
            (
                ("values)) / total for i in range(len(v))]\n    return keys, values"),
                (
                    "cache_v)) / total for i in range(len(v))]\n"
                    "    return cache_k + [k], cache_v + [v]"
                ),
            ),
        ),
        # Attends over the cache and the new token, but hands back the old cache.
        "cache_not_returned": h.Mistake(
            "dc-cache-not-returned", ("return keys, values", "return cache_k, cache_v")
        ),
        # Forgets to divide the scores by sqrt(d_k).
        "no_scale": h.Mistake("dc-no-scale", ("/ math.sqrt(len(q)) for", "for")),
        # Attends to the new key alone: the softmax of one score is 1, so the output is v
        # itself.
        "only_new": h.Mistake(
            "dc-only-new",
            (
                (
                    "keys, values = cache_k + [k], cache_v + [v]\n"
                    "    scores = [sum(a * b for a, b in zip(q, key)) / math.sqrt(len(q)) for key in keys"
                ),
                "scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q))",
            ),
            (
                (
                    "sum(e * row[i] for e, row in zip(exps, values)) / total for i in range(len(v))]\n"
                    "    return keys, values"
                ),
                ("exps[0] * x / total for x in v]\n    return cache_k + [k], cache_v + [v]"),
            ),
        ),
        # Takes softmax over the wrong axis: the scores as a column, one score per row, so every
        # weight is 1 and the output is the sum of the values.
        "wrong_axis": h.Mistake(
            "dc-wrong-axis",
            (
                (
                    "scores = [sum(a * b for a, b in zip(q, key)) / math.sqrt(len(q)) for key in keys]\n"
                    "    m = max(scores)\n"
                    "    exps = [math.exp(s - m) for s in scores]\n"
                    "    total = sum(exps)\n"
                    "    out = [sum(e * row[i] for e, row in zip(exps, values)) / total"
                ),
                (
                    "column = [[sum(a * b for a, b in zip(q, key)) / math.sqrt(len(q))] for key in keys]\n"
                    "    weights = []\n"
                    "    for row in column:  # softmax of each row of the column: one score each\n"
                    "        exps = [math.exp(s - max(row)) for s in row]\n"
                    "        weights.append(exps[0] / sum(exps))\n"
                    "    out = [sum(w * row[i] for w, row in zip(weights, values))"
                ),
            ),
        ),
    },
)


def explain_exception(exc: Exception, args: tuple[Any, ...]) -> str | None:
    """An empty cache gives nothing to attend to when the new token is left out."""
    if not args[0] and isinstance(exc, (ValueError, ZeroDivisionError, IndexError)):
        return "dc-before-append"
    return None


def _step(answer: Any, n: int, d_v: int) -> tuple[Matrix, Matrix, Vector] | None:
    """An answer (keys, values, out) whose caches hold n rows and out d_v numbers, else None."""
    parts = h.as_list(answer)
    if parts is None or len(parts) != 3:
        return None
    keys, values, out = (h.as_list(p) for p in parts)
    if keys is None or values is None or out is None:
        return None
    if len(keys) != n or len(values) != n or len(out) != d_v:
        return None
    return keys, values, out


def properties(run: h.Runner) -> Iterator[h.Result]:
    """Decoding token by token gives causal attention over the whole sequence."""
    rng = random.Random(5302)
    n, d_k, d_v = 5, 4, 2
    qs, ks, vs = h.matrix(rng, n, d_k), h.matrix(rng, n, d_k), h.matrix(rng, n, d_v)
    target = causal_attention(qs, ks, vs)
    name = "decoding 5 tokens one by one, from an empty cache, gives causal attention"
    cache_k: Matrix = []
    cache_v: Matrix = []
    outs: list[Any] = []
    args: tuple[Any, ...] = ()
    for t in range(n):
        args = (cache_k, cache_v, qs[t], ks[t], vs[t])
        answer, failure = run.call(name, args)
        if failure is not None:
            yield failure
            return
        step = _step(answer, t + 1, d_v)
        if step is None:
            yield run.check(
                name,
                args,
                ok=False,
                actual=answer,
                expected=f"(a cache of {t + 1} keys, a cache of {t + 1} values, {d_v} numbers)",
                hint="dc-cache-not-returned",
            )
            return
        cache_k, cache_v, out = step
        outs.append(out)
    reason = h.compare(outs, target, 1e-9)
    yield run.check(
        name,
        args,
        ok=reason is None,
        actual=outs,
        expected=f"the outputs of causal attention, {h.show(target)}",
        hint="dc-causal",
        tol=1e-9,
        detail="" if reason is None else f"the outputs of the 5 steps: {reason}",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
