"""Rescales by exp(m_new - m) instead of exp(m - m_new): from m = -inf that is
exp(inf) = inf, and 0 * inf is nan.

EXPECTED_HINT: os-wrong-way
"""

import math


def online_softmax(x, block):
    m, total = -math.inf, 0.0
    for start in range(0, len(x), block):
        chunk = x[start : start + block]
        m_new = max(m, max(chunk))
        total = total * math.exp(m_new - m) + sum(math.exp(v - m_new) for v in chunk)
        m = m_new
    return [math.exp(v - m) / total for v in x]
