"""A sequence of padding only answered with rows of zeros as wide as the queries (d_k).

EXPECTED_HINT: padding-zeros-width
"""

import math


def padded_attention(q, k, v, keep):
    out = []
    for s in range(len(q)):
        real = [j for j in range(len(k[s])) if keep[s][j]]
        rows = []
        for qi in q[s]:
            if not real:
                rows.append([0.0] * len(qi))
                continue
            scores = [sum(a * b for a, b in zip(qi, k[s][j])) / math.sqrt(len(qi)) for j in real]
            top = max(scores)
            exps = [math.exp(x - top) for x in scores]
            total = sum(exps)
            d_v = len(v[s][0])
            rows.append(
                [sum(e * v[s][j][c] for e, j in zip(exps, real)) / total for c in range(d_v)]
            )
        out.append(rows)
    return out
