"""Takes the softmax over every key, then zeroes the padding weights without renormalising.

EXPECTED_HINT: padding-after-softmax
"""

import math


def padded_attention(q, k, v, keep):
    out = []
    for s in range(len(q)):
        rows = []
        for qi in q[s]:
            scores = [sum(a * b for a, b in zip(qi, kj)) / math.sqrt(len(qi)) for kj in k[s]]
            top = max(scores)
            exps = [math.exp(x - top) for x in scores]
            weights = [e / sum(exps) if ok else 0.0 for e, ok in zip(exps, keep[s])]
            d_v = len(v[s][0])
            rows.append([sum(w * vj[c] for w, vj in zip(weights, v[s])) for c in range(d_v)])
        out.append(rows)
    return out
