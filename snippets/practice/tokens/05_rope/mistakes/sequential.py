"""Turns each pair in place: the second entry is computed from the already-updated first.

EXPECTED_HINT: rope-sequential
"""

import math


def rope(q, p):
    q = list(q)
    d = len(q)
    for i in range(d // 2):
        a = p / 10000 ** (2 * i / d)
        q[2 * i] = q[2 * i] * math.cos(a) - q[2 * i + 1] * math.sin(a)
        q[2 * i + 1] = q[2 * i] * math.sin(a) + q[2 * i + 1] * math.cos(a)
    return q
