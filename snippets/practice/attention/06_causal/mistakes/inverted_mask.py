"""Query i looks at keys i..n-1 (the future) instead of 0..i (the past).

EXPECTED_HINT: mask-inverted
"""

import math


def attend(q, keys, values):
    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = sum(exps)
    return [sum(e * v[i] for e, v in zip(exps, values)) / total for i in range(len(values[0]))]


def causal_attention(queries, keys, values):
    return [attend(q, keys[i:], values[i:]) for i, q in enumerate(queries)]
