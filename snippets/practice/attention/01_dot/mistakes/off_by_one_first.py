"""The range starts at 1, as if positions were counted from 1: the first pair is skipped.

EXPECTED_HINT: dot-off-by-one
"""


def dot(a, b):
    total = 0
    for i in range(1, len(a)):
        total += a[i] * b[i]
    return total
