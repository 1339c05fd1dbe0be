def softmax_backward(p, g):
    """Each weight times how far its own gradient is above the weighted mean gradient."""
    mean = sum(pi * gi for pi, gi in zip(p, g))
    return [pi * (gi - mean) for pi, gi in zip(p, g)]
