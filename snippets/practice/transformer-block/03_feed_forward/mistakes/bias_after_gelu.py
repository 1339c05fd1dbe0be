"""Adds b_1 after the activation instead of before it.

EXPECTED_HINT: ffn-bias-after
"""

import math


def gelu(x):
    return x * (1 + math.erf(x / math.sqrt(2))) / 2


def feed_forward(x, w_1, b_1, w_2, b_2):
    hidden = [gelu(sum(x[i] * w_1[i][j] for i in range(len(x)))) + b_1[j] for j in range(len(b_1))]
    return [
        sum(hidden[j] * w_2[j][c] for j in range(len(hidden))) + b_2[c] for c in range(len(b_2))
    ]
