"""Gives the masked keys a score of 0 instead of -inf, and keeps them in the softmax.

EXPECTED_HINT: mask-zero
"""

import math


def attention(queries, keys, values, mask=None):
    outputs = []
    for i, q in enumerate(queries):
        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
        if mask is not None:
            scores = [s if mask[i][j] else 0.0 for j, s in enumerate(scores)]
        m = max(scores)
        exps = [math.exp(s - m) for s in scores]
        total = sum(exps)
        outputs.append(
            [sum(e * v[c] for e, v in zip(exps, values)) / total for c in range(len(values[0]))]
        )
    return outputs
