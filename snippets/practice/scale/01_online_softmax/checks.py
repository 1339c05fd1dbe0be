"""Hidden checks for lesson 5, step 1: softmax in one pass over blocks (online softmax).

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand (fixed cases: the
scores are logarithms, 0, ln 2, ln 3, ln 4, so the weights are small fractions) or,
for the seeded cases, by the plain two-pass softmax below (the maximum of the whole
list first, then exact sums). The properties need no expected value: the block size
changes nothing, and the weights add up to 1.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator
from typing import Any

import _harness as h

TITLE = "Lesson 5, step 1, online softmax"
FUNCTION = "online_softmax"
PARAMS = ("x", "block")
FALLBACK_HINT = "os-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "os-no-rescale": "The running sum was never rescaled. Its terms were measured against "
    "the old maximum, exp(v - m); when a block brings a larger maximum m_new, multiply the "
    "sum by exp(m - m_new) before adding the block's own terms, so that every term is "
    "measured against m_new.",
    "os-wrong-way": "The running sum is rescaled the wrong way: multiply it by "
    "exp(m - m_new), which is at most 1 (against a larger maximum the old terms shrink), "
    "not by exp(m_new - m). At the first block, where m is still -inf, exp(m_new - m) is "
    "exp(inf) = inf, and 0 * inf is nan.",
    "os-no-max": "math.exp overflowed, or every exp underflowed to 0: compute exp(v - m) "
    "with the running maximum m, never exp(v) itself. exp(1000) is too large for a float, "
    "and exp(-1000) is 0.",
    "os-neg-inf": "A block of -inf only (masked keys), read while the maximum is still "
    "-inf, gives m - m_new = -inf - (-inf), which is nan (or a sum of 0 to divide by). "
    "Skip such a block: it adds nothing to the sum. If every score is -inf, return 0 for "
    "every weight, as attention_ref's softmax does for a fully masked row.",
    "os-per-block": "Each block was normalised on its own, so the weights of every block "
    "add up to 1. Keep one running maximum and one running sum for the whole list, and "
    "divide by that sum only once every block has been read.",
    "os-block-size": "The block size only says how the list is read: blocks of 1 and one "
    "block holding everything must give the same weights, the softmax of the whole list.",
    "os-sum": "The weights must add up to 1: divide exp(x[i] - m) by the running sum once "
    "it holds every block, with m the maximum of the whole list.",
    "os-wrong": "Start with m = -inf and total = 0. For each block: m_new = max(m, largest "
    "of the block); total = total * exp(m - m_new) + the sum of exp(v - m_new) over the "
    "block; m = m_new. Then weight i is exp(x[i] - m) / total.",
}

Vector = list[float]
INF = math.inf
LN2, LN3, LN4 = math.log(2), math.log(3), math.log(4)


def expected(x: Vector) -> Vector:
    """The plain softmax, two passes: the maximum of the whole list, then exact sums."""
    top = max(x)
    if top == -INF:
        return [0.0] * len(x)
    exps = [math.exp(v - top) for v in x]
    total = math.fsum(exps)
    return [e / total for e in exps]


def _blocks(x: Vector, block: int) -> list[Vector]:
    return [x[start : start + block] for start in range(0, len(x), block)]


def _no_rescale(x: Vector, block: int) -> Vector:
    m, total = -INF, 0.0
    for chunk in _blocks(x, block):
        m = max(m, *chunk)
        total += math.fsum(math.exp(v - m) for v in chunk)
    return [math.exp(v - m) / total for v in x]


def _wrong_way(x: Vector, block: int) -> Vector:
    """Started from the first block (so no -inf is rescaled), then exp(m_new - m)."""
    first, *rest = _blocks(x, block)
    m = max(first)
    total = math.fsum(math.exp(v - m) for v in first)
    for chunk in rest:
        m_new = max(m, *chunk)
        total = total * math.exp(m_new - m) + math.fsum(math.exp(v - m_new) for v in chunk)
        m = m_new
    return [math.exp(v - m) / total for v in x]


def _per_block(x: Vector, block: int) -> Vector:
    return [w for chunk in _blocks(x, block) for w in expected(chunk)]


def cases() -> list[h.Case]:
    fixed = [
        # exp(x) = [1, 2, 3, 4], so the weights are [1, 2, 3, 4] / 10; in blocks of 2 the
        # maximum grows from ln 2 to ln 4. For os-no-rescale the first block's sum, 1/2 + 1
        # (against ln 2), is kept as it is and 3/4 + 1 added: [1, 2, 3, 4] / 13. For
        # os-wrong-way (started from the first block): 3/2 * 2 + 7/4 = 19/4, so
        # [1, 2, 3, 4] / 19. For os-per-block: [1/3, 2/3, 3/7, 4/7].
        h.Case(
            "exp(x) = [1, 2, 3, 4] in blocks of 2: the maximum grows from ln 2 to ln 4",
            ([0.0, LN2, LN3, LN4], 2),
            [0.1, 0.2, 0.3, 0.4],
            tol=1e-9,
        ),
        # Blocks of 1: the maximum grows at every entry. For os-no-rescale the sum is
        # 1 + 1 + 1 + 1 = 4 against ln 4: [1, 2, 3, 4] / 16; for os-wrong-way
        # ((1 * 2 + 1) * 3/2 + 1) * 4/3 + 1 = 25/3: [3, 6, 9, 12] / 100; for os-per-block
        # every weight is 1.
        h.Case(
            "blocks of 1: the maximum grows at every entry",
            ([0.0, LN2, LN3, LN4], 1),
            [0.1, 0.2, 0.3, 0.4],
            tol=1e-9,
        ),
        # The largest score comes first: nothing is ever rescaled, so os-no-rescale and
        # os-wrong-way pass; os-per-block gives [4, 1, 3] / 8 and 1.
        h.Case(
            "the largest score first, blocks of 3: nothing to rescale",
            ([LN4, 0.0, LN3, LN2], 3),
            [0.4, 0.1, 0.3, 0.2],
            tol=1e-9,
        ),
        # One block holds the whole list: the plain softmax, exp(x) = [3, 1].
        h.Case(
            "one block longer than the list: the plain softmax",
            ([LN3, 0.0], 5),
            [0.75, 0.25],
            tol=1e-9,
        ),
        # 1000 + the first case: the same weights. For os-no-max: math.exp(1000) overflows.
        h.Case(
            "large scores, 1000 + [0, ln 2, ln 3, ln 4]: the same weights, no overflow",
            ([1000.0, 1000.0 + LN2, 1000.0 + LN3, 1000.0 + LN4], 2),
            [0.1, 0.2, 0.3, 0.4],
            tol=1e-9,
        ),
        # For os-no-max again: every exp(v) underflows to 0, and 0 / 0 fails.
        h.Case(
            "very negative scores, -1000 + [ln 3, 0]: exp(-1000) is 0 in floats",
            ([-1000.0 + LN3, -1000.0], 1),
            [0.75, 0.25],
            tol=1e-9,
        ),
        # A masked key gets weight exp(-inf - m) = 0 once the maximum is finite: nothing
        # special to do here, exp(-inf) is 0.
        h.Case(
            "-inf (a masked key) after the maximum: weight 0",
            ([LN3, -INF, 0.0, -INF], 2),
            [0.75, 0.0, 0.25, 0.0],
            tol=1e-9,
        ),
        # For os-neg-inf: the first block is -inf only, so its maximum is -inf while m is
        # -inf too, and -inf - (-inf) is nan. The two live keys: exp(x) = [1, 3].
        h.Case(
            "a first block of -inf only (masked keys): -inf - (-inf) must not happen",
            ([-INF, -INF, 0.0, LN3], 2),
            [0.0, 0.0, 0.25, 0.75],
            tol=1e-9,
        ),
        # For os-neg-inf: no key at all. attention_ref gives a fully masked row zeros.
        h.Case(
            "every score -inf: every weight 0 (no nan)",
            ([-INF, -INF, -INF], 2),
            [0.0, 0.0, 0.0],
            tol=1e-9,
        ),
    ]
    rng = random.Random(5101)
    seeded = []
    for i, (n, block) in enumerate(((5, 2), (7, 3), (9, 4)), start=1):
        x = h.vector(rng, n)
        name = f"random case {i} (n = {n}, blocks of {block})"
        seeded.append(h.Case(name, (x, block), expected(x), tol=1e-9))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Right, except for a block of -inf only while the maximum is still -inf: there m -
        # m_new is -inf - (-inf), which is nan, and the nan spreads to every weight.
        "nan_on_masked_block": h.Mistake(
            "os-neg-inf",
            (
                (
                    "        if m_new == -math.inf:\n"
                    "            continue  # only -inf so far: nothing to add (and -inf - -inf would be nan)\n"
                ),
                "",
            ),
            (
                (
                    "    if m == -math.inf:\n"
                    "        return [0.0] * len(x)  # every score is -inf: no key may be attended to\n"
                ),
                "",
            ),
            model=False,
        ),
        # Sums exp(v) itself, block by block, with no maximum: right for small scores, but
        # exp(1000) overflows and exp(-1000) is 0.
        "no_max": h.Mistake(
            "os-no-max",
            (
                (
                    "chunk = x[start : start + block]\n"
                    "        m_new = max(m, max(chunk))\n"
                    "        if m_new == -math.inf:\n"
                    "            continue  # only -inf so far: nothing to add (and -inf - -inf would be nan)\n"
                    "        total = total * math.exp(m - m_new) + sum(math.exp(v - m_new) for v in chunk)\n"
                    "        m = m_new\n"
                    "    if m == -math.inf:\n"
                    "        return [0.0] * len(x)  # every score is -inf: no key may be attended to\n"
                    "    return [math.exp(v - m"
                ),
                (
                    "total += sum(math.exp(v) for v in x[start : start + block])\n"
                    "    return [math.exp(v"
                ),
            ),
            model=False,
        ),
        # Moves the maximum but never rescales the running sum: old terms stay measured against
        # the old maximum.
        "no_rescale": h.Mistake(
            "os-no-rescale",
            (
                (
                    "continue  # only -inf so far: nothing to add (and -inf - -inf would be nan)\n"
                    "        total = total * math.exp(m - m_new)"
                ),
                ("continue\n        total = total"),
            ),
        ),
        # Normalises each block on its own: every block's weights add up to 1.
        "per_block": h.Mistake(
            "os-per-block",
            ("m, total = -math.inf, 0.0", "weights = []"),
            (
                (
                    "m_new = max(m, max(chunk))\n"
                    "        if m_new == -math.inf:\n"
                    "            continue  # only -inf so far: nothing to add (and -inf - -inf would be nan)\n"
                    "        total = total * math.exp(m - m_new) + sum(math.exp(v - m_new) for v in chunk)\n"
                    "        m = m_new\n"
                    "    if m == -math.inf:\n"
                    "        return [0.0] * len(x)  # every score is -inf: no key may be attended to\n"
                    "    return [math.exp(v - m) / total for v in x]"
                ),
                (
                    "m = max(chunk)\n"
                    "        exps = [math.exp(v - m) for v in chunk]\n"
                    "        total = sum(exps)\n"
                    "        weights += [e / total for e in exps]\n"
                    "    return weights"
                ),
            ),
        ),
        # Rescales by exp(m_new - m) instead of exp(m - m_new): from m = -inf that is exp(inf) =
        # inf, and 0 * inf is nan.
        "wrong_way": h.Mistake(
            "os-wrong-way",
            (
                (
                    "if m_new == -math.inf:\n"
                    "            continue  # only -inf so far: nothing to add (and -inf - -inf would be nan)\n"
                    "        total = total * math.exp(m - m_new"
                ),
                "total = total * math.exp(m_new - m",
            ),
            (
                (
                    "    if m == -math.inf:\n"
                    "        return [0.0] * len(x)  # every score is -inf: no key may be attended to\n"
                ),
                "",
            ),
        ),
        # Starts from the first block (no -inf), then rescales the wrong way, by exp(m_new - m):
        # the old terms grow instead of shrinking.
        "wrong_way_first_block": h.Mistake(
            "os-wrong-way",
            (
                ("m, total = -math.inf, 0.0\n    for start in range(0"),
                (
                    "m = max(x[:block])\n"
                    "    total = sum(math.exp(v - m) for v in x[:block])\n"
                    "    for start in range(block"
                ),
            ),
            (
                (
                    "if m_new == -math.inf:\n"
                    "            continue  # only -inf so far: nothing to add (and -inf - -inf would be nan)\n"
                    "        total = total * math.exp(m - m_new"
                ),
                "total = total * math.exp(m_new - m",
            ),
            (
                (
                    "    if m == -math.inf:\n"
                    "        return [0.0] * len(x)  # every score is -inf: no key may be attended to\n"
                ),
                "",
            ),
        ),
        # Rescales by exp(m_new - m), with the first block, where m is -inf, guarded.
        "wrong_way_guarded": h.Mistake(
            "os-wrong-way",
            ("math.exp(m - m_new)", "(math.exp(m_new - m) if m > -math.inf else 0.0)"),
        ),
    },
)


def _has_nan(x: object) -> bool:
    if isinstance(x, float):
        return math.isnan(x)
    items = h.as_list(x)
    return any(_has_nan(item) for item in items) if items is not None else False


def explain_answer(actual: Any, args: tuple[Vector, int]) -> str | None:
    """A nan: from -inf - (-inf) when the scores hold -inf, else from 0 * inf (the sum
    rescaled by exp(m_new - m) while m is still -inf)."""
    if not _has_nan(actual):
        return None
    return "os-neg-inf" if -INF in args[0] else "os-wrong-way"


def explain_exception(exc: Exception, args: tuple[Vector, int]) -> str | None:
    """exp of a large score overflows; a sum of zeros is divided by: no maximum, or -inf."""
    x = args[0]
    if isinstance(exc, OverflowError):
        return "os-no-max"
    if isinstance(exc, ZeroDivisionError):
        return "os-neg-inf" if -INF in x else "os-no-max"
    return None


def properties(run: h.Runner) -> Iterator[h.Result]:
    """The block size changes nothing; the weights add up to 1."""
    rng = random.Random(5102)
    x = h.vector(rng, 8)
    yield run.relation(
        "the block size changes nothing: blocks of 1 give what one block of 8 gives",
        (x, 8),
        (x, 1),
        expected="the weights for one block",
        hint="os-block-size",
        tol=1e-9,
    )
    x = h.vector(rng, 10, -20.0, 20.0)
    args = (x, 3)
    name = "the weights add up to 1 (10 scores between -20 and 20, blocks of 3)"
    answer, failure = run.call(name, args)
    if failure is not None:
        yield failure
        return
    items = h.as_list(answer) or []
    numbers = len(items) == len(x) and all(isinstance(v, (int, float)) for v in items)
    total = math.fsum(items) if numbers else math.nan
    ok = abs(total - 1) < 1e-9
    yield run.check(
        name,
        args,
        ok=ok,
        actual=answer,
        expected=f"{len(x)} weights that add up to 1",
        hint="os-sum",
        tol=1e-9,
        detail="" if ok else f"they add up to {h.show(total)}",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
