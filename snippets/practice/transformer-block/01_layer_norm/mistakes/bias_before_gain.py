"""Shifts before it scales: (normalised + bias) * gain.

EXPECTED_HINT: ln-bias-before-gain
"""

import math


def layer_norm(x, gain, bias, eps):
    d = len(x)
    mean = sum(x) / d
    variance = sum((v - mean) ** 2 for v in x) / d
    scale = math.sqrt(variance + eps)
    return [((v - mean) / scale + b) * g for v, g, b in zip(x, gain, bias)]
