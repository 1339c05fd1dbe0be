"""Hidden checks for lesson 3, step 4: a post-LN transformer block on a tiny model.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand
where the block's parts vanish (one token, w_v = 0 and w_2 = 0: the block is two
LayerNorms of x) or by the plain formula below (seeded cases, a tiny model of width
2 to 4); the properties need no expected value (shuffling the tokens shuffles the
rows; the last norm leaves each row with mean 0 and variance 1).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator
from typing import Any

import _harness as h

TITLE = "Lesson 3, step 4, a post-LN transformer block"
FUNCTION = "post_ln_block"
PARAMS = ("x", "p")
FALLBACK_HINT = "block-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "block-pre-ln": "You normalised before each sublayer and added after it: x + "
    "attention(LN(x)). That is the pre-LN block of GPT-2 and most recent models. BERT and "
    "all-MiniLM-L6-v2 are post-LN: add first, then normalise the sum, h = LN(x + "
    "attention(x)), then out = LN(h + feed_forward(h)).",
    "block-norm-before-sum": "You normalised the sublayer's output and then added the "
    "residual: x + LN(attention(x)). The norm comes after the residual sum, on the sum "
    "itself: LN(x + attention(x)).",
    "block-no-residual": "Add each sublayer's input back to its output before the norm: "
    "LN(x + attention(x)), not LN(attention(x)). The residual connection is what lets the "
    "block write a change into the token's vector instead of replacing it.",
    "block-residual-from-x": "The second residual goes around the feed-forward network: "
    "add h, the input of that network, to its output. The block's own input x was already "
    "added once, inside h.",
    "block-wrong-axis": "LayerNorm works on one token at a time, over that token's d "
    "features: call layer_norm on each row. Normalising each feature over the tokens (a "
    "column) is batch-norm's axis, and it lets one token's numbers change another's.",
    "block-last-norm": "A post-LN block ends with a norm: every output row is LayerNorm_2 of "
    "h + feed_forward(h), so with gain 1 and bias 0 each row has mean 0 and variance 1. "
    "Apply norm_2 last, to the second residual sum.",
    "block-wrong": "h[t] = layer_norm(x[t] + a[t], norm_1) with a = self_attention(x, w_q, "
    "w_k, w_v, w_o); then out[t] = layer_norm(h[t] + feed_forward(h[t], w_1, b_1, w_2, b_2), "
    "norm_2), for every token t.",
}

Vector = list[float]
Matrix = list[list[float]]
Params = dict[str, Any]
EPS = 1e-12


def _matmul(x: Matrix, w: Matrix) -> Matrix:
    return [
        [math.fsum(a * b for a, b in zip(row, col, strict=True)) for col in zip(*w)] for row in x
    ]


def _attention(x: Matrix, p: Params) -> Matrix:
    q, k, v = _matmul(x, p["w_q"]), _matmul(x, p["w_k"]), _matmul(x, p["w_v"])
    out = []
    for qi in q:
        s = [math.fsum(a * b for a, b in zip(qi, kj, strict=True)) / math.sqrt(len(qi)) for kj in k]
        top = max(s)
        e = [math.exp(v_ - top) for v_ in s]
        total = math.fsum(e)
        out.append(
            [math.fsum(e[j] * v[j][c] for j in range(len(v))) / total for c in range(len(v[0]))]
        )
    return _matmul(out, p["w_o"])


def _norm(t: Vector, gain: Vector, bias: Vector) -> Vector:
    mean = math.fsum(t) / len(t)
    var = math.fsum((v - mean) ** 2 for v in t) / len(t)
    return [
        g * (v - mean) / math.sqrt(var + EPS) + b for v, g, b in zip(t, gain, bias, strict=True)
    ]


def _norm_columns(rows: Matrix, gain: Vector, bias: Vector) -> Matrix:
    columns = [_norm(list(col), [1.0] * len(rows), [0.0] * len(rows)) for col in zip(*rows)]
    return [[gain[c] * columns[c][t] + bias[c] for c in range(len(gain))] for t in range(len(rows))]


def _ffn(t: Vector, p: Params) -> Vector:
    pre = [
        math.fsum(t[i] * p["w_1"][i][j] for i in range(len(t))) + b for j, b in enumerate(p["b_1"])
    ]
    hidden = [v * math.erfc(-v / math.sqrt(2)) / 2 for v in pre]
    return [
        math.fsum(hidden[j] * p["w_2"][j][c] for j in range(len(hidden))) + b
        for c, b in enumerate(p["b_2"])
    ]


def _add(a: Vector, b: Vector) -> Vector:
    return [u + v for u, v in zip(a, b, strict=True)]


def _n1(t: Vector, p: Params) -> Vector:
    return _norm(t, p["norm_1_gain"], p["norm_1_bias"])


def _n2(t: Vector, p: Params) -> Vector:
    return _norm(t, p["norm_2_gain"], p["norm_2_bias"])


def expected(x: Matrix, p: Params) -> Matrix:
    """h = LN_1(x + attention(x)); out = LN_2(h + FFN(h)), row by row."""
    hs = [_n1(_add(xt, at), p) for xt, at in zip(x, _attention(x, p), strict=True)]
    return [_n2(_add(ht, _ffn(ht, p)), p) for ht in hs]


def _pre_ln(x: Matrix, p: Params) -> Matrix:
    hs = [_add(xt, at) for xt, at in zip(x, _attention([_n1(t, p) for t in x], p), strict=True)]
    return [_add(ht, _ffn(_n2(ht, p), p)) for ht in hs]


def _norm_before_sum(x: Matrix, p: Params) -> Matrix:
    hs = [_add(xt, _n1(at, p)) for xt, at in zip(x, _attention(x, p), strict=True)]
    return [_add(ht, _n2(_ffn(ht, p), p)) for ht in hs]


def _no_residual(x: Matrix, p: Params) -> Matrix:
    return [_n2(_ffn(_n1(at, p), p), p) for at in _attention(x, p)]


def _residual_from_x(x: Matrix, p: Params) -> Matrix:
    hs = [_n1(_add(xt, at), p) for xt, at in zip(x, _attention(x, p), strict=True)]
    return [_n2(_add(xt, _ffn(ht, p)), p) for xt, ht in zip(x, hs, strict=True)]


def _wrong_axis(x: Matrix, p: Params) -> Matrix:
    s1 = [_add(xt, at) for xt, at in zip(x, _attention(x, p), strict=True)]
    hs = _norm_columns(s1, p["norm_1_gain"], p["norm_1_bias"])
    s2 = [_add(ht, _ffn(ht, p)) for ht in hs]
    return _norm_columns(s2, p["norm_2_gain"], p["norm_2_bias"])


def model(
    d: int,
    hidden: int,
    *,
    rng: random.Random | None = None,
    w_v: Matrix | None = None,
    w_2: Matrix | None = None,
    norms: tuple[Vector, Vector, Vector, Vector] | None = None,
) -> Params:
    """A tiny model: random weights from ``rng``, or the identity and zeros without one."""

    def mat(rows: int, cols: int) -> Matrix:
        if rng is None:
            return [[1.0 if i == j else 0.0 for j in range(cols)] for i in range(rows)]
        return h.matrix(rng, rows, cols, -1.0, 1.0)

    def vec(n: int, lo: float, hi: float, default: float) -> Vector:
        return [default] * n if rng is None else h.vector(rng, n, lo, hi)

    p: Params = {"w_q": mat(d, d), "w_k": mat(d, d), "w_v": mat(d, d), "w_o": mat(d, d)}
    p |= {"w_1": mat(d, hidden), "b_1": vec(hidden, -0.5, 0.5, 0.0)}
    p |= {"w_2": mat(hidden, d), "b_2": vec(d, -0.5, 0.5, 0.0)}
    p |= {
        "norm_1_gain": vec(d, 0.5, 1.5, 1.0),
        "norm_1_bias": vec(d, -0.5, 0.5, 0.0),
        "norm_2_gain": vec(d, 0.5, 1.5, 1.0),
        "norm_2_bias": vec(d, -0.5, 0.5, 0.0),
    }
    if w_v is not None:
        p["w_v"] = w_v
    if w_2 is not None:
        p["w_2"] = w_2
    if norms is not None:
        for key, value in zip(("norm_1_gain", "norm_1_bias", "norm_2_gain", "norm_2_bias"), norms):
            p[key] = value
    return p


def cases() -> list[h.Case]:
    zero2 = [[0.0, 0.0], [0.0, 0.0]]
    quiet = model(2, 8, w_v=zero2, w_2=[[0.0, 0.0]] * 8)  # attention and FFN add nothing
    shaped = model(
        2,
        8,
        w_v=zero2,
        w_2=[[0.0, 0.0]] * 8,
        norms=([1.0, 1.0], [0.0, 0.0], [2.0, 3.0], [1.0, -1.0]),
    )
    rng = random.Random(3401)
    worked_x = [[1.0, 0.0, 2.0], [0.0, 1.0, -1.0], [1.0, 1.0, 0.0]]
    worked = model(3, 12, rng=rng)
    fixed = [
        # x + 0 = [1, 3]: mean 2, variance 1, normalised [-1, 1]; the second norm keeps it.
        h.Case(
            "one token; attention and the FFN add nothing: two norms of x",
            ([[1, 3]], quiet),
            [[-1.0, 1.0]],
            tol=1e-9,
        ),
        # The second norm's gain [2, 3] and bias [1, -1] act on [-1, 1].
        h.Case(
            "the same, with the second norm's gain and bias",
            ([[1, 3]], shaped),
            [[-1.0, 2.0]],
            tol=1e-9,
        ),
        h.Case(
            "two tokens, the same tiny model: each row on its own",
            ([[1, 3], [4, 2]], quiet),
            [[-1.0, 1.0], [1.0, -1.0]],
            tol=1e-9,
        ),
        h.Case(
            "three tokens, width 3, hidden 12: the worked case",
            (worked_x, worked),
            expected(worked_x, worked),
        ),
    ]
    seeded = []
    for i, (n, d) in enumerate(((2, 2), (3, 3), (4, 4), (3, 4)), start=1):
        x, p = h.matrix(rng, n, d), model(d, 4 * d, rng=rng)
        seeded.append(
            h.Case(f"random case {i} ({n} tokens, d = {d}, hidden {4 * d})", (x, p), expected(x, p))
        )
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Forgets the residual connections: LN(attention(x)), then LN(feed_forward(h)).
        "no_residual": h.Mistake(
            "block-no-residual",
            (
                (
                    "\n"
                    '        layer_norm([xi + ai for xi, ai in zip(xt, at)], p["norm_1_gain"], p["norm_1_bias"])\n'
                    "        for xt, at in zip(x, a)\n"
                    "    "
                ),
                'layer_norm(at, p["norm_1_gain"], p["norm_1_bias"]) for at in a',
            ),
            (
                (
                    "\n"
                    '            layer_norm([hi + fi for hi, fi in zip(ht, f)], p["norm_2_gain"], p["norm_2_bias"])\n'
                    "        "
                ),
                'layer_norm(f, p["norm_2_gain"], p["norm_2_bias"])',
            ),
        ),
        # Normalises each sublayer's output, then adds the residual: x + LN(attention(x)).
        "norm_before_sum": h.Mistake(
            "block-norm-before-sum",
            (
                (
                    "\n"
                    '        layer_norm([xi + ai for xi, ai in zip(xt, at)], p["norm_1_gain"], p["norm_1_bias"])\n'
                    "        for xt, at in zip(x, a)\n"
                    "    ]"
                ),
                (
                    "]\n"
                    "    for xt, at in zip(x, a):\n"
                    '        na = layer_norm(at, p["norm_1_gain"], p["norm_1_bias"])\n'
                    "        h.append([xi + ni for xi, ni in zip(xt, na)])"
                ),
            ),
            (
                (
                    "out.append(\n"
                    '            layer_norm([hi + fi for hi, fi in zip(ht, f)], p["norm_2_gain"], p["norm_2_bias"])\n'
                    "        "
                ),
                (
                    'nf = layer_norm(f, p["norm_2_gain"], p["norm_2_bias"])\n'
                    "        out.append([hi + ni for hi, ni in zip(ht, nf)]"
                ),
            ),
        ),
        # Normalises first and adds after (pre-LN, GPT-2's order), where the post-LN block is
        # asked.
        "pre_ln": h.Mistake(
            "block-pre-ln",
            (
                (
                    'a = self_attention(x, p["w_q"], p["w_k"], p["w_v"], p["w_o"])\n'
                    "    h = [\n"
                    '        layer_norm([xi + ai for xi, ai in zip(xt, at)], p["norm_1_gain"], p["norm_1_bias"])\n'
                    "        for xt, at in zip(x, a)\n"
                    "    "
                ),
                (
                    'n1 = [layer_norm(t, p["norm_1_gain"], p["norm_1_bias"]) for t in x]\n'
                    '    a = self_attention(n1, p["w_q"], p["w_k"], p["w_v"], p["w_o"])\n'
                    "    h = [[xi + ai for xi, ai in zip(xt, at)] for xt, at in zip(x, a)"
                ),
            ),
            (
                (
                    'f = feed_forward(ht, p["w_1"], p["b_1"], p["w_2"], p["b_2"])\n'
                    "        out.append(\n"
                    '            layer_norm([hi + fi for hi, fi in zip(ht, f)], p["norm_2_gain"], p["norm_2_bias"])\n'
                    "        "
                ),
                (
                    'n2 = layer_norm(ht, p["norm_2_gain"], p["norm_2_bias"])\n'
                    '        f = feed_forward(n2, p["w_1"], p["b_1"], p["w_2"], p["b_2"])\n'
                    "        out.append([hi + fi for hi, fi in zip(ht, f)]"
                ),
            ),
        ),
        # Adds the block's input x back around the feed-forward network, instead of h.
        "residual_from_x": h.Mistake(
            "block-residual-from-x",
            ("ht in h", "xt, ht in zip(x, h)"),
            ("hi + fi for hi, fi in zip(ht", "xi + fi for xi, fi in zip(xt"),
        ),
        # Normalises each feature over the tokens (a column of x) instead of each token over its
        # features.
        "wrong_axis": h.Mistake(
            "block-wrong-axis",
            (
                ("w_o)\n"),
                (
                    "w_o)\n"
                    "def norm_columns(rows, gain, bias, eps=1e-12):\n"
                    "    n = len(rows)\n"
                    "    out = [list(r) for r in rows]\n"
                    "    for c in range(len(rows[0])):\n"
                    "        column = [r[c] for r in rows]\n"
                    "        mean = sum(column) / n\n"
                    "        variance = sum((v - mean) ** 2 for v in column) / n\n"
                    "        for t in range(n):\n"
                    "            out[t][c] = gain[c] * (column[t] - mean) / math.sqrt(variance + eps) + bias[c]\n"
                    "    return out\n"
                ),
            ),
            (
                (
                    "h = [\n"
                    '        layer_norm([xi + ai for xi, ai in zip(xt, at)], p["norm_1_gain"], p["norm_1_bias"])\n'
                    "        for xt, at in zip(x, a)\n"
                    "    ]\n"
                    "    out"
                ),
                (
                    "s1 = [[xi + ai for xi, ai in zip(xt, at)] for xt, at in zip(x, a)]\n"
                    '    h = norm_columns(s1, p["norm_1_gain"], p["norm_1_bias"])\n'
                    "    s2"
                ),
            ),
            (
                (
                    "out.append(\n"
                    '            layer_norm([hi + fi for hi, fi in zip(ht, f)], p["norm_2_gain"], p["norm_2_bias"])\n'
                    "        )\n"
                    "    return out"
                ),
                (
                    "s2.append([hi + fi for hi, fi in zip(ht, f)])\n"
                    '    return norm_columns(s2, p["norm_2_gain"], p["norm_2_bias"])'
                ),
            ),
        ),
    },
)


def properties(run: h.Runner) -> Iterator[h.Result]:
    """Shuffled tokens give shuffled rows; with gain 1 and bias 0, rows have mean 0, variance 1."""
    rng = random.Random(3402)
    x, p = h.matrix(rng, 4, 3), model(3, 12, rng=rng)
    order = [2, 0, 3, 1]
    yield run.relation(
        "no positions inside the block: shuffling the tokens shuffles the output rows",
        (x, p),
        ([x[i] for i in order], p),
        expected="the output rows in the shuffled order",
        hint="block-wrong-axis",
        predict=lambda rows: [(h.as_list(rows) or [None] * 4)[i] for i in order],
        tol=1e-9,
    )
    plain = {**p, "norm_2_gain": [1.0] * 3, "norm_2_bias": [0.0] * 3}
    name = "the block ends with a norm: with gain 1 and bias 0, each row has mean 0, variance 1"
    answer, failure = run.call(name, (x, plain))
    if failure is not None:
        yield failure
        return
    rows = h.as_list(answer) or []
    stats = []
    for row in rows:
        items = h.as_list(row) or []
        if len(items) != 3 or not all(isinstance(v, (int, float)) for v in items):
            stats.append((math.nan, math.nan))
            continue
        mean = math.fsum(items) / 3
        stats.append((mean, math.fsum((v - mean) ** 2 for v in items) / 3))
    ok = len(stats) == 4 and all(abs(m) < 1e-9 and abs(v - 1) < 1e-9 for m, v in stats)
    yield run.check(
        name,
        (x, plain),
        ok=ok,
        actual=answer,
        expected="4 rows, each with mean 0 and variance 1 over its 3 features",
        hint="block-last-norm" if len(stats) == 4 else "block-wrong",
        tol=1e-9,
        detail="" if ok else "means and variances " + h.show([list(s) for s in stats]),
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
