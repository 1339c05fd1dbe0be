"""Scales twice: a scores helper that already divides by sqrt(d_k), divided again.

Dividing by sqrt(d_k) twice is dividing by d_k, so the divided-by-dk case catches it; its
hint names both ways of getting there.

EXPECTED_HINT: divided-by-dk
"""

import math


def scores(q, keys):
    return [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]


def attend(q, keys, values):
    s = [x / math.sqrt(len(q)) for x in scores(q, keys)]
    m = max(s)
    exps = [math.exp(x - m) for x in s]
    total = sum(exps)
    return [sum(e * v[i] for e, v in zip(exps, values)) / total for i in range(len(values[0]))]
