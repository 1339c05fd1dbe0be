"""Hidden checks for step 3: a numerically stable softmax.

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

from _worked_example import K, Q

TITLE = "Step 3, softmax"
FUNCTION = "softmax"
PARAMS = ("scores",)
FALLBACK_HINT = "softmax-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "no-max": "Subtract the largest score from every score before math.exp. Only the "
    "maximum is safe for every input: after the shift the largest exponent is exactly 0 "
    "(exp gives 1, so the sum is at least 1 and never 0) and all the others are at most 0 "
    "(no overflow). Any other shift (the mean, the first or last score, the smallest, a "
    "fixed number) fails when the scores are spread widely: some exponent is still above "
    "709 (OverflowError) or every exponential rounds to 0 (0/0). The shift itself changes "
    "nothing: it cancels between top and bottom.",
    "raw-normalised": "You normalised the raw scores (s / sum of s). Softmax normalises the"
    " exponentials: exponentiate first, then divide each exp by the sum of the exps.",
    "not-normalised": "Divide each exponential by the sum of all of them, so that the "
    "weights add up to 1.",
    "argmax": "You picked the largest instead of blending: every item gets some weight, and"
    " the answer mixes all of them in proportion (the largest just gets the biggest share).",
    "softmax-wrong": "softmax(s)[i] = exp(s[i] - m) / sum(exp(s[j] - m) for every j), with "
    "m the largest score.",
    "sum-to-one": "The weights must be non-negative and add up to 1: divide each "
    "exponential by the sum of the exponentials.",
    "shift": "Adding the same number to every score must not change the softmax. "
    "Subtracting the maximum is exactly such a shift, which is why it is allowed.",
}

E = math.e


def expected(scores: list[float]) -> list[float]:
    """The definition, shifted by the maximum (the shift cancels out)."""
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = math.fsum(exps)
    return [x / total for x in exps]


def _one_hot(scores: list[float]) -> list[float]:
    best = scores.index(max(scores))
    return [1.0 if i == best else 0.0 for i in range(len(scores))]


def cases() -> list[h.Case]:
    # The worked example's scaled scores, q·k / √d_k for each key.
    scaled = [math.fsum(a * b for a, b in zip(Q, k, strict=True)) / math.sqrt(len(Q)) for k in K]
    big = 1 + 1 / E + 1 / E**2  # exp(0) + exp(-1) + exp(-2), after subtracting 1000
    fixed = [
        h.Case(f"worked example: scaled scores {h.show(scaled)}", (scaled,), expected(scaled)),
        h.Case("equal scores share equally", ([0.0, 0.0, 0.0, 0.0],), [0.25] * 4),
        h.Case("a single score gets all the weight", ([3.0],), [1.0]),
        h.Case("two scores, one apart", ([2.0, 1.0],), [E / (E + 1), 1 / (E + 1)]),
        h.Case(
            "large scores must not overflow",
            ([1000.0, 999.0, 998.0],),
            [1 / big, 1 / E / big, 1 / E**2 / big],
        ),
        h.Case(
            "very negative scores must not underflow to 0/0",
            ([-1000.0, -1001.0],),
            [E / (E + 1), 1 / (E + 1)],
        ),
        # Spread 2000 wide, the largest in the middle, then first, then last: subtracting
        # any other score (the first, the last, the smallest, the mean or the median) leaves
        # an exponent of 1000 or more, which overflows. The others get e^-1000 and e^-2000.
        h.Case(
            "a wide spread, the largest in the middle",
            ([-1000.0, 1000.0, 0.0],),
            [0.0, 1.0, 0.0],
        ),
        h.Case("a wide spread, the largest first", ([1000.0, -1000.0, -1000.0],), [1.0, 0.0, 0.0]),
        h.Case("a wide spread, the largest last", ([0.0, -1000.0, 1000.0],), [0.0, 0.0, 1.0]),
    ]
    rng = random.Random(301)
    seeded = []
    for i, n in enumerate((3, 5, 7), start=1):
        scores = h.vector(rng, n, -5.0, 5.0)
        seeded.append(h.Case(f"random scores {i} ({n} of them)", (scores,), expected(scores)))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Gives all the weight to the largest score (a hard maximum, not a soft one).
        "argmax": h.Mistake(
            "argmax",
            (
                (
                    "m = max(scores)\n"
                    "    exps = [math.exp(s - m) for s in scores]\n"
                    "    total = sum(exps)\n"
                    "    return [e / total for e in exps"
                ),
                (
                    "best = scores.index(max(scores))\n"
                    "    return [1.0 if i == best else 0.0 for i in range(len(scores))"
                ),
            ),
        ),
        # Right answers, but written into the caller's list: the scores are gone after the call.
        "in_place": h.Mistake(
            "mutated-input",
            (
                (
                    "exps = [math.exp(s - m) for s in scores]\n"
                    "    total = sum(exps)\n"
                    "    return [e / total for e in exps]"
                ),
                (
                    "for i in range(len(scores)):\n"
                    "        scores[i] = math.exp(scores[i] - m)\n"
                    "    total = sum(scores)\n"
                    "    for i in range(len(scores)):\n"
                    "        scores[i] = scores[i] / total\n"
                    "    return scores"
                ),
            ),
            model=False,
        ),
        # The textbook formula without subtracting the maximum: exp(1000) overflows.
        "no_max": h.Mistake(
            "no-max",
            (("m = max(scores)\n    exps = [math.exp(s - m"), "exps = [math.exp(s"),
            model=False,
        ),
        # Returns the exponentials without dividing by their sum.
        "not_normalised": h.Mistake(
            "not-normalised",
            (
                (
                    "exps = [math.exp(s - m) for s in scores]\n"
                    "    total = sum(exps)\n"
                    "    return [e / total for e in exps"
                ),
                "return [math.exp(s - m) for s in scores",
            ),
        ),
        # Normalises the raw scores instead of their exponentials.
        "raw_normalised": h.Mistake(
            "raw-normalised",
            (
                (
                    "m = max(scores)\n"
                    "    exps = [math.exp(s - m) for s in scores]\n"
                    "    total = sum(exps)\n"
                    "    return [e / total for e in exps"
                ),
                ("total = sum(scores)\n    return [s / total for s in scores"),
            ),
        ),
        # Subtracts a fixed 1000 whatever the scores: very negative scores then all round to 0.
        "shift_constant": h.Mistake(
            "no-max",
            (("m = max(scores)\n    exps = [math.exp(s - m"), "exps = [math.exp(s - 1000"),
            model=False,
        ),
        # Subtracts the first score: safe only when the first score happens to be the largest.
        "shift_first": h.Mistake(
            "no-max",
            (("m = max(scores)\n    exps = [math.exp(s - m"), "exps = [math.exp(s - scores[0]"),
            model=False,
        ),
        # Subtracts the mean instead of the maximum: fine for narrow scores, overflows for wide
        # ones.
        "shift_mean": h.Mistake(
            "no-max",
            (
                ("m = max(scores)\n    exps = [math.exp(s - m"),
                ("mean = sum(scores) / len(scores)\n    exps = [math.exp(s - mean"),
            ),
            model=False,
        ),
        # Subtracts the smallest score: every exponent becomes >= 0, the wrong way round.
        "shift_min": h.Mistake("no-max", (" max", " min"), model=False),
        # Returns exp(s) for each score: no maximum, no division by the sum.
        "exp_only": h.Mistake(
            "not-normalised",
            ("return [e / total for e in exps]", "return [math.exp(s) for s in scores]"),
        ),
    },
)


def explain_exception(exc: Exception, args: tuple[list[float]]) -> str | None:
    """exp of a large score overflows; exp of scores that are all very negative rounds to 0."""
    if isinstance(exc, OverflowError):
        return "no-max"
    if isinstance(exc, ZeroDivisionError) and max(args[0]) < -700:
        return "no-max"
    return None


def properties(run: h.Runner) -> Iterator[h.Result]:
    rng = random.Random(302)
    scores = h.vector(rng, 6, -4.0, 4.0)
    name = "weights are non-negative and sum to 1"
    weights, failure = run.call(name, (scores,))
    if failure is not None:
        yield failure
        return
    items = h.as_list(weights) or []
    numbers = all(isinstance(w, (int, float)) for w in items) and len(items) == len(scores)
    total = math.fsum(items) if numbers else float("nan")
    ok = numbers and min(items) >= 0 and abs(total - 1) <= 1e-9
    yield run.check(
        name,
        (scores,),
        ok=ok,
        actual=weights,
        expected=f"{len(scores)} weights, each >= 0, summing to 1",
        hint="sum-to-one",
        tol=1e-9,
        detail=f"the weights sum to {h.show(total)}" if numbers else "not a list of numbers",
    )
    yield run.relation(
        "adding 50 to every score changes nothing",
        (scores,),
        ([s + 50 for s in scores],),
        expected="the weights of the unshifted scores",
        hint="shift",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
