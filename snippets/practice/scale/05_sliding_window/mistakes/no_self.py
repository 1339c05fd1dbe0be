"""Leaves the query's own key out: i - window < j < i.

EXPECTED_HINT: sw-no-self
"""


def sliding_window_mask(n, window):
    return [[i - window < j < i for j in range(n)] for i in range(n)]
