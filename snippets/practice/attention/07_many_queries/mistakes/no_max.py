"""Exponentiates the raw scores: right on small scores, OverflowError on large ones.

EXPECTED_HINT: no-max
"""

import math


def attention(queries, keys, values, mask=None):
    outputs = []
    for i, q in enumerate(queries):
        allowed = [mask is None or mask[i][j] for j in range(len(keys))]
        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
        exps = [math.exp(s) if ok else 0.0 for s, ok in zip(scores, allowed)]
        total = sum(exps)
        outputs.append(
            [sum(e * v[c] for e, v in zip(exps, values)) / total for c in range(len(values[0]))]
        )
    return outputs
