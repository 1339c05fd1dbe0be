"""Takes the softmax over every key, then zeroes the masked weights without renormalising.

EXPECTED_HINT: mask-after-softmax
"""

import math


def attention(queries, keys, values, mask=None):
    outputs = []
    for i, q in enumerate(queries):
        scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
        m = max(scores)
        exps = [math.exp(s - m) for s in scores]
        weights = [e / sum(exps) for e in exps]
        if mask is not None:
            weights = [w if ok else 0.0 for w, ok in zip(weights, mask[i])]
        width = len(values[0])
        outputs.append([sum(w * v[c] for w, v in zip(weights, values)) for c in range(width)])
    return outputs
