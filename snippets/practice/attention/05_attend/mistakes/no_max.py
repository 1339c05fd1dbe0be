"""Right on small inputs, but exp overflows when the scores are large.

EXPECTED_HINT: no-max
"""

import math


def attend(q, keys, values):
    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
    exps = [math.exp(s) for s in scores]
    weights = [e / sum(exps) for e in exps]
    return [sum(w * v[i] for w, v in zip(weights, values)) for i in range(len(values[0]))]
