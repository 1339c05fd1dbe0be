"""Flattens the batch: every query attends to the real keys of every sequence.

EXPECTED_HINT: batch-mixed
"""

import math


def padded_attention(q, k, v, keep):
    keys = [kj for seq in k for kj in seq]
    values = [vj for seq in v for vj in seq]
    kept = [ok for row in keep for ok in row]
    real = [j for j in range(len(keys)) if kept[j]]
    out = []
    for s in range(len(q)):
        rows = []
        for qi in q[s]:
            scores = [sum(a * b for a, b in zip(qi, keys[j])) / math.sqrt(len(qi)) for j in real]
            top = max(scores)
            exps = [math.exp(x - top) for x in scores]
            total = sum(exps)
            d_v = len(values[0])
            rows.append(
                [sum(e * values[j][c] for e, j in zip(exps, real)) / total for c in range(d_v)]
            )
        out.append(rows)
    return out
