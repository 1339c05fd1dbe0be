"""Nudges x itself in place and never puts the entry back: later entries are measured at a
point that has drifted, and the caller's x comes back changed.

EXPECTED_HINT: fd-not-restored
"""


def numerical_gradient(f, x, h):
    grad = []
    for i in range(len(x)):
        x[i] += h
        up = f(x)
        x[i] -= 2 * h
        down = f(x)
        grad.append((up - down) / (2 * h))
    return grad
