"""Attends to the new key alone: the softmax of one score is 1, so the output is v itself.

EXPECTED_HINT: dc-only-new
"""

import math


def decode_step(cache_k, cache_v, q, k, v):
    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q))]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = sum(exps)
    out = [exps[0] * x / total for x in v]
    return cache_k + [k], cache_v + [v], out
