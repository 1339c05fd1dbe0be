import math


def rope(q, p):
    """Rotate a query (or a key) at position p, pair of entries by pair of entries (RoPE).

    q has an even length d. Pair i is (q[2i], q[2i + 1]), for i = 0 .. d/2 - 1; it turns
    counter-clockwise by the angle a = p * w_i, with the frequencies of step 3,
    w_i = 1 / 10000 ** (2i / d):
        new q[2i]     = q[2i] * cos(a) - q[2i + 1] * sin(a)
        new q[2i + 1] = q[2i] * sin(a) + q[2i + 1] * cos(a)
    Return the rotated vector (d numbers).

    rope([1, 0], 1) is [cos(1), sin(1)]; rope(q, 0) is q itself.
    """
    raise NotImplementedError("write rope(q, p)")
