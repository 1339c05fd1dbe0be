"""Divides the scores by their sum instead of taking a softmax.

EXPECTED_HINT: raw-normalised
"""

import math


def attend(q, keys, values):
    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
    weights = [s / sum(scores) for s in scores]
    return [sum(w * v[i] for w, v in zip(weights, values)) for i in range(len(values[0]))]
