"""Turns each pair clockwise (the signs of the sines swapped).

EXPECTED_HINT: rope-clockwise
"""

import math


def rope(q, p):
    d = len(q)
    out = []
    for i in range(d // 2):
        a = p / 10000 ** (2 * i / d)
        x, y = q[2 * i], q[2 * i + 1]
        out += [x * math.cos(a) + y * math.sin(a), -x * math.sin(a) + y * math.cos(a)]
    return out
