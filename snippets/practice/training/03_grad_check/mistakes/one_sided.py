"""A one-sided (forward) difference: (f(x + h e_i) - f(x)) / h.

EXPECTED_HINT: fd-one-sided
"""


def numerical_gradient(f, x, h):
    base = f(x)
    grad = []
    for i in range(len(x)):
        up = list(x)
        up[i] += h
        grad.append((f(up) - base) / h)
    return grad
