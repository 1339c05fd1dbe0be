"""Normalises, then forgets the learned gain and bias.

EXPECTED_HINT: ln-no-gain-bias
"""

import math


def layer_norm(x, gain, bias, eps):
    d = len(x)
    mean = sum(x) / d
    variance = sum((v - mean) ** 2 for v in x) / d
    return [(v - mean) / math.sqrt(variance + eps) for v in x]
