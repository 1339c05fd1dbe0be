import math

# Nothing is given in this step: write it with plain Python and math.


def adam_step(theta, grad, m, s, t, lr, beta1, beta2, eps):
    """One step of Adam on a list of weights, as the lesson writes it.

    theta, grad, m and s are lists of n numbers: the weights, their gradients, and the
    running means of the gradient (m) and of its square (s) kept from the step before
    (zeros before the first step). t counts the steps from 1. For every entry:
        m = beta1 * m + (1 - beta1) * g
        s = beta2 * s + (1 - beta2) * g ** 2
        theta = theta - lr * (m / (1 - beta1 ** t)) / (sqrt(s / (1 - beta2 ** t)) + eps)
    Return the three new lists (theta, m, s), and leave the lists you were given as they
    were: the caller keeps m and s for the next step.

    adam_step([1.0], [3.0], [0.0], [0.0], 1, 0.1, 0.9, 0.999, 0.0) is about
    ([0.9], [0.3], [0.009]): on the first step the corrected averages are 3 and 9.
    """
    raise NotImplementedError("write adam_step(theta, grad, m, s, t, lr, beta1, beta2, eps)")
