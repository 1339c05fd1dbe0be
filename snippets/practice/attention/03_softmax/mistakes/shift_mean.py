"""Subtracts the mean instead of the maximum: fine for narrow scores, overflows for wide ones.

EXPECTED_HINT: no-max
"""

import math


def softmax(scores):
    mean = sum(scores) / len(scores)
    exps = [math.exp(s - mean) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]
