"""Hidden checks for lesson 4, step 4: one step of Adam, with its bias correction.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand (fixed cases:
the lesson's two steps from theta = [1, 1, 1], a steady gradient whose corrected averages
are g and g^2, a large eps) or, for the seeded cases, by the rearranged update of Kingma
and Ba's paper, lr sqrt(1 - beta2^t) / (1 - beta1^t) times m / (sqrt(s) + eps sqrt(1 -
beta2^t)), the same number by another route. The properties need no expected value (the
first step does not depend on the size of the gradient; a steady gradient moves each
weight by the same amount at every step).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator
from typing import Any

import _harness as h

TITLE = "Lesson 4, step 4, one step of Adam"
FUNCTION = "adam_step"
PARAMS = ("theta", "grad", "m", "s", "t", "lr", "beta1", "beta2", "eps")
FALLBACK_HINT = "adam-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "adam-no-correction": "Correct both averages before using them: m / (1 - beta1 ** t) and "
    "s / (1 - beta2 ** t). They start at zero, so early on they are far too small (after "
    "one step m is only (1 - beta1) g); the divisions undo that.",
    "adam-eps-inside": "eps goes after the square root: divide by sqrt(s_hat) + eps, not by "
    "sqrt(s_hat + eps). The two agree only when eps is negligible; one check uses eps = 1 to "
    "tell them apart.",
    "adam-t-from-zero": "t counts the steps from 1: the first step corrects with 1 - beta1 ** 1 "
    "= 1 - beta1. With t - 1 (counting from 0) the first correction divides by 1 - beta ** 0 "
    "= 0; with t + 1 every correction is one step off.",
    "adam-no-square": "s averages the SQUARED gradient: s = beta2 * s + (1 - beta2) * g * g. "
    "Averaging g itself lets s go negative (math.sqrt then fails) and mixes up the scale "
    "of the step.",
    "adam-returns-corrected": "Return the raw averages m and s, the ones the next step "
    "continues from. m / (1 - beta1 ** t) and s / (1 - beta2 ** t) are only for this step's "
    "update; stored, they would be corrected again next time.",
    "adam-ascent": "Adam moves against the gradient, downhill: theta - lr * m_hat / "
    "(sqrt(s_hat) + eps), with a minus sign.",
    "adam-scale-free": "On a first step from zero averages, m_hat is g and s_hat is g ** 2, so "
    "each weight moves by lr * g / (|g| + eps), about lr whatever the size of g: multiplying "
    "every gradient by 10 must leave the new theta as it was.",
    "adam-steady": "With the same gradient at every step, the corrected averages are g and "
    "g ** 2 at every step, so each step moves every weight by the same amount. Check the "
    "bias correction with the t you are given, and that you return the raw m and s.",
    "adam-wrong": "For each entry: m = beta1 * m + (1 - beta1) * g; s = beta2 * s + (1 - "
    "beta2) * g * g; theta = theta - lr * (m / (1 - beta1 ** t)) / (sqrt(s / (1 - beta2 ** t)) "
    "+ eps); return the lists (theta, m, s).",
}

Vector = list[float]
State = tuple[Vector, Vector, Vector]

#: The lesson's example: theta = [1, 1, 1], lr = 0.01, the default betas and eps.
LESSON = (0.01, 0.9, 0.999, 1e-8)
#: After its first step, gradient [4, -0.1, 0]: m_hat = g and s_hat = g^2, so each weight
#: moves by lr * g / (|g| + eps).
THETA_1 = [1 - 0.01 * 4 / (4 + 1e-8), 1 + 0.01 * 0.1 / (0.1 + 1e-8), 1.0]
M_1, S_1 = [0.4, -0.01, 0.0], [0.016, 1e-5, 0.0]
#: Its second step, gradient [4, 0.1, 0]: m = 0.9 m + 0.1 g = [0.76, 0.001, 0] and
#: s = 0.999 s + 0.001 g^2 = [0.031984, 1.999e-5, 0]; divided by 1 - 0.9^2 = 0.19 and
#: 1 - 0.999^2 = 0.001999 they are m_hat = [4, 0.001 / 0.19, 0] and s_hat = [16, 0.01, 0].
THETA_2 = [
    THETA_1[0] - 0.01 * 4 / (4 + 1e-8),
    THETA_1[1] - 0.01 * (0.001 / 0.19) / (0.1 + 1e-8),
    1.0,
]
M_2, S_2 = [0.76, 0.001, 0.0], [0.031984, 1.999e-5, 0.0]


def expected(
    theta: Vector,
    grad: Vector,
    m: Vector,
    s: Vector,
    t: int,
    lr: float,
    beta1: float,
    beta2: float,
    eps: float,
) -> State:
    """The paper's rearranged update: the corrections folded into the step size (and eps
    scaled to match), so no m_hat or s_hat is ever formed."""
    new_m = [beta1 * a + (1 - beta1) * g for a, g in zip(m, grad, strict=True)]
    new_s = [beta2 * b + (1 - beta2) * g * g for b, g in zip(s, grad, strict=True)]
    root = math.sqrt(1 - beta2**t)
    size = lr * root / (1 - beta1**t)
    new_theta = [
        w - size * a / (math.sqrt(b) + eps * root)
        for w, a, b in zip(theta, new_m, new_s, strict=True)
    ]
    return new_theta, new_m, new_s


def _update(
    theta: Vector,
    grad: Vector,
    m: Vector,
    s: Vector,
    *hyper: float,
    square: bool = True,
    correct: bool = True,
    correct_at: int | None = None,
    eps_inside: bool = False,
    keep_corrected: bool = False,
    sign: float = -1.0,
) -> State:
    """The lesson's update with one part changed, for the known mistakes."""
    t, lr, beta1, beta2, eps = hyper
    at = t if correct_at is None else correct_at
    out: State = ([], [], [])
    for w, g, a, b in zip(theta, grad, m, s, strict=True):
        a = beta1 * a + (1 - beta1) * g
        b = beta2 * b + (1 - beta2) * (g * g if square else g)
        a_hat = a / (1 - beta1**at) if correct else a  # at = 0 divides by zero
        b_hat = b / (1 - beta2**at) if correct else b
        below = math.sqrt(b_hat + eps) if eps_inside else math.sqrt(b_hat) + eps
        out[0].append(w + sign * lr * a_hat / below)
        out[1].append(a_hat if keep_corrected else a)
        out[2].append(b_hat if keep_corrected else b)
    return out


def cases() -> list[h.Case]:
    zeros = [0.0, 0.0, 0.0]
    fixed = [
        # The lesson's first step. m = 0.1 g = [0.4, -0.01, 0], s = 0.001 g^2 = [0.016,
        # 1e-5, 0]; corrected, m_hat = g and s_hat = g^2, so each weight moves by about lr
        # against the sign of its gradient. For adam-no-correction (m / sqrt(s) is
        # sqrt(10) = 3.16 times too large), adam-t-from-zero (1 - 0.9^0 = 0: a division by
        # zero), adam-no-square (s = 0.001 * -0.1 < 0: no square root), adam-returns-corrected
        # (m_hat = g stored as m), adam-ascent (the other way), and adam-eps-inside, which
        # moves the second weight by 0.001 / (0.1 + 5e-8) instead of 0.001 / (0.1 + 1e-8).
        h.Case(
            "the lesson's first step from theta = [1, 1, 1]: each weight moves by about lr",
            ([1.0, 1.0, 1.0], [4.0, -0.1, 0.0], zeros, zeros, 1, *LESSON),
            (THETA_1, M_1, S_1),
            tol=1e-9,
        ),
        # The lesson's second step (arithmetic beside THETA_2 above): theta rounds to
        # [0.98, 1.0095, 1.0], the numbers the page prints.
        h.Case(
            "the lesson's second step: theta becomes about [0.98, 1.0095, 1.0]",
            (THETA_1, [4.0, 0.1, 0.0], M_1, S_1, 2, *LESSON),
            (THETA_2, M_2, S_2),
            tol=1e-9,
        ),
        # For adam-eps-inside: m_hat = 0.3 / 0.1 = 3 and s_hat = 0.009 / 0.001 = 9, so the
        # step is 0.1 * 3 / (3 + 1) = 0.075; under the root it would be 0.3 / sqrt(10).
        h.Case(
            "a large eps = 1: divide by sqrt(9) + 1, not by sqrt(9 + 1)",
            ([0.0], [3.0], [0.0], [0.0], 1, 0.1, 0.9, 0.999, 1.0),
            ([-0.075], [0.3], [0.009]),
            tol=1e-9,
        ),
        # beta1 = beta2 = 0.5 at t = 2, after one step of the same gradient (m = 0.5 g,
        # s = 0.5 g^2): now m = 0.75 g and s = 0.75 g^2, and 1 - 0.5^2 = 0.75 turns them
        # back into g and g^2. For adam-t-from-zero (1 - 0.5 = 0.5: m_hat = 1.5 g, s_hat =
        # 1.5 g^2, a step 1.22 times too large) and adam-returns-corrected (m = g).
        h.Case(
            "a steady gradient at t = 2: the corrected averages are g and g^2 again",
            ([1.0, -1.0], [2.0, -0.5], [1.0, -0.25], [2.0, 0.125], 2, 0.1, 0.5, 0.5, 1e-8),
            (
                [1 - 0.1 * 2 / (2 + 1e-8), -1 + 0.1 * 0.5 / (0.5 + 1e-8)],
                [1.5, -0.375],
                [3.0, 0.1875],
            ),
            tol=1e-9,
        ),
        # m = 0.5 * 0.2 = 0.1 and s = 0.5 * 0.04 = 0.02, corrected by 1 - 0.5^2 = 0.75.
        h.Case(
            "a zero gradient: the momentum still moves the weight",
            ([0.5], [0.0], [0.2], [0.04], 2, 0.1, 0.5, 0.5, 1e-8),
            ([0.5 - 0.1 * (0.1 / 0.75) / (math.sqrt(0.02 / 0.75) + 1e-8)], [0.1], [0.02]),
            tol=1e-9,
        ),
    ]
    rng = random.Random(4401)
    seeded = []
    for i, (n, t, lr) in enumerate(((3, 1, 0.01), (4, 3, 1e-3), (5, 10, 0.05)), start=1):
        theta, grad = h.vector(rng, n), h.vector(rng, n)
        m, s = h.vector(rng, n, -1.0, 1.0), h.vector(rng, n, 0.01, 1.0)
        args = (theta, grad, m, s, t, lr, 0.9, 0.999, 1e-8)
        name = f"random case {i} (n = {n}, t = {t}, lr = {lr:g})"
        seeded.append(h.Case(name, args, expected(*args), tol=1e-9))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Adds eps under the square root, sqrt(s_hat + eps), instead of after it.
        "eps_inside_sqrt": h.Mistake("adam-eps-inside", ("(math.sqrt(s_hat)", "math.sqrt(s_hat")),
        # Adds the step to the weights instead of subtracting it: climbs the loss.
        "gradient_ascent": h.Mistake("adam-ascent", ("w -", "w +")),
        # Leaves out the bias correction: divides m by sqrt(s) as they are, both too small early
        # on.
        "no_correction": h.Mistake(
            "adam-no-correction",
            (
                (
                    "m_hat = mi / (1 - beta1**t)\n"
                    "        s_hat = si / (1 - beta2**t)\n"
                    "        new_theta.append(w - lr * m_hat / (math.sqrt(s_hat"
                ),
                "new_theta.append(w - lr * mi / (math.sqrt(si",
            ),
        ),
        # Averages the gradient itself into s instead of its square (a negative s has no square
        # root).
        "no_square": h.Mistake("adam-no-square", ("g * g", "g")),
        # Hands back the corrected averages m_hat and s_hat as the new m and s.
        "returns_corrected": h.Mistake(
            "adam-returns-corrected",
            (
                (
                    "m_hat = mi / (1 - beta1**t)\n"
                    "        s_hat = si / (1 - beta2**t)\n"
                    "        new_theta.append(w - lr * m_hat / (math.sqrt(s_hat"
                ),
                (
                    "mi = mi / (1 - beta1**t)\n"
                    "        si = si / (1 - beta2**t)\n"
                    "        new_theta.append(w - lr * mi / (math.sqrt(si"
                ),
            ),
        ),
        # Counts the steps from 0: corrects with 1 - beta ** (t - 1), which is 0 on the first
        # step.
        "t_from_zero": h.Mistake(
            "adam-t-from-zero",
            (
                ("beta1**t)\n        s_hat = si / (1 - beta2**t"),
                ("beta1 ** (t - 1))\n        s_hat = si / (1 - beta2 ** (t - 1)"),
            ),
        ),
    },
)


def explain_exception(exc: Exception, args: tuple[Any, ...]) -> str | None:
    """A division by zero on the first step, or the square root of a negative s."""
    t, grad = args[4], args[1]
    if isinstance(exc, ZeroDivisionError) and t == 1:
        return "adam-t-from-zero"
    if isinstance(exc, ValueError) and "domain" in str(exc) and any(g < 0 for g in grad):
        return "adam-no-square"
    return None


def _numbers(answer: Any, index: int, n: int) -> Vector | None:
    """Part ``index`` of an answer (theta, m, s) when it is n numbers, else None."""
    parts = h.as_list(answer)
    if parts is None or len(parts) != 3:
        return None
    items = h.as_list(parts[index])
    if items is None or len(items) != n or not all(isinstance(v, (int, float)) for v in items):
        return None
    return [float(v) for v in items]


def properties(run: h.Runner) -> Iterator[h.Result]:
    """The first step ignores the gradient's size; a steady gradient moves at a steady pace."""
    theta, grad, zeros = [0.5, -1.0, 2.0, 0.0], [1.5, -0.7, 2.2, -3.0], [0.0] * 4
    yield run.relation(
        "the first step ignores the gradient's size: 10 times the gradient, the same theta",
        (theta, grad, zeros, zeros, 1, *LESSON),
        (theta, [10 * g for g in grad], zeros, zeros, 1, *LESSON),
        expected="the new theta for the gradient itself",
        hint="adam-scale-free",
        part=lambda answer: _numbers(answer, 0, 4),
        tol=1e-9,
    )
    name = "a steady gradient: the second step moves each weight as far as the first"
    first_args = (theta, grad, zeros, zeros, 1, *LESSON)
    first, failure = run.call(name, first_args)
    if failure is not None:
        yield failure
        return
    state = [_numbers(first, i, 4) for i in range(3)]
    if any(part is None for part in state):
        yield run.check(
            name,
            first_args,
            ok=False,
            actual=first,
            expected="three lists of 4 numbers: (theta, m, s)",
            hint="adam-wrong",
        )
        return
    theta_1, m_1, s_1 = state  # type: ignore[misc]
    second_args = (theta_1, grad, m_1, s_1, 2, *LESSON)
    second, failure = run.call(name, second_args)
    if failure is not None:
        yield failure
        return
    theta_2 = _numbers(second, 0, 4)
    moves = [b - a for a, b in zip(theta, theta_1, strict=True)]
    again = [b - a for a, b in zip(theta_1, theta_2, strict=True)] if theta_2 else None
    reason = h.compare(again, moves, 1e-9) if again else "the second answer is not (theta, m, s)"
    yield run.check(
        name,
        second_args,
        ok=reason is None,
        actual=second,
        expected=f"theta moving again by the first step's {h.show(moves)}",
        hint="adam-steady",
        tol=1e-9,
        detail="" if reason is None else f"the second step moved by {h.show(again)}",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
