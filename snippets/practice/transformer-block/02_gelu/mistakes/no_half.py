"""Forgets the halving: x * (1 + erf(x / sqrt(2))), twice the GELU.

EXPECTED_HINT: gelu-no-half
"""

import math


def gelu(x):
    return x * (1 + math.erf(x / math.sqrt(2)))
