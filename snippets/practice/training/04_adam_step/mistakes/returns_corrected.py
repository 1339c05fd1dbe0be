"""Hands back the corrected averages m_hat and s_hat as the new m and s.

EXPECTED_HINT: adam-returns-corrected
"""

import math


def adam_step(theta, grad, m, s, t, lr, beta1, beta2, eps):
    new_theta, new_m, new_s = [], [], []
    for w, g, mi, si in zip(theta, grad, m, s):
        mi = beta1 * mi + (1 - beta1) * g
        si = beta2 * si + (1 - beta2) * g * g
        mi = mi / (1 - beta1**t)
        si = si / (1 - beta2**t)
        new_theta.append(w - lr * mi / (math.sqrt(si) + eps))
        new_m.append(mi)
        new_s.append(si)
    return new_theta, new_m, new_s
