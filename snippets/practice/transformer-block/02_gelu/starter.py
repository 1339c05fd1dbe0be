import math

# Nothing is given in this step: math.erf, from the standard library, is all you need.


def gelu(x):
    """The exact GELU of one number x, the form all-MiniLM-L6-v2's configuration names.

    GELU(x) = x * Phi(x), where Phi is the standard normal distribution's cumulative
    function, Phi(x) = (1 + erf(x / sqrt(2))) / 2. Return one number.

    gelu(0) is 0.0; gelu(1) is about 0.841345.
    """
    raise NotImplementedError("write gelu(x)")
