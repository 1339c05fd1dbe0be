"""Scores each query against the earlier QUERIES instead of the keys.

EXPECTED_HINT: queries-as-keys
"""

import math


def attend(q, keys, values):
    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = sum(exps)
    return [sum(e * v[i] for e, v in zip(exps, values)) / total for i in range(len(values[0]))]


def causal_attention(queries, keys, values):
    return [attend(q, queries[: i + 1], values[: i + 1]) for i, q in enumerate(queries)]
