"""Takes the central difference but divides by h, not by the 2 h between the two points.

EXPECTED_HINT: fd-no-two
"""


def numerical_gradient(f, x, h):
    grad = []
    for i in range(len(x)):
        up, down = list(x), list(x)
        up[i] += h
        down[i] -= h
        grad.append((f(up) - f(down)) / h)
    return grad
