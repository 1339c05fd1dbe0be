"""Returns g - p, a half-remembered form of the loss's gradient (softmax minus one-hot).

EXPECTED_HINT: sb-g-minus-p
"""


def softmax_backward(p, g):
    return [gi - pi for pi, gi in zip(p, g)]
