"""Sums inside each value vector: one number per item instead of one vector.

EXPECTED_HINT: wrong-axis
"""


def weighted_sum(weights, values):
    return [w * sum(v) for w, v in zip(weights, values)]
