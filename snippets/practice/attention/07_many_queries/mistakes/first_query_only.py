"""Answers only the first query: one vector comes back instead of one per query.

EXPECTED_HINT: one-output-per-query
"""

import math


def attend(q, keys, values):
    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = sum(exps)
    return [sum(e * v[c] for e, v in zip(exps, values)) / total for c in range(len(values[0]))]


def attention(queries, keys, values, mask=None):
    seen = [j for j in range(len(keys)) if mask is None or mask[0][j]]
    return attend(queries[0], [keys[j] for j in seen], [values[j] for j in seen])
