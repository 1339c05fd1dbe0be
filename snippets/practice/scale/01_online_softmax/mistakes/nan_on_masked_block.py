"""Right, except for a block of -inf only while the maximum is still -inf: there
m - m_new is -inf - (-inf), which is nan, and the nan spreads to every weight.

EXPECTED_HINT: os-neg-inf
"""

import math


def online_softmax(x, block):
    m, total = -math.inf, 0.0
    for start in range(0, len(x), block):
        chunk = x[start : start + block]
        m_new = max(m, max(chunk))
        total = total * math.exp(m - m_new) + sum(math.exp(v - m_new) for v in chunk)
        m = m_new
    return [math.exp(v - m) / total for v in x]
