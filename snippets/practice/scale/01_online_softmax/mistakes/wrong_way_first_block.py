"""Starts from the first block (no -inf), then rescales the wrong way, by exp(m_new - m):
the old terms grow instead of shrinking.

EXPECTED_HINT: os-wrong-way
"""

import math


def online_softmax(x, block):
    m = max(x[:block])
    total = sum(math.exp(v - m) for v in x[:block])
    for start in range(block, len(x), block):
        chunk = x[start : start + block]
        m_new = max(m, max(chunk))
        total = total * math.exp(m_new - m) + sum(math.exp(v - m_new) for v in chunk)
        m = m_new
    return [math.exp(v - m) / total for v in x]
