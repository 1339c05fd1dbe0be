"""Subtracts the weighted mean but forgets to multiply the difference by p_i.

EXPECTED_HINT: sb-no-outer-p
"""


def softmax_backward(p, g):
    mean = sum(pi * gi for pi, gi in zip(p, g))
    return [gi - mean for gi in g]
