"""Adds h to every entry of x at once, so every entry of the answer is the same number.

EXPECTED_HINT: fd-all-entries
"""


def numerical_gradient(f, x, h):
    up = [v + h for v in x]
    down = [v - h for v in x]
    slope = (f(up) - f(down)) / (2 * h)
    return [slope for _ in x]
