"""Position i sees positions 0..i-1: range(i) leaves itself out (and position 0 has none).

EXPECTED_HINT: causal-off-by-one
"""

import math


def causal_self_attention(q, k, v):
    d_k = len(q[0])
    out = []
    for i in range(len(q)):
        scores = [sum(a * b for a, b in zip(q[i], k[j])) / math.sqrt(d_k) for j in range(i)]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        out.append([sum(exps[j] * v[j][c] for j in range(i)) / total for c in range(len(v[0]))])
    return out
