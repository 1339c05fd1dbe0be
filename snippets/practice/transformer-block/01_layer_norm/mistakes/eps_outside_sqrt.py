"""Adds eps to the standard deviation instead of to the variance.

EXPECTED_HINT: ln-eps-outside
"""

import math


def layer_norm(x, gain, bias, eps):
    d = len(x)
    mean = sum(x) / d
    std = math.sqrt(sum((v - mean) ** 2 for v in x) / d)
    return [g * (v - mean) / (std + eps) + b for v, g, b in zip(x, gain, bias)]
