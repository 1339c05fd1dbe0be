"""Multiplies the scores by a 0/1 causal mask, so the future keys score 0, not -inf.

EXPECTED_HINT: mask-zero
"""

import math


def causal_attention(queries, keys, values):
    outputs = []
    for i, q in enumerate(queries):
        mask = [1 if j <= i else 0 for j in range(len(keys))]
        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
        scores = [s * keep for s, keep in zip(scores, mask)]
        m = max(scores)
        exps = [math.exp(s - m) for s in scores]
        total = sum(exps)
        outputs.append(
            [sum(e * v[c] for e, v in zip(exps, values)) / total for c in range(len(values[0]))]
        )
    return outputs
