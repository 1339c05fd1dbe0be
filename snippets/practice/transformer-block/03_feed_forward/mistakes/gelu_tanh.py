"""Uses the tanh approximation of GELU in the hidden layer, where the exact one is asked.

EXPECTED_HINT: ffn-gelu-tanh
"""

import math


def gelu(x):
    return 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))


def feed_forward(x, w_1, b_1, w_2, b_2):
    hidden = [gelu(sum(x[i] * w_1[i][j] for i in range(len(x))) + b_1[j]) for j in range(len(b_1))]
    return [
        sum(hidden[j] * w_2[j][c] for j in range(len(hidden))) + b_2[c] for c in range(len(b_2))
    ]
