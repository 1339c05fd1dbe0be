"""Uses the entry's index j in the exponent (10000 ** (j / d)), so a pair's sine and
cosine get different frequencies.

EXPECTED_HINT: pe-entry-exponent
"""

import math


def sinusoidal(p, d):
    out = []
    for j in range(d):
        angle = p / 10000 ** (j / d)
        out.append(math.sin(angle) if j % 2 == 0 else math.cos(angle))
    return out
