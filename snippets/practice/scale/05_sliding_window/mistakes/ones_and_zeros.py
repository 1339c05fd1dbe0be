"""Returns 1 and 0 instead of True and False.

EXPECTED_HINT: sw-not-bool
"""


def sliding_window_mask(n, window):
    return [[1 if i - window < j <= i else 0 for j in range(n)] for i in range(n)]
