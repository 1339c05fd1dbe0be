def weighted_sum(weights, values):
    """Blend the value vectors: weights[j] times values[j], added up over every j.

    The result is one vector as wide as a value. For example
    weighted_sum([0.25, 0.75], [[4, 0], [0, 4]]) is [1.0, 3.0].
    """
    raise NotImplementedError("write weighted_sum(weights, values)")
