"""Hidden checks for lesson 0, step 5: rotary position embedding (RoPE) of one vector.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand
(fixed cases) or as complex multiplication (seeded random cases): the pair (x, y) is
x + yi, and turning it by the angle a multiplies it by e^(ia).
"""

from __future__ import annotations

import cmath
import math
import random
import sys
from collections.abc import Iterator

import _harness as h

TITLE = "Lesson 0, step 5, rotary position embedding"
FUNCTION = "rope"
PARAMS = ("q", "p")
FALLBACK_HINT = "rope-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "rope-clockwise": "Your pairs turn the wrong way (clockwise). Counter-clockwise by a: "
    "x cos a - y sin a first, x sin a + y cos a second; [1, 0] at angle a becomes "
    "[cos a, sin a].",
    "rope-halves": "The lesson pairs NEIGHBOURS: entries 2i and 2i + 1 (0 with 1, 2 with 3, "
    "...), not entry i with entry i + d/2. (Some libraries use halves; then the columns of "
    "their weights are ordered to match.)",
    "rope-no-position": "The angle is the position times the frequency, a = p * w_i: a "
    "vector at position 0 does not move at all, and one at position p turns p times as far "
    "as one at position 1.",
    "rope-exponent": "The frequency of pair i is 1 / 10000 ** (2i / d) with i the PAIR's "
    "index (0, 1, 2, ...), as in step 3: pair 1 holds entries 2 and 3 but its exponent is "
    "2 * 1 / d.",
    "rope-sequential": "You overwrote the first entry of a pair before computing the second, "
    "so the second used the new value instead of the old one, and the pair is no longer "
    "rotated (its length changes). Read both old entries first, x, y = q[2i], q[2i + 1], "
    "then write the two new ones.",
    "rope-wrong": "For pair i (entries 2i and 2i + 1), a = p / 10000 ** (2 * i / d); the new "
    "pair is (x cos a - y sin a, x sin a + y cos a) with x, y the old pair.",
}


def expected(q: list[float], p: float) -> list[float]:
    """Each pair as a complex number times e^(i p w), written independently of any answer."""
    d = len(q)
    out: list[float] = []
    for i in range(d // 2):
        z = complex(q[2 * i], q[2 * i + 1]) * cmath.exp(
            1j * p * math.exp(-math.log(1e4) * 2 * i / d)
        )
        out += [z.real, z.imag]
    return out


def cases() -> list[h.Case]:
    c1, s1 = math.cos(1), math.sin(1)
    fixed = [
        h.Case("[1, 0] at position 1 turns one radian", ([1.0, 0.0], 1), [c1, s1]),
        # Position 0: no turn at all.
        h.Case("position 0 leaves q as it is", ([3.0, -1.0, 0.5, 2.0], 0), [3.0, -1.0, 0.5, 2.0]),
        # [0, 2] turned by a quarter turn (pi/2 radians, d = 2) points along -x.
        h.Case("[0, 2] a quarter turn on", ([0.0, 2.0], math.pi / 2), [-2.0, 0.0]),
        # d = 4 at position 100: pair 0 turns 100 radians, pair 1 exactly 1 radian.
        h.Case(
            "d = 4 at position 100: pair 1 turns 1 radian",
            ([1.0, 0.0, 1.0, 0.0], 100),
            [math.cos(100), math.sin(100), c1, s1],
        ),
        # d = 4 at position 3: angles 3 and 3/100.
        h.Case(
            "d = 4 at position 3",
            ([1.0, 2.0, 3.0, 4.0], 3),
            [
                math.cos(3) - 2 * math.sin(3),
                math.sin(3) + 2 * math.cos(3),
                3 * math.cos(0.03) - 4 * math.sin(0.03),
                3 * math.sin(0.03) + 4 * math.cos(0.03),
            ],
        ),
    ]
    rng = random.Random(2005)
    seeded = []
    for i, d in enumerate((6, 8, 12), start=1):
        q, p = h.vector(rng, d), rng.randrange(2, 300)
        seeded.append(h.Case(f"random case {i} (d = {d}, position {p})", (q, p), expected(q, p)))
    return fixed + seeded


def _rope(sign: float, scale: float, with_position: bool, halves: bool) -> object:
    def rotate(q: list[float], p: float) -> list[float]:
        d = len(q)
        half = d // 2
        out = list(q)
        for i in range(half):
            a = (p if with_position else 1.0) * 10000 ** (-scale * i / d)
            j, k = (i, i + half) if halves else (2 * i, 2 * i + 1)
            x, y = q[j], q[k]
            out[j] = x * math.cos(a) - sign * y * math.sin(a)
            out[k] = sign * x * math.sin(a) + y * math.cos(a)
        return out

    return rotate


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Turns each pair clockwise (the signs of the sines swapped).
        "clockwise": h.Mistake("rope-clockwise", ("- y * math.sin(a), x", "+ y * math.sin(a), -x")),
        # Uses the pair's first entry 2i as i in the exponent: 10000 ** (4i / d).
        "entry_exponent": h.Mistake("rope-exponent", ("(2 * i", "(2 * (2 * i)")),
        # Pairs entry i with entry i + d/2 (the two halves) instead of neighbours 2i and 2i + 1.
        "halves": h.Mistake(
            "rope-halves",
            (
                ("out = []\n    for i in range(d // 2"),
                ("half = d // 2\n    out = list(q)\n    for i in range(half"),
            ),
            (
                (
                    "2 * i], q[2 * i + 1]\n"
                    "        out += [x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)]"
                ),
                (
                    "i], q[i + half]\n"
                    "        out[i] = x * math.cos(a) - y * math.sin(a)\n"
                    "        out[i + half] = x * math.sin(a) + y * math.cos(a)"
                ),
            ),
        ),
        # Turns every pair by its frequency w_i alone, forgetting to multiply by the position.
        "no_position": h.Mistake("rope-no-position", ("= p", "= 1")),
        # Turns each pair in place: the second entry is computed from the already-updated first.
        "sequential": h.Mistake(
            "rope-sequential",
            ('    "', ('    q = list(q)\n    "')),
            (
                (
                    "x, y = q[2 * i], q[2 * i + 1]\n"
                    "        out += [x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)]\n"
                    "    return out"
                ),
                (
                    "q[2 * i] = q[2 * i] * math.cos(a) - q[2 * i + 1] * math.sin(a)\n"
                    "        q[2 * i + 1] = q[2 * i] * math.sin(a) + q[2 * i + 1] * math.cos(a)\n"
                    "    return q"
                ),
            ),
        ),
    },
)


def _dot(a: list[float], b: list[float]) -> float:
    return math.fsum(x * y for x, y in zip(a, b, strict=True))


def properties(run: h.Runner) -> Iterator[h.Result]:
    """A query at i and a key at j score the same as at i + 50 and j + 50: only i - j counts."""
    rng = random.Random(2006)
    q, k = h.vector(rng, 8), h.vector(rng, 8)
    name = "the score rope(q, i) . rope(k, j) depends only on i - j (7, 4 and 57, 54)"
    answers = []
    for args in ((q, 7), (k, 4), (q, 57), (k, 54)):
        answer, failure = run.call(name, args)
        if failure is not None:
            yield failure
            return
        answers.append([float(x) for x in h.as_list(answer) or []])
    if not all(len(a) == 8 for a in answers):
        near, far = math.nan, math.nan
    else:
        near, far = _dot(answers[0], answers[1]), _dot(answers[2], answers[3])
    # A rotation keeps lengths: if q came back longer or shorter, the pair was not turned
    # as a whole (rope-sequential); if lengths hold, the angle ignored p (rope-no-position).
    kept = len(answers[2]) == 8 and abs(_dot(answers[2], answers[2]) - _dot(q, q)) < 1e-9
    hint = "rope-no-position" if kept else "rope-sequential"
    yield run.check(
        name,
        (q, 57),
        ok=abs(near - far) <= 1e-9 * max(1.0, abs(near)),
        actual=far,
        expected=f"the score at positions 7 and 4: {h.show(near)}",
        hint=hint,
        tol=1e-9,
        detail="the score changed when both positions moved on by 50",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
