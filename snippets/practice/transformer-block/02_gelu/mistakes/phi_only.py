"""Returns Phi(x), the probability, and forgets to multiply it by x.

EXPECTED_HINT: gelu-no-x
"""

import math


def gelu(x):
    return (1 + math.erf(x / math.sqrt(2))) / 2
