"""Writes √d_k as `len(q) ** 1/2`, which is d_k / 2: right only when d_k is 4.

EXPECTED_HINT: power-precedence
"""

import math


def attend(q, keys, values):
    scale = len(q) ** 1 / 2
    scores = [sum(a * b for a, b in zip(q, k)) / scale for k in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    weights = [e / sum(exps) for e in exps]
    return [sum(w * v[i] for w, v in zip(weights, values)) for i in range(len(values[0]))]
