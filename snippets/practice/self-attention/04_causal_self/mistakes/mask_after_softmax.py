"""Softmax over every position first, then the future weights set to 0 (no renormalising).

EXPECTED_HINT: causal-after-softmax
"""

import math


def causal_self_attention(q, k, v):
    n, d_k = len(q), len(q[0])
    out = []
    for i in range(n):
        scores = [sum(a * b for a, b in zip(q[i], k[j])) / math.sqrt(d_k) for j in range(n)]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        weights = [e / sum(exps) for e in exps]
        weights = [w if j <= i else 0.0 for j, w in enumerate(weights)]
        out.append([sum(w * row[c] for w, row in zip(weights, v)) for c in range(len(v[0]))])
    return out
