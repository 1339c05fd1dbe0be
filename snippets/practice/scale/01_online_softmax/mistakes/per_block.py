"""Normalises each block on its own: every block's weights add up to 1.

EXPECTED_HINT: os-per-block
"""

import math


def online_softmax(x, block):
    weights = []
    for start in range(0, len(x), block):
        chunk = x[start : start + block]
        m = max(chunk)
        exps = [math.exp(v - m) for v in chunk]
        total = sum(exps)
        weights += [e / total for e in exps]
    return weights
