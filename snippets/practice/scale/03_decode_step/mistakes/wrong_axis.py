"""Takes softmax over the wrong axis: the scores as a column, one score per row, so every
weight is 1 and the output is the sum of the values.

EXPECTED_HINT: dc-wrong-axis
"""

import math


def decode_step(cache_k, cache_v, q, k, v):
    keys, values = cache_k + [k], cache_v + [v]
    column = [[sum(a * b for a, b in zip(q, key)) / math.sqrt(len(q))] for key in keys]
    weights = []
    for row in column:  # softmax of each row of the column: one score each
        exps = [math.exp(s - max(row)) for s in row]
        weights.append(exps[0] / sum(exps))
    out = [sum(w * row[i] for w, row in zip(weights, values)) for i in range(len(v))]
    return keys, values, out
