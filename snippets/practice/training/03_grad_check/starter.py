import math

# Nothing is given in this step: write it with plain Python.


def numerical_gradient(f, x, h):
    """The gradient of f at x by central finite differences, to check one written by hand.

    f takes a list of numbers and returns one number; x is a list of n numbers; h is
    the step, a small positive number. Entry i of the answer is
        (f(x with h added to entry i) - f(x with h taken from entry i)) / (2 * h).
    Return a list of n numbers, and leave x itself as it was: the checks look at it
    again after the call.

    numerical_gradient(lambda x: x[0] ** 2 + 3 * x[1], [1.0, 2.0], 0.5) is [2.0, 3.0].
    """
    raise NotImplementedError("write numerical_gradient(f, x, h)")
