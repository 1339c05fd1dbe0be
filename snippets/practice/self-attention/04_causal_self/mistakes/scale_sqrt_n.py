"""Divides by the square root of the sequence length instead of the width of a key.

EXPECTED_HINT: causal-wrong-scale
"""

import math


def causal_self_attention(q, k, v):
    n = len(q)
    out = []
    for i in range(n):
        scores = [sum(a * b for a, b in zip(q[i], k[j])) / math.sqrt(n) for j in range(i + 1)]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        out.append([sum(exps[j] * v[j][c] for j in range(i + 1)) / total for c in range(len(v[0]))])
    return out
