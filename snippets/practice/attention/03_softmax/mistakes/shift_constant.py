"""Subtracts a fixed 1000 whatever the scores: very negative scores then all round to 0.

EXPECTED_HINT: no-max
"""

import math


def softmax(scores):
    exps = [math.exp(s - 1000) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]
