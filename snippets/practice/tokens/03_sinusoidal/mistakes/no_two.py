"""Writes the exponent as i / d for pair i, forgetting the 2 of 2i / d.

EXPECTED_HINT: pe-no-two
"""

import math


def sinusoidal(p, d):
    out = []
    for i in range(d // 2):
        angle = p / 10000 ** (i / d)
        out += [math.sin(angle), math.cos(angle)]
    return out
