"""Forgets to divide the scores by sqrt(d_k).

EXPECTED_HINT: causal-no-scale
"""

import math


def causal_self_attention(q, k, v):
    out = []
    for i in range(len(q)):
        scores = [sum(a * b for a, b in zip(q[i], k[j])) for j in range(i + 1)]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        out.append([sum(exps[j] * v[j][c] for j in range(i + 1)) / total for c in range(len(v[0]))])
    return out
