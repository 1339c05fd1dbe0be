"""Hidden checks for lesson 3, step 3: the feed-forward network of one token.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values of the fixed cases are
written with the normal distribution's tabled values (GELU(1) = Phi(1), GELU(2) =
2 Phi(2)); seeded cases use the plain formula below, with GELU from ``math.erfc``;
the properties need no expected value (doubling w_2 and b_2 doubles the answer).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable, Iterator

import _harness as h

TITLE = "Lesson 3, step 3, the feed-forward network"
FUNCTION = "feed_forward"
PARAMS = ("x", "w_1", "b_1", "w_2", "b_2")
FALLBACK_HINT = "ffn-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "ffn-relu": "You used ReLU, max(0, x), in the hidden layer, as the original transformer "
    "did. BERT and all-MiniLM-L6-v2 use GELU there: call the gelu the starter gives you.",
    "ffn-linear": "The hidden layer needs its activation: hidden[j] = gelu(... + b_1[j]). "
    "Two linear layers in a row are just one linear layer; the GELU between them is what "
    "lets the network compute more than a matrix product.",
    "ffn-gelu-output": "Apply gelu in the hidden layer only. The second layer is linear: "
    "its output goes back into the residual stream as it is, negative entries included.",
    "ffn-bias-after": "Add b_1 before the activation: gelu(x W_1 + b_1), not gelu(x W_1) + "
    "b_1. The bias moves each hidden unit's threshold.",
    "ffn-no-b2": "Add b_2 to the output: out[c] = hidden[0]*w_2[0][c] + ... + b_2[c].",
    "ffn-transposed": "You went along the rows of w_1 (or w_2). The hidden unit j is x "
    "against COLUMN j of w_1: x[0]*w_1[0][j] + x[1]*w_1[1][j] + ...; w_1 has d rows and h "
    "columns, so the hidden layer has h = len(w_1[0]) = len(b_1) entries.",
    "ffn-hidden-4d": "The hidden layer is as wide as w_1 has columns, h = len(b_1); you "
    "assumed 4 * d. Real models use four times the width, but the checks also give other "
    "widths: loop over range(len(b_1)).",
    "ffn-widths": "An index ran past the end of a list: w_1 has d rows of h entries and w_2 "
    "has h rows of d entries, where h = len(b_1) is read from the arrays (not always 4 * d). "
    "Hidden unit j is x against column j of w_1: x[0]*w_1[0][j] + x[1]*w_1[1][j] + ...",
    "ffn-gelu-tanh": "You used the tanh approximation of GELU. This step asks for the exact "
    "GELU of step 2, x * (1 + erf(x / sqrt(2))) / 2, the one all-MiniLM-L6-v2's "
    "configuration names; the two differ in the fourth decimal, beyond the tolerance.",
    "ffn-wrong": "hidden[j] = gelu(sum over i of x[i] * w_1[i][j], plus b_1[j]) for each of "
    "the h hidden units; then out[c] = sum over j of hidden[j] * w_2[j][c], plus b_2[c].",
}

Vector = list[float]
Matrix = list[list[float]]
PHI_1 = 0.8413447460685429  # Phi(1), from tables of the normal distribution
PHI_2 = 0.9772498680518208  # Phi(2)


def _gelu(x: float) -> float:
    return x * math.erfc(-x / math.sqrt(2)) / 2


def _layer(x: Vector, w: Matrix, b: Vector) -> Vector:
    return [math.fsum(x[i] * w[i][j] for i in range(len(x))) + b[j] for j in range(len(w[0]))]


def _ffn(
    x: Vector,
    w_1: Matrix,
    b_1: Vector,
    w_2: Matrix,
    b_2: Vector,
    act: Callable[[float], float] = _gelu,
) -> Vector:
    return _layer([act(v) for v in _layer(x, w_1, b_1)], w_2, b_2)


def _gelu_tanh(x: float) -> float:
    return 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))


def _hidden_4d(x: Vector, w_1: Matrix, b_1: Vector, w_2: Matrix, b_2: Vector) -> Vector:
    """The hidden width hard-coded as 4 d (only answers when h >= 4 d)."""
    width = 4 * len(x)
    hidden = [
        _gelu(math.fsum(x[i] * w_1[i][j] for i in range(len(x))) + b_1[j]) for j in range(width)
    ]
    return [
        math.fsum(hidden[j] * w_2[j][c] for j in range(width)) + b_2[c] for c in range(len(b_2))
    ]


def expected(x: Vector, w_1: Matrix, b_1: Vector, w_2: Matrix, b_2: Vector) -> Vector:
    """GELU(x W_1 + b_1) W_2 + b_2."""
    return _ffn(x, w_1, b_1, w_2, b_2)


def _transposed(x: Vector, w_1: Matrix, b_1: Vector, w_2: Matrix, b_2: Vector) -> Vector:
    """Rows of w_1 and w_2 taken as if they were columns (zip stops at the shorter)."""
    hidden = [_gelu(math.fsum(a * b for a, b in zip(x, row)) + c) for row, c in zip(w_1, b_1)]
    return [math.fsum(a * b for a, b in zip(hidden, row)) + c for row, c in zip(w_2, b_2)]


def cases() -> list[h.Case]:
    # x = [1, -1]; x W_1 = [1, -1, 0, 2]; + b_1 = [1, -1, 1, 2]; GELU of those is
    # [Phi(1), -(1 - Phi(1)), Phi(1), 2 Phi(2)]; W_2 adds hidden 0 and 2 into out 0, 1 and 3
    # into out 1; then + b_2.
    w_1 = [[1, 0, 1, 2], [0, 1, 1, 0]]
    w_2 = [[1, 0], [0, 1], [1, 0], [0, 1]]
    fixed = [
        # Every part used, each GELU value a tabled one: for ffn-relu, ffn-linear,
        # ffn-bias-after, ffn-no-b2 and ffn-gelu-tanh (tanh's GELU(1) is off by 1.6e-4).
        # Its hidden width is 2 d, not 4 d: a width hard-coded as 4 d fails here.
        h.Case(
            "d = 2, a hidden layer of 4 (2 times wider), every part used",
            ([1, -1], w_1, [0, 0, 1, 0], w_2, [0.5, -0.5]),
            [2 * PHI_1 + 0.5, -(1 - PHI_1) + 2 * PHI_2 - 0.5],
        ),
        h.Case(
            "one hidden unit open: GELU(2) copied into both outputs",
            (
                [2, 0],
                [[1, 0, 0, 0], [0, 1, 0, 0]],
                [0, 0, 0, 0],
                [[1, 1], [0, 0], [0, 0], [0, 0]],
                [0, 0],
            ),
            [2 * PHI_2, 2 * PHI_2],
        ),
        h.Case(
            "w_2 = 0: the output is b_2",
            ([1, 2], w_1, [0, 0, 0, 0], [[0, 0]] * 4, [3, -4]),
            [3.0, -4.0],
        ),
        h.Case(
            "every hidden unit far below 0: GELU shuts them, the output is b_2",
            ([1, 1], w_1, [-20, -20, -20, -20], w_2, [0.25, 0.75]),
            [0.25, 0.75],
        ),
        h.Case(
            "negative hidden units pass a little: GELU(-1) = -(1 - Phi(1))",
            ([-1, 0], [[1, 0, 0, 0], [0, 0, 0, 0]], [0, 0, 0, 0], w_2, [0, 0]),
            [-(1 - PHI_1), 0.0],
        ),
    ]
    # For ffn-hidden-4d: a hidden layer 6 times wider than d = 1, so that a width
    # hard-coded as 4 d answers (drops units 4 and 5) rather than failing on an index.
    # For ffn-transposed too: w_1 has one row, so going along rows keeps one unit.
    wide_1, wide_2 = (
        [[1.0, -1.0, 0.5, 2.0, 1.0, -2.0]],
        [[1.0], [0.5], [-1.0], [0.25], [2.0], [1.0]],
    )
    # It comes first, so that a width hard-coded as 4 d is named before it fails on an
    # index in the cases that follow (whose hint must name both width mistakes).
    fixed.insert(
        0,
        h.Case(
            "d = 1, a hidden layer of 6 (6 times wider)",
            ([1.0], wide_1, [0.0] * 6, wide_2, [0.0]),
            expected([1.0], wide_1, [0.0] * 6, wide_2, [0.0]),
        ),
    )
    rng = random.Random(3301)
    seeded = []
    for i, d in enumerate((2, 3, 4), start=1):
        x = h.vector(rng, d)
        w_1, b_1 = h.matrix(rng, d, 4 * d, -1.0, 1.0), h.vector(rng, 4 * d, -1.0, 1.0)
        w_2, b_2 = h.matrix(rng, 4 * d, d, -1.0, 1.0), h.vector(rng, d, -1.0, 1.0)
        args = (x, w_1, b_1, w_2, b_2)
        seeded.append(h.Case(f"random case {i} (d = {d}, hidden {4 * d})", args, expected(*args)))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Adds b_1 after the activation instead of before it.
        "bias_after_gelu": h.Mistake("ffn-bias-after", (" + b_1[j])", ") + b_1[j]")),
        # Applies GELU after the second layer too.
        "gelu_on_output": h.Mistake(
            "ffn-gelu-output",
            (
                "sum(hidden[j] * w_2[j][c] for j in range(len(hidden))) + b_2[c]",
                ("gelu(sum(hidden[j] * w_2[j][c] for j in range(len(hidden))) + b_2[c])\n       "),
            ),
        ),
        # Uses the tanh approximation of GELU in the hidden layer, where the exact one is asked.
        "gelu_tanh": h.Mistake(
            "ffn-gelu-tanh",
            (
                "x * (1 + math.erf(x / math.sqrt(2))) / 2",
                "0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))",
            ),
        ),
        # Hard-codes the hidden width as 4 * d instead of reading it from b_1 (or w_1).
        "hidden_4d": h.Mistake(
            "ffn-hidden-4d",
            (
                (
                    "hidden = [gelu(sum(x[i] * w_1[i][j] for i in range(len(x))) + b_1[j]) for j in range(len(b_1))]\n"
                    "    return [\n"
                    "        sum(hidden[j] * w_2[j][c] for j in range(len(hidden))) + b_2[c] for c in range(len(b_2))\n"
                    "    "
                ),
                (
                    "h = 4 * len(x)\n"
                    "    hidden = [gelu(sum(x[i] * w_1[i][j] for i in range(len(x))) + b_1[j]) for j in range(h)]\n"
                    "    return [sum(hidden[j] * w_2[j][c] for j in range(h)) + b_2[c] for c in range(len(b_2))"
                ),
            ),
        ),
        # Leaves out the activation: two linear layers in a row, which are one linear layer.
        "no_activation": h.Mistake(
            "ffn-linear",
            (
                "gelu(sum(x[i] * w_1[i][j] for i in range(len(x))) + b_1[j])",
                "sum(x[i] * w_1[i][j] for i in range(len(x))) + b_1[j]",
            ),
        ),
        # Forgets b_2, the second layer's bias.
        "no_output_bias": h.Mistake(
            "ffn-no-b2",
            (
                (
                    "\n"
                    "        sum(hidden[j] * w_2[j][c] for j in range(len(hidden))) + b_2[c] for c in range(len(b_2))\n"
                    "    "
                ),
                "sum(hidden[j] * w_2[j][c] for j in range(len(hidden))) for c in range(len(b_2))",
            ),
        ),
        # Uses ReLU in the hidden layer, as the original transformer did, where BERT uses GELU.
        "relu": h.Mistake(
            "ffn-relu",
            (
                "gelu(sum(x[i] * w_1[i][j] for i in range(len(x))) + b_1[j]) for j in range(len(b_1))",
                (
                    "\n"
                    "        max(0.0, sum(x[i] * w_1[i][j] for i in range(len(x))) + b_1[j]) for j in range(len(b_1))\n"
                    "    "
                ),
            ),
        ),
        # Goes along the ROWS of w_1 and w_2 (W x with column vectors) instead of down their
        # columns.
        "transposed": h.Mistake(
            "ffn-transposed",
            (
                (
                    "x[i] * w_1[i][j] for i in range(len(x))) + b_1[j]) for j in range(len(b_1))]\n"
                    "    return [\n"
                    "        sum(hidden[j] * w_2[j][c] for j in range(len(hidden))) + b_2[c] for c in range(len(b_2))\n"
                    "    "
                ),
                (
                    "a * b for a, b in zip(x, row)) + b) for row, b in zip(w_1, b_1)]\n"
                    "    return [sum(a * b for a, b in zip(hidden, row)) + b for row, b in zip(w_2, b_2)"
                ),
            ),
        ),
    },
)


def explain_exception(
    exc: Exception, args: tuple[Vector, Matrix, Vector, Matrix, Vector]
) -> str | None:
    """An index past the end of a list: the widths were not read from the arrays.

    Rows and columns swapped and a width hard-coded as 4 d both end here, so the hint
    names both; their wrong values, on the cases where they answer, get their own hints.
    """
    if isinstance(exc, IndexError):
        return "ffn-widths"
    return None


def properties(run: h.Runner) -> Iterator[h.Result]:
    """The second layer is linear: doubling w_2 and b_2 doubles the answer."""
    rng = random.Random(3302)
    x = h.vector(rng, 3)
    w_1, b_1 = h.matrix(rng, 3, 12, -1.0, 1.0), h.vector(rng, 12, -1.0, 1.0)
    w_2, b_2 = h.matrix(rng, 12, 3, -1.0, 1.0), h.vector(rng, 3, -1.0, 1.0)
    yield run.relation(
        "the second layer is linear: doubling w_2 and b_2 doubles the output",
        (x, w_1, b_1, w_2, b_2),
        (x, w_1, b_1, [[2 * v for v in row] for row in w_2], [2 * v for v in b_2]),
        expected="twice the output for w_2 and b_2",
        hint="ffn-gelu-output",
        predict=lambda out: [2 * v for v in (h.as_list(out) or [])],
        tol=1e-9,
    )
    # A hidden unit whose weights and bias are all 0 gives GELU(0) = 0: whatever its
    # row of w_2 holds, the output stays the same.
    wider_1 = [[*row, 0.0] for row in w_1]
    wider_2 = [*w_2, [5.0, -5.0, 5.0]]
    yield run.relation(
        "a hidden unit with zero weights adds nothing (GELU(0) = 0)",
        (x, w_1, b_1, w_2, b_2),
        (x, wider_1, [*b_1, 0.0], wider_2, b_2),
        expected="the output without that unit",
        hint="ffn-wrong",
        tol=1e-9,
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
