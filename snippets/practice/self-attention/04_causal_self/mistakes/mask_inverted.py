"""The mask the wrong way round: position i attends to positions i..n-1 (the future).

EXPECTED_HINT: causal-inverted
"""

import math


def causal_self_attention(q, k, v):
    n, d_k = len(q), len(q[0])
    out = []
    for i in range(n):
        seen = range(i, n)
        scores = [sum(a * b for a, b in zip(q[i], k[j])) / math.sqrt(d_k) for j in seen]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        out.append([sum(e * v[j][c] for e, j in zip(exps, seen)) / total for c in range(len(v[0]))])
    return out
