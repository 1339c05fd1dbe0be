"""Subtracts the first score: safe only when the first score happens to be the largest.

EXPECTED_HINT: no-max
"""

import math


def softmax(scores):
    exps = [math.exp(s - scores[0]) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]
