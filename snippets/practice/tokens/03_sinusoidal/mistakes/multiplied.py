"""Multiplies the position by 10000 ** (2i / d) instead of dividing by it.

EXPECTED_HINT: pe-multiplied
"""

import math


def sinusoidal(p, d):
    out = []
    for i in range(d // 2):
        angle = p * 10000 ** (2 * i / d)
        out += [math.sin(angle), math.cos(angle)]
    return out
