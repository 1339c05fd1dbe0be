"""Compares each token with the ROWS of w (x W^T, or W x with column vectors).

EXPECTED_HINT: project-transposed
"""


def project(x, w):
    return [[sum(a * b for a, b in zip(row, w_row)) for w_row in w] for row in x]
