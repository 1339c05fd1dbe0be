"""Hard-codes the hidden width as 4 * d instead of reading it from b_1 (or w_1).

EXPECTED_HINT: ffn-hidden-4d
"""

import math


def gelu(x):
    return x * (1 + math.erf(x / math.sqrt(2))) / 2


def feed_forward(x, w_1, b_1, w_2, b_2):
    h = 4 * len(x)
    hidden = [gelu(sum(x[i] * w_1[i][j] for i in range(len(x))) + b_1[j]) for j in range(h)]
    return [sum(hidden[j] * w_2[j][c] for j in range(h)) + b_2[c] for c in range(len(b_2))]
