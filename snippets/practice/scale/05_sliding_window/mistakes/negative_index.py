"""Sets row[j] for j from i - window + 1 to i: a negative j counts from the END of the
row, so early queries see keys from the future (or the index runs off the row).

EXPECTED_HINT: sw-negative-index
"""


def sliding_window_mask(n, window):
    mask = []
    for i in range(n):
        row = [False] * n
        for j in range(i - window + 1, i + 1):
            row[j] = True
        mask.append(row)
    return mask
