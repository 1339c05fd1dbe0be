"""Multiplies the scores by the mask (True = 1, False = 0): masked keys score 0, not -inf.

EXPECTED_HINT: mask-zero
"""

import math


def attention(queries, keys, values, mask=None):
    outputs = []
    for i, q in enumerate(queries):
        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
        if mask is not None:
            scores = [s * keep for s, keep in zip(scores, mask[i])]
        m = max(scores)
        exps = [math.exp(s - m) for s in scores]
        total = sum(exps)
        outputs.append(
            [sum(e * v[c] for e, v in zip(exps, values)) / total for c in range(len(values[0]))]
        )
    return outputs
