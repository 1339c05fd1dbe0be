"""A window on both sides, |i - j| < window: the query also sees future keys.

EXPECTED_HINT: sw-symmetric
"""


def sliding_window_mask(n, window):
    return [[abs(i - j) < window for j in range(n)] for i in range(n)]
