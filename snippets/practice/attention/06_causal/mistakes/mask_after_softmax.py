"""Takes the softmax over every key, then zeroes the future weights without renormalising.

EXPECTED_HINT: mask-after-softmax
"""

import math


def causal_attention(queries, keys, values):
    outputs = []
    for i, q in enumerate(queries):
        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
        m = max(scores)
        exps = [math.exp(s - m) for s in scores]
        weights = [e / sum(exps) for e in exps]
        for j in range(i + 1, len(keys)):
            weights[j] = 0.0
        outputs.append(
            [sum(w * v[c] for w, v in zip(weights, values)) for c in range(len(values[0]))]
        )
    return outputs
