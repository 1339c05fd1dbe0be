"""Hidden checks for lesson 5, step 2: one tile of FlashAttention, for one query.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand (fixed cases: the
scores are logarithms, so every exp is a small fraction; the arithmetic is in the
comments) or, for the seeded cases, by the update written out below, from a state that
the same update made out of a first random block. The properties compare the whole fold
with attention written as a plain softmax and weighted sum: folding every block from
the empty state and dividing acc by total once gives attention over the whole row, in
either order of the blocks.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator
from typing import Any

import _harness as h

TITLE = "Lesson 5, step 2, one tile of FlashAttention"
FUNCTION = "tile_update"
PARAMS = ("m", "total", "acc", "scores", "values")
FALLBACK_HINT = "tu-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "tu-acc-not-rescaled": "acc was not rescaled: its terms were weighted by exp(score - m) "
    "against the old maximum. When the maximum grows, multiply acc by c = exp(m - m_new), "
    "exactly as you did for total, before adding the block's p[j] * values[j].",
    "tu-total-not-rescaled": "total was not rescaled: multiply it by c = exp(m - m_new) "
    "before adding the block's p[j], as you did for acc. Both sums must be measured "
    "against the same maximum, or their ratio, the output, is off.",
    "tu-divided": "acc was divided by the total inside the update. Keep acc a plain sum of "
    "exp(score - m) * value: the state must stay sums so that the next block can rescale "
    "and add to them. The output acc / total is computed once, after the last block.",
    "tu-wrong-way": "Both sums were rescaled the wrong way: the factor is c = exp(m - m_new), "
    "at most 1 (against a larger maximum the old terms shrink), not exp(m_new - m).",
    "tu-old-max": "Return the new maximum m_new as the first item: your sums are measured "
    "against it, and the next block's rescaling needs it.",
    "tu-inf": "The answer holds nan or inf on the first block, where m is -inf: "
    "exp(m - m_new) is exp(-inf) = 0 there, as it should be, but exp(m_new - m) or "
    "exp(score - m) with the old m is exp(inf) = inf, and 0 * inf is nan.",
    "tu-no-max": "math.exp overflowed: measure every score against the maximum, "
    "exp(score - m_new), never exp(score) itself (exp(1000) is too large for a float).",
    "tu-fold": "Folding every block in from the empty state (-inf, 0, zeros) and dividing acc "
    "by total once at the end must give attention over the whole row: softmax(scores) "
    "weighting values. Check the rescaling factor c = exp(m - m_new) on both sums.",
    "tu-wrong": "m_new = max(m, max(scores)); c = exp(m - m_new); p[j] = exp(scores[j] - m_new); "
    "return (m_new, c * total + sum(p), [c * acc[i] + sum over j of p[j] * values[j][i]]).",
}

Vector = list[float]
Matrix = list[list[float]]
State = tuple[float, float, Vector]
INF = math.inf
LN2, LN3, LN4 = math.log(2), math.log(3), math.log(4)


def expected(m: float, total: float, acc: Vector, scores: Vector, values: Matrix) -> State:
    """The update, written out with exact sums."""
    return _update(m, total, acc, scores, values)


def _update(
    m: float,
    total: float,
    acc: Vector,
    scores: Vector,
    values: Matrix,
    *,
    rescale_total: bool = True,
    rescale_acc: bool = True,
    wrong_way: bool = False,
) -> State:
    """The update with one part changed, for the known mistakes."""
    m_new = max(m, *scores)
    c = math.exp(m_new - m) if wrong_way else math.exp(m - m_new)
    p = [math.exp(s - m_new) for s in scores]
    new_total = (c if rescale_total else 1.0) * total + math.fsum(p)
    new_acc = [
        (c if rescale_acc else 1.0) * a + math.fsum(pj * v[i] for pj, v in zip(p, values))
        for i, a in enumerate(acc)
    ]
    return m_new, new_total, new_acc


def _divided(*args: Any) -> State:
    m_new, total, acc = expected(*args)
    return m_new, total, [a / total for a in acc]


def attention(scores: Vector, values: Matrix) -> Vector:
    """softmax(scores) weighting values, written out: the plain formula."""
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    z = math.fsum(exps)
    return [math.fsum(e * v[i] for e, v in zip(exps, values)) / z for i in range(len(values[0]))]


def cases() -> list[h.Case]:
    fixed = [
        # m = 0 grows to ln 2: c = exp(0 - ln 2) = 1/2; p = [exp(0), exp(-ln 2)] = [1, 1/2].
        # total = 3/2 + 3/2 = 3; acc = [3/2 + 1, 3 + 1/2]. For tu-acc-not-rescaled:
        # acc = [3 + 1, 6 + 1/2]; for tu-total-not-rescaled: total = 3 + 3/2; for
        # tu-divided: acc / 3 = [5/6, 7/6]; for tu-wrong-way (c = 2): total = 6 + 3/2,
        # acc = [7, 12.5]; for tu-old-max: m = 0.
        h.Case(
            "the maximum grows from 0 to ln 2: both sums are halved first",
            (0.0, 3.0, [3.0, 6.0], [LN2, 0.0], [[1.0, 0.0], [0.0, 1.0]]),
            (LN2, 3.0, [2.5, 3.5]),
            tol=1e-9,
        ),
        # m = ln 4 stays: c = 1; p = [1/4, 1/2]; total = 2 + 3/4; acc = [2 + 1 + 1, -2 + 1].
        # Nothing to rescale: only tu-divided ([4, -1] / 2.75) answers differently.
        h.Case(
            "the maximum does not grow: nothing to rescale, only the block to add",
            (LN4, 2.0, [2.0, -2.0], [0.0, LN2], [[4.0, 0.0], [2.0, 2.0]]),
            (LN4, 2.75, [4.0, -1.0]),
            tol=1e-9,
        ),
        # A masked key (score -inf) adds exp(-inf) = 0. m = 0 grows to ln 2, c = 1/2:
        # total = 1 + 1, acc = [2 + 1]. For tu-wrong-way (c = 2): total 5, acc [9]; for
        # tu-old-max: m = 0; for tu-divided: [3 / 2].
        h.Case(
            "a masked key (score -inf) in the block adds nothing",
            (0.0, 2.0, [4.0], [-INF, LN2], [[100.0], [1.0]]),
            (LN2, 2.0, [3.0]),
            tol=1e-9,
        ),
        # The first block, from the empty state: c = exp(-inf) = 0, p = [1/3, 1] against
        # ln 3, total = 4/3, acc = [4/3, 4]. For tu-divided: [1, 3]; for tu-wrong-way
        # exp(ln 3 - (-inf)) = inf and 0 * inf is nan (tu-inf).
        h.Case(
            "the first block, from the empty state (-inf, 0, [0, 0])",
            (-INF, 0.0, [0.0, 0.0], [0.0, LN3], [[4.0, 0.0], [0.0, 4.0]]),
            (LN3, 4.0 / 3.0, [4.0 / 3.0, 4.0]),
            tol=1e-9,
        ),
        # Large scores: m = 1000 grows to 1000 + ln 3, c = 1/3, p = [1]: total = 1/3 + 1,
        # acc = [1/3 + 3, 1/3]. exp(1000) itself overflows (tu-no-max).
        h.Case(
            "large scores, 1000 and 1000 + ln 3: no overflow",
            (1000.0, 1.0, [1.0, 1.0], [1000.0 + LN3], [[3.0, 0.0]]),
            (1000.0 + LN3, 4.0 / 3.0, [10.0 / 3.0, 1.0 / 3.0]),
            tol=1e-9,
        ),
    ]
    rng = random.Random(5201)
    seeded = []
    for i, (first, block, d_v) in enumerate(((2, 3, 2), (3, 2, 3), (4, 4, 2)), start=1):
        # The state a first block of random scores leaves, then a second block.
        state = expected(-INF, 0.0, [0.0] * d_v, h.vector(rng, first), h.matrix(rng, first, d_v))
        scores, values = h.vector(rng, block), h.matrix(rng, block, d_v)
        args = (*state, scores, values)
        name = f"random case {i} (after {first} keys, a block of {block}, d_v = {d_v})"
        seeded.append(h.Case(name, args, expected(*args), tol=1e-9))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Rescales the running total but not the accumulated values.
        "acc_not_rescaled": h.Mistake("tu-acc-not-rescaled", ("c * a", "a")),
        # Divides acc by the total at every block, as if it were already the output.
        "divides_inside": h.Mistake(
            "tu-divided", ("total_new, acc_new", "total_new, [a / total_new for a in acc_new]")
        ),
        # Computes the new sums against m_new but hands back the old maximum m.
        "keeps_old_max": h.Mistake("tu-old-max", ("return m_new", "return m")),
        # Rescales the accumulated values but not the running total.
        "total_not_rescaled": h.Mistake("tu-total-not-rescaled", ("c * total", "total")),
        # Rescales both sums by exp(m_new - m) instead of exp(m - m_new).
        "wrong_way": h.Mistake("tu-wrong-way", ("m - m_new", "m_new - m")),
    },
)


def _not_finite(x: object) -> bool:
    if isinstance(x, float):
        return not math.isfinite(x)
    items = h.as_list(x)
    return any(_not_finite(item) for item in items) if items is not None else False


def explain_answer(actual: Any, args: tuple[Any, ...]) -> str | None:
    """The old maximum handed back (-inf from the empty state, which no formula's answer
    equals), or nan or inf in the sums from the empty state's m = -inf."""
    parts = h.as_list(actual)
    if parts is None or len(parts) != 3:
        return None
    m, scores = args[0], args[3]
    if parts[0] == m and max(scores) > m:
        return "tu-old-max"
    return "tu-inf" if m == -INF and _not_finite(parts[1:]) else None


def explain_exception(exc: Exception, args: tuple[Any, ...]) -> str | None:
    """exp of a large score overflows."""
    return "tu-no-max" if isinstance(exc, OverflowError) else None


def _state(answer: Any, d_v: int) -> State | None:
    """An answer (m, total, acc) with acc of d_v numbers, else None."""
    parts = h.as_list(answer)
    if parts is None or len(parts) != 3:
        return None
    m, total, acc = parts[0], parts[1], h.as_list(parts[2])
    numbers = all(isinstance(v, (int, float)) for v in (m, total, *(acc or [])))
    if acc is None or len(acc) != d_v or not numbers:
        return None
    return float(m), float(total), [float(a) for a in acc]


def _fold(run: h.Runner, name: str, blocks: list[tuple[Vector, Matrix]], d_v: int) -> Any:
    """Fold the blocks in from the empty state: acc / total, or the failing Result."""
    state: State = (-INF, 0.0, [0.0] * d_v)
    for scores, values in blocks:
        args = (*state, scores, values)
        answer, failure = run.call(name, args)
        if failure is not None:
            return failure
        folded = _state(answer, d_v)
        if folded is None:
            return run.check(
                name,
                args,
                ok=False,
                actual=answer,
                expected=f"a state (m, total, acc) with acc of {d_v} numbers",
                hint="tu-wrong",
            )
        state = folded
    _, total, acc = state
    return [a / total for a in acc] if total else [math.nan] * d_v


def properties(run: h.Runner) -> Iterator[h.Result]:
    """Folding every block gives attention over the whole row, in either order."""
    rng = random.Random(5202)
    scores, values = h.vector(rng, 7), h.matrix(rng, 7, 3)
    target = attention(scores, values)
    blocks = [(scores[s : s + 3], values[s : s + 3]) for s in (0, 3, 6)]
    for order, name in (
        (blocks, "7 keys in blocks of 3, 3 and 1, then acc / total: attention over the row"),
        (blocks[::-1], "the same blocks in reverse order: the same attention output"),
    ):
        out = _fold(run, name, order, 3)
        if isinstance(out, h.Result):
            yield out
            return
        reason = h.compare(out, target, 1e-9)
        yield run.check(
            name,
            (-INF, 0.0, [0.0] * 3, order[0][0], order[0][1]),
            ok=reason is None,
            actual=out,
            expected=f"softmax(scores) weighting values, {h.show(target)}",
            hint="tu-fold",
            tol=1e-9,
            detail="" if reason is None else f"acc / total after the last block: {reason}",
        )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
