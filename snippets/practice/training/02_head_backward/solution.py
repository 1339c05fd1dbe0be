def head_backward(p, v, g):
    """grad_p = g v^T (each query's gradient against each value); grad_v = p^T g."""
    n_q, n_k, d_v = len(p), len(v), len(v[0])
    grad_p = [[sum(g[i][c] * v[j][c] for c in range(d_v)) for j in range(n_k)] for i in range(n_q)]
    grad_v = [[sum(p[i][j] * g[i][c] for i in range(n_q)) for c in range(d_v)] for j in range(n_k)]
    return grad_p, grad_v
