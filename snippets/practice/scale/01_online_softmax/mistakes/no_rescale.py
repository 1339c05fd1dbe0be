"""Moves the maximum but never rescales the running sum: old terms stay measured against
the old maximum.

EXPECTED_HINT: os-no-rescale
"""

import math


def online_softmax(x, block):
    m, total = -math.inf, 0.0
    for start in range(0, len(x), block):
        chunk = x[start : start + block]
        m_new = max(m, max(chunk))
        if m_new == -math.inf:
            continue
        total = total + sum(math.exp(v - m_new) for v in chunk)
        m = m_new
    if m == -math.inf:
        return [0.0] * len(x)
    return [math.exp(v - m) / total for v in x]
