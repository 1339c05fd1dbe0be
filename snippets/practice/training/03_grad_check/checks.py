"""Hidden checks for lesson 4, step 3: a gradient by central finite differences.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are closed forms worked out by hand
(a central difference is exact on a quadratic; on x^3 it is off by exactly h^2) or, for
the seeded cases, random quadratics whose gradient (A + A^T) x + b is summed by plain
loops, with no difference taken at all. The property needs no expected value (on a
quadratic the step h changes nothing); the harness's own last check passes a list and
compares it after the call, which catches an x nudged in place and never put back.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable, Iterator, Sequence

import _harness as h

TITLE = "Lesson 4, step 3, a gradient check by finite differences"
FUNCTION = "numerical_gradient"
PARAMS = ("f", "x", "h")
FALLBACK_HINT = "fd-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "fd-one-sided": "That is a one-sided difference, measured from x itself. Move the entry "
    "both ways, (f(x + h e_i) - f(x - h e_i)) / (2h): the error then shrinks like h^2 "
    "instead of h, and on a quadratic it is exact.",
    "fd-no-two": "The two points x + h e_i and x - h e_i are 2h apart, so divide the change "
    "of f by 2 * h, not by h: your answer is twice the gradient.",
    "fd-not-restored": "You changed x itself and did not put the entry back, so every later "
    "entry is measured at a point that has drifted (and the caller's x comes back changed). "
    "Nudge a copy instead: up = list(x); up[i] += h; down = list(x); down[i] -= h.",
    "fd-all-entries": "You moved every entry of x at once, which measures the slope along "
    "the diagonal, the same number for every i. Move one entry at a time: only entry i "
    "gets + h (then - h), the others stay as they are.",
    "fd-list-arithmetic": "In Python, x + h does not add h to the entries of a list (and "
    "list + list joins the lists). Copy the list and change one entry: up = list(x); "
    "up[i] += h.",
    "fd-h-quadratic": "On a quadratic a central difference is exact for any step: "
    "(f(x + h e_i) - f(x - h e_i)) / (2h) does not depend on h. Yours changed with h, so "
    "it is not centred on x, or it does not divide by 2 * h.",
    "fd-wrong": "Entry i is (f(up) - f(down)) / (2 * h), where up and down are copies of x "
    "with h added to, and taken from, entry i only.",
}

Vector = list[float]
Matrix = list[list[float]]


class Fn:
    """A function of a list of numbers, shown to the reader as the code that defines it.

    It never changes, so a copy is the function itself: the harness copies every argument
    before each call, and the default copy would write a cache onto this class (which the
    browser's runner takes for tampering). Two functions of the same text are equal.
    """

    def __init__(self, text: str, fn: Callable[[Sequence[float]], float]) -> None:
        self.text, self.fn = text, fn

    def __call__(self, x: Sequence[float]) -> float:
        return self.fn(x)

    def __repr__(self) -> str:
        return self.text

    def __deepcopy__(self, memo: dict[int, object]) -> Fn:
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Fn) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


SQUARES = Fn("lambda x: sum(v * v for v in x)", lambda x: sum(v * v for v in x))


def quadratic(a: Matrix, b: Vector) -> Fn:
    """f(x) = sum of a[i][j] x[i] x[j] plus sum of b[i] x[i]."""
    n = len(b)

    def f(x: Sequence[float]) -> float:
        pairs = math.fsum(a[i][j] * x[i] * x[j] for i in range(n) for j in range(n))
        return pairs + math.fsum(b[i] * x[i] for i in range(n))

    text = (
        f"(lambda x: sum(a[i][j]*x[i]*x[j]) + sum(b[i]*x[i]) "
        f"where a = {h.show(a)}, b = {h.show(b)})"
    )
    return Fn(text, f)


def quadratic_gradient(a: Matrix, b: Vector, x: Vector) -> Vector:
    """The exact gradient of :func:`quadratic`, (a + a^T) x + b, summed by plain loops."""
    n = len(b)
    return [math.fsum((a[i][j] + a[j][i]) * x[j] for j in range(n)) + b[i] for i in range(n)]


def _moved(x: Sequence[float], i: int, by: float) -> Vector:
    point = list(x)
    point[i] += by
    return point


def _central(f: Fn, x: Vector, step: float, over: float) -> Vector:
    return [(f(_moved(x, i, step)) - f(_moved(x, i, -step))) / over for i in range(len(x))]


def _forward(f: Fn, x: Vector, step: float) -> Vector:
    return [(f(_moved(x, i, step)) - f(x)) / step for i in range(len(x))]


def _backward(f: Fn, x: Vector, step: float) -> Vector:
    return [(f(x) - f(_moved(x, i, -step))) / step for i in range(len(x))]


def _not_restored(f: Fn, x: Vector, step: float) -> Vector:
    point, grad = list(x), []
    for i in range(len(point)):
        point[i] += step
        up = f(point)
        point[i] -= 2 * step
        grad.append((up - f(point)) / (2 * step))
    return grad


def _all_entries(f: Fn, x: Vector, step: float) -> Vector:
    slope = (f([v + step for v in x]) - f([v - step for v in x])) / (2 * step)
    return [slope] * len(x)


def cases() -> list[h.Case]:
    fixed = [
        # (v + h)^2 - (v - h)^2 = 4 v h, over 2 h: 2 v exactly, whatever h. Here every
        # known mistake but one answers differently: for fd-one-sided ((v + h)^2 - v^2) / h
        # = 2 v + h, [2.001, -3.999, 1.001]; fd-no-two [4, -8, 2]; fd-all-entries
        # 2 * (1 - 2 + 0.5) = -1 in every entry. (fd-not-restored passes: a sum of
        # squares is measured entry by entry, whatever the other entries hold.)
        h.Case(
            "a sum of squares: the gradient is 2 x",
            (SQUARES, [1.0, -2.0, 0.5], 1e-3),
            [2.0, -4.0, 1.0],
            tol=1e-9,
        ),
        # (2.1^3 - 1.9^3) / 0.2 = (9.261 - 6.859) / 0.2 = 12.01 = 3 x^2 + h^2. For
        # fd-one-sided: (2.1^3 - 2^3) / 0.1 = 12.61 = 3 x^2 + 3 x h + h^2, off by 0.6.
        h.Case(
            "a cubic, x^3 at 2 with h = 0.1: 3 x^2 + h^2 = 12.01",
            (Fn("lambda x: x[0] ** 3", lambda x: x[0] ** 3), [2.0], 0.1),
            [12.01],
            tol=1e-9,
        ),
        # x0 x1 at [3, -2]: exact, [x1, x0] = [-2, 3]. For fd-not-restored: entry 0 leaves
        # x0 at 3 - 0.5, so entry 1 is measured there: ((2.5)(-1.5) - (2.5)(-2.5)) / 1 = 2.5.
        # For fd-all-entries: (3.5 * (-1.5) - 2.5 * (-2.5)) / 1 = 1 in both entries.
        h.Case(
            "a product x0 * x1 at [3, -2] with h = 0.5: [x1, x0]",
            (Fn("lambda x: x[0] * x[1]", lambda x: x[0] * x[1]), [3.0, -2.0], 0.5),
            [-2.0, 3.0],
            tol=1e-9,
        ),
        # A straight line: every difference is exact. For fd-no-two ([6, -4]) and
        # fd-all-entries ((3 - 2) 2 h / 2 h = 1 in both entries).
        h.Case(
            "a straight line 3 x0 - 2 x1 + 5: its slopes, for any h",
            (
                Fn("lambda x: 3 * x[0] - 2 * x[1] + 5", lambda x: 3 * x[0] - 2 * x[1] + 5),
                [10.0, -7.0],
                0.25,
            ),
            [3.0, -2.0],
            tol=1e-9,
        ),
        # (e^h - e^-h) / 2h = sinh(h) / h = 1.04219... at h = 0.5, not e^0 = 1: a large step
        # is off, and the check says by how much. For fd-one-sided: (e^0.5 - 1) / 0.5.
        h.Case(
            "exp(x0) + x1 at [0, 4] with h = 0.5: sinh(0.5) / 0.5, not exactly 1",
            (
                Fn("lambda x: math.exp(x[0]) + x[1]", lambda x: math.exp(x[0]) + x[1]),
                [0.0, 4.0],
                0.5,
            ),
            [math.sinh(0.5) / 0.5, 1.0],
            tol=1e-9,
        ),
    ]
    rng = random.Random(4301)
    seeded = []
    for i, (n, step) in enumerate(((2, 0.1), (3, 0.01), (3, 1e-3)), start=1):
        a, b, x = h.matrix(rng, n, n), h.vector(rng, n), h.vector(rng, n)
        name = f"random case {i} (a quadratic of {n} entries, h = {step:g})"
        seeded.append(
            h.Case(name, (quadratic(a, b), x, step), quadratic_gradient(a, b, x), tol=1e-9)
        )
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Adds h to every entry of x at once, so every entry of the answer is the same number.
        "bumps_every_entry": h.Mistake(
            "fd-all-entries",
            (
                (
                    "grad = []\n"
                    "    for i in range(len(x)):\n"
                    "        up, down = list(x), list(x)\n"
                    "        up[i] += h\n"
                    "        down[i] -= h\n"
                    "        grad.append((f(up) - f(down)) / (2 * h))\n"
                    "    return grad"
                ),
                (
                    "up = [v + h for v in x]\n"
                    "    down = [v - h for v in x]\n"
                    "    slope = (f(up) - f(down)) / (2 * h)\n"
                    "    return [slope for _ in x]"
                ),
            ),
        ),
        # Takes the central difference but divides by h, not by the 2 h between the two points.
        "divides_by_h": h.Mistake("fd-no-two", ("(2 * h)", "h")),
        # Nudges x itself in place and never puts the entry back: later entries are measured at
        # a point that has drifted, and the caller's x comes back changed.
        "not_restored": h.Mistake(
            "fd-not-restored",
            (
                (
                    "up, down = list(x), list(x)\n"
                    "        up[i] += h\n"
                    "        down[i] -= h\n"
                    "        grad.append((f(up) - f(down)"
                ),
                (
                    "x[i] += h\n"
                    "        up = f(x)\n"
                    "        x[i] -= 2 * h\n"
                    "        down = f(x)\n"
                    "        grad.append((up - down"
                ),
            ),
        ),
        # A one-sided (forward) difference: (f(x + h e_i) - f(x)) / h.
        "one_sided": h.Mistake(
            "fd-one-sided",
            ('    "', ('    base = f(x)\n    "')),
            (
                ("down[i] -= h\n        grad.append((f(up) - f(down)) / (2 * h)"),
                "grad.append((f(up) - base) / h",
            ),
        ),
        # One-sided backwards: (f(x) - f(x - h e_i)) / h.
        "backward_difference": h.Mistake(
            "fd-one-sided", ("(f(up) - f(down)) / (2 * h)", "(f(x) - f(down)) / h")
        ),
    },
)


def explain_exception(exc: Exception, args: tuple[Fn, Vector, float]) -> str | None:
    """x + h on a list: a TypeError (list and float), or list + list handed to f."""
    if isinstance(exc, TypeError) and "list" in str(exc):
        return "fd-list-arithmetic"
    return None


def properties(run: h.Runner) -> Iterator[h.Result]:
    """On a quadratic the step h changes nothing."""
    rng = random.Random(4302)
    a, b, x = h.matrix(rng, 3, 3), h.vector(rng, 3), h.vector(rng, 3)
    f = quadratic(a, b)
    yield run.relation(
        "on a quadratic a central difference is exact: h = 0.5 gives what h = 0.001 gives",
        (f, x, 1e-3),
        (f, x, 0.5),
        expected="the answer for h = 0.001",
        hint="fd-h-quadratic",
        tol=1e-9,
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
