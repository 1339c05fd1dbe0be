import math

# Nothing is given in this step: write it with plain Python.


def softmax_backward(p, g):
    """The gradient through softmax, for ONE row of scores.

    p is softmax's output (n numbers, positive, adding up to 1) and g is the gradient of
    the loss with respect to p, dL/dp (n numbers). Return dL/ds, the gradient with
    respect to the scores s that went into softmax (n numbers):
        dL/ds[i] = p[i] * (g[i] - (p[0]*g[0] + p[1]*g[1] + ... + p[n-1]*g[n-1])).

    softmax_backward([0.5, 0.5], [1, 0]) is [0.25, -0.25].
    """
    raise NotImplementedError("write softmax_backward(p, g)")
