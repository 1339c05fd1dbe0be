"""Every position attends to the whole sequence, the future included.

EXPECTED_HINT: causal-future
"""

import math


def causal_self_attention(q, k, v):
    n, d_k = len(q), len(q[0])
    out = []
    for i in range(n):
        scores = [sum(a * b for a, b in zip(q[i], k[j])) / math.sqrt(d_k) for j in range(n)]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        out.append([sum(e * row[c] for e, row in zip(exps, v)) / total for c in range(len(v[0]))])
    return out
