"""Counts the steps from 0: corrects with 1 - beta ** (t - 1), which is 0 on the first step.

EXPECTED_HINT: adam-t-from-zero
"""

import math


def adam_step(theta, grad, m, s, t, lr, beta1, beta2, eps):
    new_theta, new_m, new_s = [], [], []
    for w, g, mi, si in zip(theta, grad, m, s):
        mi = beta1 * mi + (1 - beta1) * g
        si = beta2 * si + (1 - beta2) * g * g
        m_hat = mi / (1 - beta1 ** (t - 1))
        s_hat = si / (1 - beta2 ** (t - 1))
        new_theta.append(w - lr * m_hat / (math.sqrt(s_hat) + eps))
        new_m.append(mi)
        new_s.append(si)
    return new_theta, new_m, new_s
