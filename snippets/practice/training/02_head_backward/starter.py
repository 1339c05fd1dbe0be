import math

# Nothing is given in this step: write it with plain Python lists.


def head_backward(p, v, g):
    """The gradients of one attention head's weights and values, where out = p v.

    p is the head's attention weights, n_q rows of n_k numbers (each row adds up to 1);
    v is the values, n_k rows of width d_v; g is dL/d(out), n_q rows of width d_v, the
    gradient that comes from the layers above. Return the pair (grad_p, grad_v):
        grad_p = g v^T, n_q rows of n_k: grad_p[i][j] = g[i][0]*v[j][0] + g[i][1]*v[j][1] + ...
        grad_v = p^T g, n_k rows of d_v: grad_v[j][c] = p[0][j]*g[0][c] + p[1][j]*g[1][c] + ...

    head_backward([[1.0]], [[2.0, 3.0]], [[1.0, 1.0]]) is ([[5.0]], [[1.0, 1.0]]).
    """
    raise NotImplementedError("write head_backward(p, v, g)")
