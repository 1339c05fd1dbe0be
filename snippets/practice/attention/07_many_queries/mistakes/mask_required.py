"""Makes the mask a required argument: a call without one raises TypeError.

EXPECTED_HINT: mask-optional
"""

import math


def attend(q, keys, values):
    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = sum(exps)
    return [sum(e * v[c] for e, v in zip(exps, values)) / total for c in range(len(values[0]))]


def attention(queries, keys, values, mask):
    outputs = []
    for i, q in enumerate(queries):
        seen = [j for j in range(len(keys)) if mask is None or mask[i][j]]
        outputs.append(attend(q, [keys[j] for j in seen], [values[j] for j in seen]))
    return outputs
