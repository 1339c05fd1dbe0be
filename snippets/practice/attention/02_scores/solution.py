import math


def dot(a, b):
    """The dot product from step 1 (given)."""
    return sum(x * y for x, y in zip(a, b))


def scaled_scores(q, keys):
    """Return one score per key: dot(q, key) / √d_k, with d_k = len(q)."""
    scale = math.sqrt(len(q))
    return [dot(q, k) / scale for k in keys]
