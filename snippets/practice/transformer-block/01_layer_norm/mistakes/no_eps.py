"""Forgets eps: divides by the standard deviation alone (a constant vector divides by zero).

EXPECTED_HINT: ln-no-eps
"""

import math


def layer_norm(x, gain, bias, eps):
    d = len(x)
    mean = sum(x) / d
    variance = sum((v - mean) ** 2 for v in x) / d
    return [g * (v - mean) / math.sqrt(variance) + b for v, g, b in zip(x, gain, bias)]
