"""Weights the keys with the scores: the output has the width of a key, not a value.

EXPECTED_HINT: keys-values
"""

import math


def attend(q, keys, values):
    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    weights = [e / sum(exps) for e in exps]
    return [sum(w * k[i] for w, k in zip(weights, keys)) for i in range(len(keys[0]))]
