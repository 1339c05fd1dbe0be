"""Runs every query over every key: the mask is accepted but never used.

EXPECTED_HINT: mask-ignored
"""

import math


def attend(q, keys, values):
    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = sum(exps)
    return [sum(e * v[c] for e, v in zip(exps, values)) / total for c in range(len(values[0]))]


def attention(queries, keys, values, mask=None):
    return [attend(q, keys, values) for q in queries]
