"""Writes ReLU, max(0, x): the older activation, not GELU.

EXPECTED_HINT: gelu-relu
"""


def gelu(x):
    return max(0.0, x)
