"""Keeps only the diagonal of the Jacobian, p_i (1 - p_i): each score sees its own weight only.

EXPECTED_HINT: sb-diagonal
"""


def softmax_backward(p, g):
    return [pi * (1 - pi) * gi for pi, gi in zip(p, g)]
