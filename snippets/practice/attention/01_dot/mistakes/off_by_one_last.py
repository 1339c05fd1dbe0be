"""The range stops one position early: the last pair of entries is never added.

EXPECTED_HINT: dot-off-by-one
"""


def dot(a, b):
    total = 0
    for i in range(len(a) - 1):
        total += a[i] * b[i]
    return total
