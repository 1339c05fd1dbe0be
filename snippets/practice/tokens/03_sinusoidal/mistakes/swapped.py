"""Puts the cosine first in each pair and the sine second.

EXPECTED_HINT: pe-swapped
"""

import math


def sinusoidal(p, d):
    out = []
    for i in range(d // 2):
        angle = p / 10000 ** (2 * i / d)
        out += [math.cos(angle), math.sin(angle)]
    return out
