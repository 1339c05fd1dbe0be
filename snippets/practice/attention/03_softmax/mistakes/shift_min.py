"""Subtracts the smallest score: every exponent becomes >= 0, the wrong way round.

EXPECTED_HINT: no-max
"""

import math


def softmax(scores):
    m = min(scores)
    exps = [math.exp(s - m) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]
