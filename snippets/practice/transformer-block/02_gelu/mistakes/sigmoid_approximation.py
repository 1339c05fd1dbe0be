"""The sigmoid approximation x * sigmoid(1.702 x), a coarser stand-in for the exact GELU.

EXPECTED_HINT: gelu-sigmoid
"""

import math


def gelu(x):
    return x / (1 + math.exp(-1.702 * x))
