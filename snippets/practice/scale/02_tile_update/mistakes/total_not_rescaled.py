"""Rescales the accumulated values but not the running total.

EXPECTED_HINT: tu-total-not-rescaled
"""

import math


def tile_update(m, total, acc, scores, values):
    m_new = max(m, max(scores))
    c = math.exp(m - m_new)
    p = [math.exp(s - m_new) for s in scores]
    total_new = total + sum(p)
    acc_new = [c * a + sum(pj * v[i] for pj, v in zip(p, values)) for i, a in enumerate(acc)]
    return m_new, total_new, acc_new
