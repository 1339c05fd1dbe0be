"""Hidden checks for step 6: several queries with a causal mask.

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
from collections.abc import Iterator

import _harness as h

from _worked_example import K, V

TITLE = "Step 6, causal attention"
FUNCTION = "causal_attention"
PARAMS = ("queries", "keys", "values")
FALLBACK_HINT = "causal-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "no-mask": "Query i must not see the keys after position i: only keys 0..i take part in"
    " its softmax (the causal mask).",
    "mask-inverted": "Your mask is the wrong way round: query i attends to keys 0..i (the "
    "past and itself), not to keys i..n-1 (the future).",
    "mask-off-by-one": "Query i also sees itself: keys 0..i INCLUSIVE, i.e. range(i + 1). "
    "With range(i), query 0 has no key at all.",
    "mask-sees-next": "Query i also sees key i + 1, one step into the future: keys 0..i "
    "inclusive is keys[: i + 1], not keys[: i + 2].",
    "mask-zero": "You gave the hidden keys a score of 0 (set to 0, or the scores multiplied "
    "by a 0/1 mask). A score of 0 does not remove a key: e^0 = 1, so a hidden key still gets "
    "as much weight as any key scoring 0, and more than one with a negative score. A key is "
    "removed only by a score of -inf (e^-inf = 0), or by leaving it out of the softmax.",
    "mask-after-softmax": "You zeroed the future weights after the softmax, so the weights "
    "that are left add up to less than 1. Leave the future keys out BEFORE the softmax (or "
    "give them a score of -inf), so the weights of keys 0..i are renormalised.",
    "queries-as-keys": "You compared query i with the QUERIES 0..i. Queries and keys are "
    "different projections: what a token asks for is not what it offers. Score queries[i] "
    "against keys[0..i].",
    "causal": "A later key or value must not change an earlier output: output i may depend "
    "on keys and values 0..i only.",
    "no-max": "Subtract the largest score from every score before math.exp. Only the "
    "maximum is safe for every input: after the shift the largest exponent is exactly 0 "
    "(exp gives 1, so the sum is at least 1 and never 0) and all the others are at most 0 "
    "(no overflow). Any other shift (the mean, the first or last score, the smallest, a "
    "fixed number) fails when the scores are spread widely: some exponent is still above "
    "709 (OverflowError) or every exponential rounds to 0 (0/0). The shift itself changes "
    "nothing: it cancels between top and bottom.",
    "causal-renormalised": "You took the softmax over every key, future ones included, "
    "then zeroed the future weights and divided by what was left. On paper that is the "
    "same, but when a future key has by far the largest score it takes all the weight "
    "first: the visible keys' exponentials underflow to 0 and the division is 0/0. Leave "
    "the future keys out before the softmax, and subtract the largest visible score only.",
    "causal-wrong": "For each query i, run the one-query attention of step 5 on keys[: i + "
    "1] and values[: i + 1].",
}

Vector = list[float]
Matrix = list[list[float]]


def _one_query(q: Vector, keys: Matrix, values: Matrix) -> Vector:
    """softmax(q·k / √d_k) over the given keys, then the weighted sum of the values."""
    if not keys:  # only reached by the off-by-one model below: no key, a zero output
        return [0.0] * len(values[0]) if values else []
    scores = [math.fsum(a * b for a, b in zip(q, k, strict=True)) / math.sqrt(len(q)) for k in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = math.fsum(exps)
    columns = zip(*values, strict=True)
    return [math.fsum(e * x for e, x in zip(exps, col, strict=True)) / total for col in columns]


def _masked_after_softmax(queries: Matrix, keys: Matrix, values: Matrix) -> Matrix:
    """Softmax over every key, then the future weights set to 0 and not renormalised."""
    out = []
    for i, q in enumerate(queries):
        scores = [math.fsum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
        exps = [math.exp(x - max(scores)) for x in scores]
        weights = [e / math.fsum(exps) if j <= i else 0.0 for j, e in enumerate(exps)]
        out.append([math.fsum(w * x for w, x in zip(weights, col)) for col in zip(*values)])
    return out


def _masked_by_zero(queries: Matrix, keys: Matrix, values: Matrix) -> Matrix:
    """The future keys scored 0 (not -inf) and kept in the softmax."""
    out = []
    for i, q in enumerate(queries):
        scores = [math.fsum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
        scores = [x if j <= i else 0.0 for j, x in enumerate(scores)]
        exps = [math.exp(x - max(scores)) for x in scores]
        weights = [e / math.fsum(exps) for e in exps]
        out.append([math.fsum(w * x for w, x in zip(weights, col)) for col in zip(*values)])
    return out


def expected(queries: Matrix, keys: Matrix, values: Matrix) -> Matrix:
    """Query i sees keys 0..i (True = may attend where j <= i)."""
    return [_one_query(q, keys[: i + 1], values[: i + 1]) for i, q in enumerate(queries)]


def cases() -> list[h.Case]:
    # The worked example's keys and values, one query per key: query 0 sees k_1 only,
    # so its answer is v_1; the others blend more and more values.
    queries = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
    # Two positions, d_k = 2: query 1 scores 0 and 1 against keys 0 and 1, scaled by √2.
    w1 = math.exp(1 / math.sqrt(2)) / (1 + math.exp(1 / math.sqrt(2)))
    two = [[1.0, 2.0], [1 * (1 - w1) + 3 * w1, 2 * (1 - w1) + 4 * w1]]
    fixed = [
        h.Case(
            "worked keys and values, three queries",
            (queries, K, V),
            expected(queries, K, V),
        ),
        h.Case(
            "two positions: query 0 sees key 0 only",
            ([[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1, 2], [3, 4]]),
            two,
        ),
        h.Case(
            "one query sees its own key only", ([[5, -5]], [[1, 2]], [[3, 4, 5]]), [[3.0, 4.0, 5.0]]
        ),
        # Scaled scores of ±2000/√2 ≈ ±1414: math.exp overflows unless the maximum goes first.
        # Query 0 sees key 0 alone; query 1 gives key 1 all but e^-1414 of its weight.
        h.Case(
            "large scores: the softmax must not overflow",
            ([[2000, 0], [0, 2000]], [[1, 0], [0, 1]], [[1, 2], [3, 4]]),
            [[1.0, 2.0], [3.0, 4.0]],
        ),
    ]
    # For causal-renormalised: query 0's largest score is on key 1, a future key, by
    # 400 - (-400) = 800 (d_k = 1), so a softmax over every key leaves key 0 with
    # exp(-800) = 0 and nothing to renormalise (0/0). No raw score reaches 1000, and
    # exp(400) does not overflow. Query 0 sees key 0 alone: v_0; query 1 gives key 1
    # all but e^-800 of its weight: v_1.
    fixed.append(
        h.Case(
            "a future key holds query 0's top score, far above the rest",
            ([[1], [1]], [[-400], [400]], [[1, 2], [3, 4]]),
            [[1.0, 2.0], [3.0, 4.0]],
        )
    )
    rng = random.Random(601)
    seeded = []
    for i, (n, d_k, d_v) in enumerate(((4, 3, 2), (5, 4, 3)), start=1):
        qs, ks, vs = h.matrix(rng, n, d_k), h.matrix(rng, n, d_k), h.matrix(rng, n, d_v)
        name = f"random case {i} ({n} positions, d_k = {d_k}, values of width {d_v})"
        seeded.append(h.Case(name, (qs, ks, vs), expected(qs, ks, vs)))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Query i looks at keys i..n-1 (the future) instead of 0..i (the past).
        "inverted_mask": h.Mistake("mask-inverted", (": i + 1], values[: i + 1", "i:], values[i:")),
        # Takes the softmax over every key, then zeroes the future weights without
        # renormalising.
        "mask_after_softmax": h.Mistake(
            "mask-after-softmax",
            (
                "return [attend(q, keys[: i + 1], values[: i + 1]) for i, q in enumerate(queries)]",
                (
                    "outputs = []\n"
                    "    for i, q in enumerate(queries):\n"
                    "        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]\n"
                    "        m = max(scores)\n"
                    "        exps = [math.exp(s - m) for s in scores]\n"
                    "        weights = [e / sum(exps) for e in exps]\n"
                    "        for j in range(i + 1, len(keys)):\n"
                    "            weights[j] = 0.0\n"
                    "        outputs.append(\n"
                    "            [sum(w * v[c] for w, v in zip(weights, values)) for c in range(len(values[0]))]\n"
                    "        )\n"
                    "    return outputs"
                ),
            ),
        ),
        # Multiplies the scores by a 0/1 causal mask, so the future keys score 0, not -inf.
        "mask_by_multiplying": h.Mistake(
            "mask-zero",
            (
                "return [attend(q, keys[: i + 1], values[: i + 1]) for i, q in enumerate(queries)]",
                (
                    "outputs = []\n"
                    "    for i, q in enumerate(queries):\n"
                    "        mask = [1 if j <= i else 0 for j in range(len(keys))]\n"
                    "        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]\n"
                    "        scores = [s * keep for s, keep in zip(scores, mask)]\n"
                    "        m = max(scores)\n"
                    "        exps = [math.exp(s - m) for s in scores]\n"
                    "        total = sum(exps)\n"
                    "        outputs.append(\n"
                    "            [sum(e * v[c] for e, v in zip(exps, values)) / total for c in range(len(values[0]))]\n"
                    "        )\n"
                    "    return outputs"
                ),
            ),
        ),
        # Gives the future keys a score of 0 instead of -inf, and keeps them in the softmax.
        "mask_by_zero": h.Mistake(
            "mask-zero",
            (
                "return [attend(q, keys[: i + 1], values[: i + 1]) for i, q in enumerate(queries)]",
                (
                    "outputs = []\n"
                    "    for i, q in enumerate(queries):\n"
                    "        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]\n"
                    "        for j in range(i + 1, len(keys)):\n"
                    '            scores[j] = 0  # "masked"\n'
                    "        m = max(scores)\n"
                    "        exps = [math.exp(s - m) for s in scores]\n"
                    "        total = sum(exps)\n"
                    "        outputs.append(\n"
                    "            [sum(e * v[c] for e, v in zip(exps, values)) / total for c in range(len(values[0]))]\n"
                    "        )\n"
                    "    return outputs"
                ),
            ),
        ),
        # Every query sees every key, the future included: the mask is missing.
        "no_mask": h.Mistake(
            "no-mask",
            (
                "keys[: i + 1], values[: i + 1]) for i, q in enumerate(queries)",
                "keys, values) for q in queries",
            ),
        ),
        # Exponentiates the raw scores: right on small scores, OverflowError on large ones.
        "no_max": h.Mistake(
            "no-max",
            (
                "return [attend(q, keys[: i + 1], values[: i + 1]) for i, q in enumerate(queries)]",
                (
                    "outputs = []\n"
                    "    for i, q in enumerate(queries):\n"
                    "        seen_k, seen_v = keys[: i + 1], values[: i + 1]\n"
                    "        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in seen_k]\n"
                    "        exps = [math.exp(s) for s in scores]\n"
                    "        total = sum(exps)\n"
                    "        outputs.append(\n"
                    "            [sum(e * v[c] for e, v in zip(exps, seen_v)) / total for c in range(len(values[0]))]\n"
                    "        )\n"
                    "    return outputs"
                ),
            ),
            model=False,
        ),
        # Query i looks at keys 0..i-1: it misses itself, and query 0 has no key at all.
        "off_by_one": h.Mistake("mask-off-by-one", (" i + 1], values[: i + 1", "i], values[:i")),
        # Scores each query against the earlier QUERIES instead of the keys.
        "queries_as_keys": h.Mistake("queries-as-keys", ("[attend(q, keys", "[attend(q, queries")),
        # Softmax over every key, future ones included, then the future zeroed and renormalised.
        "renormalised": h.Mistake(
            "causal-renormalised",
            (
                "return [attend(q, keys[: i + 1], values[: i + 1]) for i, q in enumerate(queries)]",
                (
                    "out = []\n"
                    "    for i, q in enumerate(queries):\n"
                    "        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]\n"
                    "        top = max(scores)\n"
                    "        exps = [math.exp(s - top) if j <= i else 0.0 for j, s in enumerate(scores)]\n"
                    "        total = sum(exps)\n"
                    "        weights = [e / total for e in exps]\n"
                    "        out.append(\n"
                    "            [sum(w * row[c] for w, row in zip(weights, values)) for c in range(len(values[0]))]\n"
                    "        )\n"
                    "    return out"
                ),
            ),
            model=False,
        ),
        # Query i looks at keys 0..i+1: one key into the future (keys[: i + 2]).
        "sees_next": h.Mistake("mask-sees-next", ("1], values[: i + 1", "2], values[: i + 2")),
        # Query i sees keys[:i], the keys before it but not its own; query 0 gets an empty row.
        "off_by_one_empty": h.Mistake(
            "mask-off-by-one",
            ("keys[: i + 1], values[: i + 1]) for i", "keys[:i], values[:i]) if i else [] for i"),
        ),
    },
)


def explain_exception(exc: Exception, args: tuple[Matrix, Matrix, Matrix]) -> str | None:
    """An empty list of keys for query 0 (max() of nothing, or 0/0) is the off-by-one."""
    if isinstance(exc, OverflowError):
        return "no-max"
    if isinstance(exc, ZeroDivisionError) and _future_key_far_on_top(*args):
        return "causal-renormalised"  # 0/0 although every query sees a key
    if isinstance(exc, ZeroDivisionError) or (isinstance(exc, ValueError) and "empty" in str(exc)):
        return "mask-off-by-one"
    return None


def _future_key_far_on_top(queries: Matrix, keys: Matrix, values: Matrix) -> bool:
    """Some query's best future score beats its best visible one past exp's range."""
    for i, q in enumerate(queries):
        scores = [math.fsum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
        if i + 1 < len(scores) and max(scores[i + 1 :]) - max(scores[: i + 1]) > 745:
            return True
    return False


def properties(run: h.Runner) -> Iterator[h.Result]:
    """Changing the last key and value must leave every earlier output unchanged."""
    rng = random.Random(602)
    n = 4
    queries, keys, values = h.matrix(rng, n, 3), h.matrix(rng, n, 3), h.matrix(rng, n, 2)
    changed = (queries, [*keys[:-1], [9.0, 9.0, 9.0]], [*values[:-1], [-50.0, 50.0]])
    yield run.relation(
        "the future does not leak: changing the last key and value keeps outputs 0..n-2",
        (queries, keys, values),
        changed,
        expected=f"the first {n - 1} outputs as before",
        hint="causal",
        part=lambda outputs: (h.as_list(outputs) or [])[: n - 1],
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
