"""Gives the future keys a score of 0 instead of -inf, and keeps them in the softmax.

EXPECTED_HINT: mask-zero
"""

import math


def causal_attention(queries, keys, values):
    outputs = []
    for i, q in enumerate(queries):
        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
        for j in range(i + 1, len(keys)):
            scores[j] = 0  # "masked"
        m = max(scores)
        exps = [math.exp(s - m) for s in scores]
        total = sum(exps)
        outputs.append(
            [sum(e * v[c] for e, v in zip(exps, values)) / total for c in range(len(values[0]))]
        )
    return outputs
