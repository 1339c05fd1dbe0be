"""Subtracts the wrong way round: p_i (sum_j p_j g_j - g_i).

EXPECTED_HINT: sb-sign
"""


def softmax_backward(p, g):
    mean = sum(pi * gi for pi, gi in zip(p, g))
    return [pi * (mean - gi) for pi, gi in zip(p, g)]
