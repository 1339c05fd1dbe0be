import math


def attend(q, keys, values):
    """Step 5: softmax(q·k / √d_k) over the keys, then the weighted sum of the values."""
    scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(len(q)) for k in keys]
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = sum(exps)
    return [sum(e * v[i] for e, v in zip(exps, values)) / total for i in range(len(values[0]))]


def causal_attention(queries, keys, values):
    """Query i attends to keys[: i + 1] and values[: i + 1] only (the causal mask)."""
    return [attend(q, keys[: i + 1], values[: i + 1]) for i, q in enumerate(queries)]
