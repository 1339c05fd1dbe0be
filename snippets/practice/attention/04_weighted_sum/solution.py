def weighted_sum(weights, values):
    """Return the sum over j of weights[j] * values[j], one vector as wide as a value."""
    d_v = len(values[0])
    out = [0.0] * d_v
    for w, v in zip(weights, values):
        for i in range(d_v):
            out[i] += w * v[i]
    return out
