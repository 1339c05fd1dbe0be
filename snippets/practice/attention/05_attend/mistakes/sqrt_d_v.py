"""Scales by the square root of the values' width, d_v, instead of the keys' width, d_k.

EXPECTED_HINT: sqrt-d-v
"""

import math


def attend(q, keys, values):
    d_v = len(values[0])
    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(d_v) for k in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    weights = [e / sum(exps) for e in exps]
    return [sum(w * v[i] for w, v in zip(weights, values)) for i in range(d_v)]
