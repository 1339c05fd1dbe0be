import math


def padded_attention(q, k, v, keep):
    """Each sequence s: its queries attend to its own keys with keep[s][j] True; zeros if none."""
    out = []
    for s in range(len(q)):
        real = [j for j in range(len(k[s])) if keep[s][j]]
        d_v = len(v[s][0])
        rows = []
        for qi in q[s]:
            if not real:  # only padding: nothing to attend to
                rows.append([0.0] * d_v)
                continue
            scores = [sum(a * b for a, b in zip(qi, k[s][j])) / math.sqrt(len(qi)) for j in real]
            top = max(scores)
            exps = [math.exp(x - top) for x in scores]
            total = sum(exps)
            rows.append(
                [sum(e * v[s][j][c] for e, j in zip(exps, real)) / total for c in range(d_v)]
            )
        out.append(rows)
    return out
