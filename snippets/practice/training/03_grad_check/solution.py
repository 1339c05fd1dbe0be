def numerical_gradient(f, x, h):
    """Nudge one entry of a copy of x up and down by h; the change of f over 2 h."""
    grad = []
    for i in range(len(x)):
        up, down = list(x), list(x)
        up[i] += h
        down[i] -= h
        grad.append((f(up) - f(down)) / (2 * h))
    return grad
