"""Divides by d_k instead of its square root.

EXPECTED_HINT: divided-by-dk
"""


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def scaled_scores(q, keys):
    d_k = len(q)
    return [dot(q, k) / d_k for k in keys]
