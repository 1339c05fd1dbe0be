"""Divides the scores by d_k instead of √d_k.

EXPECTED_HINT: divided-by-dk
"""

import math


def attend(q, keys, values):
    scores = [sum(a * b for a, b in zip(q, k)) / len(q) for k in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    weights = [e / sum(exps) for e in exps]
    return [sum(w * v[i] for w, v in zip(weights, values)) for i in range(len(values[0]))]
