"""Raw dot products: the √d_k scale is missing.

EXPECTED_HINT: no-sqrt
"""


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def scaled_scores(q, keys):
    return [dot(q, k) for k in keys]
