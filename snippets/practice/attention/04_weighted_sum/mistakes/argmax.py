"""Returns the value with the largest weight instead of blending them all.

EXPECTED_HINT: argmax
"""


def weighted_sum(weights, values):
    best = weights.index(max(weights))
    return list(values[best])
