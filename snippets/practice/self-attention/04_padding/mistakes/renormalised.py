"""Softmax over every key, padding included, then padding zeroed and the rest renormalised.

EXPECTED_HINT: padding-renormalised
"""

import math


def padded_attention(q, k, v, keep):
    out = []
    for s in range(len(q)):
        d_v = len(v[s][0])
        rows = []
        for qi in q[s]:
            if not any(keep[s]):
                rows.append([0.0] * d_v)
                continue
            scores = [sum(a * b for a, b in zip(qi, kj)) / math.sqrt(len(qi)) for kj in k[s]]
            top = max(scores)
            exps = [math.exp(x - top) if keep[s][j] else 0.0 for j, x in enumerate(scores)]
            total = sum(exps)
            weights = [e / total for e in exps]
            rows.append([sum(w * v[s][j][c] for j, w in enumerate(weights)) for c in range(d_v)])
        out.append(rows)
    return out
