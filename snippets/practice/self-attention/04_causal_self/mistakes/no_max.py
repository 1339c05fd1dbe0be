"""A correct mask and scale, but math.exp of the raw scores: large scores overflow.

EXPECTED_HINT: no-max
"""

import math


def causal_self_attention(q, k, v):
    d_k = len(q[0])
    out = []
    for i in range(len(q)):
        scores = [sum(a * b for a, b in zip(q[i], k[j])) / math.sqrt(d_k) for j in range(i + 1)]
        exps = [math.exp(s) for s in scores]
        total = sum(exps)
        out.append([sum(exps[j] * v[j][c] for j in range(i + 1)) / total for c in range(len(v[0]))])
    return out
