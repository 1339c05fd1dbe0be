"""Multiplies x and w entry by entry (numpy's x * w, not x @ w).

EXPECTED_HINT: project-elementwise
"""


def project(x, w):
    return [[a * b for a, b in zip(row, w_row)] for row, w_row in zip(x, w)]
