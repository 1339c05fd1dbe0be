import math


def layer_norm(x, gain, bias, eps):
    """Normalise x to mean 0 and variance 1, then scale by gain and shift by bias."""
    d = len(x)
    mean = sum(x) / d
    variance = sum((v - mean) ** 2 for v in x) / d
    scale = math.sqrt(variance + eps)
    return [g * (v - mean) / scale + b for v, g, b in zip(x, gain, bias)]
