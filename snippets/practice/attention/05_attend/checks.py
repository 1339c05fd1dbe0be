"""Hidden checks for step 5: the whole attention for one query.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand (fixed cases,
written as closed forms) or by the plain formula below (the worked example's cases and
the seeded cases). The worked example's inputs come from their one source,
``snippets/worked_example.py``: the build writes them into the copy you download.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable, Iterator

import _harness as h

from _worked_example import K, Q, V

TITLE = "Step 5, attention for one query"
FUNCTION = "attend"
PARAMS = ("q", "keys", "values")
FALLBACK_HINT = "attend-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "no-sqrt": "You forgot the scale: divide every dot product by √d_k, the square root of "
    "the width of the query (math.sqrt(len(q))).",
    "divided-by-dk": "Your scores are divided by d_k, not by its square root: either by "
    "d_k itself, or by √d_k twice (for instance scores that were already scaled, divided "
    "again). Scale once: score / math.sqrt(len(q)).",
    "power-precedence": "** 1/2 is not a square root: ** binds tighter than /, and / works "
    "from left to right. Python reads len(q) ** 1/2 as (len(q) ** 1) / 2, that is d_k / 2, "
    "and x / d_k ** 1/2 as (x / d_k) / 2. Write math.sqrt(len(q)) or len(q) ** 0.5. (d_k / "
    "2 happens to equal √d_k when d_k is 4, as in the worked example.)",
    "sqrt-n-keys": "d_k is the width of the query and key vectors, len(q), not the number "
    "of keys len(keys).",
    "sqrt-d-v": "You scaled by the square root of the width of the VALUES. The scale "
    "belongs to the scores, so it is the width of the query and key vectors: "
    "math.sqrt(len(q)).",
    "no-max": "Subtract the largest score from every score before math.exp. Only the "
    "maximum is safe for every input: after the shift the largest exponent is exactly 0 "
    "(exp gives 1, so the sum is at least 1 and never 0) and all the others are at most 0 "
    "(no overflow). Any other shift (the mean, the first or last score, the smallest, a "
    "fixed number) fails when the scores are spread widely: some exponent is still above "
    "709 (OverflowError) or every exponential rounds to 0 (0/0). The shift itself changes "
    "nothing: it cancels between top and bottom.",
    "raw-normalised": "You normalised the raw scores (s / sum of s). Softmax normalises the"
    " exponentials: exponentiate first, then divide each exp by the sum of the exps.",
    "argmax": "You picked the largest instead of blending: every item gets some weight, and"
    " the answer mixes all of them in proportion (the largest just gets the biggest share).",
    "keys-values": "Mixed up keys and values: the query is compared with the KEYS to get "
    "the weights, and the weights blend the VALUES. The output is as wide as a value "
    "(len(values[0])), not as a key.",
    "sum-to-one": "The weights must be non-negative and add up to 1: divide each "
    "exponential by the sum of the exponentials.",
    "convex": "The output is a weighted average of the values, so each coordinate lies "
    "between the smallest and the largest value in that coordinate.",
    "attend-wrong": "Chain the steps: scores = q·k / √d_k for each key, weights = softmax "
    "of the scores, output = weighted sum of the values.",
}

E = math.e

Vector = list[float]
Matrix = list[list[float]]


def expected(q: Vector, keys: Matrix, values: Matrix) -> Vector:
    """softmax(q·k / √d_k) over the keys, then the weighted sum of the values."""
    d_k = len(q)
    scores = [math.fsum(a * b for a, b in zip(q, k, strict=True)) / math.sqrt(d_k) for k in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = math.fsum(exps)
    columns = zip(*values, strict=True)
    return [math.fsum(e * x for e, x in zip(exps, col, strict=True)) / total for col in columns]


def cases() -> list[h.Case]:
    fixed = [
        h.Case(f"worked example: q = {h.show(Q)}", (Q, K, V), expected(Q, K, V)),
        h.Case(
            "one key: its value comes back", ([1, 2], [[3, 4]], [[7, -1, 0.5]]), [7.0, -1.0, 0.5]
        ),
        h.Case(
            "a zero query weighs the values equally",
            ([0, 0, 0], [[1, 2, 3], [4, 5, 6]], [[1, 0], [0, 1]]),
            [0.5, 0.5],
        ),
        # d_k = 1: scores 1·2 = 2 and 1·1 = 1 (√1 = 1), weights e/(e+1) and 1/(e+1).
        h.Case(
            "d_k = 1, values of width 1",
            ([1], [[2], [1]], [[6], [-4]]),
            [(6 * E - 4) / (E + 1)],
        ),
        # Scaled scores 2000/2 = 1000, 1900/2 = 950 and 0: all the weight on the first key
        # (the others get e^-50 and e^-1000, far below the tolerance).
        h.Case(
            "large scores must not overflow",
            (
                [100, 100, 100, 100],
                [[10, 10, 0, 0], [10, 9, 0, 0], [0, 0, 0, 0]],
                [[1, 2], [3, 4], [5, 6]],
            ),
            [1.0, 2.0],
        ),
    ]
    rng = random.Random(501)
    seeded = []
    for i, (d_k, n_k, d_v) in enumerate(((3, 4, 2), (6, 3, 1), (8, 5, 3)), start=1):
        q, keys, values = h.vector(rng, d_k), h.matrix(rng, n_k, d_k), h.matrix(rng, n_k, d_v)
        name = f"random case {i} (d_k = {d_k}, {n_k} keys, values of width {d_v})"
        seeded.append(h.Case(name, (q, keys, values), expected(q, keys, values)))
    return fixed + seeded


def _variant(
    score_of: Callable[[Vector, Vector], float],
    weigh: Callable[[Vector], Vector],
    blend_keys: bool = False,
) -> Callable[[Vector, Matrix, Matrix], Vector]:
    """attend with one step replaced by a known wrong one."""

    def attend(q: Vector, keys: Matrix, values: Matrix) -> Vector:
        weights = weigh([score_of(q, k) for k in keys])
        rows = keys if blend_keys else values
        return [sum(w * r[i] for w, r in zip(weights, rows)) for i in range(len(rows[0]))]

    return attend


def _dot(q: Vector, k: Vector) -> float:
    return sum(a * b for a, b in zip(q, k))


def _softmax(s: Vector) -> Vector:
    exps = [math.exp(x - max(s)) for x in s]
    return [e / sum(exps) for e in exps]


def _one_hot(s: Vector) -> Vector:
    return [1.0 if i == s.index(max(s)) else 0.0 for i in range(len(s))]


def _scaled(q: Vector, k: Vector) -> float:
    return _dot(q, k) / math.sqrt(len(q))


def _keys_as_values(q: Vector, keys: Matrix, values: Matrix) -> Vector:
    """Scores against the values (zip stops at the shorter), blending the keys."""
    return _variant(_scaled, _softmax, blend_keys=True)(q, values, keys)


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Returns the value of the best-matching key instead of a blend.
        "argmax": h.Mistake(
            "argmax",
            (
                "return [sum(w * v[i] for w, v in zip(weights, values)) for i in range(d_v)]",
                "return list(values[scores.index(max(scores))])",
            ),
        ),
        # Divides the scores by d_k instead of √d_k.
        "divided_by_dk": h.Mistake(
            "divided-by-dk",
            (
                ("d_k = len(q)\n    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(d_k"),
                "scores = [sum(a * b for a, b in zip(q, k)) / len(q",
            ),
        ),
        # Returns the worked example's answer whatever the input: the seeded cases catch it.
        "hard_coded": h.Mistake(
            "attend-wrong",
            (
                "return [sum(w * v[i] for w, v in zip(weights, values)) for i in range(d_v)]",
                "return [5.68, 1.55]",
            ),
            model=False,
        ),
        # Weights the keys with the scores: the output has the width of a key, not a value.
        "keys_values": h.Mistake(
            "keys-values",
            (
                "v[i] for w, v in zip(weights, values)) for i in range(d_v)",
                "k[i] for w, k in zip(weights, keys)) for i in range(len(keys[0]))",
            ),
        ),
        # Right on small inputs, but exp overflows when the scores are large.
        "no_max": h.Mistake(
            "no-max",
            ("math.exp(s - m)", "math.exp(s)"),
            model=False,
        ),
        # Feeds the raw dot products to softmax: the √d_k scale is missing.
        "no_sqrt": h.Mistake(
            "no-sqrt",
            (
                ("d_k = len(q)\n    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(d_k"),
                "scores = [sum(a * b for a, b in zip(q, k)",
            ),
        ),
        # Writes √d_k as `len(q) ** 1/2`, which is d_k / 2: right only when d_k is 4.
        "power_precedence": h.Mistake(
            "power-precedence",
            (
                ("d_k = len(q)\n    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(d_k)"),
                ("scale = len(q) ** 1 / 2\n    scores = [sum(a * b for a, b in zip(q, k)) / scale"),
            ),
        ),
        # Divides the scores by their sum instead of taking a softmax.
        "raw_normalised": h.Mistake(
            "raw-normalised", ("[math.exp(s - m) for s in scores]", "scores")
        ),
        # Scales twice: a scores helper that already divides by sqrt(d_k), divided again.
        # Dividing by sqrt(d_k) twice is dividing by d_k, so the divided-by-dk case catches it;
        # its hint names both ways of getting there.
        "scaled_twice": h.Mistake(
            "divided-by-dk",
            (
                ("math\n"),
                (
                    "math\n"
                    "def scores(q, keys):\n"
                    "    return [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]\n"
                ),
            ),
            (
                (
                    "d_k = len(q)\n"
                    "    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(d_k) for k in keys]\n"
                    "    m = max(scores)\n"
                    "    exps = [math.exp(s - m) for s in scores"
                ),
                (
                    "s = [x / math.sqrt(len(q)) for x in scores(q, keys)]\n"
                    "    m = max(s)\n"
                    "    exps = [math.exp(x - m) for x in s"
                ),
            ),
        ),
        # Scales by the square root of the values' width, d_v, instead of the keys' width, d_k.
        "sqrt_d_v": h.Mistake(
            "sqrt-d-v",
            (
                ("d_k = len(q)\n    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(d_k"),
                (
                    "d_v = len(values[0])\n"
                    "    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(d_v"
                ),
            ),
        ),
        # Divides by √n_keys, the number of keys, instead of √d_k.
        "sqrt_n_keys": h.Mistake("sqrt-n-keys", ("math.sqrt(d_k)", "math.sqrt(len(keys))")),
        # Writes the scale as d_k**1 / 2, which divides by d_k, then by 2.
        "power_twice": h.Mistake("power-precedence", ("/ math.sqrt(d_k)", "/ d_k**1 / 2")),
        # Scores the query against the values, then blends the values.
        "scores_against_values": h.Mistake("keys-values", ("for k in keys]", "for k in values]")),
    },
)


def explain_exception(exc: Exception, args: tuple[Vector, Matrix, Matrix]) -> str | None:
    if isinstance(exc, OverflowError):
        return "no-max"
    return None


def properties(run: h.Runner) -> Iterator[h.Result]:
    rng = random.Random(502)
    q, keys, values = h.vector(rng, 4), h.matrix(rng, 5, 4), h.matrix(rng, 5, 2)

    # Weights that sum to 1 turn identical values into that same value.
    same = [[1.5, -2.0]] * 5
    name = "identical values come back unchanged (the weights sum to 1)"
    out, failure = run.call(name, (q, keys, same))
    if failure is not None:
        yield failure
    else:
        reason = h.compare(out, [1.5, -2.0], 1e-9)
        yield run.check(
            name,
            (q, keys, same),
            ok=reason is None,
            actual=out,
            expected="[1.5, -2]",
            hint="keys-values" if len(h.as_list(out) or []) == len(q) else "sum-to-one",
            tol=1e-9,
            detail=reason or "",
        )

    # Each coordinate of a weighted average lies between the smallest and largest value.
    name = "the output lies within the range of the values"
    out, failure = run.call(name, (q, keys, values))
    if failure is not None:
        yield failure
    else:
        items = h.as_list(out) or []
        cols = list(zip(*values))
        ok = len(items) == len(cols) and all(
            isinstance(x, (int, float)) and min(c) - 1e-9 <= x <= max(c) + 1e-9
            for x, c in zip(items, cols)
        )
        ranges = ", ".join(f"[{h.show(min(c))}, {h.show(max(c))}]" for c in cols)
        yield run.check(
            name,
            (q, keys, values),
            ok=ok,
            actual=out,
            expected=f"coordinates within {ranges}",
            hint="keys-values" if len(items) == len(q) != len(cols) else "convex",
            detail="outside the range of the values",
        )

    # Shuffling keys and values together (each value keeps its key) changes nothing.
    order = [2, 4, 0, 3, 1]
    shuffled = (q, [keys[j] for j in order], [values[j] for j in order])
    name = "shuffling keys and values together changes nothing"
    yield run.unchanged_by(name, (q, keys, values), shuffled)


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
