"""Feeds the raw dot products to softmax: the √d_k scale is missing.

EXPECTED_HINT: no-sqrt
"""

import math


def attend(q, keys, values):
    scores = [sum(a * b for a, b in zip(q, k)) for k in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    weights = [e / sum(exps) for e in exps]
    return [sum(w * v[i] for w, v in zip(weights, values)) for i in range(len(values[0]))]
