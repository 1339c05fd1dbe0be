"""Puts the heads one under the other: n * h rows of width d_head.

EXPECTED_HINT: merge-stacked
"""


def merge_heads(heads):
    rows = []
    for head in heads:
        rows.extend(list(row) for row in head)
    return rows
