"""Takes d_k to be the number of keys instead of the width of the vectors.

EXPECTED_HINT: sqrt-n-keys
"""

import math


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def scaled_scores(q, keys):
    return [dot(q, k) / math.sqrt(len(keys)) for k in keys]
