import math


def attend(q, keys, values):
    """softmax(q·k / √d_k over the keys), then the weighted sum of the values."""
    d_k = len(q)
    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(d_k) for k in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = sum(exps)
    weights = [e / total for e in exps]
    d_v = len(values[0])
    return [sum(w * v[i] for w, v in zip(weights, values)) for i in range(d_v)]
