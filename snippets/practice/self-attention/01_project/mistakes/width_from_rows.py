"""Gives each output row one entry per row of w (d_in) instead of per column (d_out).

EXPECTED_HINT: project-width
"""


def project(x, w):
    out = []
    for row in x:
        out.append([sum(row[k] * w[k][j] for k in range(len(row))) for j in range(len(w))])
    return out
