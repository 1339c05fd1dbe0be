"""Hidden checks for lesson 3, step 2: the exact GELU of one number.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values of the fixed cases come
from printed tables of the normal distribution (Phi(1), Phi(2), Phi(2.7)); seeded cases
use ``math.erfc``, another route to Phi than the ``math.erf`` the reader is asked to
use; the property needs no expected value (GELU(x) - GELU(-x) = x).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator

import _harness as h

TITLE = "Lesson 3, step 2, GELU"
FUNCTION = "gelu"
PARAMS = ("x",)
FALLBACK_HINT = "gelu-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "gelu-tanh": "That is the tanh approximation of GELU, cheaper than erf, which Google's "
    "original BERT code and GPT-2's code use. all-MiniLM-L6-v2's configuration names the "
    "exact GELU, "
    "x * (1 + erf(x / sqrt(2))) / 2. The two differ by at most 0.00047 (near x = 2.7 and -2.7): "
    "small, yet far beyond the checks' tolerance.",
    "gelu-no-sqrt2": "Divide by sqrt(2) inside erf: Phi(x) = (1 + erf(x / sqrt(2))) / 2. "
    "erf(x) alone belongs to a normal distribution with variance 1/2, not 1.",
    "gelu-no-x": "You returned Phi(x), a probability between 0 and 1. GELU multiplies it "
    "by x: the input is let through in proportion to how likely a normal variable is to "
    "be below it.",
    "gelu-relu": "That is ReLU, max(0, x). GELU is smooth: it lets small negative inputs "
    "through a little (GELU(-1) is below 0) and bends gently near 0, where ReLU has a "
    "corner.",
    "gelu-sigmoid": "x * sigmoid(1.702 x) is a quick approximation of GELU, off by up to "
    "about 0.02. Write the exact one with math.erf: x * (1 + erf(x / sqrt(2))) / 2.",
    "gelu-no-half": "Phi(x) is (1 + erf(x / sqrt(2))) / 2: without the halving the answer "
    "is twice GELU, and Phi would reach 2 instead of 1.",
    "gelu-wrong": "GELU(x) = x * Phi(x) with Phi(x) = (1 + math.erf(x / math.sqrt(2))) / 2.",
}

# The standard normal's cumulative function at 1, 2 and 2.7, as printed in tables.
PHI_1 = 0.8413447460685429
PHI_2 = 0.9772498680518208
PHI_27 = 0.9965330261969594


def expected(x: float) -> float:
    """x Phi(x), with Phi from the complementary error function."""
    return x * math.erfc(-x / math.sqrt(2)) / 2


def _tanh(x: float) -> float:
    return 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))


def cases() -> list[h.Case]:
    fixed = [
        h.Case("gelu(0) is 0", (0.0,), 0.0, tol=1e-9),
        h.Case("gelu(1) is Phi(1)", (1.0,), PHI_1, tol=1e-9),
        h.Case("gelu(-1) is -Phi(-1) = -(1 - Phi(1))", (-1.0,), -(1 - PHI_1), tol=1e-9),
        h.Case("gelu(2) is 2 Phi(2)", (2.0,), 2 * PHI_2, tol=1e-9),
        h.Case(
            "gelu(-2.7), where the tanh approximation is furthest off",
            (-2.7,),
            -2.7 * (1 - PHI_27),
            tol=1e-9,
        ),
        h.Case("a large input passes through: gelu(10) is 10", (10.0,), 10.0, tol=1e-9),
        h.Case("a large negative input is cut: gelu(-10) is 0", (-10.0,), 0.0, tol=1e-9),
    ]
    rng = random.Random(3201)
    seeded = []
    for i in range(1, 4):
        x = h.vector(rng, 1, -4.0, 4.0)[0]
        seeded.append(h.Case(f"random case {i} (x = {x:g})", (x,), expected(x), tol=1e-9))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Forgets the halving: x * (1 + erf(x / sqrt(2))), twice the GELU.
        "no_half": h.Mistake("gelu-no-half", (" / 2", "")),
        # Forgets to divide by sqrt(2) inside erf: the cumulative function of the wrong normal.
        "no_sqrt2": h.Mistake("gelu-no-sqrt2", ("x / math.sqrt(2)", "x")),
        # Returns Phi(x), the probability, and forgets to multiply it by x.
        "phi_only": h.Mistake("gelu-no-x", ("x * ", "")),
        # Writes ReLU, max(0, x): the older activation, not GELU.
        "relu": h.Mistake("gelu-relu", ("x * (1 + math.erf(x / math.sqrt(2))) / 2", "max(0.0, x)")),
        # The sigmoid approximation x * sigmoid(1.702 x), a coarser stand-in for the exact GELU.
        "sigmoid_approximation": h.Mistake(
            "gelu-sigmoid",
            ("* (1 + math.erf(x / math.sqrt(2))) / 2", "/ (1 + math.exp(-1.702 * x))"),
        ),
        # The tanh approximation (gelu_new in transformers; the gelu of the BERT and GPT-2
        # codes). The exact, erf-based GELU is asked.
        "tanh_approximation": h.Mistake(
            "gelu-tanh",
            (
                "x * (1 + math.erf(x / math.sqrt(2))) / 2",
                "0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))",
            ),
        ),
    },
)


def properties(run: h.Runner) -> Iterator[h.Result]:
    """GELU(-x) = GELU(x) - x, because Phi(-x) = 1 - Phi(x)."""
    for x in (0.5, 1.7, 3.0):
        yield run.relation(
            f"gelu(-{x:g}) is gelu({x:g}) - {x:g} (as Phi(-x) = 1 - Phi(x))",
            (x,),
            (-x,),
            expected=f"gelu({x:g}) - {x:g}",
            hint="gelu-wrong",
            predict=lambda before, x=x: before - x if isinstance(before, (int, float)) else None,
            tol=1e-9,
        )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
