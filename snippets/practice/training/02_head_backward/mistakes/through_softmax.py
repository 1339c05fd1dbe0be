"""Goes one step too far: passes g v^T back through softmax, giving dL/ds instead of dL/dp.

EXPECTED_HINT: hb-through-softmax
"""


def head_backward(p, v, g):
    n_q, n_k, d_v = len(p), len(v), len(v[0])
    grad_p = []
    for i in range(n_q):
        row = [sum(g[i][c] * v[j][c] for c in range(d_v)) for j in range(n_k)]
        mean = sum(p[i][j] * row[j] for j in range(n_k))
        grad_p.append([p[i][j] * (row[j] - mean) for j in range(n_k)])
    grad_v = [[sum(p[i][j] * g[i][c] for i in range(n_q)) for c in range(d_v)] for j in range(n_k)]
    return grad_p, grad_v
