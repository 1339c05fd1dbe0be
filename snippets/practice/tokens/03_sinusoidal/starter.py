import math


def sinusoidal(p, d):
    """The sinusoidal positional vector of position p, d numbers long (d is even).

    Entries come in pairs, one pair per frequency: for i = 0, 1, ..., d/2 - 1,
        entry 2i     is sin(p * w_i)
        entry 2i + 1 is cos(p * w_i)
    with w_i = 1 / 10000 ** (2i / d). Pair 0 turns one radian per position; the last
    pairs turn very slowly.

    sinusoidal(0, 4) is [0.0, 1.0, 0.0, 1.0]; sinusoidal(1, 2) is [sin(1), cos(1)].
    """
    raise NotImplementedError("write sinusoidal(p, d)")
