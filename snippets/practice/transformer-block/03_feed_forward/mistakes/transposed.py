"""Goes along the ROWS of w_1 and w_2 (W x with column vectors) instead of down their columns.

EXPECTED_HINT: ffn-transposed
"""

import math


def gelu(x):
    return x * (1 + math.erf(x / math.sqrt(2))) / 2


def feed_forward(x, w_1, b_1, w_2, b_2):
    hidden = [gelu(sum(a * b for a, b in zip(x, row)) + b) for row, b in zip(w_1, b_1)]
    return [sum(a * b for a, b in zip(hidden, row)) + b for row, b in zip(w_2, b_2)]
