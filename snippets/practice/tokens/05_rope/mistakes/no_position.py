"""Turns every pair by its frequency w_i alone, forgetting to multiply by the position.

EXPECTED_HINT: rope-no-position
"""

import math


def rope(q, p):
    d = len(q)
    out = []
    for i in range(d // 2):
        a = 1 / 10000 ** (2 * i / d)
        x, y = q[2 * i], q[2 * i + 1]
        out += [x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)]
    return out
