"""Hidden checks for lesson 2, step 4: a padding mask over a batch of sequences.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand (fixed cases,
written as closed forms) or by the plain formula below (the cases on lesson 1's worked
example and the seeded cases). Lesson 1's worked example comes from its one source,
``snippets/worked_example.py``: the build writes it into the copy you download.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator

import _harness as h

from _worked_example import K, Q, V

TITLE = "Lesson 2, step 4, a padding mask over a batch"
FUNCTION = "padded_attention"
PARAMS = ("q", "k", "v", "keep")
FALLBACK_HINT = "padding-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "mask-zero": "You gave the padding keys a score of 0 (set to 0, or the scores multiplied "
    "by keep). A score of 0 does not remove a key: e^0 = 1, so padding still gets as much "
    "weight as a real key scoring 0. Leave padding out of the softmax, or score it -inf "
    "(e^-inf = 0).",
    "mask-meaning": "keep is the wrong way round: keep[s][j] is True when key j of sequence s "
    "is a real token the queries MAY attend to, False for padding (the convention of the "
    "lesson and of F.scaled_dot_product_attention; nn.MultiheadAttention's key_padding_mask "
    "is the opposite, True = padding).",
    "batch-mixed": "Each sequence of the batch attends only to its own keys: the queries of "
    "sequence s meet k[s] and v[s], never the keys of another sequence.",
    "padding-after-softmax": "You zeroed the padding weights after the softmax, so the weights "
    "of the real keys add up to less than 1. Leave padding out BEFORE the softmax.",
    "fully-masked": "A sequence whose keys are all padding has nothing to attend to: max() of "
    "no scores fails, and 0/0 has no value. Give each of its queries a row of zeros, as "
    "attention_ref does.",
    "fully-masked-nan": "A sequence whose keys are all padding gave NaN: every score is -inf, "
    "and -inf - (-inf) or 0/0 is NaN. Check for a row with no real key first, and return a "
    "row of zeros for it.",
    "padding-renormalised": "You took the softmax over every key, padding included, then "
    "zeroed the padding and divided by what was left. On paper that is the same, but when a "
    "padding key has the largest score it takes all the weight first: the real keys' "
    "exponentials underflow to 0, and the division is 0/0. Leave padding out before the "
    "softmax, and subtract the largest score of the real keys only.",
    "padding-zeros-width": "A sequence of padding only gets, for each query, a row of zeros "
    "as wide as an output row: d_v = len(v[s][0]), the width of the values, not d_k, the "
    "width of the queries and keys. The two differ in this case.",
    "no-max": "Subtract the largest score of the real keys before math.exp: exp of a large "
    "score overflows, and only the maximum keeps every exponent at most 0.",
    "padding-wrong": "For each sequence s and each query i of it: score q[s][i] against the "
    "keys k[s][j] with keep[s][j] True, divide by sqrt(d_k), softmax over those, blend their "
    "values; a sequence with no real key gives rows of zeros.",
}


Matrix = list[list[float]]
Batch = list[Matrix]
Keep = list[list[bool]]


def _dot(a: list[float], b: list[float]) -> float:
    return math.fsum(x * y for x, y in zip(a, b, strict=True))


def _blend(w: list[float], v: Matrix) -> list[float]:
    return [math.fsum(a * row[c] for a, row in zip(w, v, strict=True)) for c in range(len(v[0]))]


def _attend(q: list[float], k: Matrix, v: Matrix, ok: list[bool], how: str) -> list[float]:
    """One query over the keys ``ok`` allows; ``how`` names a mistake's model."""
    scores = [_dot(q, key) / math.sqrt(len(q)) for key in k]
    if how == "zero":  # padding scored 0 and kept in the softmax
        scores = [x if y else 0.0 for x, y in zip(scores, ok, strict=True)]
        ok = [True] * len(k)
    if how == "after":  # softmax over every key, then padding zeroed, not renormalised
        top = max(scores)
        exps = [math.exp(x - top) for x in scores]
        total = math.fsum(exps)
        return _blend([e / total if y else 0.0 for e, y in zip(exps, ok, strict=True)], v)
    live = [x for x, y in zip(scores, ok, strict=True) if y]
    if not live:
        return [0.0] * (len(q) if how == "zeros-dk" else len(v[0]))
    top = max(live)
    exps = [math.exp(x - top) if y else 0.0 for x, y in zip(scores, ok, strict=True)]
    total = math.fsum(exps)
    return _blend([e / total for e in exps], v)


def _batch(q: Batch, k: Batch, v: Batch, keep: Keep, how: str = "") -> Batch:
    if how == "inverted":
        keep = [[not x for x in row] for row in keep]
    if how == "mixed":  # every sequence's keys, flattened into one list
        k_all = [row for seq in k for row in seq]
        v_all = [row for seq in v for row in seq]
        ok_all = [bool(x) for row in keep for x in row]
        return [[_attend(qi, k_all, v_all, ok_all, "") for qi in seq] for seq in q]
    return [
        [_attend(qi, k[s], v[s], [bool(x) for x in keep[s]], how) for qi in q[s]]
        for s in range(len(q))
    ]


def expected(q: Batch, k: Batch, v: Batch, keep: Keep) -> Batch:
    """Sequence s, query i: softmax of q·k / sqrt(d_k) over the keys kept; zeros if none."""
    return _batch(q, k, v, keep)


def cases() -> list[h.Case]:
    # Lesson 1's worked example, as a batch of one sequence with one query.
    q1, k1, v1 = [[Q]], [K], [V]
    every = [True] * len(K)
    middle_padded = [j != 1 for j in range(len(K))]  # key 1 is padding
    fixed = [
        h.Case(
            "a batch of one, nothing padded: lesson 1's worked example",
            (q1, k1, v1, [every]),
            expected(q1, k1, v1, [every]),
        ),
        h.Case(
            "two sequences: the second has its middle key padded",
            (q1 * 2, k1 * 2, v1 * 2, [every, middle_padded]),
            expected(q1 * 2, k1 * 2, v1 * 2, [every, middle_padded]),
        ),
        # Sequence 0 keeps key 0 only, so both its queries get v_0; sequence 1 is all
        # padding: nothing to attend to, so its queries get zeros.
        h.Case(
            "a sequence of padding only: rows of zeros",
            (
                [[[1, 0], [0, 1]], [[0, 1], [1, 1]]],
                [[[1, 0], [0, 1]], [[1, 0], [0, 1]]],
                [[[2, 4], [6, 8]], [[2, 4], [6, 8]]],
                [[True, False], [False, False]],
            ),
            [[[2.0, 4.0], [2.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]]],
        ),
        # For padding-renormalised: the padded key 2 holds the top score (3818 against
        # 2545), so a softmax over every key leaves the real keys 0/0 to renormalise.
        # For no-max: scaled scores 2545 and -2545 (60 · 60 / √2) overflow math.exp.
        # All the weight goes to key 0.
        h.Case(
            "large scores must not overflow",
            (
                [[[60, 0]]],
                [[[60, 0], [-60, 0], [90, 0]]],
                [[[1, 2], [3, 4], [5, 6]]],
                [[True, True, False]],
            ),
            [[[1.0, 2.0]]],
        ),
    ]
    # For padding-zeros-width: d_k = 3 but d_v = 2, and sequence 1 is all padding, so
    # its rows of zeros are 2 wide. Sequence 0 keeps key 1 only and gets v_1.
    fixed.append(
        h.Case(
            "padding only, with d_k = 3 and d_v = 2: rows of zeros as wide as the values",
            (
                [[[1, 0, 1]], [[0, 1, 0]]],
                [[[1, 1, 0], [0, 1, 1]], [[1, 0, 0], [0, 0, 1]]],
                [[[2, 4], [6, 8]], [[2, 4], [6, 8]]],
                [[False, True], [False, False]],
            ),
            [[[6.0, 8.0]], [[0.0, 0.0]]],
        )
    )
    rng = random.Random(1411)
    seeded = []
    for i, (b, n_q, n_k, d_k, d_v) in enumerate(((2, 3, 4, 3, 2), (3, 2, 5, 2, 3)), start=1):
        q = [h.matrix(rng, n_q, d_k) for _ in range(b)]
        k = [h.matrix(rng, n_k, d_k) for _ in range(b)]
        v = [h.matrix(rng, n_k, d_v) for _ in range(b)]
        lengths = [rng.randint(1, n_k) for _ in range(b)]  # real tokens first, then padding
        keep = [[j < n for j in range(n_k)] for n in lengths]
        name = f"random case {i} (batch of {b}, {n_q} queries, {n_k} keys, lengths {lengths})"
        seeded.append(h.Case(name, (q, k, v, keep), expected(q, k, v, keep)))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Takes the softmax over every key, then zeroes the padding weights without
        # renormalising.
        "after_softmax": h.Mistake(
            "padding-after-softmax",
            (
                (
                    "if not real:  # only padding: nothing to attend to\n"
                    "                rows.append([0.0] * d_v)\n"
                    "                continue\n"
                    "            scores = [sum(a * b for a, b in zip(qi, k[s][j])) / math.sqrt(len(qi)) for j in real"
                ),
                "scores = [sum(a * b for a, b in zip(qi, kj)) / math.sqrt(len(qi)) for kj in k[s]",
            ),
            (
                (
                    "total = sum(exps)\n"
                    "            rows.append(\n"
                    "                [sum(e * v[s][j][c] for e, j in zip(exps, real)) / total for c in range(d_v)]\n"
                    "            "
                ),
                (
                    "weights = [e / sum(exps) if ok else 0.0 for e, ok in zip(exps, keep[s])]\n"
                    "            d_v = len(v[s][0])\n"
                    "            rows.append([sum(w * vj[c] for w, vj in zip(weights, v[s])) for c in range(d_v)]"
                ),
            ),
        ),
        # Flattens the batch: every query attends to the real keys of every sequence.
        "batch_mixed": h.Mistake(
            "batch-mixed",
            (
                '    "',
                (
                    "    keys = [kj for seq in k for kj in seq]\n"
                    "    values = [vj for seq in v for vj in seq]\n"
                    "    kept = [ok for row in keep for ok in row]\n"
                    "    real = [j for j in range(len(keys)) if kept[j]]\n"
                    '    "'
                ),
            ),
            (
                (
                    "        real = [j for j in range(len(k[s])) if keep[s][j]]\n"
                    "        d_v = len(v[s][0])\n"
                ),
                "",
            ),
            (
                (
                    "if not real:  # only padding: nothing to attend to\n"
                    "                rows.append([0.0] * d_v)\n"
                    "                continue\n"
                    "            scores = [sum(a * b for a, b in zip(qi, k[s]"
                ),
                "scores = [sum(a * b for a, b in zip(qi, keys",
            ),
            (
                ("\n            rows.append("),
                ("\n            d_v = len(values[0])\n            rows.append("),
            ),
            (" v[s]", " values"),
        ),
        # Right until a sequence is all padding: then max() gets no score at all and raises.
        "fully_masked_crash": h.Mistake(
            "fully-masked",
            (
                (
                    "            if not real:  # only padding: nothing to attend to\n"
                    "                rows.append([0.0] * d_v)\n"
                    "                continue\n"
                ),
                "",
            ),
            model=False,
        ),
        # Scores padding -inf, which is right, but a sequence of padding only becomes NaN.
        "fully_masked_nan": h.Mistake(
            "fully-masked-nan",
            (
                (
                    "if not real:  # only padding: nothing to attend to\n"
                    "                rows.append([0.0] * d_v)\n"
                    "                continue\n"
                    "            scores = [sum(a * b for a, b in zip(qi, k[s][j])) / math.sqrt(len(qi)) for j in real"
                ),
                (
                    "scores = [sum(a * b for a, b in zip(qi, kj)) / math.sqrt(len(qi)) for kj in k[s]]\n"
                    "            scores = [x if ok else -math.inf for x, ok in zip(scores, keep[s])"
                ),
            ),
            (
                (
                    "rows.append(\n"
                    "                [sum(e * v[s][j][c] for e, j in zip(exps, real)) / total for c in range(d_v)]\n"
                    "            "
                ),
                (
                    "d_v = len(v[s][0])\n"
                    "            rows.append([sum(e * vj[c] for e, vj in zip(exps, v[s])) / total for c in range(d_v)]"
                ),
            ),
            model=False,
        ),
        # Scores the padding keys 0 instead of leaving them out: they still get weight.
        "mask_by_zero": h.Mistake(
            "mask-zero",
            (
                (
                    "if not real:  # only padding: nothing to attend to\n"
                    "                rows.append([0.0] * d_v)\n"
                    "                continue\n"
                    "            scores = [sum(a * b for a, b in zip(qi, k[s][j])) / math.sqrt(len(qi)) for j in real"
                ),
                (
                    "scores = [sum(a * b for a, b in zip(qi, kj)) / math.sqrt(len(qi)) for kj in k[s]]\n"
                    "            scores = [x if ok else 0.0 for x, ok in zip(scores, keep[s])"
                ),
            ),
            (
                "v[s][j][c] for e, j in zip(exps, real)) / total for c in range(d_v",
                "vj[c] for e, vj in zip(exps, v[s])) / total for c in range(len(v[s][0])",
            ),
        ),
        # Reads keep as True = padding, the convention of nn.MultiheadAttention, not this one.
        "mask_inverted": h.Mistake(
            "mask-meaning",
            (("keep[s][j]]\n        d_v = len(v[s][0])"), "not keep[s][j]]"),
            (
                ("  # only padding: nothing to attend to\n                rows.append([0.0] * d_v"),
                ("\n                rows.append([0.0] * len(v[s][0])"),
            ),
            (
                ("\n            rows.append("),
                ("\n            d_v = len(v[s][0])\n            rows.append("),
            ),
        ),
        # Exponentiates the raw scores: right on small scores, OverflowError on large ones.
        "no_max": h.Mistake(
            "no-max",
            (("top = max(scores)\n            exps = [math.exp(x - top"), "exps = [math.exp(x"),
            model=False,
        ),
        # Softmax over every key, padding included, then padding zeroed and the rest
        # renormalised.
        "renormalised": h.Mistake(
            "padding-renormalised",
            (
                "k[s][j])) / math.sqrt(len(qi)) for j in real",
                "kj)) / math.sqrt(len(qi)) for kj in k[s]",
            ),
            ("for x in scores", "if keep[s][j] else 0.0 for j, x in enumerate(scores)"),
            (
                (
                    "rows.append(\n"
                    "                [sum(e * v[s][j][c] for e, j in zip(exps, real)) / total for c in range(d_v)]\n"
                    "            "
                ),
                (
                    "weights = [e / total for e in exps]\n"
                    "            rows.append([sum(w * v[s][j][c] for j, w in enumerate(weights)) for c in range(d_v)]"
                ),
            ),
            model=False,
        ),
        # A sequence of padding only answered with rows of zeros as wide as the queries (d_k).
        "zeros_of_width_dk": h.Mistake(
            "padding-zeros-width",
            (
                ("  # only padding: nothing to attend to\n                rows.append([0.0] * d_v"),
                ("\n                rows.append([0.0] * len(qi)"),
            ),
        ),
    },
)


def explain_exception(exc: Exception, args: tuple[Batch, Batch, Batch, Keep]) -> str | None:
    if isinstance(exc, OverflowError):
        return "no-max"
    every_sequence_has_a_key = all(any(row) for row in args[3])
    if isinstance(exc, ZeroDivisionError) and every_sequence_has_a_key:
        return "padding-renormalised"  # 0/0 with real keys: the padding took the weight
    if isinstance(exc, ZeroDivisionError) or (isinstance(exc, ValueError) and "empty" in str(exc)):
        return "fully-masked"
    return None


def _has_nan(x: object) -> bool:
    if isinstance(x, float):
        return math.isnan(x)
    items = h.as_list(x)
    return any(_has_nan(item) for item in items) if items is not None else False


def properties(run: h.Runner) -> Iterator[h.Result]:
    """A fully padded sequence gives zeros, not NaN; padding's content never matters."""
    args = ([[[1, 2]], [[3, 4]]], [[[1, 0]], [[0, 1]]], [[[5, 6]], [[7, 8]]], [[True], [False]])
    name = "a sequence of padding only gives zeros, never NaN"
    answer, failure = run.call(name, args)
    if failure is not None:
        yield failure
    else:
        reason = h.compare(answer, [[[5.0, 6.0]], [[0.0, 0.0]]], 1e-12)
        yield run.check(
            name,
            args,
            ok=reason is None,
            actual=answer,
            expected="[[[5, 6]], [[0, 0]]]: sequence 1 has no real key",
            hint="fully-masked-nan" if _has_nan(answer) else "fully-masked",
            tol=1e-12,
            detail=reason or "",
        )
    rng = random.Random(1412)
    q, k, v = [h.matrix(rng, 2, 3)], [h.matrix(rng, 3, 3)], [h.matrix(rng, 3, 2)]
    keep = [[True, True, False]]
    changed = (q, [[*k[0][:2], [9.0, -9.0, 9.0]]], [[*v[0][:2], [50.0, -50.0]]], keep)
    yield run.relation(
        "a padding key and value can hold anything: changing them changes nothing",
        (q, k, v, keep),
        changed,
        expected="the output as before",
        hint="mask-zero",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
