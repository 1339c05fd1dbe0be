"""Subtracts the plain mean of g instead of its mean weighted by p.

EXPECTED_HINT: sb-unweighted
"""


def softmax_backward(p, g):
    mean = sum(g) / len(g)
    return [pi * (gi - mean) for pi, gi in zip(p, g)]
