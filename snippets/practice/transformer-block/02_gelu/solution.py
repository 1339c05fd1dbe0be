import math


def gelu(x):
    """x times the probability that a standard normal variable is below x."""
    return x * (1 + math.erf(x / math.sqrt(2))) / 2
