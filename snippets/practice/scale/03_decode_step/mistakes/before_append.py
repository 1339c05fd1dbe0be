"""Attends over the old cache, then appends: the new token never sees itself.

EXPECTED_HINT: dc-before-append
"""

import math


def decode_step(cache_k, cache_v, q, k, v):
    scores = [sum(a * b for a, b in zip(q, key)) / math.sqrt(len(q)) for key in cache_k]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = sum(exps)
    out = [sum(e * row[i] for e, row in zip(exps, cache_v)) / total for i in range(len(v))]
    return cache_k + [k], cache_v + [v], out
