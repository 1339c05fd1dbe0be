"""Forgets to divide the scores by sqrt(d_k).

EXPECTED_HINT: dc-no-scale
"""

import math


def decode_step(cache_k, cache_v, q, k, v):
    keys, values = cache_k + [k], cache_v + [v]
    scores = [sum(a * b for a, b in zip(q, key)) for key in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = sum(exps)
    out = [sum(e * row[i] for e, row in zip(exps, values)) / total for i in range(len(v))]
    return keys, values, out
