"""Softmax over every key, masked ones included, then the masked zeroed and renormalised.

EXPECTED_HINT: mask-renormalised
"""

import math


def attention(queries, keys, values, mask=None):
    outputs = []
    for i, q in enumerate(queries):
        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
        top = max(scores)
        exps = [
            math.exp(s - top) if mask is None or mask[i][j] else 0.0 for j, s in enumerate(scores)
        ]
        total = sum(exps)
        weights = [e / total for e in exps]
        outputs.append(
            [sum(w * row[c] for w, row in zip(weights, values)) for c in range(len(values[0]))]
        )
    return outputs
