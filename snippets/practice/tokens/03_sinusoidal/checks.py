"""Hidden checks for lesson 0, step 3: the sinusoidal encoding of one position.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand
(fixed cases) or by the formula below (seeded random cases).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator

import _harness as h

TITLE = "Lesson 0, step 3, the sinusoidal encoding"
FUNCTION = "sinusoidal"
PARAMS = ("p", "d")
FALLBACK_HINT = "pe-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "pe-swapped": "Sine and cosine are the wrong way round: entry 2i is the SINE, entry "
    "2i + 1 the cosine. At position 0 the vector starts [0, 1, ...] (sin 0 = 0, cos 0 = 1).",
    "pe-entry-exponent": "Both entries of a pair share ONE frequency: the exponent uses the "
    "pair's index i (2i / d), the same for entry 2i and entry 2i + 1. With the entry's own "
    "index, the cosine gets another frequency than its sine.",
    "pe-no-two": "The exponent is 2i / d for pair i (entries 2i and 2i + 1), not i / d: "
    "with i / d the frequencies only fall to 1 / 100, not to almost 1 / 10000.",
    "pe-multiplied": "Divide the position by 10000 ** (2i / d) (or multiply by 10000 ** "
    "(-2i / d)): the frequencies must FALL from 1 radian per position, so that the last "
    "pairs change slowly.",
    "pe-concatenated": "You put all the sines first and all the cosines after them. The "
    "lesson interleaves them: entry 2i is sin(p w_i) and entry 2i + 1 is cos(p w_i), so "
    "that each pair of neighbours is one point turning on a circle. (Some code concatenates "
    "the two halves; it is another layout of the same numbers, not this one.)",
    "pe-wrong": "For each pair i = 0 .. d/2 - 1, the angle is p / 10000 ** (2 * i / d); "
    "append sin(angle) and then cos(angle). The answer has d numbers.",
}


def expected(p: float, d: int) -> list[float]:
    """Entry j uses pair j // 2, written independently of any answer."""
    out = []
    for j in range(d):
        w = math.exp(-math.log(10000.0) * (j - j % 2) / d)
        out.append(math.sin(p * w) if j % 2 == 0 else math.cos(p * w))
    return out


def cases() -> list[h.Case]:
    fixed = [
        # Position 0: sin 0 = 0 and cos 0 = 1 in every pair.
        h.Case("position 0, d = 4", (0, 4), [0.0, 1.0, 0.0, 1.0]),
        # d = 2: one pair, frequency 1.
        h.Case("position 1, d = 2: sin 1 and cos 1", (1, 2), [math.sin(1), math.cos(1)]),
        # d = 4: w_0 = 1, w_1 = 10000 ** (-2/4) = 1/100.
        h.Case(
            "position 2, d = 4: angles 2 and 2/100",
            (2, 4),
            [math.sin(2), math.cos(2), math.sin(0.02), math.cos(0.02)],
        ),
        # d = 6: w_1 = 10000 ** (-1/3), w_2 = 10000 ** (-2/3).
        h.Case(
            "position 5, d = 6",
            (5, 6),
            [
                math.sin(5),
                math.cos(5),
                math.sin(5 / 10000 ** (1 / 3)),
                math.cos(5 / 10000 ** (1 / 3)),
                math.sin(5 / 10000 ** (2 / 3)),
                math.cos(5 / 10000 ** (2 / 3)),
            ],
        ),
    ]
    rng = random.Random(2003)
    seeded = []
    for i, d in enumerate((8, 10, 16), start=1):
        p = rng.randrange(3, 500)
        seeded.append(h.Case(f"random case {i} (position {p}, d = {d})", (p, d), expected(p, d)))
    return fixed + seeded


def _pairs(first: str, exponent: str) -> object:
    def pe(p: float, d: int) -> list[float]:
        out = []
        for j in range(d):
            i = j // 2
            power = {"2i": 2 * i, "i": i, "j": j, "-2i": -2 * i}[exponent] / d
            angle = p / 10000**power
            use_sin = (j % 2 == 0) == (first == "sin")
            out.append(math.sin(angle) if use_sin else math.cos(angle))
        return out

    return pe


def _concatenated(p: float, d: int) -> list[float]:
    """Every sine first, then every cosine: [sin p w_0, ..., cos p w_0, ...]."""
    angles = [p / 10000 ** (2 * i / d) for i in range(d // 2)]
    return [math.sin(a) for a in angles] + [math.cos(a) for a in angles]


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # All the sines first, then all the cosines, instead of sin and cos side by side per
        # pair.
        "concatenated": h.Mistake(
            "pe-concatenated",
            (
                (
                    "out = []\n"
                    "    for i in range(d // 2):\n"
                    "        angle = p / 10000 ** (2 * i / d)\n"
                    "        out += [math.sin(angle), math.cos(angle)]\n"
                    "    return out"
                ),
                (
                    "angles = [p / 10000 ** (2 * i / d) for i in range(d // 2)]\n"
                    "    return [math.sin(a) for a in angles] + [math.cos(a) for a in angles]"
                ),
            ),
        ),
        # Uses the entry's index j in the exponent (10000 ** (j / d)), so a pair's sine and
        # cosine get different frequencies.
        "entry_exponent": h.Mistake(
            "pe-entry-exponent",
            (
                (
                    "i in range(d // 2):\n"
                    "        angle = p / 10000 ** (2 * i / d)\n"
                    "        out += [math.sin(angle), math.cos(angle)]"
                ),
                (
                    "j in range(d):\n"
                    "        angle = p / 10000 ** (j / d)\n"
                    "        out.append(math.sin(angle) if j % 2 == 0 else math.cos(angle))"
                ),
            ),
        ),
        # Multiplies the position by 10000 ** (2i / d) instead of dividing by it.
        "multiplied": h.Mistake("pe-multiplied", ("p /", "p *")),
        # Writes the exponent as i / d for pair i, forgetting the 2 of 2i / d.
        "no_two": h.Mistake("pe-no-two", ("2 * i", "i")),
        # Puts the cosine first in each pair and the sine second.
        "swapped": h.Mistake("pe-swapped", ("sin(angle), math.cos", "cos(angle), math.sin")),
    },
)


def properties(run: h.Runner) -> Iterator[h.Result]:
    """Each (sin, cos) pair lies on the unit circle: the vector's length is sqrt(d / 2)."""
    args = (37, 12)
    name = "every pair is a point of the unit circle: sin^2 + cos^2 = 1"
    answer, failure = run.call(name, args)
    if failure is not None:
        yield failure
        return
    values = h.as_list(answer) or []
    ok = len(values) == 12 and all(
        abs(values[j] ** 2 + values[j + 1] ** 2 - 1) < 1e-9 for j in range(0, 12, 2)
    )
    yield run.check(
        name,
        args,
        ok=ok,
        actual=answer,
        expected="12 numbers, each pair (entries 2i, 2i + 1) with squares adding to 1",
        hint="pe-concatenated"
        if h.compare(answer, _concatenated(*args), 1e-9) is None
        else "pe-entry-exponent",
        detail="a pair's squares do not add to 1 (or the length is not d)",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
