import math


def sinusoidal(p, d):
    """sin and cos of p * w_i for each pair i, with w_i = 1 / 10000 ** (2i / d)."""
    out = []
    for i in range(d // 2):
        angle = p / 10000 ** (2 * i / d)
        out += [math.sin(angle), math.cos(angle)]
    return out
