"""Hidden checks for lesson 3, step 1: layer normalisation of one token's vector.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand
(fixed cases, written as closed forms) or by the plain formula below (seeded cases);
the properties need no expected value (a shift or a rescaling of x changes nothing).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator

import _harness as h

TITLE = "Lesson 3, step 1, layer normalisation"
FUNCTION = "layer_norm"
PARAMS = ("x", "gain", "bias", "eps")
FALLBACK_HINT = "ln-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "ln-unbiased": "You divided the sum of squares by d - 1. That is the sample variance "
    "of statistics (numpy's ddof=1); layer normalisation uses the plain mean of the squared "
    "differences, dividing by d, as torch.nn.LayerNorm does.",
    "ln-no-eps": "Add eps to the variance before taking the square root: sqrt(variance + "
    "eps). Without it a token whose entries are all equal has variance 0, and the division "
    "fails (or blows up when the variance is merely tiny).",
    "ln-eps-outside": "eps goes under the square root: divide by sqrt(variance + eps), not "
    "by sqrt(variance) + eps. The two agree only when eps is negligible; the checks use a "
    "large eps on purpose to tell them apart.",
    "ln-bias-before-gain": "Scale first, then shift: gain[i] * normalised[i] + bias[i]. "
    "Adding the bias before multiplying scales the bias too.",
    "ln-no-gain-bias": "After normalising, apply the learned parameters entry by entry: "
    "gain[i] * normalised[i] + bias[i]. They let the model undo or reshape the "
    "normalisation where it helps.",
    "ln-wrong": "mean = sum(x) / d; variance = sum((x[i] - mean) ** 2) / d; then entry i is "
    "gain[i] * (x[i] - mean) / sqrt(variance + eps) + bias[i].",
}

Vector = list[float]
S = math.sqrt(1.5)  # (3 - 2) / sqrt(2/3): [1, 2, 3] has mean 2 and variance 2/3
E = 1 / math.sqrt(2 / 3 + 1)  # [1, 2, 3] with eps = 1: divide by sqrt(2/3 + 1)


def expected(x: Vector, gain: Vector, bias: Vector, eps: float) -> Vector:
    """The definition, written with exact sums (math.fsum)."""
    mean = math.fsum(x) / len(x)
    variance = math.fsum((v - mean) ** 2 for v in x) / len(x)
    scale = math.sqrt(variance + eps)
    return [g * (v - mean) / scale + b for v, g, b in zip(x, gain, bias, strict=True)]


def _normalised(x: Vector, eps: float, *, ddof: int = 0, outside: bool = False) -> Vector:
    mean = math.fsum(x) / len(x)
    variance = math.fsum((v - mean) ** 2 for v in x) / (len(x) - ddof)
    scale = math.sqrt(variance) + eps if outside else math.sqrt(variance + eps)
    return [(v - mean) / scale for v in x]


def _affine(z: Vector, gain: Vector, bias: Vector) -> Vector:
    return [g * v + b for v, g, b in zip(z, gain, bias, strict=True)]


def cases() -> list[h.Case]:
    ones3, zeros3 = [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]
    # Every case has d >= 3, so that a normalised row is not just -1 and +1: with d = 2
    # every mistake below that normalises at all gives [-1, 1], and they look alike.
    fixed = [
        # For ln-unbiased: dividing by d - 1 gives variance 1, not 2/3, so -1, 0, 1.
        h.Case(
            "x = [1, 2, 3], no gain or bias, a tiny eps",
            ([1, 2, 3], ones3, zeros3, 1e-12),
            [-S, 0.0, S],
        ),
        # For ln-eps-outside and ln-no-eps: with eps = 1, sqrt(2/3 + 1), sqrt(2/3) + 1 and
        # sqrt(2/3) are three different divisors.
        h.Case(
            "a large eps = 1: [1, 2, 3] has variance 2/3, so divide by sqrt(2/3 + 1)",
            ([1, 2, 3], ones3, zeros3, 1.0),
            [-E, 0.0, E],
        ),
        # For ln-bias-before-gain and ln-no-gain-bias: three different gains and biases on
        # [-S, 0, S]; (z + b) * g and z alone both differ from g * z + b in every entry.
        h.Case(
            "gain [2, 3, 4] and bias [1, -1, 0.5] on the normalised [-S, 0, S], S = sqrt(1.5)",
            ([1, 2, 3], [2.0, 3.0, 4.0], [1.0, -1.0, 0.5], 1e-12),
            [1 - 2 * S, -1.0, 0.5 + 4 * S],
        ),
        # For ln-no-eps: variance 0 divides by zero without eps.
        h.Case(
            "every entry equal: variance 0, the answer is the bias",
            ([5, 5, 5], [1.0, 2.0, 3.0], [0.5, 0.0, -0.5], 1e-5),
            [0.5, 0.0, -0.5],
        ),
        # For ln-unbiased at d = 4 (80 / 3 against 20). [0, 4, 8, 12]: mean 6, variance
        # (36 + 4 + 4 + 36) / 4 = 20.
        h.Case(
            "four entries, MiniLM's eps = 1e-12",
            ([0, 4, 8, 12], [1.0] * 4, [0.0] * 4, 1e-12),
            [v / math.sqrt(20) for v in (-6, -2, 2, 6)],
        ),
    ]
    rng = random.Random(3101)
    seeded = []
    for i, (d, eps) in enumerate(((4, 1e-5), (6, 1e-12), (8, 0.1)), start=1):
        x = h.vector(rng, d)
        gain, bias = h.vector(rng, d, 0.5, 1.5), h.vector(rng, d, -1.0, 1.0)
        name = f"random case {i} (d = {d}, eps = {eps:g})"
        seeded.append(h.Case(name, (x, gain, bias, eps), expected(x, gain, bias, eps)))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Shifts before it scales: (normalised + bias) * gain.
        "bias_before_gain": h.Mistake(
            "ln-bias-before-gain", ("g * (v - mean) / scale + b", "((v - mean) / scale + b) * g")
        ),
        # Adds eps to the standard deviation instead of to the variance.
        "eps_outside_sqrt": h.Mistake(
            "ln-eps-outside",
            (
                (
                    "variance = sum((v - mean) ** 2 for v in x) / d\n"
                    "    scale = math.sqrt(variance + eps)\n"
                    "    return [g * (v - mean) / scale"
                ),
                (
                    "std = math.sqrt(sum((v - mean) ** 2 for v in x) / d)\n"
                    "    return [g * (v - mean) / (std + eps)"
                ),
            ),
        ),
        # Forgets eps: divides by the standard deviation alone (a constant vector divides by
        # zero).
        "no_eps": h.Mistake(
            "ln-no-eps",
            (
                ("scale = math.sqrt(variance + eps)\n    return [g * (v - mean) / scale"),
                "return [g * (v - mean) / math.sqrt(variance)",
            ),
        ),
        # Normalises, then forgets the learned gain and bias.
        "no_gain_bias": h.Mistake(
            "ln-no-gain-bias",
            (
                (
                    "scale = math.sqrt(variance + eps)\n"
                    "    return [g * (v - mean) / scale + b for v, g, b in zip(x, gain, bias)"
                ),
                "return [(v - mean) / math.sqrt(variance + eps) for v in x",
            ),
        ),
        # Divides the sum of squares by d - 1 (the sample variance of statistics, numpy's
        # ddof=1).
        "unbiased_variance": h.Mistake(
            "ln-unbiased",
            (
                ("d\n    scale = math.sqrt(variance + eps)\n    return [g * (v - mean) / scale"),
                ("(d - 1)\n    return [g * (v - mean) / math.sqrt(variance + eps)"),
            ),
        ),
    },
)


def explain_exception(exc: Exception, args: tuple[Vector, Vector, Vector, float]) -> str | None:
    """A division by zero on a vector of equal entries: eps was left out."""
    x = args[0]
    if isinstance(exc, ZeroDivisionError) and len(set(x)) == 1:
        return "ln-no-eps"
    return None


def properties(run: h.Runner) -> Iterator[h.Result]:
    """Shifting or rescaling x changes nothing; gain 1 and bias 0 give mean 0, variance 1.

    (eps = 1e-12 moves the variance by about 1e-12, far inside the tolerance.)
    """
    rng = random.Random(3102)
    x = h.vector(rng, 5)
    gain, bias = h.vector(rng, 5, 0.5, 1.5), h.vector(rng, 5, -1.0, 1.0)
    yield run.relation(
        "adding the same number to every entry of x changes nothing",
        (x, gain, bias, 1e-12),
        ([v + 7 for v in x], gain, bias, 1e-12),
        expected="the answer for x itself",
        hint="ln-wrong",
        tol=1e-9,
    )
    yield run.relation(
        "multiplying x by 10 changes nothing (eps is tiny)",
        (x, gain, bias, 1e-12),
        ([v * 10 for v in x], gain, bias, 1e-12),
        expected="the answer for x itself",
        hint="ln-wrong",
        tol=1e-9,
    )
    args = (x, [1.0] * 5, [0.0] * 5, 1e-12)
    name = "with gain 1, bias 0 and a tiny eps the answer has mean 0 and variance 1"
    answer, failure = run.call(name, args)
    if failure is not None:
        yield failure
        return
    items = h.as_list(answer) or []
    numbers = len(items) == 5 and all(isinstance(v, (int, float)) for v in items)
    mean = math.fsum(items) / 5 if numbers else math.nan
    variance = math.fsum((v - mean) ** 2 for v in items) / 5 if numbers else math.nan
    ok = abs(mean) < 1e-9 and abs(variance - 1) < 1e-9
    yield run.check(
        name,
        args,
        ok=ok,
        actual=answer,
        expected="five numbers whose mean is 0 and whose variance (dividing by d) is 1",
        hint="ln-unbiased" if numbers and abs(variance - 1.25) < 1e-9 else "ln-wrong",
        tol=1e-9,
        detail="" if ok else f"mean {h.show(mean)}, variance {h.show(variance)}",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
