import math


def online_softmax(x, block):
    """One pass over the blocks keeps the running maximum m and the sum of exp(v - m)."""
    m, total = -math.inf, 0.0
    for start in range(0, len(x), block):
        chunk = x[start : start + block]
        m_new = max(m, max(chunk))
        if m_new == -math.inf:
            continue  # only -inf so far: nothing to add (and -inf - -inf would be nan)
        total = total * math.exp(m - m_new) + sum(math.exp(v - m_new) for v in chunk)
        m = m_new
    if m == -math.inf:
        return [0.0] * len(x)  # every score is -inf: no key may be attended to
    return [math.exp(v - m) / total for v in x]
