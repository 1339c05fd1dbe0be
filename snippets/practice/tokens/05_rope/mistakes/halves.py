"""Pairs entry i with entry i + d/2 (the two halves) instead of neighbours 2i and 2i + 1.

EXPECTED_HINT: rope-halves
"""

import math


def rope(q, p):
    d = len(q)
    half = d // 2
    out = list(q)
    for i in range(half):
        a = p / 10000 ** (2 * i / d)
        x, y = q[i], q[i + half]
        out[i] = x * math.cos(a) - y * math.sin(a)
        out[i + half] = x * math.sin(a) + y * math.cos(a)
    return out
