"""Hidden checks for step 7: attention for many queries at once, with an optional mask.

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

from _worked_example import K, Q, V

TITLE = "Step 7, many queries and a mask"
FUNCTION = "attention"
PARAMS = ("queries", "keys", "values", "mask")
FALLBACK_HINT = "many-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "mask-ignored": "The mask was ignored: a key whose mask entry is False must get no "
    "weight at all. Leave it out of query i's softmax (or give it a score of -inf).",
    "mask-meaning": "The mask is the wrong way round: True means the query MAY attend to "
    "that key (as in the lesson and in PyTorch's F.scaled_dot_product_attention), False "
    "means it must not. (nn.MultiheadAttention's masks are the other way: True = ignore.)",
    "mask-transposed": "You read the mask as mask[j][i]. Row i of the mask belongs to query "
    "i and column j to key j: query i may attend to key j when mask[i][j] is True.",
    "mask-zero": "You gave the masked keys a score of 0 (set to 0, or the scores multiplied "
    "by a 0/1 mask). A score of 0 does not remove a key: e^0 = 1, so a masked key still gets "
    "as much weight as any key scoring 0, and more than one with a negative score. A key is "
    "removed only by a score of -inf (e^-inf = 0), or by leaving it out of the softmax.",
    "mask-after-softmax": "You zeroed the masked weights after the softmax, so the weights "
    "that are left add up to less than 1. Leave the masked keys out BEFORE the softmax (or "
    "give them a score of -inf), so that the remaining weights share all of it.",
    "mask-renormalised": "You took the softmax over every key, masked ones included, then "
    "zeroed the masked weights and renormalised. When a masked key holds the top score by "
    "far, every allowed key's exp(score - max) underflows to 0 and there is nothing left to "
    "renormalise (0/0). Leave the masked keys out of the maximum and of the softmax.",
    "one-output-per-query": "Return one output per query, in the order of the queries: a "
    "list of n_q lists, each as wide as a value.",
    "mask-optional": "mask must be optional: define the function as attention(queries, keys, "
    "values, mask=None) and treat None as 'every query may attend to every key'.",
    "no-max": "Subtract each row's largest score before math.exp: exp of a large score "
    "overflows, and only the maximum keeps every exponent at most 0 with one of them exactly 0.",
    "many-wrong": "For each query i: scores q_i·k_j / √d_k for the keys j with mask[i][j] "
    "True (all keys when mask is None), softmax over those scores, then the weighted sum of "
    "their values.",
}

Vector = list[float]
Matrix = list[list[float]]
Mask = list[list[bool]] | None


def _rows(
    queries: Matrix, keys: Matrix, values: Matrix, mask: Mask, *, after: bool = False
) -> Matrix:
    """The definition, or (``after``) the mask applied after the softmax, not renormalised."""
    out = []
    for i, q in enumerate(queries):
        allowed = [mask is None or bool(mask[i][j]) for j in range(len(keys))]
        scale = math.sqrt(len(q))
        s = [math.fsum(a * b for a, b in zip(q, k, strict=True)) / scale for k in keys]
        live = s if after else [x for x, ok in zip(s, allowed, strict=True) if ok]
        m = max(live)
        exps = [math.exp(x - m) if (after or ok) else 0.0 for x, ok in zip(s, allowed, strict=True)]
        total = math.fsum(exps)
        w = [e / total if ok else 0.0 for e, ok in zip(exps, allowed, strict=True)]
        out.append([math.fsum(a * x for a, x in zip(w, col, strict=True)) for col in zip(*values)])
    return out


def _masked_by_zero(queries: Matrix, keys: Matrix, values: Matrix, mask: Mask = None) -> Matrix:
    """Masked keys scored 0 (not -inf) and kept in the softmax."""
    out = []
    for i, q in enumerate(queries):
        scale = math.sqrt(len(q))
        s = [math.fsum(a * b for a, b in zip(q, k, strict=True)) / scale for k in keys]
        s = [x if mask is None or mask[i][j] else 0.0 for j, x in enumerate(s)]
        exps = [math.exp(x - max(s)) for x in s]
        w = [e / math.fsum(exps) for e in exps]
        out.append([math.fsum(a * x for a, x in zip(w, col, strict=True)) for col in zip(*values)])
    return out


def expected(queries: Matrix, keys: Matrix, values: Matrix, mask: Mask = None) -> Matrix:
    """Query i: softmax of q_i·k_j / √d_k over the keys j with mask[i][j] True."""
    return _rows(queries, keys, values, mask)


def random_mask(rng: random.Random, n_q: int, n_k: int) -> list[list[bool]]:
    """A random boolean mask in which every row allows at least one key."""
    mask = [[rng.random() < 0.6 for _ in range(n_k)] for _ in range(n_q)]
    for row in mask:
        row[rng.randrange(n_k)] = True
    return mask


def cases() -> list[h.Case]:
    # The lesson's two queries (its matrix section): the worked example's q, and a query
    # like k_2. Their expected values come from the plain formula above.
    both = [Q, K[1]]
    hide_first = [[False, True, True], [False, False, True]]
    lower_left = [[True, False, False], [True, True, False]]
    fixed = [
        h.Case(
            "the worked example, two queries, no mask",
            (both, K, V, None),
            expected(both, K, V, None),
        ),
        h.Case(
            "query 0 may not see key 0; query 1 sees only key 2",
            (both, K, V, hide_first),
            expected(both, K, V, hide_first),
        ),
        h.Case(
            "a lower-left mask (the causal one)",
            (both, K, V, lower_left),
            expected(both, K, V, lower_left),
        ),
        # Scaled scores of ±2000/√2 ≈ ±1414: math.exp overflows unless the maximum goes first.
        # Query 0 gives key 0 all but e^-1414 of its weight, and so does query 1.
        h.Case(
            "large scores: the softmax must not overflow",
            ([[2000, 0], [0, -2000]], [[1, 0], [0, 1]], [[1, 2], [3, 4]], None),
            [[1.0, 2.0], [1.0, 2.0]],
        ),
    ]
    # For mask-renormalised: query 0 may not see key 1, whose score beats key 0's by
    # 400 - (-400) = 800 (d_k = 1), so a softmax over every key leaves key 0 with
    # exp(-800) = 0 and nothing to renormalise (0/0). Query 0 sees key 0 alone: v_0;
    # query 1 sees both and gives key 1 all but e^-800 of its weight: v_1.
    fixed.append(
        h.Case(
            "a masked key holds query 0's top score, far above the rest",
            ([[1], [1]], [[-400], [400]], [[1, 2], [3, 4]], [[True, False], [True, True]]),
            [[1.0, 2.0], [3.0, 4.0]],
        )
    )
    rng = random.Random(701)
    seeded = []
    for i, (n_q, n_k, d_k, d_v) in enumerate(((2, 5, 3, 2), (4, 3, 4, 3), (3, 6, 2, 1)), start=1):
        qs, ks, vs = h.matrix(rng, n_q, d_k), h.matrix(rng, n_k, d_k), h.matrix(rng, n_k, d_v)
        mask = random_mask(rng, n_q, n_k) if i != 2 else None
        label = "a random mask" if mask else "no mask"
        name = f"random case {i} ({n_q} queries, {n_k} keys, d_k = {d_k}, {label})"
        seeded.append(h.Case(name, (qs, ks, vs, mask), expected(qs, ks, vs, mask)))
    return fixed + seeded


def _inverted(mask: Mask) -> Mask:
    return None if mask is None else [[not x for x in row] for row in mask]


def _transposed(mask: Mask, n_q: int, n_k: int) -> Mask:
    if mask is None:
        return None
    return [
        [bool(mask[j][i]) if j < len(mask) and i < len(mask[j]) else False for j in range(n_k)]
        for i in range(n_q)
    ]


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Answers only the first query: one vector comes back instead of one per query.
        "first_query_only": h.Mistake(
            "one-output-per-query",
            ("in enumerate(queries):", "in enumerate(queries[:1]):"),
            ("return outputs", "return outputs[0]"),
        ),
        # Takes the softmax over every key, then zeroes the masked weights without
        # renormalising.
        "mask_after_softmax": h.Mistake(
            "mask-after-softmax",
            (
                (
                    "seen = [j for j in range(len(keys)) if mask is None or mask[i][j]]\n"
                    "        scores = [sum(a * b for a, b in zip(q, keys[j])) / math.sqrt(d_k) for j in seen"
                ),
                "scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys",
            ),
            (
                "total = sum(exps)",
                (
                    "weights = [e / sum(exps) for e in exps]\n"
                    "        if mask is not None:\n"
                    "            weights = [w if ok else 0.0 for w, ok in zip(weights, mask[i])]"
                ),
            ),
            (
                (
                    "\n"
                    "            [sum(e * values[j][c] for e, j in zip(exps, seen)) / total for c in range(width)]\n"
                    "        "
                ),
                "[sum(w * v[c] for w, v in zip(weights, values)) for c in range(width)]",
            ),
        ),
        # Multiplies the scores by the mask (True = 1, False = 0): masked keys score 0, not
        # -inf.
        "mask_by_multiplying": h.Mistake(
            "mask-zero",
            (
                (
                    "seen = [j for j in range(len(keys)) if mask is None or mask[i][j]]\n"
                    "        scores = [sum(a * b for a, b in zip(q, keys[j])) / math.sqrt(d_k) for j in seen"
                ),
                (
                    "scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]\n"
                    "        if mask is not None:\n"
                    "            scores = [s * keep for s, keep in zip(scores, mask[i])"
                ),
            ),
            (
                "values[j][c] for e, j in zip(exps, seen)) / total for c in range(width",
                "v[c] for e, v in zip(exps, values)) / total for c in range(len(values[0])",
            ),
        ),
        # Gives the masked keys a score of 0 instead of -inf, and keeps them in the softmax.
        "mask_by_zero": h.Mistake(
            "mask-zero",
            (
                (
                    "seen = [j for j in range(len(keys)) if mask is None or mask[i][j]]\n"
                    "        scores = [sum(a * b for a, b in zip(q, keys[j])) / math.sqrt(d_k) for j in seen"
                ),
                (
                    "scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]\n"
                    "        if mask is not None:\n"
                    "            scores = [s if mask[i][j] else 0.0 for j, s in enumerate(scores)"
                ),
            ),
            (
                "values[j][c] for e, j in zip(exps, seen)) / total for c in range(width",
                "v[c] for e, v in zip(exps, values)) / total for c in range(len(values[0])",
            ),
        ),
        # Runs every query over every key: the mask is accepted but never used.
        "mask_ignored": h.Mistake("mask-ignored", (" if mask is None or mask[i][j]]", "]")),
        # Reads True as "hide this key": the opposite of the convention (True = may attend).
        "mask_meaning": h.Mistake("mask-meaning", ("or mask[i][j]]", "or not mask[i][j]]")),
        # Makes the mask a required argument: a call without one raises TypeError.
        "mask_required": h.Mistake("mask-optional", ("mask=None):", "mask):"), model=False),
        # Looks the mask up as mask[j][i] (key first) instead of mask[i][j] (query first).
        "mask_transposed": h.Mistake(
            "mask-transposed", ("or mask[i][j]]", "or (j < len(mask) and mask[j][i])]")
        ),
        # Exponentiates the raw scores: right on small scores, OverflowError on large ones.
        "no_max": h.Mistake(
            "no-max",
            (
                (
                    "seen = [j for j in range(len(keys)) if mask is None or mask[i][j]]\n"
                    "        scores = [sum(a * b for a, b in zip(q, keys[j])) / math.sqrt(d_k) for j in seen]\n"
                    "        m = max(scores)\n"
                    "        exps = [math.exp(s - m) for s in scores"
                ),
                (
                    "allowed = [mask is None or mask[i][j] for j in range(len(keys))]\n"
                    "        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]\n"
                    "        exps = [math.exp(s) if ok else 0.0 for s, ok in zip(scores, allowed)"
                ),
            ),
            (
                "values[j][c] for e, j in zip(exps, seen)) / total for c in range(width",
                "v[c] for e, v in zip(exps, values)) / total for c in range(len(values[0])",
            ),
            model=False,
        ),
        # Softmax over every key, masked ones included, then the masked zeroed and renormalised.
        "renormalised": h.Mistake(
            "mask-renormalised",
            (
                (
                    "seen = [j for j in range(len(keys)) if mask is None or mask[i][j]]\n"
                    "        scores = [sum(a * b for a, b in zip(q, keys[j])) / math.sqrt(d_k) for j in seen]\n"
                    "        m = max(scores)\n"
                    "        exps = [math.exp(s - m) for s in scores"
                ),
                (
                    "scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]\n"
                    "        top = max(scores)\n"
                    "        exps = [\n"
                    "            math.exp(s - top) if mask is None or mask[i][j] else 0.0 for j, s in enumerate(scores)\n"
                    "        "
                ),
            ),
            ("width = len(values[0])", "weights = [e / total for e in exps]"),
            (
                "e * values[j][c] for e, j in zip(exps, seen)) / total for c in range(width",
                "w * row[c] for w, row in zip(weights, values)) for c in range(len(values[0])",
            ),
            model=False,
        ),
    },
)


def explain_exception(exc: Exception, args: tuple[Matrix, Matrix, Matrix, Mask]) -> str | None:
    if isinstance(exc, OverflowError):
        return "no-max"
    if isinstance(exc, ZeroDivisionError) and len(args) == 4 and _masked_key_far_on_top(*args):
        return "mask-renormalised"  # 0/0 although every query sees a key
    if isinstance(exc, TypeError) and "mask" in str(exc) and len(args) == 3:
        return "mask-optional"
    return None


def _masked_key_far_on_top(queries: Matrix, keys: Matrix, values: Matrix, mask: Mask) -> bool:
    """Some query's best masked score beats its best allowed one past exp's range."""
    if mask is None:
        return False
    for i, q in enumerate(queries):
        scores = [math.fsum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
        hidden = [x for x, ok in zip(scores, mask[i]) if not ok]
        seen = [x for x, ok in zip(scores, mask[i]) if ok]
        if hidden and seen and max(hidden) - max(seen) > 745:
            return True
    return False


def properties(run: h.Runner) -> Iterator[h.Result]:
    rng = random.Random(702)
    qs, ks, vs = h.matrix(rng, 3, 4), h.matrix(rng, 5, 4), h.matrix(rng, 5, 2)
    everything = [[True] * 5 for _ in range(3)]
    # No mask at all means every key is allowed: the same as a mask of all True.
    yield run.relation(
        "mask is optional: no mask is the same as a mask that allows every key",
        (qs, ks, vs, everything),
        (qs, ks, vs),
        expected="the outputs with a mask of all True",
        hint="many-wrong",
    )
    # Each query is answered on its own: reversing the queries reverses the outputs.
    yield run.relation(
        "one output per query: reversing the queries reverses the outputs",
        (qs, ks, vs, None),
        (qs[::-1], ks, vs, None),
        expected="the outputs in reverse order",
        hint="one-output-per-query",
        predict=lambda outputs: (h.as_list(outputs) or [])[::-1],
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
