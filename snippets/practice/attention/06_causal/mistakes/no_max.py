"""Exponentiates the raw scores: right on small scores, OverflowError on large ones.

EXPECTED_HINT: no-max
"""

import math


def causal_attention(queries, keys, values):
    outputs = []
    for i, q in enumerate(queries):
        seen_k, seen_v = keys[: i + 1], values[: i + 1]
        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in seen_k]
        exps = [math.exp(s) for s in scores]
        total = sum(exps)
        outputs.append(
            [sum(e * v[c] for e, v in zip(exps, seen_v)) / total for c in range(len(values[0]))]
        )
    return outputs
