import math


def attention(queries, keys, values, mask=None):
    """One output per query: softmax over the keys it may see, then the weighted sum."""
    d_k = len(queries[0])
    outputs = []
    for i, q in enumerate(queries):
        seen = [j for j in range(len(keys)) if mask is None or mask[i][j]]
        scores = [sum(a * b for a, b in zip(q, keys[j])) / math.sqrt(d_k) for j in seen]
        m = max(scores)
        exps = [math.exp(s - m) for s in scores]
        total = sum(exps)
        width = len(values[0])
        outputs.append(
            [sum(e * values[j][c] for e, j in zip(exps, seen)) / total for c in range(width)]
        )
    return outputs
