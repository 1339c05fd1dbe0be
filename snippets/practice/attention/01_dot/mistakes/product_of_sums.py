"""Multiplies the two sums instead of the matching entries.

EXPECTED_HINT: dot-sums
"""


def dot(a, b):
    return sum(a) * sum(b)
