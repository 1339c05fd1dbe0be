import math


def softmax(scores):
    """Turn a list of scores into weights that are positive and add up to 1.

    weights[i] = exp(scores[i]) / (the sum of exp(s) over every score s).
    Make it safe for large scores such as [1000.0, 999.0]: math.exp(1000) overflows.
    """
    raise NotImplementedError("write softmax(scores)")
