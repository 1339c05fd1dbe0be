"""Multiplies p and g entry by entry and forgets to subtract the weighted mean of g.

EXPECTED_HINT: sb-no-dot
"""


def softmax_backward(p, g):
    return [pi * gi for pi, gi in zip(p, g)]
