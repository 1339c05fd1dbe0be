import math


def gelu(x):
    """Step 2: the exact GELU of one number."""
    return x * (1 + math.erf(x / math.sqrt(2))) / 2


def feed_forward(x, w_1, b_1, w_2, b_2):
    """Widen with w_1 and b_1, apply GELU to every entry, narrow back with w_2 and b_2."""
    hidden = [gelu(sum(x[i] * w_1[i][j] for i in range(len(x))) + b_1[j]) for j in range(len(b_1))]
    return [
        sum(hidden[j] * w_2[j][c] for j in range(len(hidden))) + b_2[c] for c in range(len(b_2))
    ]
