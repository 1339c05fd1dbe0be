"""Averages the values and ignores the weights.

EXPECTED_HINT: unweighted
"""


def weighted_sum(weights, values):
    n = len(values)
    return [sum(v[i] for v in values) / n for i in range(len(values[0]))]
