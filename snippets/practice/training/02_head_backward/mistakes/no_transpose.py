"""Forgets the transpose in the values' gradient: p g instead of p^T g.

EXPECTED_HINT: hb-no-transpose
"""


def head_backward(p, v, g):
    n_q, n_k, d_v = len(p), len(v), len(v[0])
    grad_p = [[sum(g[i][c] * v[j][c] for c in range(d_v)) for j in range(n_k)] for i in range(n_q)]
    grad_v = [[sum(p[j][i] * g[i][c] for i in range(n_q)) for c in range(d_v)] for j in range(n_k)]
    return grad_p, grad_v
