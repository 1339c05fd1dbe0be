"""Returns the value of the best-matching key instead of a blend.

EXPECTED_HINT: argmax
"""

import math


def attend(q, keys, values):
    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
    return list(values[scores.index(max(scores))])
