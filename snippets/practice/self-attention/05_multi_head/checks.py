"""Hidden checks for lesson 2, step 5: multi-head self-attention, end to end.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand
(fixed cases with d_model = 2, written as closed forms), by plain single-head
attention (num_heads = 1), or by the plain formula below (seeded cases); properties
need no expected value at all (shuffled tokens, a changed last token, a doubled w_o).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator
from typing import Any

import _harness as h

TITLE = "Lesson 2, step 5, multi-head attention"
FUNCTION = "multi_head_attention"
PARAMS = ("x", "w_q", "w_k", "w_v", "w_o", "num_heads", "causal")
FALLBACK_HINT = "mha-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "mha-no-w-o": "After merging the heads, multiply by w_o. The output projection is what "
    "mixes the heads' findings; without it every output column comes from one head only.",
    "mha-scale-d-model": "Each head divides its scores by sqrt(d_head), the width of ITS "
    "queries (d_model / num_heads), not by sqrt(d_model). attention() from step 4 does "
    "this by itself when you give it one head's q, k and v.",
    "mha-one-head": "num_heads was ignored: you attended once over the full width. Split Q, "
    "K and V into num_heads heads, let each head attend on its own, then merge them.",
    "mha-keys-from-w-q": "The keys come from w_k (K = x W_K), and the values from w_v. "
    "Projecting the keys with w_q scores every token against its own kind of query.",
    "mha-causal-ignored": "Pass causal on to every head: with causal=True, no head may let "
    "position i attend to a later position.",
    "mha-renormalised": "With causal=True you took each softmax over every key, later ones "
    "included, then zeroed the later weights and renormalised. When a later key holds the top "
    "score by far, every earlier key's exp(score - max) underflows to 0 and there is nothing "
    "left to renormalise (0/0). Leave the later keys out of the maximum and of the softmax.",
    "mha-causal-optional": "causal must be optional: define multi_head_attention(x, w_q, w_k, "
    "w_v, w_o, num_heads, causal=False).",
    "mha-split-x": "Project first, then split. Head i's queries are its block of columns of "
    "Q = x W_Q, and every one of them mixes ALL the columns of x. Cutting x into pieces "
    "first lets each head see only a slice of every token.",
    "mask-zero": "With causal=True you gave the later positions a score of 0 instead of leaving "
    "them out. A score of 0 does not remove a key: e^0 = 1, so the future still gets weight. "
    "Leave keys after position i out of its softmax, or score them -inf (e^-inf = 0).",
    "mha-order": "Without the causal mask, self-attention does not care where a token sits: "
    "shuffling the tokens of x must shuffle the output rows the same way, and change "
    "nothing else.",
    "mha-wrong": "Q, K, V = x W_Q, x W_K, x W_V; split each into num_heads heads; in each "
    "head, attention(q, k, v, causal); merge the heads' outputs; multiply by w_o.",
}

E = math.e
A = E / (1 + E)  # the weight of a score of 1 against a score of 0
B = math.exp(1 / math.sqrt(2)) / (1 + math.exp(1 / math.sqrt(2)))  # same, scaled by sqrt(2)
I2 = [[1, 0], [0, 1]]
SWAP = [[0, 1], [1, 0]]
Matrix = list[list[float]]


def _matmul(x: Matrix, w: Matrix) -> Matrix:
    return [
        [math.fsum(a * b for a, b in zip(row, col, strict=True)) for col in zip(*w)] for row in x
    ]


def _attend(
    q: Matrix, k: Matrix, v: Matrix, causal: bool, scale: float, zero: bool = False
) -> Matrix:
    """Every head's attention; ``zero`` scores the future 0 instead of leaving it out."""
    out = []
    for i, qi in enumerate(q):
        seen = range(i + 1) if causal and not zero else range(len(k))
        s = [math.fsum(a * b for a, b in zip(qi, k[j], strict=True)) / scale for j in seen]
        if causal and zero:
            s = [x if j <= i else 0.0 for j, x in enumerate(s)]
        top = max(s)
        e = [math.exp(x - top) for x in s]
        total = math.fsum(e)
        out.append(
            [
                math.fsum(e[m] * v[j][c] for m, j in enumerate(seen)) / total
                for c in range(len(v[0]))
            ]
        )
    return out


def _columns(m: Matrix, start: int, stop: int) -> Matrix:
    return [row[start:stop] for row in m]


def _mha(
    x: Matrix,
    w_q: Matrix,
    w_k: Matrix,
    w_v: Matrix,
    w_o: Matrix | None,
    num_heads: int,
    causal: bool = False,
    *,
    scale: float | None = None,
    split_x: bool = False,
    zero: bool = False,
) -> Matrix:
    """The definition; the keyword arguments model mistakes (a fixed scale, x split first)."""
    d = len(x[0])
    size = d // num_heads
    full = None if split_x else (_matmul(x, w_q), _matmul(x, w_k), _matmul(x, w_v))
    pieces: list[Matrix] = []
    for i in range(num_heads):
        lo, hi = i * size, (i + 1) * size
        if full is None:  # each head: its slice of x times the matching block of each w
            part = _columns(x, lo, hi)
            q, k, v = (_matmul(part, _columns(w[lo:hi], lo, hi)) for w in (w_q, w_k, w_v))
        else:
            q, k, v = (_columns(m, lo, hi) for m in full)
        size_scale = math.sqrt(size) if scale is None else scale
        pieces.append(_attend(q, k, v, causal, size_scale, zero))
    merged = [[value for piece in pieces for value in piece[t]] for t in range(len(x))]
    return merged if w_o is None else _matmul(merged, w_o)


def expected(
    x: Matrix,
    w_q: Matrix,
    w_k: Matrix,
    w_v: Matrix,
    w_o: Matrix,
    num_heads: int,
    causal: bool = False,
) -> Matrix:
    """Project, split into consecutive column blocks, attend per head, merge, times w_o."""
    return _mha(x, w_q, w_k, w_v, w_o, num_heads, causal)


def _single_head(x: Matrix, w_q: Matrix, w_k: Matrix, w_v: Matrix, w_o: Matrix) -> Matrix:
    """Plain attention of the projections (no splitting at all), then w_o."""
    q, k, v = _matmul(x, w_q), _matmul(x, w_k), _matmul(x, w_v)
    return _matmul(_attend(q, k, v, False, math.sqrt(len(q[0]))), w_o)


def cases() -> list[h.Case]:
    # d_model = 2 and x = I: Q, K and V are the weights themselves, and each of two heads
    # of width 1 sees one column. A head whose query is 1 scores [1, 0] or [0, 1] (weights
    # A and 1 - A); a query of 0 scores [0, 0] (weights 1/2 and 1/2).
    fixed = [
        h.Case(
            "d_model = 2, two heads of width 1, identity weights",
            (I2, I2, I2, I2, I2, 2, False),
            [[A, 0.5], [0.5, A]],
        ),
        h.Case(
            "the same with causal=True: position 0 sees only itself",
            (I2, I2, I2, I2, I2, 2, True),
            [[1.0, 0.0], [0.5, A]],
        ),
        h.Case("w_o swaps the two columns", (I2, I2, I2, I2, SWAP, 2, False), [[0.5, A], [A, 0.5]]),
        h.Case(
            "w_k swaps the columns: the keys differ from the queries",
            (I2, I2, SWAP, I2, I2, 2, False),
            [[1 - A, 0.5], [0.5, 1 - A]],
        ),
        # One head of width 2: scores I / sqrt(2).
        h.Case("one head of width 2", (I2, I2, I2, I2, I2, 1, False), [[B, 1 - B], [1 - B, B]]),
    ]
    # The lesson's worked example: three tokens, d_model = 4, two heads, and a W_O that
    # adds head 1's columns onto head 0's (the page prints this output rounded).
    worked = (
        [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]],
        [[0, 0, 0, 0], [-1, 1, 0, 0], [1, -1, 1, 0], [2, -2, 0, 1]],
        [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
        [[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 3, 0], [0, 0, 0, 4]],
        [[1, 0, 0, 0], [0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1]],
        2,
        False,
    )
    fixed.append(h.Case("the lesson's worked example, two heads", worked, expected(*worked)))
    rng = random.Random(1501)
    x, w_q, w_k, w_v, w_o = h.matrix(rng, 3, 4), *(h.matrix(rng, 4, 4) for _ in range(4))
    fixed.append(
        h.Case(
            "num_heads = 1 is plain attention of x W_Q, x W_K, x W_V, then W_O",
            (x, w_q, w_k, w_v, w_o, 1, False),
            _single_head(x, w_q, w_k, w_v, w_o),
        )
    )
    # For mha-renormalised: d_model = 1, one head, x = [1, 3], w_k = 400: token 0's query
    # scores the later key 3 * 400 = 1200 against its own 400, 800 apart, so a softmax over
    # every key leaves key 0 with exp(-800) = 0 and nothing to renormalise (0/0). Causal,
    # token 0 sees only itself (v_0 = 1) and token 1 gives key 1 all but e^-2400 (v_1 = 3).
    fixed.append(
        h.Case(
            "causal, and a later key holds token 0's top score, far above the rest",
            ([[1], [3]], [[1]], [[400]], [[1]], [[1]], 1, True),
            [[1.0], [3.0]],
        )
    )
    seeded = []
    sizes = ((3, 4, 2, False), (4, 6, 3, True), (5, 6, 2, True), (2, 4, 4, False))
    for i, (n, d, num_heads, causal) in enumerate(sizes, start=1):
        x = h.matrix(rng, n, d)
        w_q, w_k, w_v, w_o = (h.matrix(rng, d, d, -1.0, 1.0) for _ in range(4))
        label = "causal" if causal else "not causal"
        name = f"random case {i} ({n} tokens, d_model = {d}, {num_heads} heads, {label})"
        args = (x, w_q, w_k, w_v, w_o, num_heads, causal)
        seeded.append(h.Case(name, args, expected(*args)))
    return fixed + seeded


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Never passes the causal flag on: every head attends to the future too.
        "causal_ignored": h.Mistake(
            "mha-causal-ignored", ("[attention(q, k, v, causal", "[attention(q, k, v")
        ),
        # Makes causal a required argument: a call without it raises TypeError.
        "causal_required": h.Mistake(
            "mha-causal-optional", ("num_heads, causal=False", "num_heads, causal"), model=False
        ),
        # Copy and paste: the keys are projected with w_q, not w_k.
        "keys_from_w_q": h.Mistake("mha-keys-from-w-q", ("x, w_k", "x, w_q")),
        # Masks the future by scoring it 0 instead of leaving it out: it still gets weight.
        "mask_by_zero": h.Mistake(
            "mask-zero",
            ("i + 1) if causal else range(n", "n"),
            (
                "        top",
                (
                    '        if causal:  # "masked": the later positions score 0\n'
                    "            scores = [x if j <= i else 0.0 for j, x in enumerate(scores)]\n"
                    "        top"
                ),
            ),
        ),
        # Merges the heads and stops: the output projection w_o is never applied.
        "no_w_o": h.Mistake(
            "mha-no-w-o", ("project(merge_heads(outputs), w_o", "merge_heads(outputs")
        ),
        # Ignores num_heads: one attention over the full width d_model.
        "one_head": h.Mistake(
            "mha-one-head",
            (
                (
                    "q_heads = split_heads(project(x, w_q), num_heads)\n"
                    "    k_heads = split_heads(project(x, w_k), num_heads)\n"
                    "    v_heads = split_heads(project(x, w_v), num_heads)\n"
                    "    outputs = [attention(q, k, v, causal) for q, k, v in zip(q_heads, k_heads, v_heads)]\n"
                    "    return project(merge_heads(outputs)"
                ),
                (
                    "out = attention(project(x, w_q), project(x, w_k), project(x, w_v), causal)\n"
                    "    return project(out"
                ),
            ),
        ),
        # Softmax over every key, later ones included, then the later ones zeroed and
        # renormalised.
        "renormalised": h.Mistake(
            "mha-renormalised",
            (
                (
                    "seen = range(i + 1) if causal else range(n)\n"
                    "        scores = [sum(a * b for a, b in zip(q[i], k[j])) / math.sqrt(d_k) for j in seen"
                ),
                "scores = [sum(a * b for a, b in zip(q[i], k[j])) / math.sqrt(d_k) for j in range(n)",
            ),
            ("for s in scores", "if not causal or j <= i else 0.0 for j, s in enumerate(scores)"),
            ("e, j in zip(exps, seen", "j, e in enumerate(exps"),
            model=False,
        ),
        # Each head scales its scores by sqrt(d_model) instead of sqrt(d_head).
        "scale_d_model": h.Mistake(
            "mha-scale-d-model",
            (
                ("out\n"),
                (
                    "out\n"
                    "def head_attention(q, k, v, causal, d_model):\n"
                    "    out = []\n"
                    "    for i in range(len(q)):\n"
                    "        seen = range(i + 1) if causal else range(len(k))\n"
                    "        scores = [sum(a * b for a, b in zip(q[i], k[j])) / math.sqrt(d_model) for j in seen]\n"
                    "        top = max(scores)\n"
                    "        exps = [math.exp(s - top) for s in scores]\n"
                    "        total = sum(exps)\n"
                    "        out.append([sum(e * v[j][c] for e, j in zip(exps, seen)) / total for c in range(len(v[0]))])\n"
                    "    return out\n"
                ),
            ),
            ('    """Project', ('    d_model = len(x[0])\n    """Project')),
            (
                "attention(q, k, v, causal) for q, k, v in zip(q_heads, k_heads, v_heads)",
                (
                    "\n"
                    "        head_attention(q, k, v, causal, d_model) for q, k, v in zip(q_heads, k_heads, v_heads)\n"
                    "    "
                ),
            ),
        ),
        # Splits x before projecting: each head projects its own slice of x with its block of w.
        "split_x_first": h.Mistake(
            "mha-split-x",
            (
                ("out\n"),
                (
                    "out\n"
                    "def block(w, i, size):\n"
                    "    return [row[i * size : (i + 1) * size] for row in w[i * size : (i + 1) * size]]\n"
                ),
            ),
            (
                (
                    "q_heads = split_heads(project(x, w_q), num_heads)\n"
                    "    k_heads = split_heads(project(x, w_k), num_heads)\n"
                    "    v_heads = split_heads(project(x, w_v), num_heads)\n"
                    "    outputs = [attention(q, k, v, causal) for q, k, v in zip(q_heads, k_heads, v_heads)]"
                ),
                (
                    "size = len(x[0]) // num_heads\n"
                    "    outputs = []\n"
                    "    for i, part in enumerate(split_heads(x, num_heads)):\n"
                    "        q = project(part, block(w_q, i, size))\n"
                    "        k = project(part, block(w_k, i, size))\n"
                    "        v = project(part, block(w_v, i, size))\n"
                    "        outputs.append(attention(q, k, v, causal))"
                ),
            ),
        ),
    },
)


def explain_exception(exc: Exception, args: tuple[Any, ...]) -> str | None:
    if isinstance(exc, TypeError) and "causal" in str(exc) and len(args) == 6:
        return "mha-causal-optional"
    if isinstance(exc, ZeroDivisionError) and len(args) == 7 and args[6]:
        return "mha-renormalised"  # 0/0 with causal=True: each position sees a key
    return None


def properties(run: h.Runner) -> Iterator[h.Result]:
    rng = random.Random(1502)
    n, d = 4, 4
    x = h.matrix(rng, n, d)
    w_q, w_k, w_v, w_o = (h.matrix(rng, d, d, -1.0, 1.0) for _ in range(4))
    weights = (w_q, w_k, w_v, w_o)
    order = [2, 0, 3, 1]
    yield run.relation(
        "not causal: shuffling the tokens shuffles the outputs the same way",
        (x, *weights, 2, False),
        ([x[j] for j in order], *weights, 2, False),
        expected="the outputs, shuffled like the tokens",
        hint="mha-order",
        predict=lambda rows: [(h.as_list(rows) or [])[j] for j in order],
    )
    yield run.relation(
        "causal: a new last token keeps outputs 0..n-2",
        (x, *weights, 2, True),
        ([*x[:-1], [5.0, -5.0, 5.0, -5.0]], *weights, 2, True),
        expected=f"the first {n - 1} outputs as before",
        hint="mha-causal-ignored",
        part=lambda rows: (h.as_list(rows) or [])[: n - 1],
    )
    doubled = [[2 * value for value in row] for row in w_o]
    yield run.relation(
        "w_o comes last: doubling w_o doubles the output",
        (x, w_q, w_k, w_v, w_o, 2, False),
        (x, w_q, w_k, w_v, doubled, 2, False),
        expected="twice the output with w_o",
        hint="mha-no-w-o",
        predict=lambda rows: [[2 * value for value in row] for row in rows],
    )
    yield run.relation(
        "causal is optional and False by default",
        (x, *weights, 2, False),
        (x, *weights, 2),
        expected="the output with causal=False",
        hint="mha-causal-optional",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
