"""All the sines first, then all the cosines, instead of sin and cos side by side per pair.

EXPECTED_HINT: pe-concatenated
"""

import math


def sinusoidal(p, d):
    angles = [p / 10000 ** (2 * i / d) for i in range(d // 2)]
    return [math.sin(a) for a in angles] + [math.cos(a) for a in angles]
