import math


def causal_self_attention(q, k, v):
    """Row i: softmax of q[i]·k[j] / sqrt(d_k) over j = 0..i, then the blend of v[0..i]."""
    d_k, d_v = len(q[0]), len(v[0])
    out = []
    for i in range(len(q)):
        scores = [sum(a * b for a, b in zip(q[i], k[j])) / math.sqrt(d_k) for j in range(i + 1)]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        out.append([sum(exps[j] * v[j][c] for j in range(i + 1)) / total for c in range(d_v)])
    return out
