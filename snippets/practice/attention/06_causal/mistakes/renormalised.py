"""Softmax over every key, future ones included, then the future zeroed and renormalised.

EXPECTED_HINT: causal-renormalised
"""

import math


def causal_attention(queries, keys, values):
    out = []
    for i, q in enumerate(queries):
        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
        top = max(scores)
        exps = [math.exp(s - top) if j <= i else 0.0 for j, s in enumerate(scores)]
        total = sum(exps)
        weights = [e / total for e in exps]
        out.append(
            [sum(w * row[c] for w, row in zip(weights, values)) for c in range(len(values[0]))]
        )
    return out
