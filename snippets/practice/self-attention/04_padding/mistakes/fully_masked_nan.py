"""Scores padding -inf, which is right, but a sequence of padding only becomes NaN.

EXPECTED_HINT: fully-masked-nan
"""

import math


def padded_attention(q, k, v, keep):
    out = []
    for s in range(len(q)):
        rows = []
        for qi in q[s]:
            scores = [sum(a * b for a, b in zip(qi, kj)) / math.sqrt(len(qi)) for kj in k[s]]
            scores = [x if ok else -math.inf for x, ok in zip(scores, keep[s])]
            top = max(scores)
            exps = [math.exp(x - top) for x in scores]  # -inf - (-inf) is nan
            total = sum(exps)
            d_v = len(v[s][0])
            rows.append([sum(e * vj[c] for e, vj in zip(exps, v[s])) / total for c in range(d_v)])
        out.append(rows)
    return out
