"""Sums exp(v) itself, block by block, with no maximum: right for small scores, but
exp(1000) overflows and exp(-1000) is 0.

EXPECTED_HINT: os-no-max
"""

import math


def online_softmax(x, block):
    total = 0.0
    for start in range(0, len(x), block):
        total += sum(math.exp(v) for v in x[start : start + block])
    return [math.exp(v) / total for v in x]
