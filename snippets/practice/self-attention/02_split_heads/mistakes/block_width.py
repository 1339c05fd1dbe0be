"""Uses num_heads as the width of a block: d / h heads of width h, the other way round.

EXPECTED_HINT: heads-swapped
"""


def split_heads(x, num_heads):
    d = len(x[0])
    if d % num_heads != 0:
        raise ValueError("num_heads must divide the width of x")
    return [[row[i * num_heads : (i + 1) * num_heads] for row in x] for i in range(d // num_heads)]
