"""Appends k and v to the caller's lists themselves, as a cache in a real model would:
the checks call again with the cache they gave, and find it changed.

EXPECTED_HINT: mutated-input
"""

import math


def decode_step(cache_k, cache_v, q, k, v):
    cache_k.append(k)
    cache_v.append(v)
    scores = [sum(a * b for a, b in zip(q, key)) / math.sqrt(len(q)) for key in cache_k]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = sum(exps)
    out = [sum(e * row[i] for e, row in zip(exps, cache_v)) / total for i in range(len(v))]
    return cache_k, cache_v, out
