import math


def rope(q, p):
    """Turn pair i of q by p * w_i, w_i = 1 / 10000 ** (2i / d), counter-clockwise."""
    d = len(q)
    out = []
    for i in range(d // 2):
        a = p / 10000 ** (2 * i / d)
        x, y = q[2 * i], q[2 * i + 1]
        out += [x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)]
    return out
