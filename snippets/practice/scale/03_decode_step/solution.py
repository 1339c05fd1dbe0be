import math


def decode_step(cache_k, cache_v, q, k, v):
    """The new key and value join the cache first; then the new query attends to all of it."""
    keys, values = cache_k + [k], cache_v + [v]
    scores = [sum(a * b for a, b in zip(q, key)) / math.sqrt(len(q)) for key in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = sum(exps)
    out = [sum(e * row[i] for e, row in zip(exps, values)) / total for i in range(len(v))]
    return keys, values, out
