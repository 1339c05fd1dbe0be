"""Hidden checks for step 4: the weighted sum of value vectors.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand (fixed cases)
or by the plain formula below (the worked example's cases and the seeded random
cases). The worked example's inputs come from their one source,
``snippets/worked_example.py``: the build writes them into the copy you download.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator

import _harness as h

from _worked_example import K, Q, V

TITLE = "Step 4, weighted sum"
FUNCTION = "weighted_sum"
PARAMS = ("weights", "values")
FALLBACK_HINT = "weighted-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "unweighted": "Each value vector must be multiplied by its weight before adding: "
    "output[i] = sum of weights[j] * values[j][i] over j. You used the values without their"
    " weights.",
    "wrong-axis": "The output is ONE vector as wide as a value (len(values[0])): coordinate"
    " i adds weights[j] * values[j][i] over every item j. Do not sum inside each value.",
    "argmax": "You returned the value with the largest weight instead of blending: every "
    "value counts, in proportion to its weight (the largest just gets the biggest share).",
    "weighted-wrong": "output[i] = sum(weights[j] * values[j][i] for j in "
    "range(len(values))), for every coordinate i of a value.",
}


def _worked_weights() -> list[float]:
    """The worked example's weights, unrounded: softmax of q·k / √d_k over its keys."""
    scaled = [math.fsum(a * b for a, b in zip(Q, k, strict=True)) / math.sqrt(len(Q)) for k in K]
    exps = [math.exp(s - max(scaled)) for s in scaled]
    return [e / math.fsum(exps) for e in exps]


WORKED = _worked_weights()


def expected(weights: list[float], values: list[list[float]]) -> list[float]:
    """Coordinate i: the sum over items j of weights[j] * values[j][i]."""
    columns = zip(*values, strict=True)
    return [math.fsum(w * x for w, x in zip(weights, col, strict=True)) for col in columns]


def random_weights(rng: random.Random, n: int) -> list[float]:
    """n positive weights summing to 1, like a softmax would give."""
    raw = [rng.uniform(0.1, 1.0) for _ in range(n)]
    return [round(r / sum(raw), 4) for r in raw]


def cases() -> list[h.Case]:
    fixed = [
        # The worked example's exact weights (the page prints them rounded): the output is
        # the page's, unrounded.
        h.Case("worked example (exact weights)", (WORKED, V), expected(WORKED, V)),
        h.Case(
            "all the weight on one value",
            ([1.0 if j == 1 else 0.0 for j in range(len(V))], V),
            [float(x) for x in V[1]],
        ),
        h.Case(
            "equal weights give the average",
            ([0.25] * 4, [[4, 0, 0], [0, 4, 0], [0, 0, 4], [4, 4, 4]]),
            [2.0, 2.0, 2.0],
        ),
        h.Case("values of width 1", ([0.2, 0.8], [[5], [10]]), [1.0 + 8.0]),
    ]
    rng = random.Random(401)
    seeded = []
    for i, (n, d_v) in enumerate(((3, 2), (5, 3), (4, 1)), start=1):
        weights, values = random_weights(rng, n), h.matrix(rng, n, d_v)
        name = f"random case {i} ({n} values of width {d_v})"
        seeded.append(h.Case(name, (weights, values), expected(weights, values)))
    return fixed + seeded


def _pick_largest(weights: list[float], values: list[list[float]]) -> list[float]:
    return list(values[weights.index(max(weights))])


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Returns the value with the largest weight instead of blending them all.
        "argmax": h.Mistake(
            "argmax",
            ("return out", "return list(values[weights.index(max(weights))])"),
        ),
        # Scales the caller's value vectors in place before adding them up.
        "in_place": h.Mistake(
            "mutated-input",
            (
                ("d_v):\n            out[i] += w * v[i]\n    return out"),
                (
                    "len(v)):\n"
                    "            v[i] = w * v[i]\n"
                    "    return [sum(column) for column in zip(*values)]"
                ),
            ),
            model=False,
        ),
        # Averages the values and ignores the weights.
        "unweighted": h.Mistake(
            "unweighted",
            (
                (
                    "d_v = len(values[0])\n"
                    "    out = [0.0] * d_v\n"
                    "    for w, v in zip(weights, values):\n"
                    "        for i in range(d_v):\n"
                    "            out[i] += w * v[i]\n"
                    "    return out"
                ),
                (
                    "n = len(values)\n"
                    "    return [sum(v[i] for v in values) / n for i in range(len(values[0]))]"
                ),
            ),
        ),
        # Sums inside each value vector: one number per item instead of one vector.
        "wrong_axis": h.Mistake(
            "wrong-axis",
            (
                (
                    "d_v = len(values[0])\n"
                    "    out = [0.0] * d_v\n"
                    "    for w, v in zip(weights, values):\n"
                    "        for i in range(d_v):\n"
                    "            out[i] += w * v[i]\n"
                    "    return out"
                ),
                "return [w * sum(v) for w, v in zip(weights, values)]",
            ),
        ),
        # Adds the values up, ignoring the weights.
        "unweighted_sum": h.Mistake("unweighted", ("out[i] += w * v[i]", "out[i] += v[i]")),
        # Weighs the sum of each value's entries and adds them up: one number.
        "wrong_axis_sum": h.Mistake(
            "wrong-axis", ("return out", "return sum(w * sum(v) for w, v in zip(weights, values))")
        ),
    },
)


def properties(run: h.Runner) -> Iterator[h.Result]:
    """Shuffling the items (each weight stays with its value) changes nothing."""
    rng = random.Random(402)
    weights, values = random_weights(rng, 5), h.matrix(rng, 5, 3)
    order = [3, 0, 4, 1, 2]
    shuffled = ([weights[j] for j in order], [values[j] for j in order])
    name = "shuffling weights and values together changes nothing"
    yield run.unchanged_by(name, (weights, values), shuffled)


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
