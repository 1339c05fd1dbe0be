"""The textbook formula without subtracting the maximum: exp(1000) overflows.

EXPECTED_HINT: no-max
"""

import math


def softmax(scores):
    exps = [math.exp(s) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]
