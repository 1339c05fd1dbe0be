"""Scores the padding keys 0 instead of leaving them out: they still get weight.

EXPECTED_HINT: mask-zero
"""

import math


def padded_attention(q, k, v, keep):
    out = []
    for s in range(len(q)):
        rows = []
        for qi in q[s]:
            scores = [sum(a * b for a, b in zip(qi, kj)) / math.sqrt(len(qi)) for kj in k[s]]
            scores = [x if ok else 0.0 for x, ok in zip(scores, keep[s])]
            top = max(scores)
            exps = [math.exp(x - top) for x in scores]
            total = sum(exps)
            rows.append(
                [sum(e * vj[c] for e, vj in zip(exps, v[s])) / total for c in range(len(v[s][0]))]
            )
        out.append(rows)
    return out
