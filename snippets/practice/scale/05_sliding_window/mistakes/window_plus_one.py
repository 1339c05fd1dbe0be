"""Counts the window without the query itself: window + 1 keys, i - window <= j <= i.

EXPECTED_HINT: sw-plus-one
"""


def sliding_window_mask(n, window):
    return [[i - window <= j <= i for j in range(n)] for i in range(n)]
