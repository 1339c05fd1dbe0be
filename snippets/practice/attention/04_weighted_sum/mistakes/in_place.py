"""Scales the caller's value vectors in place before adding them up.

EXPECTED_HINT: mutated-input
"""


def weighted_sum(weights, values):
    for w, v in zip(weights, values):
        for i in range(len(v)):
            v[i] = w * v[i]
    return [sum(column) for column in zip(*values)]
