"""Forgets to divide by sqrt(2) inside erf: the cumulative function of the wrong normal.

EXPECTED_HINT: gelu-no-sqrt2
"""

import math


def gelu(x):
    return x * (1 + math.erf(x)) / 2
