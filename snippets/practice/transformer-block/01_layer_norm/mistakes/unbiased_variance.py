"""Divides the sum of squares by d - 1 (the sample variance of statistics, numpy's ddof=1).

EXPECTED_HINT: ln-unbiased
"""

import math


def layer_norm(x, gain, bias, eps):
    d = len(x)
    mean = sum(x) / d
    variance = sum((v - mean) ** 2 for v in x) / (d - 1)
    return [g * (v - mean) / math.sqrt(variance + eps) + b for v, g, b in zip(x, gain, bias)]
