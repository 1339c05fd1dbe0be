import math

# Nothing is given in this step: write it with plain Python and math.


def layer_norm(x, gain, bias, eps):
    """Layer normalisation of ONE token's vector x (a list of d numbers).

    Take the mean of x and its variance (the mean of the squared differences from the
    mean, dividing by d), then normalise every entry: (x[i] - mean) / sqrt(variance + eps).
    Finish with the learned parameters, entry by entry: gain[i] * normalised[i] + bias[i].
    Return a list of d numbers.

    layer_norm([1, 3], [1, 1], [0, 0], 1e-12) is [-1.0, 1.0], to about 12 decimals.
    """
    raise NotImplementedError("write layer_norm(x, gain, bias, eps)")
