"""Projects the first token only: one vector comes back instead of one row per token.

EXPECTED_HINT: project-one-row
"""


def project(x, w):
    row = x[0]
    return [sum(row[k] * w[k][j] for k in range(len(w))) for j in range(len(w[0]))]
