"""Writes the square root as `** 1/2`, which Python reads as `(d_k ** 1) / 2`.

EXPECTED_HINT: power-precedence
"""


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def scaled_scores(q, keys):
    d_k = len(q)
    return [dot(q, k) / d_k**1 / 2 for k in keys]
