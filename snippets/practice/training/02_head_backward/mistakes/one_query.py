"""Gives each value the gradient of the first query only, instead of the sum over queries.

EXPECTED_HINT: hb-one-query
"""


def head_backward(p, v, g):
    n_q, n_k, d_v = len(p), len(v), len(v[0])
    grad_p = [[sum(g[i][c] * v[j][c] for c in range(d_v)) for j in range(n_k)] for i in range(n_q)]
    grad_v = [[p[0][j] * g[0][c] for c in range(d_v)] for j in range(n_k)]
    return grad_p, grad_v
