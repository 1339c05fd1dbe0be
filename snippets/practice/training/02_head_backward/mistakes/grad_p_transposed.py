"""Writes the weights' gradient as v g^T (one row per key), the transpose of g v^T.

EXPECTED_HINT: hb-grad-p-transposed
"""


def head_backward(p, v, g):
    n_q, n_k, d_v = len(p), len(v), len(v[0])
    grad_p = [[sum(v[j][c] * g[i][c] for c in range(d_v)) for i in range(n_q)] for j in range(n_k)]
    grad_v = [[sum(p[i][j] * g[i][c] for i in range(n_q)) for c in range(d_v)] for j in range(n_k)]
    return grad_p, grad_v
